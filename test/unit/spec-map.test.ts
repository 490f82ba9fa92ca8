import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { buildSpecMap, OVERRIDES, selectionFor } from '../support/spec-map.ts';
import { SUITE_FAULTS } from '../../reference/faults.ts';
import { loadRules } from '../../lib/rules.ts';
import type { Surface } from '../../lib/families.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const map = buildSpecMap(ROOT);
const all = new Set<Surface>(['local', 'cloud', 'serverless', 'router', 'registry']);

test('a rule named in a spec maps to that spec, on the surfaces the rule applies to', () => {
  const sel = selectionFor('V2.JOB.LABELS_EXACT', all, { root: ROOT, map });
  assert.ok(sel.files.includes('specs/v2/jobs.spec.ts'), sel.why);
  assert.ok(!sel.files.includes('specs/v2/assets.spec.ts'));
  const surfaces = loadRules().get('V2.JOB.LABELS_EXACT')!.surfaces;
  assert.deepEqual(sel.projects, surfaces.filter((s) => ['local', 'cloud', 'serverless'].includes(s)).map((s) => `--project=v2-${s}`));
});

test('a spec naming the rule itself wins over specs that only reach it through a helper', () => {
  // V2.JOB.POLL_FIRST is named by jobs.spec.ts and checked inside fixtures/v2/jobs.ts, which flow.spec.ts imports.
  const map2 = buildSpecMap(ROOT);
  assert.ok(map2.viaHelpers.get('V2.JOB.POLL_FIRST')?.includes('specs/v2/flow.spec.ts'));
  const sel = selectionFor('V2.JOB.POLL_FIRST', all, { root: ROOT, map });
  assert.deepEqual(sel.files, ['specs/v2/jobs.spec.ts'], sel.why);
});

test('a rule no spec names itself maps to the specs importing the helper that checks it', () => {
  // Every v2 rule is named by some spec today, so the map is the real one with V2.ASSET.CREATE's
  // own names removed: what is left is the helper (createAsset in fixtures/v2/assets.ts).
  assert.ok(map.viaHelpers.get('V2.ASSET.CREATE')?.includes('specs/v2/assets.spec.ts'));
  const named = new Map(map.named);
  named.delete('V2.ASSET.CREATE');
  const sel = selectionFor('V2.ASSET.CREATE', all, { root: ROOT, map: { ...map, named } });
  assert.ok(sel.files.includes('specs/v2/assets.spec.ts') && !sel.files.some((f) => f.startsWith('specs/router/')), sel.why);
  assert.match(sel.why, /through a helper/);
});

test('a rule judged only by the always-on checks, which no test declares or names, falls back to the whole family', () => {
  // Every such rule is declared by a test today, so the map is the real one with its declarations removed.
  assert.ok(map.alwaysOn.has('ROUTER.HEADER.RETRY_AFTER'));
  const [declared, named] = [new Map(map.declared), new Map(map.named)];
  declared.delete('ROUTER.HEADER.RETRY_AFTER');
  named.delete('ROUTER.HEADER.RETRY_AFTER');
  const sel = selectionFor('ROUTER.HEADER.RETRY_AFTER', all, { root: ROOT, map: { ...map, declared, named } });
  assert.deepEqual(sel.files, []);
  assert.deepEqual(sel.projects, ['--project=router']);
});

test('surfaces the target lacks get no project; a rule with none left is refused', () => {
  const sel = selectionFor('V2.JOB.LABELS_EXACT', new Set<Surface>(['cloud']), { root: ROOT, map });
  assert.deepEqual(sel.projects, ['--project=v2-cloud']);
  assert.throws(() => selectionFor('ROUTER.HEADER.RETRY_AFTER', new Set<Surface>(['cloud']), { root: ROOT, map }), /applies to no surface/);
});

test('every suite fault has a selection, and every mapped file exists', () => {
  for (const fault of SUITE_FAULTS) {
    const sel = selectionFor(fault.rule, all, { root: ROOT, fault: fault.name, map });
    assert.ok(sel.projects.length > 0, fault.name);
    for (const f of sel.files) assert.ok(existsSync(path.join(ROOT, f)), `${fault.name}: ${f}`);
  }
});

test('overrides name real faults and real spec files', () => {
  const names = new Set(SUITE_FAULTS.map((f) => f.name));
  for (const [fault, o] of Object.entries(OVERRIDES)) {
    assert.ok(names.has(fault), `override for unknown fault ${fault}`);
    assert.ok(o.why.length > 10, `override for ${fault} says why`);
    if (o.files !== 'family') for (const f of o.files) assert.ok(existsSync(path.join(ROOT, f)), `${fault}: ${f}`);
  }
});

test('a rule declared by a test is run on the tests that declare it, though the typed rule catalog every spec imports names every rule (`import type` loads nothing)', () => {
  assert.ok(!map.alwaysOn.has('V2.ASSET.DEDUP'), 'not judged on every answer');
  const sel = selectionFor('V2.ASSET.DEDUP', all, { root: ROOT, map });
  assert.equal(sel.tag, '@V2.ASSET.DEDUP', sel.why);
  assert.ok(map.alwaysOn.size < loadRules().size / 2, `${map.alwaysOn.size} rules look judged on every answer`);
});

test('a rule judged on every answer that a test declares is run on the tests that declare it: they are written to provoke it', () => {
  assert.ok(map.alwaysOn.has('V2.ERR.RETRY_AFTER'));
  const sel = selectionFor('V2.ERR.RETRY_AFTER', all, { root: ROOT, map });
  assert.equal(sel.tag, '@V2.ERR.RETRY_AFTER', sel.why);
  assert.deepEqual(sel.files, ['specs/v2/errors.spec.ts']);
  // An override still widens it, to the files it names, for every test in them.
  const widened = selectionFor('V2.ERR.ORG_ID_ONLY_SSO', all, { root: ROOT, fault: 'org-id-on-unauthorized', map });
  assert.equal(widened.tag, undefined);
  assert.ok(widened.files.includes('specs/v2/auth.spec.ts'), widened.why);
});
