// workflow-conformance load compare <baseline.json> <current.json> [--tolerance <percent>]
// (npm run load:compare -- … in this repository)
// Compares two runs of the same profile and flags regressions: a metric worse than
// the baseline by more than the tolerance and more than its noise floor, a verdict
// that went from pass to fail, a threshold or check that now fails. Every floor is
// printed with where it came from, and a change above the tolerance that the floor
// absorbs is listed too, never passed over in silence.
// Exit status: 0 no regression, 1 regressions, 2 the files cannot be compared.
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import type { LoadReport } from './engine.ts';
import { percentile } from './stats.ts';
import type { Second } from './timeline.ts';
import { LOAD_COMPARE as USAGE } from '../cli/help.ts';
import { checkOf, checkText, held } from './checks.ts';

const DEFAULT_TOLERANCE_PCT = 10;

/**
 * Below this, a difference in latency is the client's timer and event loop (on loopback,
 * tenths of a millisecond), not the server: the smallest floor any latency gets.
 */
export const LATENCY_RESOLUTION_MS = 0.1;

type PerSecond = 'p50' | 'p90' | 'p99' | 'max';

/**
 * Which way is better, and the absolute change below which a difference is noise. A
 * latency's floor is measured (`spread`): the spread of the runs' own per-second figures;
 * the other metrics have a fixed floor.
 */
const DIRECTIONS: Record<string, { better: 'lower' | 'higher'; unit: string } & ({ floor: number } | { spread: PerSecond })> = {
  p50: { better: 'lower', spread: 'p50', unit: 'ms' },
  p90: { better: 'lower', spread: 'p90', unit: 'ms' },
  p95: { better: 'lower', spread: 'p90', unit: 'ms' },
  p99: { better: 'lower', spread: 'p99', unit: 'ms' },
  uncorrected_p99: { better: 'lower', spread: 'p99', unit: 'ms' },
  late: { better: 'lower', floor: 0.5, unit: '%' },
  dropped: { better: 'lower', floor: 0.5, unit: '' },
  'p99.9': { better: 'lower', spread: 'max', unit: 'ms' },
  max: { better: 'lower', spread: 'max', unit: 'ms' },
  mean: { better: 'lower', spread: 'p50', unit: 'ms' },
  errors: { better: 'lower', floor: 0.01, unit: '%' },
  contract_violations: { better: 'lower', floor: 0.5, unit: '' },
  rate: { better: 'higher', floor: 0.5, unit: '/s' },
  rate_achieved: { better: 'higher', floor: 1, unit: '%' },
  rate_limit_accuracy: { better: 'lower', floor: 1, unit: '%' },
  retry_after_missing: { better: 'lower', floor: 0.5, unit: '' },
  early_polls: { better: 'lower', floor: 0.5, unit: '%' },
  max_in_flight: { better: 'lower', floor: 0.5, unit: '' },
};

/** The interquartile range of a run's measured seconds' figure (0 without a timeline). */
function secondSpread(timeline: readonly Second[] | undefined, key: PerSecond): number {
  const values = (timeline ?? []).filter((s) => !s.warmup && Number.isFinite(s[key])).map((s) => s[key]).sort((a, b) => a - b);
  if (values.length < 2) return 0;
  return percentile(values, 75) - percentile(values, 25);
}

/** A metric's noise floor for these two runs, and how it was set. */
function noiseFloor(metric: string, baseline: LoadReport, current: LoadReport): { floor: number; from: string } | undefined {
  const dir = DIRECTIONS[metric];
  if (!dir) return undefined;
  if ('floor' in dir) return { floor: dir.floor, from: 'fixed' };
  const spread = Math.max(secondSpread(baseline.timeline, dir.spread), secondSpread(current.timeline, dir.spread));
  const floor = Math.round(Math.max(LATENCY_RESOLUTION_MS, spread) * 1000) / 1000;
  return spread > LATENCY_RESOLUTION_MS ? { floor, from: `per-second ${dir.spread} spread` } : { floor, from: 'timer resolution' };
}

export interface MetricDiff {
  metric: string;
  baseline: number;
  current: number;
  changePct: number;
  regression: boolean;
  /** The absolute change below which this metric's difference counts as noise, in its unit. */
  floor: number;
  /** How the floor was set: fixed, timer resolution, or the runs' per-second spread. */
  floorFrom: string;
  unit: string;
}

export interface Comparison {
  profile: string;
  diffs: MetricDiff[];
  regressions: string[];
  improvements: string[];
  /** Changes for the worse beyond the tolerance that the noise floor absorbed (not regressions, but shown). */
  withinFloor: string[];
}

export class CompareError extends Error {
  override name = 'CompareError';
}

const round3 = (n: number): number => Math.round(n * 1000) / 1000;

