// workflow-conformance load compare <baseline.json> <current.json> [--tolerance <percent>]
// (npm run load:compare -- … in this repository)
// Compares two runs of the same profile and flags regressions: a metric worse than
// the baseline by more than the tolerance and more than its noise floor, a verdict
// that went from pass to fail, a threshold or check that now fails. A latency is compared
// as a distribution, not a single figure: each run's measured seconds are samples, and a
// change counts only when a Mann-Whitney U test finds the two samples differ (p < 0.05),
// as benchmark tools do; otherwise it is "no significant change", the same both ways
// round. Every floor is printed with where it came from, and a change above the tolerance
// that the noise absorbs is listed too, never passed over in silence. Runs of different
// targets, durations or rates are compared with a warning; different profiles or load
// models are refused.
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
const DIRECTIONS: Record<
  string,
  { better: 'lower' | 'higher'; unit: string } & ({ floor: number } | { spread: PerSecond })
> = {
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
  const values = (timeline ?? [])
    .filter((s) => !s.warmup && Number.isFinite(s[key]))
    .map((s) => s[key])
    .sort((a, b) => a - b);
  if (values.length < 2) return 0;
  return percentile(values, 75) - percentile(values, 25);
}

/** A metric's noise floor for these two runs, and how it was set. */
function noiseFloor(
  metric: string,
  baseline: LoadReport,
  current: LoadReport,
): { floor: number; from: string } | undefined {
  const dir = DIRECTIONS[metric];
  if (!dir) return undefined;
  if ('floor' in dir) return { floor: dir.floor, from: 'fixed' };
  const spread = Math.max(secondSpread(baseline.timeline, dir.spread), secondSpread(current.timeline, dir.spread));
  const floor = Math.round(Math.max(LATENCY_RESOLUTION_MS, spread) * 1000) / 1000;
  return spread > LATENCY_RESOLUTION_MS
    ? { floor, from: `per-second ${dir.spread} spread` }
    : { floor, from: 'timer resolution' };
}

/** Below this p, two runs' per-second samples of a latency differ (two-sided). */
export const SIGNIFICANCE = 0.05;
/** Fewer measured seconds than this in either run: no test, the single figures are compared. */
const MIN_SAMPLES = 5;

/** A run's measured seconds' values of one per-second figure. */
function samplesOf(timeline: readonly Second[] | undefined, key: PerSecond): number[] {
  return (timeline ?? []).filter((s) => !s.warmup && Number.isFinite(s[key])).map((s) => s[key]);
}

/** The standard normal CDF (Abramowitz and Stegun 26.2.17; error below 1e-7). */
function normalCdf(z: number): number {
  const t = 1 / (1 + 0.2316419 * Math.abs(z));
  const d = 0.3989422804014327 * Math.exp((-z * z) / 2);
  const tail = d * t * (0.31938153 + t * (-0.356563782 + t * (1.781477937 + t * (-1.821255978 + t * 1.330274429))));
  return z >= 0 ? 1 - tail : tail;
}

/**
 * Two-sided Mann-Whitney U test of two samples (normal approximation with a tie
 * correction and a continuity correction): the probability of samples this far apart if
 * both came from one distribution. Symmetric: swapping the runs gives the same p.
 */
export function mannWhitneyP(a: readonly number[], b: readonly number[]): number {
  const all = [...a.map((v) => ({ v, from: 0 })), ...b.map((v) => ({ v, from: 1 }))].sort((x, y) => x.v - y.v);
  const ranks = new Array<number>(all.length);
  let ties = 0;
  for (let i = 0; i < all.length;) {
    let j = i;
    while (j + 1 < all.length && all[j + 1].v === all[i].v) j++;
    const rank = (i + j) / 2 + 1;
    for (let k = i; k <= j; k++) ranks[k] = rank;
    const n = j - i + 1;
    ties += n * n * n - n;
    i = j + 1;
  }
  const n1 = a.length;
  const n2 = b.length;
  const r1 = all.reduce((sum, x, i) => (x.from === 0 ? sum + ranks[i] : sum), 0);
  const u = r1 - (n1 * (n1 + 1)) / 2;
  const mean = (n1 * n2) / 2;
  const n = n1 + n2;
  const variance = ((n1 * n2) / 12) * (n + 1 - ties / (n * (n - 1)));
  if (variance <= 0) return 1;
  const z = (Math.abs(u - mean) - 0.5) / Math.sqrt(variance);
  return Math.min(1, 2 * (1 - normalCdf(Math.max(0, z))));
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
  /** For a latency with enough measured seconds in both runs: the Mann-Whitney p of their per-second samples. */
  p?: number;
  /** Whether the samples differ (p < SIGNIFICANCE); undefined when there were too few to test. */
  significant?: boolean;
  /** How many measured seconds each run gave the test. */
  samples?: [number, number];
}

