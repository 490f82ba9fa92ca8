// A recording and its replay draw the same test data: the random sources the suite draws from
// (randomUUID, randomBytes, Math.random) repeat themselves under one seed, so a replayed request
// is the recorded one byte for byte. randomInt is left alone (the HTTP client draws multipart
// boundaries with it, which a replay never does), so the suite itself never imports it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { execSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { freshNumber, seedRandomness } from '../../lib/seeded-random.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

function draw(): unknown[] {
  return [crypto.randomUUID(), crypto.randomBytes(8).toString('hex'), freshNumber(), Math.random()];
}

test('under one seed, randomUUID, randomBytes, freshNumber and Math.random draw the same values again; another seed draws others', () => {
  const saved = { uuid: crypto.randomUUID, bytes: crypto.randomBytes, random: Math.random };
  try {
    seedRandomness('seed-a:test');
    const first = draw();
    seedRandomness('seed-a:test');
    assert.deepEqual(draw(), first);
    seedRandomness('seed-b:test');
    assert.notDeepEqual(draw(), first);
    for (let i = 0; i < 200; i++) {
      const n = freshNumber();
      assert.ok(Number.isInteger(n) && n >= 0 && n < 0x1000000, String(n));
    }
  } finally {
    const c = crypto as unknown as Record<string, unknown>;
    [c.randomUUID, c.randomBytes, Math.random] = [saved.uuid, saved.bytes, saved.random];
  }
});

test('the code that builds requests (lib, specs, fixtures) draws no randomInt, which a replay does not repeat', () => {
  const files = execSync('git ls-files lib specs fixtures', { cwd: ROOT, encoding: 'utf8' })
    .split('\n')
    .filter((f) => f.endsWith('.ts'));
  const using = files.filter((f) =>
    /\brandomInt\b/.test(readFileSync(path.join(ROOT, f), 'utf8').replace(/\/\/.*$/gm, '')),
  );
  assert.deepEqual(using, []);
});
