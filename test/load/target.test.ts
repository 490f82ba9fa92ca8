import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { isLoopback, LoadSafetyError, openTarget } from '../../load/target.ts';

function targetsFile(body: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'load-targets-'));
  const file = path.join(dir, 'targets.yaml');
  writeFileSync(file, body);
  return file;
}

test('loopback addresses are recognised; anything else is remote', () => {
  assert.ok(isLoopback('http://127.0.0.1:8189'));
  assert.ok(isLoopback('http://localhost:1/x'));
  assert.ok(isLoopback('http://[::1]:80'));
  assert.ok(!isLoopback('https://cloud.example.invalid'));
  assert.ok(!isLoopback('http://10.0.0.1'));
});

test('a non-loopback target is refused unless its targets.yaml entry opts in with its own ceilings', async () => {
  await assert.rejects(
    openTarget('router', { TARGET_SURFACE: 'router', TARGET_BASE_URL: 'https://router.example.invalid' }),
    LoadSafetyError,
  );
  const plain = targetsFile('targets:\n  far:\n    surface: router\n    base_url: https://router.example.invalid\n');
  await assert.rejects(openTarget('router', { TARGET: 'far', TARGETS_FILE: plain }), /not a loopback address/);
  const half = targetsFile(
    'targets:\n  far:\n    surface: router\n    base_url: https://router.example.invalid\n    load: {allow: true}\n',
  );
  await assert.rejects(openTarget('router', { TARGET: 'far', TARGETS_FILE: half }), /max_rate/);
  const opted = targetsFile(
    'targets:\n  far:\n    surface: router\n    base_url: https://router.example.invalid\n    load: {allow: true, max_rate: 25, max_duration_s: 30}\n',
  );
  const t = await openTarget('router', { TARGET: 'far', TARGETS_FILE: opted });
  assert.deepEqual([t.ceiling.maxRate, t.ceiling.maxDurationS], [25, 30]);
  await t.close();
});

test("a loopback ad-hoc target needs no opt-in; a fault cannot be switched on in someone else's server", async () => {
  const t = await openTarget('router', { TARGET_SURFACE: 'router', TARGET_BASE_URL: 'http://127.0.0.1:9' });
  assert.equal(t.embedded, false);
  await t.close();
  await assert.rejects(
    openTarget('router', { TARGET_SURFACE: 'router', TARGET_BASE_URL: 'http://127.0.0.1:9' }, 'load-limiter-double'),
    /embedded reference/,
  );
});
