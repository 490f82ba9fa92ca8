// k6-style thresholds: `p99<50` (ms), `p(99.9)<=0.2s`, `errors<0.1%`,
// `rate_limit_accuracy<10%`, `contract_violations==0`, `rate>=95`. Each names a metric
// of the run; its unit decides how the number is read, so `errors<0.1` (no %) is
// refused rather than guessed.

export type Unit = 'ms' | '%' | 'count' | 'rps';
export type Op = '<' | '<=' | '>' | '>=' | '==';

/** Metrics a threshold may name, with the unit each is measured in. */
export const METRIC_UNITS: Record<string, Unit> = {
  p50: 'ms',
  p90: 'ms',
  p95: 'ms',
  p99: 'ms',
  'p99.9': 'ms',
  max: 'ms',
  mean: 'ms',
  // Latency from the actual send: what a closed loop would report (the plain ones are corrected).
  uncorrected_p50: 'ms',
  uncorrected_p90: 'ms',
  uncorrected_p99: 'ms',
  'uncorrected_p99.9': 'ms',
  uncorrected_max: 'ms',
  // Open model: arrivals sent after their slot, never sent, and how far sends strayed from the schedule.
  late: '%',
  late_requests: 'count',
  dropped: 'count',
  spacing_p50: 'ms',
  spacing_p99: 'ms',
  spacing_max: 'ms',
  errors: '%',
  non_2xx: '%',
  rate: 'rps',
  rate_achieved: '%',
  requests: 'count',
  contract_violations: 'count',
  rate_limit_accuracy: '%',
  told_to_wait: '%',
  early_polls: '%',
  retry_after_missing: 'count',
  jobs_completed: 'count',
  concurrency_refusals: 'count',
};

export interface Threshold {
  expr: string;
  metric: string;
  op: Op;
  /** The limit in the metric's unit (ms for latencies, percent for % metrics). */
  limit: number;
  unit: Unit;
}

export interface ThresholdResult extends Threshold {
  actual: number | undefined;
  ok: boolean;
  /**
   * Whether it decides the run's verdict. A budget (a latency, an error or rate budget) the
   * profile only suggests is reported as a figure: nobody set it, so it fails nothing
   * (DESIGN, Load). A budget the team set (`--threshold`) and any other condition decide.
   * Absent (a report written before budgets were opt-in): it decides.
   */
  decides?: boolean;
}

/** Metrics whose limit is a budget a team chooses: every latency, and the error, rate and lateness figures. */
const BUDGET_METRICS = new Set(['errors', 'non_2xx', 'rate', 'rate_achieved', 'late', 'late_requests', 'dropped']);

export function isBudget(t: Pick<Threshold, 'metric' | 'unit'>): boolean {
  return t.unit === 'ms' || BUDGET_METRICS.has(t.metric);
}

export class ThresholdError extends Error {
  override name = 'ThresholdError';
}

const SHAPE =
  /^\s*([a-z_][a-z0-9_]*(?:\(\s*[0-9.]+\s*\))?|(?:uncorrected_)?p[0-9]+(?:\.[0-9]+)?)\s*(<=|>=|==|<|>)\s*(-?[0-9]+(?:\.[0-9]+)?)\s*(ms|s|%)?\s*$/i;

export function parseThreshold(expr: string): Threshold {
  const m = SHAPE.exec(expr);
  if (!m) throw new ThresholdError(`threshold "${expr}" is not <metric><op><number>[unit], e.g. p99<50 or errors<0.1%`);
  let metric = m[1].toLowerCase().replace(/\s+/g, '');
  // k6 writes percentiles as p(99); keep one spelling.
  const pm = /^p\(([0-9.]+)\)$/.exec(metric);
  if (pm) metric = `p${pm[1]}`;
  const unit = METRIC_UNITS[metric];
  if (unit === undefined)
    throw new ThresholdError(
      `threshold "${expr}": unknown metric "${metric}"; known: ${Object.keys(METRIC_UNITS).join(', ')}`,
    );
  const op = m[2] as Op;
  let limit = Number(m[3]);
  const written = m[4]?.toLowerCase();
  if (unit === 'ms') {
    if (written === '%') throw new ThresholdError(`threshold "${expr}": ${metric} is a latency; give ms or s, not %`);
    if (written === 's') limit *= 1000;
  } else if (unit === '%') {
    if (written !== '%')
      throw new ThresholdError(
        `threshold "${expr}": ${metric} is a percentage; write the limit with % (e.g. ${metric}<1%)`,
      );
  } else if (written !== undefined) {
    throw new ThresholdError(
      `threshold "${expr}": ${metric} is a ${unit === 'rps' ? 'rate in requests per second' : 'count'} and takes no unit`,
    );
  }
  return { expr: expr.trim(), metric, op, limit, unit };
}

