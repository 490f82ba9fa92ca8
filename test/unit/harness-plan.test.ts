// The self-test harness's plan (test/support/harness/plan.ts): a test several cases select
// runs once per case, in as many rounds of its project as the most cases one test serves,
// round r of a test serving its r-th case; every selected (test, case) pair runs exactly once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { planRun, type CaseSpec } from '../support/harness/plan.ts';
import { testKey, type ListedTest, type SpecMap } from '../support/spec-map.ts';

const t = (file: string, title: string, rules: string[] = []): ListedTest => ({ file, titles: ['Area', title], rules });
const a1 = t('specs/v2/a.spec.ts', 'one', ['V2.X']);
const a2 = t('specs/v2/a.spec.ts', 'two', ['V2.X', 'V2.Y']);
const b1 = t('specs/v2/b.spec.ts', 'three', ['V2.Y']);
const map = {
  projects: new Map([
    ['v2-local', { family: 'v2', surface: 'local' }],
    ['v2-cloud', { family: 'v2', surface: 'cloud' }],
  ]),
} as unknown as SpecMap;
const kase = (id: string, tests: Record<string, ListedTest[]>): CaseSpec => ({
  id,
  fault: id,
  tests: new Map(Object.entries(tests)),
});

test('rounds: as many as the most cases one test serves, each holding exactly the tests that serve more', () => {
  const plan = planRun(
    [
      kase('x', { 'v2-local': [a1, a2] }),
      kase('y', { 'v2-local': [a2, b1] }),
      kase('z', { 'v2-local': [a2], 'v2-cloud': [b1] }),
    ],
    map,
    '/w',
  );
  const byName = Object.fromEntries(plan.projects.map((p) => [p.name, p]));
  assert.deepEqual(Object.keys(byName).sort(), ['v2-cloud~1', 'v2-local~1', 'v2-local~2', 'v2-local~3']);
  assert.deepEqual(
    byName['v2-local~1'].tests.map((x) => x.titles[1]),
    ['one', 'two', 'three'],
  );
  assert.deepEqual(
    byName['v2-local~2'].tests.map((x) => x.titles[1]),
    ['two'],
  );
  assert.deepEqual(byName['v2-local~2'].files, ['specs/v2/a.spec.ts']);
  assert.deepEqual(
    byName['v2-local~3'].tests.map((x) => x.titles[1]),
    ['two'],
  );
  const key = (x: ListedTest) => testKey(x.file, x.titles);
  assert.deepEqual(
    [1, 2, 3].map((r) => plan.assignment[`v2-local~${r}`][key(a2)]),
    ['x', 'y', 'z'],
    'round r of a test serves its r-th case',
  );
  assert.equal(plan.assignment['v2-local~1'][key(b1)], 'y');
  assert.equal(plan.assignment['v2-cloud~1'][key(b1)], 'z');
  // Every (test, case) pair once, and each case knows how many tests it has.
  const pairs = Object.entries(plan.assignment).flatMap(([p, m]) =>
    Object.entries(m).map(([k, c]) => `${p.split('~')[0]}|${k}|${c}`),
  );
  assert.equal(new Set(pairs).size, pairs.length);
  assert.deepEqual(
    plan.cases.map((c) => [c.id, c.tests]),
    [
      ['x', 2],
      ['y', 2],
      ['z', 2],
    ],
  );
});

test('projects run largest first, and a project of many tests gets a second worker', () => {
  const many = Array.from({ length: 90 }, (_, i) => t('specs/v2/c.spec.ts', `t${i}`));
  const plan = planRun([kase('big', { 'v2-cloud': many }), kase('small', { 'v2-local': [a1] })], map, '/w');
  assert.deepEqual(
    plan.projects.map((p) => [p.name, p.workers]),
    [
      ['v2-cloud~1', 2],
      ['v2-local~1', 1],
    ],
  );
});

test('a case given twice is refused', () => {
  assert.throws(() => planRun([kase('x', {}), kase('x', {})], map, '/w'), /given twice/);
});
