// The fault matrix's rounds (test/support/batch/rounds.ts): cases share a project only
// when no test could belong to two of them, and a test is matched to its case the same
// way by the fixtures and the batch reporter (fixtures/reference-cases.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { planRounds } from '../support/batch/rounds.ts';
import type { PlannedCase } from '../support/batch/plan.ts';
import type { SpecMap } from '../support/spec-map.ts';
import { casesOf } from '../../fixtures/reference-cases.ts';

const map = {
  specs: new Map([['v2', ['specs/v2/a.spec.ts', 'specs/v2/b.spec.ts']]]),
  declarations: new Map([
    ['specs/v2/a.spec.ts', [['V2.X'], ['V2.Y', 'V2.Z']]],
    ['specs/v2/b.spec.ts', [['V2.W']]],
  ]),
} as unknown as SpecMap;
let port = 20000;
const kase = (id: string, files: string[], tag?: string): PlannedCase => ({ id, projects: [{ family: 'v2', surface: 'local' }], files, ...(tag ? { tag } : {}), portBase: (port += 10) });
const rounds = (...cases: PlannedCase[]) => planRounds(cases, map, '/root').map((p) => p.cases.map((c) => c.id));

test('faults of different rules on one spec file share a project when no test declares both', () => {
  assert.deepEqual(rounds(kase('x', ['specs/v2/a.spec.ts'], '@V2.X'), kase('y', ['specs/v2/a.spec.ts'], '@V2.Y')), [['x', 'y']]);
});

test('faults a test could serve twice go to different rounds: same rule, rules one test declares together, or whole files', () => {
  assert.deepEqual(rounds(kase('x1', ['specs/v2/a.spec.ts'], '@V2.X'), kase('x2', ['specs/v2/a.spec.ts'], '@V2.X')), [['x1'], ['x2']]);
  assert.deepEqual(rounds(kase('y', ['specs/v2/a.spec.ts'], '@V2.Y'), kase('z', ['specs/v2/a.spec.ts'], '@V2.Z')), [['y'], ['z']]);
  assert.deepEqual(rounds(kase('x', ['specs/v2/a.spec.ts'], '@V2.X'), kase('file', ['specs/v2/a.spec.ts'])), [['x'], ['file']]);
  assert.deepEqual(rounds(kase('family', []), kase('w', ['specs/v2/b.spec.ts'], '@V2.W')), [['family'], ['w']]);
});

test('faults on different spec files share a project whatever they select', () => {
  assert.deepEqual(rounds(kase('file', ['specs/v2/a.spec.ts']), kase('w', ['specs/v2/b.spec.ts'], '@V2.W')), [['file', 'w']]);
});

test('a test belongs to the cases whose files and tag select it, and to no other', () => {
  const cases = [
    { id: 'x', portBase: 1, files: ['/r/a.spec.ts'], tag: '@V2.X' },
    { id: 'file', portBase: 2, files: ['/r/b.spec.ts'] },
    { id: 'all', portBase: 3, files: [] },
  ];
  assert.deepEqual(casesOf(cases, '/r/a.spec.ts', ['@V2.X']).map((c) => c.id), ['x', 'all']);
  assert.deepEqual(casesOf(cases, '/r/a.spec.ts', ['@V2.Y']).map((c) => c.id), ['all']);
  assert.deepEqual(casesOf(cases, '/r/b.spec.ts', []).map((c) => c.id), ['file', 'all']);
  assert.deepEqual(casesOf(cases.slice(0, 2), '/r/c.spec.ts', ['@V2.X']).map((c) => c.id), []);
});
