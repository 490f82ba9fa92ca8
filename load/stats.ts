// Figures of one run: exact percentiles over the measured latencies (runs are bounded
// in rate and duration, so every latency fits in memory), a per-second timeline and a
// log-spaced latency histogram for the report's charts.

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank]!;
}

export function round(n: number, digits = 3): number {
  if (!Number.isFinite(n)) return n;
  const f = 10 ** digits;
  return Math.round(n * f) / f;
}

export interface LatencySummary {
  count: number;
  mean: number;
  p50: number;
  p90: number;
  p95: number;
  p99: number;
  max: number;
  min: number;
}

export function summarize(latencies: readonly number[]): LatencySummary {
  const sorted = [...latencies].sort((a, b) => a - b);
  const sum = sorted.reduce((s, v) => s + v, 0);
  return {
    count: sorted.length,
    mean: sorted.length ? round(sum / sorted.length) : NaN,
    p50: round(percentile(sorted, 50)),
    p90: round(percentile(sorted, 90)),
    p95: round(percentile(sorted, 95)),
    p99: round(percentile(sorted, 99)),
    max: round(sorted.length ? sorted[sorted.length - 1]! : NaN),
    min: round(sorted.length ? sorted[0]! : NaN),
  };
}

/** One second of the run. */
export interface Second {
  /** Seconds since the load started (0 = first second of warm-up). */
  t: number;
  warmup: boolean;
  requested: number;
  /** Responses completed in this second. */
  achieved: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  statuses: Record<string, number>;
  /** Responses that were not what the profile expects, plus transport errors. */
  errors: number;
}

export class Timeline {
  private readonly buckets = new Map<number, { latencies: number[]; statuses: Record<string, number>; errors: number }>();

  constructor(
    private readonly requestedRate: number,
    private readonly warmupS: number,
  ) {}

  private bucket(t: number): { latencies: number[]; statuses: Record<string, number>; errors: number } {
    let b = this.buckets.get(t);
    if (!b) {
      b = { latencies: [], statuses: {}, errors: 0 };
      this.buckets.set(t, b);
    }
    return b;
  }

  add(second: number, status: string, latencyMs: number | undefined, error: boolean): void {
    const b = this.bucket(second);
    b.statuses[status] = (b.statuses[status] ?? 0) + 1;
    if (latencyMs !== undefined) b.latencies.push(latencyMs);
    if (error) b.errors += 1;
  }

  /** The last completed second's figures, for the live display. */
  peek(second: number): Second | undefined {
    return this.buckets.has(second) ? this.render(second) : undefined;
  }

  private render(t: number): Second {
    const b = this.buckets.get(t) ?? { latencies: [], statuses: {}, errors: 0 };
    const sorted = [...b.latencies].sort((x, y) => x - y);
    const achieved = Object.values(b.statuses).reduce((s, n) => s + n, 0);
    return {
      t,
      warmup: t < this.warmupS,
      requested: this.requestedRate,
      achieved,
      p50: round(percentile(sorted, 50)),
      p90: round(percentile(sorted, 90)),
      p99: round(percentile(sorted, 99)),
      max: round(sorted.length ? sorted[sorted.length - 1]! : NaN),
      statuses: { ...b.statuses },
      errors: b.errors,
    };
  }

  /** The run's seconds, by when requests were sent (a drain after the run is not shown). */
  seconds(totalS: number): Second[] {
    return Array.from({ length: totalS }, (_, t) => this.render(t));
  }
}

export interface Histogram {
  /** Upper bounds of the buckets in ms (the first bucket starts at 0). */
  bounds: number[];
  counts: number[];
}

/** Log-spaced buckets, four per power of ten, from 0.1 ms up to the largest latency. */
export function histogram(latencies: readonly number[]): Histogram {
  const max = latencies.reduce((m, v) => Math.max(m, v), 0);
  const bounds: number[] = [];
  for (let e = -1; ; e += 0.25) {
    const b = round(10 ** e, 4);
    bounds.push(b);
    if (b >= max) break;
  }
  const counts = new Array<number>(bounds.length).fill(0);
  for (const v of latencies) {
    let i = bounds.findIndex((b) => v <= b);
    if (i < 0) i = bounds.length - 1;
    counts[i]! += 1;
  }
  return { bounds, counts };
}
