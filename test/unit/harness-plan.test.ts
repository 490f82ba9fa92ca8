// The self-test harness's plan (test/support/harness/plan.ts): a test several cases select
// runs once per case, from as many copies of its spec file in its one project, copy r of a
// test serving its r-th case; every selected (test, case) pair runs exactly once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { originalOf, planRun, roundCopy, type CaseSpec } from '../support/harness/plan.ts';
import { repointImports } from '../support/harness/copies.ts';
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

test('one project per suite project; a test runs from one copy of its spec file per case it serves', () => {
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
  assert.deepEqual(Object.keys(byName).sort(), ['v2-cloud', 'v2-local']);
  assert.deepEqual(
    byName['v2-local'].tests.map((x) => `${x.file} ${x.titles[1]}`),
    [
      'r1/v2/a.spec.ts one',
      'r1/v2/a.spec.ts two',
      'r2/v2/a.spec.ts two',
      'r3/v2/a.spec.ts two',
      'r1/v2/b.spec.ts three',
    ],
  );
  assert.deepEqual(byName['v2-local'].files, [
    'r1/v2/a.spec.ts',
    'r1/v2/b.spec.ts',
    'r2/v2/a.spec.ts',
    'r3/v2/a.spec.ts',
  ]);
  assert.equal(plan.copyDir, '/w/specs');
  assert.equal(originalOf(plan, 'r3/v2/a.spec.ts'), 'specs/v2/a.spec.ts');
  assert.throws(() => originalOf(plan, 'r4/v2/a.spec.ts'), /no copy/);
  const key = (r: number, x: ListedTest) => testKey(roundCopy(x.file, r), x.titles);
  assert.deepEqual(
    [1, 2, 3].map((r) => plan.assignment['v2-local'][key(r, a2)]),
    ['x', 'y', 'z'],
    'copy r of a test serves its r-th case',
  );
  assert.equal(plan.assignment['v2-local'][key(1, b1)], 'y');
  assert.equal(plan.assignment['v2-cloud'][key(1, b1)], 'z');
  // Every (test, case) pair once, and each case knows how many tests it has.
  const pairs = Object.entries(plan.assignment).flatMap(([p, m]) =>
    Object.entries(m).map(([k, c]) => `${p}|${k.replace(/^r\d+\//, '')}|${c}`),
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

test("a copy's relative imports reach the modules its spec file's do", () => {
  const source = [
    "import { test } from '../../fixtures/test.ts';",
    "import { check } from '../../lib/check.ts';",
    "import fc from 'fast-check';",
    "const later = await import('./helper.ts');",
  ].join('\n');
  assert.equal(
    repointImports(source, '/repo/specs/v2', '/tmp/run/specs/r2/v2'),
    [
      "import { test } from '../../../../../repo/fixtures/test.ts';",
      "import { check } from '../../../../../repo/lib/check.ts';",
      "import fc from 'fast-check';",
      "const later = await import('../../../../../repo/specs/v2/helper.ts');",
    ].join('\n'),
  );
});

test('projects run largest first, and a project of many tests gets a second worker', () => {
  const many = Array.from({ length: 90 }, (_, i) => t('specs/v2/c.spec.ts', `t${i}`));
  const plan = planRun([kase('big', { 'v2-cloud': many }), kase('small', { 'v2-local': [a1] })], map, '/w');
  assert.deepEqual(
    plan.projects.map((p) => [p.name, p.workers]),
    [
      ['v2-cloud', 2],
      ['v2-local', 1],
    ],
  );
});

// The controls' last run (the members a stack did not vouch for, alone) once held only a
// project whose test list was empty: Playwright refused its zero workers and the run wrote nothing.
test('a project no case has a test in is left out of the run, not given zero workers', () => {
  const plan = planRun([kase('x', { 'v2-local': [a1], 'v2-cloud': [] })], map, '/w');
  assert.deepEqual(
    plan.projects.map((p) => [p.name, p.workers]),
    [['v2-local', 1]],
  );
  assert.deepEqual(planRun([kase('y', { 'v2-cloud': [] })], map, '/w').projects, []);
});

test('a case given twice is refused', () => {
  assert.throws(() => planRun([kase('x', {}), kase('x', {})], map, '/w'), /given twice/);
});