export function compare(actual: number, op: Op, limit: number): boolean {
  switch (op) {
    case '<':
      return actual < limit;
    case '<=':
      return actual <= limit;
    case '>':
      return actual > limit;
    case '>=':
      return actual >= limit;
    case '==':
      return actual === limit;
  }
}

/**
 * A metric the run did not measure fails its threshold: a limit nobody checked is not a pass.
 * `setByYou`: the expressions the team set itself; given, a budget outside it decides nothing
 * (isBudget). Without it every threshold decides (a report written before budgets were opt-in).
 */
export function evaluate(
  thresholds: readonly Threshold[],
  metrics: Readonly<Record<string, number>>,
  setByYou?: ReadonlySet<string>,
): ThresholdResult[] {
  return thresholds.map((t) => {
    const actual = metrics[t.metric];
    const ok = actual !== undefined && Number.isFinite(actual) && compare(actual, t.op, t.limit);
    const decides = setByYou === undefined || !isBudget(t) || setByYou.has(t.expr);
    return { ...t, actual, ok, decides };
  });
}

// Thresholds are the team's limits, not rules of the seeds: the seeds state no latency
// (nor an error budget for a run), so a profile's `p99<250` is a budget someone chose.
// A miss reads "over your threshold", apart from the LOAD.* rule checks, which are the
// seeds' requirements. Both still decide the exit code: a team's gate is its own call.

/** A value in its unit, as the reports print it: `250 ms`, `0.1 %`, `40 req/s`, `3` (a count). */
export function withUnit(value: number | undefined, unit: Unit, digits = 3): string {
  if (value === undefined || !Number.isFinite(value)) return 'not measured';
  const n = String(Math.round(value * 10 ** digits) / 10 ** digits);
  return unit === 'count' ? n : unit === 'rps' ? `${n} req/s` : `${n} ${unit}`;
}

/** A threshold's limit with its unit: `< 250 ms`. */
export function limitText(t: Threshold): string {
  return `${t.op} ${withUnit(t.limit, t.unit)}`;
}

/**
 * The thresholds of a run: the profile's, with each of the team's own (`--threshold`)
 * replacing the profile's on the same metric and any other added. Every one is parsed
 * here, so a mistake stops the run before it starts.
 */
export function withOverrides(profile: readonly string[], own: readonly string[]): string[] {
  const mine = own.map(parseThreshold);
  const replaced = new Set(mine.map((t) => t.metric));
  return [...profile.filter((e) => !replaced.has(parseThreshold(e).metric)), ...mine.map((t) => t.expr)];
}

/** How one threshold result reads in a report. */
export function thresholdOutcome(t: ThresholdResult): string {
  if (t.decides === false) {
    const where =
      t.actual === undefined || !Number.isFinite(t.actual)
        ? 'not measured'
        : t.ok
          ? 'within'
          : t.actual > t.limit
            ? 'over'
            : t.actual < t.limit
              ? 'under'
              : 'at';
    return `${where === 'not measured' ? 'not measured against' : where} the profile's suggested budget (a figure: no budget was set; --threshold sets one)`;
  }
  if (t.ok) return 'within your threshold';
  if (t.actual === undefined || !Number.isFinite(t.actual)) return 'not measured (your threshold)';
  if (t.actual > t.limit) return 'over your threshold';
  if (t.actual < t.limit) return 'under your threshold';
  return 'at your threshold';
}

/** Why a run failed, thresholds and rules told apart: undefined when nothing failed. */
export function failureSummary(r: {
  thresholds: readonly ThresholdResult[];
  checks: ReadonlyArray<{ rule: string; outcome: string }>;
}): string | undefined {
  const rules = [...new Set(r.checks.filter((c) => c.outcome !== 'held').map((c) => c.rule))];
  const over = r.thresholds
    .filter((t) => !t.ok && t.decides !== false)
    .map((t) => `${t.expr} (${thresholdOutcome(t)}, measured ${withUnit(t.actual, t.unit)})`);
  if (rules.length === 0 && over.length === 0) return undefined;
  return [
    rules.length ? `rule checks broken: ${rules.join(', ')}` : 'no rule check broken',
    ...(over.length ? [`your thresholds missed: ${over.join('; ')}`] : []),
  ].join('; ');
}