export interface Comparison {
  profile: string;
  diffs: MetricDiff[];
  regressions: string[];
  improvements: string[];
  /** Changes for the worse beyond the tolerance that the noise floor absorbed (not regressions, but shown). */
  withinFloor: string[];
  /** Changes beyond the tolerance whose samples do not differ significantly: "no significant change". */
  notSignificant: string[];
  /** Why the two runs are not like for like (another target, duration, rate): compared, but said first. */
  warnings: string[];
}

/** What differs between the runs' setups: a comparison across them is not like for like. */
function setupWarnings(b: LoadReport, c: LoadReport): string[] {
  const out: string[] = [];
  const target = (r: LoadReport) =>
    `${r.target.name} ${r.target.baseUrl}${r.target.fault ? ` (fault ${r.target.fault})` : ''}`;
  if (target(b) !== target(c)) out.push(`different targets: ${target(b)} vs ${target(c)}`);
  const eff = (r: LoadReport) => r.profile.effective ?? r.profile.requested;
  if (eff(b)?.durationS !== eff(c)?.durationS)
    out.push(`different durations: ${eff(b)?.durationS} s vs ${eff(c)?.durationS} s`);
  if (eff(b)?.rate !== eff(c)?.rate) out.push(`different rates: ${eff(b)?.rate}/s vs ${eff(c)?.rate}/s`);
  if (eff(b)?.connections !== eff(c)?.connections)
    out.push(`different connections: ${eff(b)?.connections} vs ${eff(c)?.connections}`);
  return out;
}

export class CompareError extends Error {
  override name = 'CompareError';
}

const round3 = (n: number): number => Math.round(n * 1000) / 1000;

function pct(base: number, cur: number): number {
  if (base === 0) return cur === 0 ? 0 : Infinity * Math.sign(cur);
  return ((cur - base) / Math.abs(base)) * 100;
}

export function compareReports(
  baseline: LoadReport,
  current: LoadReport,
  tolerancePct = DEFAULT_TOLERANCE_PCT,
): Comparison {
  if (baseline.profile.name !== current.profile.name)
    throw new CompareError(`different profiles: ${baseline.profile.name} vs ${current.profile.name}`);
  if ((baseline.model?.name ?? 'open') !== (current.model?.name ?? 'open'))
    throw new CompareError(
      `different load models: ${baseline.model?.name} vs ${current.model?.name} (their latencies measure different things)`,
    );
  const diffs: MetricDiff[] = [];
  const regressions: string[] = [];
  const improvements: string[] = [];
  const withinFloor: string[] = [];
  const notSignificant: string[] = [];
  if (baseline.verdict === 'pass' && current.verdict === 'fail') regressions.push('verdict went from pass to fail');
  for (const [metric, dir] of Object.entries(DIRECTIONS)) {
    const b = baseline.metrics[metric];
    const c = current.metrics[metric];
    if (b === undefined || c === undefined || !Number.isFinite(b) || !Number.isFinite(c)) continue;
    const change = pct(b, c);
    const { floor, from } = noiseFloor(metric, baseline, current)!;
    const worse = dir.better === 'lower' ? c - b : b - c;
    const beyondTolerance = Math.abs(change) > tolerancePct;
    // A latency with enough measured seconds in both runs is judged on its distribution.
    const sb = 'spread' in dir ? samplesOf(baseline.timeline, dir.spread) : [];
    const sc = 'spread' in dir ? samplesOf(current.timeline, dir.spread) : [];
    const tested = sb.length >= MIN_SAMPLES && sc.length >= MIN_SAMPLES;
    const p = tested ? Math.round(mannWhitneyP(sb, sc) * 10000) / 10000 : undefined;
    const significant = p === undefined ? undefined : p < SIGNIFICANCE;
    const regression = worse > floor && beyondTolerance && significant !== false;
    const better = -worse > floor && beyondTolerance && significant !== false;
    diffs.push({
      metric,
      baseline: b,
      current: c,
      changePct: Math.round(change * 10) / 10,
      regression,
      floor,
      floorFrom: from,
      unit: dir.unit,
      ...(p !== undefined ? { p, significant, samples: [sb.length, sc.length] as [number, number] } : {}),
    });
    const text = `${metric} ${b}${dir.unit} → ${c}${dir.unit} (${change > 0 ? '+' : ''}${Number.isFinite(change) ? change.toFixed(1) : '∞'}%)`;
    if (regression) regressions.push(text);
    else if (better) improvements.push(text);
    else if (beyondTolerance && Math.abs(worse) > floor && significant === false)
      notSignificant.push(
        `${text}: no significant change (Mann-Whitney p = ${p} over ${sb.length} and ${sc.length} measured seconds)`,
      );
    else if (worse > 0 && beyondTolerance)
      withinFloor.push(
        `${text}: worse by ${round3(worse)}${dir.unit}, within its noise floor of ${floor}${dir.unit} (${from})`,
      );
  }
  const passedBefore = new Set(baseline.thresholds.filter((t) => t.ok).map((t) => t.expr));
  for (const t of current.thresholds)
    if (!t.ok && t.decides !== false && passedBefore.has(t.expr))
      regressions.push(`threshold ${t.expr} now fails (measured ${t.actual ?? 'nothing'})`);
  const checksBefore = new Set(baseline.checks.filter(held).map((c) => c.rule));
  for (const c of current.checks)
    if (!held(c) && checksBefore.has(c.rule)) regressions.push(`check ${c.rule} now fails: ${checkText(c)}`);
  return {
    profile: current.profile.name,
    diffs,
    regressions,
    improvements,
    withinFloor,
    notSignificant,
    warnings: setupWarnings(baseline, current),
  };
}

