import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildMatrix, verdictOf, type TestOutcome } from '../../report/matrix.ts';
import type { Rule } from '../../lib/rules.ts';

const rules: Rule[] = [
  { id: 'V2.A', level: 'MUST', surfaces: ['local', 'cloud'], seed: 's', summary: 'a' },
  { id: 'V2.B', level: 'SHOULD', surfaces: ['cloud'], seed: 's', summary: 'b' },
  { id: 'V2.C', level: 'MUST', surfaces: ['cloud'], seed: 's', summary: 'c', not_covered: 'needs jobs' },
  { id: 'V2.D', level: 'MUST', surfaces: ['cloud', 'serverless'], seed: 's', summary: 'd' },
];
const base: Pick<TestOutcome, 'title' | 'checked' | 'errors'> = { title: 't', checked: [], errors: [] };
const run = (outcomes: TestOutcome[]) =>
  buildMatrix({ rules, outcomes, surfacesRun: new Set(['local', 'cloud'] as const), familyRun: () => true });

test('pass, fail with the violated rule, skip with reason, not covered with reason', () => {
  const m = run([
    { ...base, surface: 'local', status: 'passed', rules: ['V2.A'] },
    { ...base, surface: 'cloud', status: 'failed', rules: ['V2.A', 'V2.D'], errors: ['RuleViolation: [rule:V2.A] broke\n  Expected: x'] },
    { ...base, surface: 'cloud', status: 'skipped', rules: ['V2.B'], skipReason: 'not exercised: target gave no key' },
  ]);
  const get = (id: string) => m.rows.find((r) => r.id === id)!.results;
  assert.equal(get('V2.A').local?.status, 'pass');
  assert.equal(get('V2.A').cloud?.status, 'fail');
  assert.match(get('V2.A').cloud?.reason ?? '', /broke/);
  assert.equal(get('V2.B').cloud?.status, 'skipped');
  assert.equal(get('V2.C').cloud?.status, 'not_covered');
  assert.equal(get('V2.C').cloud?.reason, 'needs jobs');
  assert.equal(get('V2.D').cloud?.status, 'error', 'a rule whose only test stopped at another rule could not be judged');
  assert.equal(get('V2.D').serverless?.status, 'skipped', 'a surface the run lacks is skipped with a reason');
});

test('a failure without a rule marker is an error of the suite, never a conformance failure', () => {
  const m = run([{ ...base, surface: 'cloud', status: 'failed', rules: ['V2.D'], errors: ['[suite-error] target not reachable'] }]);
  assert.equal(m.rows.find((r) => r.id === 'V2.D')!.results.cloud?.status, 'error');
  const v = verdictOf(m, false);
  assert.equal(v.passed, false);
  assert.deepEqual(v.mustFailed, []);
});

test('MUST failures fail the run; SHOULD failures only in strict mode', () => {
  const should = run([{ ...base, surface: 'cloud', status: 'failed', rules: ['V2.B'], errors: ['[rule:V2.B] x'] }]);
  assert.equal(verdictOf(should, false).passed, true);
  assert.equal(verdictOf(should, true).passed, false);
  const must = run([{ ...base, surface: 'local', status: 'failed', rules: ['V2.A'], errors: ['[rule:V2.A] x'] }]);
  assert.equal(verdictOf(must, false).passed, false);
});

test('checks that held inside a failing test still count as evidence', () => {
  const m = run([{ ...base, surface: 'cloud', status: 'failed', rules: ['V2.D'], checked: ['V2.A'], errors: ['[rule:V2.D] y'] }]);
  assert.equal(m.rows.find((r) => r.id === 'V2.A')!.results.cloud?.status, 'pass');
});

test('a violation the catalog cannot place is kept as an error, never dropped', () => {
  const m = run([{ ...base, surface: 'local', status: 'failed', rules: [], errors: ['[rule:V2.B] judged where it does not apply'] }]);
  assert.equal(m.unplaced.length, 1);
  assert.equal(verdictOf(m, false).passed, false);
});
