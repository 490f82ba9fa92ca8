import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyBaseline, parseBaseline, verdictWithBaseline } from '../../report/baseline.ts';
import { verdictOf, type Matrix, type RuleRow } from '../../report/matrix.ts';
import { toMarkdown } from '../../report/markdown.ts';
import type { ConformanceReport } from '../../report/report.ts';

const row = (id: string, level: RuleRow['level'], results: RuleRow['results']): RuleRow => ({
  id,
  level,
  summary: id,
  seed: 's',
  seed_refs: [],
  source: 'seed',
  results,
});
const rows: RuleRow[] = [
  row('V2.A', 'MUST', { local: { status: 'fail', reason: 'broke' }, cloud: { status: 'pass' } }),
  row('V2.B', 'SHOULD', { cloud: { status: 'fail', reason: 'broke' } }),
  row('V2.C', 'MUST', { local: { status: 'pass' }, cloud: { status: 'pass' } }),
  row('V2.D', 'MUST', { cloud: { status: 'skipped', reason: 'no input' } }),
];
const matrix: Matrix = { rows, unplaced: [], judged: 1 };
const judge = (yaml: string, strict = false) => {
  const outcome = applyBaseline(rows, parseBaseline(yaml, 'b.yaml'));
  return { outcome, verdict: verdictWithBaseline(rows, verdictOf(matrix, strict), strict, outcome) };
};

test('without a baseline a MUST failure fails the run', () => {
  assert.equal(verdictWithBaseline(rows, verdictOf(matrix, false), false, undefined).passed, false);
});

test('a listed failure is an expected failure and no longer fails the run', () => {
  const { outcome, verdict } = judge('expected_failures:\n  - V2.A\n');
  assert.deepEqual(outcome.expected_failures, [{ rule: 'V2.A', surface: 'local', level: 'MUST' }]);
  assert.deepEqual(outcome.stale, []);
  assert.equal(verdict.passed, true);
  assert.deepEqual(verdict.mustFailed, ['V2.A'], 'the failure is still reported');
  assert.deepEqual(verdict.unexpectedMust, []);
});

test('a failure on a surface the entry does not list still fails the run', () => {
  const { outcome, verdict } = judge('expected_failures:\n  - { rule: V2.A, surfaces: [cloud] }\n');
  assert.equal(verdict.passed, false);
  assert.deepEqual(verdict.unexpectedMust, ['V2.A']);
  assert.deepEqual(outcome.stale, ['V2.A on cloud'], 'V2.A passes on cloud, so that entry is stale');
});

test('a listed entry that passes now is stale and fails the run; one not judged in this run is not', () => {
  const { outcome, verdict } = judge('expected_failures:\n  - V2.A\n  - V2.C\n  - V2.D\n');
  assert.deepEqual(outcome.stale, ['V2.C']);
  assert.equal(verdict.passed, false);
});

test('SHOULD failures fail only under strict, unless listed', () => {
  assert.equal(judge('expected_failures: [V2.A]').verdict.passed, true);
  assert.equal(judge('expected_failures: [V2.A]', true).verdict.passed, false);
  assert.equal(judge('expected_failures: [V2.A, {rule: V2.B, reason: "ticket 7"}]', true).verdict.passed, true);
});

test('an unknown rule or a surface the rule does not apply to is a problem that fails the run', () => {
  const { outcome, verdict } = judge(
    'expected_failures:\n  - V2.A\n  - V2.NOPE\n  - { rule: V2.B, surfaces: [local] }\n',
  );
  assert.equal(outcome.problems.length, 2);
  assert.match(outcome.problems[0], /V2\.NOPE/);
  assert.match(outcome.problems[1], /does not apply to local/);
  assert.equal(verdict.passed, false);
});

test('a rule that could not be judged only because its checks stopped at a listed failure does not fail the run', () => {
  const blocked: RuleRow[] = [
    row('V2.A', 'MUST', { local: { status: 'fail', reason: 'broke' } }),
    row('V2.E', 'MUST', {
      local: { status: 'error', reason: 'not judged: t stopped at the check of V2.A', blocked_by: ['V2.A'] },
    }),
  ];
  const m: Matrix = { rows: blocked, unplaced: [], judged: 1 };
  const listed = applyBaseline(blocked, parseBaseline('expected_failures: [V2.A]'));
  const v = verdictWithBaseline(blocked, verdictOf(m, false), false, listed);
  assert.equal(v.passed, true);
  assert.deepEqual(v.errors, ['V2.E'], 'still reported as not judged');
  const other = applyBaseline(blocked, parseBaseline('expected_failures: [{rule: V2.A, surfaces: [local]}]'));
  assert.equal(verdictWithBaseline(blocked, verdictOf(m, false), false, other).passed, true);
  const unlisted: RuleRow[] = [
    ...blocked,
    row('V2.F', 'MUST', { local: { status: 'error', reason: 't: target not reachable' } }),
  ];
  assert.equal(
    verdictWithBaseline(unlisted, verdictOf({ rows: unlisted, unplaced: [], judged: 1 }, false), false, listed).passed,
    false,
    'a real error still fails the run',
  );
});

test('a malformed file is refused with its name', () => {
  assert.throws(() => parseBaseline('expected_failures: 3', 'x.yaml'), /x\.yaml: expected_failures must be a list/);
  assert.throws(() => parseBaseline('expected_failures:\n  - { surfaces: [cloud] }', 'x.yaml'), /has no rule/);
  assert.deepEqual(parseBaseline('# nothing yet\n').entries, []);
});

test('the markdown report shows a listed failure as an expected failure, and stale entries', () => {
  const { outcome } = judge('expected_failures:\n  - { rule: V2.A, reason: "ticket 12" }\n  - V2.C\n');
  const report = {
    generated_at: 'now',
    target: { name: 't', surfaces: [] },
    profile: 'quick',
    strict: false,
    summary: {
      verdict: 'fail',
      rules: 4,
      pass: 1,
      fail: 2,
      error: 0,
      skipped: 1,
      not_covered: 0,
      not_run: 0,
      must_failed: ['V2.A'],
      should_failed: ['V2.B'],
      errors: [],
    },
    unplaced: [],
    baseline: outcome,
    tests: { passed: 1, failed: 1, skipped: 0 },
    rules: rows,
    coverage: {
      operations: { declared: 0, exercised: 0 },
      statuses: { declared: 0, exercised: 0 },
      operations_missing: [],
      statuses_missing: [],
      statuses_undeclared: [],
      codes: { declared: 0, exercised: 0 },
      codes_missing: [],
    },
    seeds: [],
  } satisfies ConformanceReport;
  const md = toMarkdown(report);
  assert.match(md, /\| `V2\.A` \| MUST \| expected failure \|/);
  assert.match(md, /expected failure: `V2\.A` on local — ticket 12/);
  assert.match(md, /\*\*stale\*\* \(passes now, remove it\): `V2\.C`/);
});

test('the example baseline parses and names only real rules on their surfaces', async () => {
  const { loadBaseline } = await import('../../report/baseline.ts');
  const { loadRules } = await import('../../lib/rules.ts');
  const example = loadBaseline(new URL('../../examples/baseline.example.yaml', import.meta.url).pathname);
  assert.ok(example.entries.length >= 2);
  for (const e of example.entries) {
    const rule = loadRules().get(e.rule);
    assert.ok(rule, `${e.rule} is a rule`);
    for (const s of e.surfaces ?? []) assert.ok(rule.surfaces.includes(s), `${e.rule} applies to ${s}`);
  }
});
