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
const entry = (line: number, kind: TraceEntry['kind'], rules: string[] = [], seed: TraceEntry['seed'] = 'W'): TraceEntry => ({
  seed,
  section: 'Part',
  line,
  sha: '0123456789ab',
  says: `statement ${line}`,
  kind,
  rules,
  ...(kind === 'rules' ? {} : { why: 'because' }),
});

test('judged, untestable, gaps and not judged here are counted for the seeds of the run only', () => {
  const rows = [
    row('V2.A', { local: { status: 'pass' }, cloud: { status: 'skipped', reason: 'not exercised: no SSO key' } }),
    row('V2.B', { cloud: { status: 'skipped', reason: 'not exercised: no SSO key' } }),
    row('V2.C', { local: { status: 'fail', reason: 'x' } }),
    row('V2.D', { serverless: { status: 'not_run' } }),
  ];
  const trace = [entry(1, 'rules', ['V2.A']), entry(2, 'rules', ['V2.B']), entry(3, 'rules', ['V2.C', 'V2.B']), entry(4, 'untestable'), entry(5, 'gap'), entry(6, 'informative'), entry(7, 'rules', ['V2.D']), entry(8, 'rules', ['ROUTER.X'], 'R')];
  const c = seedCoverage(trace, rows, new Set(['local', 'cloud'] as const));
  assert.deepEqual([c.statements, c.judged, c.untestable, c.gaps, c.not_judged_here], [6, 2, 1, 1, 2]);
  assert.equal(seedCoverageLine(c), 'seed statements judged 2 of 5 testable (1 untestable, 1 gaps)');
  assert.deepEqual(c.not_judged.map((u) => u.at.split(':')[1]), ['2', '5', '7']);
  assert.match(c.not_judged.find((u) => u.at.startsWith('W:2'))!.why, /no SSO key/);
  assert.match(c.not_judged.find((u) => u.at.startsWith('W:5'))!.why, /^gap: because/);
  assert.match(c.not_judged.find((u) => u.at.startsWith('W:7'))!.why, /not on this run's surfaces/);
});

test('a failure names its seed section and line in conformance.md and .html, and both list the statements not judged', () => {
  const report = runErrorReport('x');
  delete report.run_errors;
  report.summary.verdict = 'fail';
  report.rules = [row('V2.C', { local: { status: 'fail', reason: 'upload: created_new — expected false, received true — seed: W § Part, line 7' } })];
  report.seed_coverage = seedCoverage([entry(3, 'rules', ['V2.C']), entry(5, 'gap')], report.rules, new Set(['local'] as const));
  const md = toMarkdown(report);
  assert.match(md, /## Failures[\s\S]*`V2.C`\*\* \(MUST\) — seed: W § Part, line 7/);
  assert.match(md, /## Seed statements not judged in this run \(1\)[\s\S]*### W § Part[\s\S]*line 5 .*statement 5 — gap: because/);
  const html = toHtml(report);
  assert.match(html, /seed: W § Part, line 7/);
  assert.match(html, /Seed statements not judged in this run \(1\)/);
});
