import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { resolveTarget, TargetConfigError } from '../../lib/targets.ts';
import { CLOUD_KEYS } from '../../reference/accounts.ts';

function file(text: string): string {
  const p = path.join(mkdtempSync(path.join(os.tmpdir(), 'targets-')), 'targets.yaml');
  writeFileSync(p, text);
  return p;
}

test('no target means the embedded reference, every surface on ports from REFERENCE_PORT', () => {
  const t = resolveTarget({ REFERENCE_PORT: '30000' });
  assert.equal(t.embedded, true);
  assert.deepEqual(t.surfaces.map((s) => [s.surface, s.baseUrl]).slice(0, 3), [
    ['local', 'http://127.0.0.1:30000'],
    ['cloud', 'http://127.0.0.1:30001'],
    ['serverless', 'http://127.0.0.1:30002/deployment/dep-ready'],
  ]);
  const serverless = t.surfaces.find((s) => s.surface === 'serverless')!;
  assert.equal(serverless.scenario.stopped_base_url, 'http://127.0.0.1:30002/deployment/dep-stopped', 'scenario URLs move with the reference');
  const cloud = t.surfaces.find((s) => s.surface === 'cloud')!;
  assert.equal(cloud.token, CLOUD_KEYS.alice);
  assert.equal(cloud.scenario.other_account_token, CLOUD_KEYS.bob);
  assert.equal(cloud.capabilities.retention, true);
  assert.ok(t.secrets.includes(CLOUD_KEYS.tiny), 'development keys are redacted too');
});

test('an ad-hoc target comes from TARGET_SURFACE, TARGET_BASE_URL and TARGET_TOKEN', () => {
  const t = resolveTarget({ TARGET_SURFACE: 'local', TARGET_BASE_URL: 'http://127.0.0.1:8189/', TARGET_TOKEN: 'tok-123456789' });
  assert.equal(t.embedded, false);
  assert.deepEqual(t.surfaces.map((s) => [s.surface, s.baseUrl, s.token]), [['local', 'http://127.0.0.1:8189', 'tok-123456789']]);
  assert.deepEqual(t.secrets, ['tok-123456789']);
});

test('TARGET picks a named entry; credentials come from the variables it names', () => {
  const f = file(`targets:\n  mine:\n    surface: cloud\n    base_url: https://c.example\n    token_env: MY_KEY\n    scenario:\n      other_account_token_env: MY_OTHER\n`);
  const t = resolveTarget({ TARGETS_FILE: f, TARGET: 'mine', MY_KEY: 'comfyui-aaaa' });
  const s = t.surfaces[0]!;
  assert.equal(s.token, 'comfyui-aaaa');
  assert.equal(s.scenario.other_account_token, undefined, 'an unset variable leaves the scenario input absent (checks skip with a reason)');
  assert.equal(s.brand, 'Comfy');
});

test('configuration mistakes are named clearly', () => {
  assert.throws(() => resolveTarget({ TARGET: 'nope' }), (e: Error) => e instanceof TargetConfigError && /not in .*known: reference/.test(e.message));
  assert.throws(() => resolveTarget({ TARGET_SURFACE: 'mars', TARGET_BASE_URL: 'http://x' }), /not one of/);
  assert.throws(() => resolveTarget({ TARGET_BASE_URL: 'http://x' }), /needs both/);
  assert.throws(() => resolveTarget({ TARGETS_FILE: '/nonexistent/t.yaml', TARGET: 'x' }), /cannot read targets file/);
});

test('TARGET_SURFACE narrows a multi-surface entry to one surface', () => {
  const t = resolveTarget({ TARGET: 'reference', TARGET_SURFACE: 'cloud' });
  assert.deepEqual(t.surfaces.map((s) => s.surface), ['cloud']);
  assert.equal(t.embedded, false, 'TARGET=reference uses a reference started separately');
});