export function renderComparison(
  cmp: Comparison,
  baselineFile: string,
  currentFile: string,
  tolerancePct: number,
): string {
  const noise = cmp.notSignificant.length + cmp.withinFloor.length;
  const headline = cmp.regressions.length
    ? `**${cmp.regressions.length} regression(s)**`
    : noise
      ? `no significant change; ${noise} change(s) for the worse above the tolerance are within the runs' noise (listed below)`
      : 'no significant change';
  const lines = [
    `### Load comparison: ${cmp.profile} — ${headline}`,
    '',
    ...(cmp.warnings.length
      ? [
          `**Not like for like**: ${cmp.warnings.join('; ')}. The figures are compared all the same; read the changes with that in mind.`,
          '',
        ]
      : []),
    `Baseline \`${baselineFile}\`, current \`${currentFile}\`, tolerance ${tolerancePct}%. A ` +
      `metric regresses when it is worse by more than the tolerance and by more than its noise ` +
      `floor, and, for a latency with at least ${MIN_SAMPLES} measured seconds in both runs, when ` +
      `the two runs' per-second figures differ as distributions (two-sided Mann-Whitney U test, p ` +
      `< ${SIGNIFICANCE}): a busy machine moves single figures, not whole distributions. A ` +
      `latency's floor is the larger of ${LATENCY_RESOLUTION_MS} ms (timer resolution) and the ` +
      `interquartile range of the two runs' own per-second figures; the other floors are fixed.`,
    '',
    '| metric | baseline | current | change | noise floor | p (seconds) | |',
    '| - | -: | -: | -: | -: | -: | - |',
    ...cmp.diffs.map(
      (d) =>
        `| ${d.metric} | ${d.baseline}${d.unit} | ${d.current}${d.unit} | ` +
        `${Number.isFinite(d.changePct) ? `${d.changePct > 0 ? '+' : ''}${d.changePct}%` : 'new'} | ` +
        `${d.floor}${d.unit} (${d.floorFrom}) | ${d.p !== undefined ? `${d.p} (${d.samples!.join(' / ')})` : '—'} | ` +
        (d.regression
          ? '**REGRESSION**'
          : d.significant === false && Math.abs(d.changePct) > tolerancePct
            ? 'no significant change'
            : '') +
        ' |',
    ),
    '',
  ];
  if (cmp.regressions.length) lines.push('Regressions:', ...cmp.regressions.map((r) => `- ${r}`), '');
  if (cmp.notSignificant.length)
    lines.push(
      'Beyond the tolerance but not a significant change (not counted):',
      ...cmp.notSignificant.map((r) => `- ${r}`),
      '',
    );
  if (cmp.withinFloor.length)
    lines.push(
      'Above the tolerance but within the noise floor (not counted):',
      ...cmp.withinFloor.map((r) => `- ${r}`),
      '',
    );
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
  if ((schema !== 'load-report/1' && schema !== 'load-report/2') || !r.profile || !r.metrics)
    throw new CompareError(`${file} is not a load report (schema load-report/1 or /2)`);
  // Checks of reports written before they were result values read as results (load/checks.ts).
  return { ...r, checks: (r.checks ?? []).map(checkOf) } as LoadReport;
}

function main(): number {
  let parsed;
  try {
    parsed = parseArgs({
      options: { tolerance: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
    });
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
