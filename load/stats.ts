// Small figure helpers: exact percentiles over a list of numbers, rounding, and the
// log-spaced latency histogram the report's chart draws (load/hdr.ts fills it from an
// HDR histogram; the per-second figures are in load/timeline.ts).

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank];
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
    max: round(sorted.length ? sorted[sorted.length - 1] : NaN),
    min: round(sorted.length ? sorted[0] : NaN),
  };
}

export interface Histogram {
  /** Upper bounds of the buckets in ms (the first bucket starts at 0). */
  bounds: number[];
  counts: number[];
}

/** Log-spaced bucket bounds, four per power of ten, from 0.1 ms up to `max`. */
export function logBounds(max: number): number[] {
  const bounds: number[] = [];
  for (let e = -1; ; e += 0.25) {
    const b = round(10 ** e, 4);
    bounds.push(b);
    if (b >= max) break;
  }
  return bounds;
}

/** Adds `count` values of `v` ms to the bucket that holds it (the last one if beyond). */
export function addToBuckets(h: Histogram, v: number, count = 1): void {
  let i = h.bounds.findIndex((b) => v <= b);
  if (i < 0) i = h.bounds.length - 1;
  h.counts[i] += count;
}

/** Log-spaced buckets, four per power of ten, from 0.1 ms up to the largest latency. */
export function histogram(latencies: readonly number[]): Histogram {
  const bounds = logBounds(latencies.reduce((m, v) => Math.max(m, v), 0));
  const h = { bounds, counts: new Array<number>(bounds.length).fill(0) };
  for (const v of latencies) addToBuckets(h, v);
  return h;
}