function pct(base: number, cur: number): number {
  if (base === 0) return cur === 0 ? 0 : Infinity * Math.sign(cur);
  return ((cur - base) / Math.abs(base)) * 100;
}

export function compareReports(baseline: LoadReport, current: LoadReport, tolerancePct = DEFAULT_TOLERANCE_PCT): Comparison {
  if (baseline.profile.name !== current.profile.name) throw new CompareError(`different profiles: ${baseline.profile.name} vs ${current.profile.name}`);
  const diffs: MetricDiff[] = [];
  const regressions: string[] = [];
  const improvements: string[] = [];
  const withinFloor: string[] = [];
  if (baseline.verdict === 'pass' && current.verdict === 'fail') regressions.push('verdict went from pass to fail');
  for (const [metric, dir] of Object.entries(DIRECTIONS)) {
    const b = baseline.metrics[metric];
    const c = current.metrics[metric];
    if (b === undefined || c === undefined || !Number.isFinite(b) || !Number.isFinite(c)) continue;
    const change = pct(b, c);
    const { floor, from } = noiseFloor(metric, baseline, current)!;
    const worse = dir.better === 'lower' ? c - b : b - c;
    const beyondTolerance = Math.abs(change) > tolerancePct;
    const regression = worse > floor && beyondTolerance;
    const better = -worse > floor && beyondTolerance;
    diffs.push({ metric, baseline: b, current: c, changePct: Math.round(change * 10) / 10, regression, floor, floorFrom: from, unit: dir.unit });
    const text = `${metric} ${b}${dir.unit} → ${c}${dir.unit} (${change > 0 ? '+' : ''}${Number.isFinite(change) ? change.toFixed(1) : '∞'}%)`;
    if (regression) regressions.push(text);
    else if (better) improvements.push(text);
    else if (worse > 0 && beyondTolerance) withinFloor.push(`${text}: worse by ${round3(worse)}${dir.unit}, within its noise floor of ${floor}${dir.unit} (${from})`);
  }
  const passedBefore = new Set(baseline.thresholds.filter((t) => t.ok).map((t) => t.expr));
  for (const t of current.thresholds) if (!t.ok && t.decides !== false && passedBefore.has(t.expr)) regressions.push(`threshold ${t.expr} now fails (measured ${t.actual ?? 'nothing'})`);
  const checksBefore = new Set(baseline.checks.filter(held).map((c) => c.rule));
  for (const c of current.checks) if (!held(c) && checksBefore.has(c.rule)) regressions.push(`check ${c.rule} now fails: ${checkText(c)}`);
  return { profile: current.profile.name, diffs, regressions, improvements, withinFloor };
}

export function renderComparison(cmp: Comparison, baselineFile: string, currentFile: string, tolerancePct: number): string {
  const headline = cmp.regressions.length
    ? `**${cmp.regressions.length} regression(s)**`
    : cmp.withinFloor.length
      ? `no regression beyond the noise floor; ${cmp.withinFloor.length} change(s) for the worse above the tolerance are within it (listed below)`
      : 'no regression';
  const lines = [
    `### Load comparison: ${cmp.profile} — ${headline}`,
    '',
    `Baseline \`${baselineFile}\`, current \`${currentFile}\`, tolerance ${tolerancePct}%. A metric regresses when it is worse by more than the tolerance and by more than its noise floor. A latency's floor is the larger of ${LATENCY_RESOLUTION_MS} ms (timer resolution) and the interquartile range of the two runs' own per-second figures; the other floors are fixed.`,
    '',
    '| metric | baseline | current | change | noise floor | |',
    '| - | -: | -: | -: | -: | - |',
    ...cmp.diffs.map((d) => `| ${d.metric} | ${d.baseline}${d.unit} | ${d.current}${d.unit} | ${Number.isFinite(d.changePct) ? `${d.changePct > 0 ? '+' : ''}${d.changePct}%` : 'new'} | ${d.floor}${d.unit} (${d.floorFrom}) | ${d.regression ? '**REGRESSION**' : ''} |`),
    '',
  ];
  if (cmp.regressions.length) lines.push('Regressions:', ...cmp.regressions.map((r) => `- ${r}`), '');
  if (cmp.withinFloor.length) lines.push('Above the tolerance but within the noise floor (not counted):', ...cmp.withinFloor.map((r) => `- ${r}`), '');
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
  // Checks of reports written before they were result values read as results (load/checks.ts).
  return { ...r, checks: (r.checks ?? []).map(checkOf) } as LoadReport;
}

function main(): number {
  let parsed;
  try {
    parsed = parseArgs({ options: { tolerance: { type: 'string' }, help: { type: 'boolean', short: 'h' } }, allowPositionals: true });
  } catch (err) {
    console.error(`load compare: ${(err as Error).message}\n${USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
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
      console.error(`load compare: ${err.message}`);
      return 2;
    }
    throw err;
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) process.exitCode = main();
