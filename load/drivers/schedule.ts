// Intended start times of an open-model run: evenly spaced at the requested rate, or
// Poisson arrivals (exponential gaps with the same mean) from a seeded generator, so a
// run can be replayed with the same arrivals. Times are ms since the load started.

export type Arrival = 'constant' | 'poisson';

export const ARRIVALS: readonly Arrival[] = ['constant', 'poisson'];

/** mulberry32: a small, fast, seedable generator; statistical quality is ample for gaps. */
export function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface Schedule {
  /** The next intended start, in ms since the load started. */
  next(): number;
}

export function schedule(arrival: Arrival, ratePerS: number, seed = 1): Schedule {
  const gapMs = 1000 / ratePerS;
  if (arrival === 'constant') {
    // k * gap rather than a running sum: no drift from accumulated rounding, so a run of
    // `rate` for `d` seconds has exactly rate * d arrivals in it.
    let k = 0;
    return { next: () => k++ * gapMs };
  }
  const random = seeded(seed);
  let at = 0;
  return {
    next() {
      const t = at;
      // 1 - u is in (0, 1], so the log is finite.
      at += -Math.log(1 - random()) * gapMs;
      return t;
    },
  };
}
