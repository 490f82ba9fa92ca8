// One rule identity: lib/rule-ids.ts (the catalog's ids as a type, so a check or a fault
// naming an unknown rule fails type checking) and lib/rule-catalog.ts (every rule as a
// typed object) are generated from contracts/rules.yaml; the type check itself runs here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { ruleTypeSources } from '../../scripts/gen-rule-types.ts';
import { loadRules, parseRules, rule, RULES_FILE } from '../../lib/rules.ts';
import { RULE_IDS } from '../../lib/rule-ids.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

test('lib/rule-ids.ts and lib/rule-catalog.ts are generated from the current contracts/rules.yaml (npm run rules:types regenerates them)', () => {
  const want = ruleTypeSources(readFileSync(path.join(ROOT, 'contracts/rules.yaml'), 'utf8'));
  assert.deepEqual(Object.keys(want).sort(), ['lib/rule-catalog.ts', 'lib/rule-ids.ts']);
  for (const [file, text] of Object.entries(want))
    assert.equal(readFileSync(path.join(ROOT, file), 'utf8'), text, `${file} is stale: run npm run rules:types`);
});

test('the typed catalog holds every rule as the YAML states it, and the run reads that catalog', () => {
  const parsed = new Map(parseRules(readFileSync(RULES_FILE, 'utf8'), RULES_FILE).map((r) => [r.id, r]));
  assert.deepEqual([...RULE_IDS], [...parsed.keys()]);
  for (const id of RULE_IDS) assert.deepEqual({ ...rule(id) }, { ...parsed.get(id)! }, id);
  const loaded = loadRules();
  assert.deepEqual([...loaded.keys()], [...parsed.keys()]);
  for (const [id, r] of parsed) assert.deepEqual(loaded.get(id), r, id);
});

test('the project type-checks: every rule a check names is in the catalog', () => {
  const tsc = path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
  const run = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.json', '--noEmit'], { cwd: ROOT, encoding: 'utf8' });
  assert.equal(run.status, 0, `tsc failed:\n${run.stdout}${run.stderr}`.slice(0, 4000));
});
