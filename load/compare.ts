// npm run load:compare -- <baseline.json> <current.json> [--tolerance <percent>]
// Compares two runs of the same profile and flags regressions: a metric worse than
// the baseline by more than the tolerance (and more than its noise floor), a verdict
// that went from pass to fail, a threshold or check that now fails.
// Exit status: 0 no regression, 1 regressions, 2 the files cannot be compared.
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import type { LoadReport } from './engine.ts';

export const DEFAULT_TOLERANCE_PCT = 10;

/** Which way is better, and the absolute change below which a difference is noise. */
const DIRECTIONS: Record<string, { better: 'lower' | 'higher'; floor: number; unit: string }> = {
  p50: { better: 'lower', floor: 1, unit: 'ms' },
  p90: { better: 'lower', floor: 1, unit: 'ms' },
  p95: { better: 'lower', floor: 1, unit: 'ms' },
  p99: { better: 'lower', floor: 2, unit: 'ms' },
  uncorrected_p99: { better: 'lower', floor: 2, unit: 'ms' },
  late: { better: 'lower', floor: 0.5, unit: '%' },
  dropped: { better: 'lower', floor: 0.5, unit: '' },
  'p99.9': { better: 'lower', floor: 5, unit: 'ms' },
  max: { better: 'lower', floor: 10, unit: 'ms' },
  mean: { better: 'lower', floor: 1, unit: 'ms' },
  errors: { better: 'lower', floor: 0.01, unit: '%' },
  contract_violations: { better: 'lower', floor: 0.5, unit: '' },
  rate: { better: 'higher', floor: 0.5, unit: '/s' },
  rate_achieved: { better: 'higher', floor: 1, unit: '%' },
  rate_limit_accuracy: { better: 'lower', floor: 1, unit: '%' },
  retry_after_missing: { better: 'lower', floor: 0.5, unit: '' },
  early_polls: { better: 'lower', floor: 0.5, unit: '%' },
  max_in_flight: { better: 'lower', floor: 0.5, unit: '' },
};

export interface MetricDiff {
  metric: string;
  baseline: number;
  current: number;
  changePct: number;
  regression: boolean;
}

export interface Comparison {
  profile: string;
  diffs: MetricDiff[];
  regressions: string[];
  improvements: string[];
}

export class CompareError extends Error {
  override name = 'CompareError';
}

function pct(base: number, cur: number): number {
  if (base === 0) return cur === 0 ? 0 : Infinity * Math.sign(cur);
  return ((cur - base) / Math.abs(base)) * 100;
}

export function compareReports(baseline: LoadReport, current: LoadReport, tolerancePct = DEFAULT_TOLERANCE_PCT): Comparison {
  if (baseline.profile.name !== current.profile.name) throw new CompareError(`different profiles: ${baseline.profile.name} vs ${current.profile.name}`);
  const diffs: MetricDiff[] = [];
  const regressions: string[] = [];
  const improvements: string[] = [];
  if (baseline.verdict === 'pass' && current.verdict === 'fail') regressions.push('verdict went from pass to fail');
  for (const [metric, dir] of Object.entries(DIRECTIONS)) {
    const b = baseline.metrics[metric];
    const c = current.metrics[metric];
    if (b === undefined || c === undefined || !Number.isFinite(b) || !Number.isFinite(c)) continue;
    const change = pct(b, c);
    const worse = dir.better === 'lower' ? c - b : b - c;
    const regression = worse > dir.floor && Math.abs(change) > tolerancePct;
    const better = -worse > dir.floor && Math.abs(change) > tolerancePct;
    diffs.push({ metric, baseline: b, current: c, changePct: Math.round(change * 10) / 10, regression });
    const text = `${metric} ${b}${dir.unit} → ${c}${dir.unit} (${change > 0 ? '+' : ''}${Number.isFinite(change) ? change.toFixed(1) : '∞'}%)`;
    if (regression) regressions.push(text);
    else if (better) improvements.push(text);
  }
  const passedBefore = new Set(baseline.thresholds.filter((t) => t.ok).map((t) => t.expr));
  for (const t of current.thresholds) if (!t.ok && passedBefore.has(t.expr)) regressions.push(`threshold ${t.expr} now fails (measured ${t.actual ?? 'nothing'})`);
  const checksBefore = new Set(baseline.checks.filter((c) => c.ok).map((c) => c.rule));
  for (const c of current.checks) if (!c.ok && checksBefore.has(c.rule)) regressions.push(`check ${c.rule} now fails: ${c.detail}`);
  return { profile: current.profile.name, diffs, regressions, improvements };
}

export function renderComparison(cmp: Comparison, baselineFile: string, currentFile: string, tolerancePct: number): string {
  const lines = [
    `### Load comparison: ${cmp.profile} — ${cmp.regressions.length ? `**${cmp.regressions.length} regression(s)**` : 'no regression'}`,
    '',
    `Baseline \`${baselineFile}\`, current \`${currentFile}\`, tolerance ${tolerancePct}%.`,
    '',
    '| metric | baseline | current | change | |',
    '| - | -: | -: | -: | - |',
    ...cmp.diffs.map((d) => `| ${d.metric} | ${d.baseline} | ${d.current} | ${Number.isFinite(d.changePct) ? `${d.changePct > 0 ? '+' : ''}${d.changePct}%` : 'new'} | ${d.regression ? '**REGRESSION**' : ''} |`),
    '',
  ];
  if (cmp.regressions.length) lines.push('Regressions:', ...cmp.regressions.map((r) => `- ${r}`), '');
  if (cmp.improvements.length) lines.push('Improvements:', ...cmp.improvements.map((r) => `- ${r}`), '');
  return lines.join('\n');
}

export function readReport(file: string): LoadReport {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new CompareError(`cannot read ${file}: ${(err as Error).message}`);
  }
  const r = parsed as Partial<LoadReport>;
  // load-report/1 (before the open model) has the same metrics, thresholds and checks.
  const schema: unknown = r.schema;
  if ((schema !== 'load-report/1' && schema !== 'load-report/2') || !r.profile || !r.metrics) throw new CompareError(`${file} is not a load report (schema load-report/1 or /2)`);
  return r as LoadReport;
}

const USAGE = 'usage: npm run load:compare -- <baseline.json> <current.json> [--tolerance <percent>]';

function main(): number {
  let parsed;
  try {
    parsed = parseArgs({ options: { tolerance: { type: 'string' } }, allowPositionals: true });
  } catch (err) {
    console.error(`load:compare: ${(err as Error).message}\n${USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (positionals.length !== 2) {
    console.error(USAGE);
    return 2;
  }
  const tolerance = values.tolerance === undefined ? DEFAULT_TOLERANCE_PCT : Number(values.tolerance);
  if (!Number.isFinite(tolerance) || tolerance < 0) {
    console.error(`--tolerance must be a non-negative number of percent, got "${values.tolerance}"`);
    return 2;
  }
  const [bFile, cFile] = positionals as [string, string];
  try {
    const cmp = compareReports(readReport(bFile), readReport(cFile), tolerance);
    console.log(renderComparison(cmp, bFile, cFile, tolerance));
    return cmp.regressions.length ? 1 : 0;
  } catch (err) {
    if (err instanceof CompareError) {
      console.error(`load:compare: ${err.message}`);
      return 2;
    }
    throw err;
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) process.exitCode = main();
