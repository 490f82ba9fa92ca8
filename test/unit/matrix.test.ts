import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildMatrix, verdictOf, type TestOutcome } from '../../report/matrix.ts';
import type { Rule } from '../../lib/rules.ts';
import type { CheckResult } from '../../lib/results.ts';

const rules: Rule[] = [
  { id: 'V2.A', level: 'MUST', surfaces: ['local', 'cloud'], seed: 's', source: 'seed', seed_refs: [], summary: 'a' },
  { id: 'V2.B', level: 'SHOULD', surfaces: ['cloud'], seed: 's', source: 'seed', seed_refs: [], summary: 'b' },
  {
    id: 'V2.C',
    level: 'MUST',
    surfaces: ['cloud'],
    seed: 's',
    source: 'seed',
    seed_refs: [],
    summary: 'c',
    not_covered: 'needs jobs',
  },
  {
    id: 'V2.D',
    level: 'MUST',
    surfaces: ['cloud', 'serverless'],
    seed: 's',
    source: 'seed',
    seed_refs: [],
    summary: 'd',
  },
];
const held = (rule: string): CheckResult => ({ rule, outcome: 'held', what: 'w' });
const broken = (rule: string): CheckResult => ({ rule, outcome: 'broken', what: 'w', expected: 'x', received: 'y' });
const blocked = (rule: string, by?: string[]): CheckResult => ({
  rule,
  outcome: 'blocked',
  what: 'upload refused',
  step: 'create an asset',
  ...(by ? { by } : {}),
});
const base: Pick<TestOutcome, 'title' | 'errors'> = { title: 't', errors: [] };
const run = (outcomes: TestOutcome[]) =>
  buildMatrix({ rules, outcomes, surfacesRun: new Set(['local', 'cloud'] as const), familyRun: () => true });
const cell = (m: ReturnType<typeof run>, id: string, s: 'local' | 'cloud' | 'serverless') =>
  m.rows.find((r) => r.id === id)!.results[s];

test('a cell passes on a check that held; fails on one that broke; a skip and a not-covered rule keep their reasons', () => {
  const m = run([
    { ...base, surface: 'local', status: 'passed', rules: ['V2.A'], results: [held('V2.A')] },
    {
      ...base,
      surface: 'cloud',
      status: 'failed',
      rules: ['V2.A', 'V2.D'],
      results: [broken('V2.A'), blocked('V2.D', ['V2.A'])],
    },
    { ...base, surface: 'cloud', status: 'skipped', rules: ['V2.B'], skipReason: 'not exercised: target gave no key' },
  ]);
  assert.equal(cell(m, 'V2.A', 'local')?.status, 'pass');
  assert.deepEqual(cell(m, 'V2.A', 'local')?.evidence, { held: 1, broken: 0, blocked: 0 });
  assert.equal(cell(m, 'V2.A', 'cloud')?.status, 'fail');
  assert.match(cell(m, 'V2.A', 'cloud')?.reason ?? '', /expected x, received y/);
  assert.equal(cell(m, 'V2.B', 'cloud')?.status, 'skipped');
  assert.equal(cell(m, 'V2.C', 'cloud')?.status, 'not_covered');
  assert.equal(cell(m, 'V2.C', 'cloud')?.reason, 'needs jobs');
  assert.equal(
    cell(m, 'V2.D', 'cloud')?.status,
    'error',
    'a rule whose only test stopped at another rule could not be judged',
  );
  assert.deepEqual(cell(m, 'V2.D', 'cloud')?.blocked_by, ['V2.A']);
  assert.equal(
    cell(m, 'V2.D', 'serverless')?.status,
    'not_run',
    'a surface the run lacks is not part of it, not a skipped rule',
  );
});

test('a passed test that recorded no check of its declared rule gives that rule no pass', () => {
  const m = run([{ ...base, surface: 'local', status: 'passed', rules: ['V2.A'], results: [] }]);
  assert.equal(cell(m, 'V2.A', 'local')?.status, 'not_covered');
  assert.match(cell(m, 'V2.A', 'local')?.reason ?? '', /no check of it ran/);
});

