// One rule identity: lib/rule-ids.ts is the catalog's ids as a type, so a check naming
// an unknown rule fails type checking; the type check itself runs here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { ruleIdsSource } from '../../scripts/gen-rule-ids.mjs';

const ROOT = path.resolve(import.meta.dirname, '../..');

test('lib/rule-ids.ts lists exactly the ids of contracts/rules.yaml (npm run rules:types regenerates it)', () => {
  const want = ruleIdsSource(readFileSync(path.join(ROOT, 'contracts/rules.yaml'), 'utf8'));
  assert.equal(readFileSync(path.join(ROOT, 'lib/rule-ids.ts'), 'utf8'), want);
});

test('the project type-checks: every rule a check names is in the catalog', () => {
  const tsc = path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
  const run = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.json', '--noEmit'], { cwd: ROOT, encoding: 'utf8' });
  assert.equal(run.status, 0, `tsc failed:\n${run.stdout}${run.stderr}`.slice(0, 4000));
});
