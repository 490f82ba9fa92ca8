// The preflight's static half: a mistake in the targets file is named as that mistake,
// without echoing a secret, before anything is sent.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { resolveTarget, TargetConfigError } from '../../lib/targets.ts';
import { looksLikeSecret } from '../../lib/target-checks.ts';
import { targetsFileText } from '../../cli/init.ts';
import { SURFACES } from '../../lib/families.ts';

function file(text: string): string {
  const p = path.join(mkdtempSync(path.join(os.tmpdir(), 'targets-')), 'targets.yaml');
  writeFileSync(p, text);
  return p;
}

const KEY = 'comfyui-3f9a8c7e6d5b4a39';
const refused = (pattern: RegExp) => (e: Error) => {
  assert.ok(e instanceof TargetConfigError, String(e));
  assert.match(e.message, pattern);
  assert.ok(!e.message.includes(KEY), `the message never shows the secret: ${e.message}`);
  return true;
};

test('a literal secret in the file is refused with the reason, never used', () => {
  const f = file(`targets:\n  t:\n    surface: cloud\n    base_url: https://c.example\n    token: ${KEY}\n`);
  assert.throws(
    () => resolveTarget({ TARGETS_FILE: f, TARGET: 't' }),
    refused(/targets\.t\.token holds a literal credential.*token_env/),
  );
  const g = file(
    `targets:\n  t:\n    surface: cloud\n    base_url: https://c.example\n    scenario:\n      other_account_token: ${KEY}\n`,
  );
  assert.throws(
    () => resolveTarget({ TARGETS_FILE: g, TARGET: 't' }),
    refused(/scenario\.other_account_token holds a literal credential/),
  );
});

test('a key pasted into token_env is refused without echoing it', () => {
  const f = file(`targets:\n  t:\n    surface: cloud\n    base_url: https://c.example\n    token_env: ${KEY}\n`);
  assert.throws(
    () => resolveTarget({ TARGETS_FILE: f, TARGET: 't' }),
    refused(/token_env must name an environment variable, but its value looks like a credential/),
  );
  assert.equal(looksLikeSecret('CLOUD_API_KEY'), false);
  assert.equal(looksLikeSecret('sk_live_4eC39HqLyjWDarjtT1zdp7dc'), true);
});

test('token_env naming an unset variable stops the run; an unset scenario variable is a notice', () => {
  const f = file(
    `targets:\n  t:\n    surface: cloud\n    base_url: https://c.example\n    token_env: MY_KEY\n    scenario:\n      other_account_token_env: MY_OTHER\n`,
  );
  assert.throws(
    () => resolveTarget({ TARGETS_FILE: f, TARGET: 't' }),
    refused(/targets\.t\.token_env names \$MY_KEY, which is not set/),
  );
  const t = resolveTarget({ TARGETS_FILE: f, TARGET: 't', MY_KEY: 'k' });
  assert.deepEqual(t.notices, [
    'targets.t.scenario.other_account_token_env: $MY_OTHER is not set, so checks that need other_account_token are skipped',
  ]);
});

test('a base URL without scheme is named as such, not reported unreachable', () => {
  const f = file(`targets:\n  t:\n    surface: local\n    base_url: localhost:8189\n`);
  assert.throws(
    () => resolveTarget({ TARGETS_FILE: f, TARGET: 't' }),
    refused(/"localhost:8189" has no http:\/\/ or https:\/\/ scheme; did you mean http:\/\/localhost:8189/),
  );
  assert.throws(
    () => resolveTarget({ TARGET_SURFACE: 'local', TARGET_BASE_URL: '127.0.0.1:8189' }),
    refused(/TARGET_BASE_URL "127\.0\.0\.1:8189" is not a URL/),
  );
});

test('a YAML error names the file', () => {
  const f = file('targets:\n  x: [\n');
  assert.throws(
    () => resolveTarget({ TARGETS_FILE: f, TARGET: 'x' }),
    (e: Error) => e instanceof TargetConfigError && e.message.startsWith(`${f} is not valid YAML: `),
  );
});

test('TARGET=reference follows REFERENCE_PORT, as the embedded reference does', () => {
  const t = resolveTarget({ TARGET: 'reference', REFERENCE_PORT: '31000' });
  assert.equal(t.embedded, false);
  assert.deepEqual(t.surfaces.map((s) => s.baseUrl).slice(0, 3), [
    'http://127.0.0.1:31000',
    'http://127.0.0.1:31001',
    'http://127.0.0.1:31002/deployment/dep-ready',
  ]);
  assert.deepEqual(resolveTarget({ TARGET: 'reference' }).surfaces[0].baseUrl, 'http://127.0.0.1:18189');
});

test('TARGET_SURFACE alone narrows the embedded reference; TARGET_TOKEN then replaces its credential', () => {
  const t = resolveTarget({ TARGET_SURFACE: 'cloud', TARGET_TOKEN: 'comfyui-wrong', REFERENCE_PORT: '31000' });
  assert.equal(t.embedded, true);
  assert.deepEqual(
    t.surfaces.map((s) => [s.surface, s.token, s.tokenSource]),
    [['cloud', 'comfyui-wrong', '$TARGET_TOKEN']],
  );
});

test('the recipe of a target holds the entry as written and the variable names, never a value', () => {
  const t = resolveTarget({ REFERENCE_PORT: '31000' });
  const text = JSON.stringify(t.recipe);
  for (const secret of t.secrets) assert.ok(!text.includes(secret));
  assert.ok(t.recipe.variables.includes('REFERENCE_CLOUD_KEY'));
});

test('init writes, for every surface, a file the next run accepts', () => {
  for (const surface of SURFACES) {
    const f = file(targetsFileText(surface, 'mine', 'http://127.0.0.1:9'));
    const t = resolveTarget({ TARGETS_FILE: f, TARGET: 'mine', [`${surface.toUpperCase()}_API_KEY`]: 'k-123' });
    assert.equal(t.surfaces[0].surface, surface);
    assert.equal(t.surfaces[0].token, surface === 'local' ? undefined : 'k-123');
  }
});
