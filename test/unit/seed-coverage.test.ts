// The seed coverage of a run: a statement counts as judged only when one of its rules
// reached pass or fail on a surface of the run; the others are listed with why.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { seedCoverage, seedCoverageLine } from '../../report/seed-coverage.ts';
import type { RuleRow } from '../../report/matrix.ts';
import type { TraceEntry } from '../../lib/seeds/trace.ts';
import { toMarkdown } from '../../report/markdown.ts';
import { toHtml } from '../../report/html.ts';
import { runErrorReport } from '../../report/run-error.ts';

const row = (id: string, results: RuleRow['results']): RuleRow => ({
  id,
  level: 'MUST',
  summary: id,
  seed: 'W § Part',
  seed_refs: [{ seed: 'W', section: 'Part', line: 7, sha: '0123456789ab' }],
  source: 'seed',
  results,
});
const entry = (
  line: number,
  kind: TraceEntry['kind'],
  rules: string[] = [],
  seed: TraceEntry['seed'] = 'W',
): TraceEntry => ({
  seed,
  section: 'Part',
  line,
  sha: '0123456789ab',
  says: `statement ${line}`,
  kind,
  rules,
  ...(kind === 'rules' ? {} : { why: 'because' }),
});

test("each testable statement of the run's seeds lands in one place: proven, at SHOULD only, judged unproven, not judged here (by input), gap", () => {
  const rows = [
    row('V2.A', {
      local: { status: 'pass' },
      cloud: { status: 'skipped', reason: 'not exercised: target gave no SSO key (scenario input "sso_token")' },
    }),
    row('V2.B', {
      cloud: { status: 'skipped', reason: 'not exercised: target gave no SSO key (scenario input "sso_token")' },
    }),
    row('V2.C', { local: { status: 'fail', reason: 'x' } }),
    row('V2.D', { serverless: { status: 'not_run' } }),
    { ...row('V2.S', { local: { status: 'pass' } }), level: 'SHOULD' as const },
    row('V2.E', { local: { status: 'pass' } }),
  ];
  const trace = [
    entry(1, 'rules', ['V2.A']),
    entry(2, 'rules', ['V2.B']),
    entry(3, 'rules', ['V2.C', 'V2.B']),
    entry(4, 'untestable'),
    entry(5, 'gap'),
    entry(6, 'informative'),
    entry(7, 'rules', ['V2.D']),
    entry(8, 'rules', ['ROUTER.X'], 'R'),
    entry(9, 'rules', ['V2.S']),
    entry(10, 'rules', ['V2.E']),
  ];
  const proofs = {
    'W:1:0123456789ab': [{ rule: 'V2.A' }],
    'W:3:0123456789ab': [{ rule: 'V2.C' }],
    'W:9:0123456789ab': [{ rule: 'V2.S' }],
    'W:10:0123456789ab': [{ rule: 'V2.X' }],
  };
  const c = seedCoverage(trace, rows, new Set(['local', 'cloud'] as const), proofs);
  assert.deepEqual(
    [
      c.statements,
      c.testable,
      c.judged,
      c.proven,
      c.should_only,
      c.unproven,
      c.untestable,
      c.gaps,
      c.not_judged_here,
      c.need_inputs,
    ],
    [8, 7, 4, 2, 1, 1, 1, 1, 2, 1],
  );
  assert.deepEqual(c.needs_inputs, { sso_token: 1 });
  assert.equal(
    seedCoverageLine(c),
    'seed statements proven 2 of 7 testable (1 at SHOULD only, 1 need inputs: sso_token 1, 1 judged, unproven, 1 not judged here, 1 gaps, 1 untestable)',
  );
  assert.deepEqual(
    c.not_judged.map((u) => u.at.split(':')[1]),
    ['2', '5', '7'],
  );
  assert.match(c.not_judged.find((u) => u.at.startsWith('W:2'))!.why, /no SSO key/);
  assert.match(c.not_judged.find((u) => u.at.startsWith('W:5'))!.why, /^gap: because/);
  assert.match(c.not_judged.find((u) => u.at.startsWith('W:7'))!.why, /not on this run's surfaces/);
  // A proof under a rule not judged here (W:10's fault is caught by V2.X) proves nothing in this run.
  assert.deepEqual(
    c.not_proven!.map((u) => [u.at.split(':')[1], u.why.split(' ')[0]]),
    [
      ['9', 'judged'],
      ['10', 'judged'],
    ],
  );
  assert.match(c.not_proven![0].why, /SHOULD only/);
});

test('a router-only run counts only the router seed, and the line of an old report still reads', () => {
  const rows = [row('ROUTER.X', { router: { status: 'pass' } })];
  const c = seedCoverage(
    [entry(1, 'rules', ['V2.A']), entry(8, 'rules', ['ROUTER.X'], 'R')],
    rows,
    new Set(['router'] as const),
    { 'R:8:0123456789ab': [{ rule: 'ROUTER.X' }] },
  );
  assert.deepEqual([c.testable, c.proven], [1, 1]);
  assert.equal(
    seedCoverageLine({ statements: 5, judged: 2, untestable: 1, gaps: 1, not_judged_here: 1, not_judged: [] }),
    'seed statements judged 2 of 4 testable (1 untestable, 1 gaps)',
  );
});

test('a failure names its seed section and line in conformance.md and .html, and both list the statements not judged', () => {
  const report = runErrorReport('x');
  delete report.run_errors;
  report.summary.verdict = 'fail';
  report.rules = [
    row('V2.C', {
      local: { status: 'fail', reason: 'upload: created_new — expected false, received true — seed: W § Part, line 7' },
    }),
  ];
  report.seed_coverage = seedCoverage(
    [entry(3, 'rules', ['V2.C']), entry(5, 'gap')],
    report.rules,
    new Set(['local'] as const),
  );
  const md = toMarkdown(report);
  assert.match(md, /## Failures[\s\S]*`V2.C`\*\* \(MUST\) — seed: W § Part, line 7/);
  assert.match(
    md,
    /## Seed statements not judged in this run \(1\)[\s\S]*### W § Part[\s\S]*line 5 .*statement 5 — gap: because/,
  );
  const html = toHtml(report);
  assert.match(html, /seed: W § Part, line 7/);
  assert.match(html, /Seed statements not judged in this run \(1\)/);
});