test('a blocked check outranks a partial pass: the cell is an error, not a pass', () => {
  const m = run([
    { ...base, surface: 'cloud', status: 'passed', rules: ['V2.A'], results: [held('V2.A')] },
    { ...base, surface: 'cloud', status: 'failed', rules: ['V2.A'], results: [held('V2.A'), blocked('V2.A')] },
  ]);
  assert.equal(cell(m, 'V2.A', 'cloud')?.status, 'error');
  assert.deepEqual(cell(m, 'V2.A', 'cloud')?.evidence, { held: 2, broken: 0, blocked: 1 });
  assert.match(cell(m, 'V2.A', 'cloud')?.reason ?? '', /create an asset/);
});

test('a "not judged" result alone never makes a pass', () => {
  const m = run([
    {
      ...base,
      surface: 'cloud',
      status: 'passed',
      rules: ['V2.B'],
      results: [{ rule: 'V2.B', outcome: 'not_judged', what: 'the server sent no credits header' }],
    },
  ]);
  assert.equal(cell(m, 'V2.B', 'cloud')?.status, 'skipped');
  assert.match(cell(m, 'V2.B', 'cloud')?.reason ?? '', /not judged: the server sent no credits header/);
});

test('a test that ended without results (a crash) leaves its rules in error, never a conformance failure', () => {
  const m = run([
    { ...base, surface: 'cloud', status: 'failed', rules: ['V2.D'], errors: ['[suite-error] target not reachable'] },
  ]);
  assert.equal(cell(m, 'V2.D', 'cloud')?.status, 'error');
  const v = verdictOf(m, false);
  assert.equal(v.passed, false);
  assert.deepEqual(v.mustFailed, []);
});

test('MUST failures fail the run; SHOULD failures only in strict mode', () => {
  const should = run([{ ...base, surface: 'cloud', status: 'failed', rules: ['V2.B'], results: [broken('V2.B')] }]);
  assert.equal(verdictOf(should, false).passed, true);
  assert.equal(verdictOf(should, true).passed, false);
  const must = run([{ ...base, surface: 'local', status: 'failed', rules: ['V2.A'], results: [broken('V2.A')] }]);
  assert.equal(verdictOf(must, false).passed, false);
});

test('checks that held inside a failing test still count as evidence', () => {
  const m = run([
    { ...base, surface: 'cloud', status: 'failed', rules: ['V2.D'], results: [held('V2.A'), broken('V2.D')] },
  ]);
  assert.equal(cell(m, 'V2.A', 'cloud')?.status, 'pass');
});

test('a run in which no check ran has no pass verdict: nothing was judged', () => {
  const none = run([]);
  const v = verdictOf(none, false);
  assert.equal(v.nothingJudged, true);
  assert.equal(v.passed, false);
  const skippedOnly = run([{ ...base, surface: 'cloud', status: 'skipped', rules: ['V2.B'], skipReason: 'no key' }]);
  assert.equal(verdictOf(skippedOnly, false).passed, false);
});

test('a broken result the catalog cannot place is kept as an error, never dropped', () => {
  const m = run([{ ...base, surface: 'local', status: 'failed', rules: [], results: [broken('V2.B')] }]);
  assert.equal(m.unplaced.length, 1);
  assert.equal(verdictOf(m, false).passed, false);
});

test('a test skipped because its target stopped answering leaves its rule an error naming where, never a skip or a pass', () => {
  const m = run([
    { ...base, surface: 'cloud', status: 'passed', rules: ['V2.A'], results: [held('V2.A')] },
    {
      ...base,
      surface: 'cloud',
      status: 'skipped',
      rules: ['V2.A', 'V2.B'],
      skipReason: 'target stopped answering at GET /api/v2/jobs (3 exchanges in a row got no answer within 1000 ms)',
    },
  ]);
  for (const id of ['V2.A', 'V2.B']) {
    assert.equal(cell(m, id, 'cloud')?.status, 'error', id);
    assert.match(cell(m, id, 'cloud')?.reason ?? '', /^not judged: target stopped answering at GET \/api\/v2\/jobs/);
  }
});
