// Latency histograms of the open-model runner: HDR histograms in integer microseconds
// (three significant digits, so any value is within 0.1 % of what was recorded), kept
// in the pure-JS build so nothing waits on WebAssembly. Shards write them in HDR's own
// compressed base64 form and the merge adds them bucket by bucket: percentiles of a
// merged run are read from the merged counts, never averaged.
import * as hdr from 'hdr-histogram-js';
import { addToBuckets, logBounds, type Histogram } from './stats.ts';

export type Hdr = hdr.Histogram;

/** Relative precision of a recorded value (three significant digits). */
export const HDR_PRECISION = 0.001;

export function newHdr(): Hdr {
  return hdr.build({
    bitBucketSize: 32,
    useWebAssembly: false,
    autoResize: true,
    lowestDiscernibleValue: 1,
    numberOfSignificantValueDigits: 3,
  });
}

/** Records a duration given in ms (negative values, from clock steps, count as 0). */
export function recordMs(h: Hdr, ms: number): void {
  h.recordValue(ms > 0 ? Math.round(ms * 1000) : 0);
}

export function encodeHdr(h: Hdr): string {
  return hdr.encodeIntoCompressedBase64(h);
}

export function decodeHdr(base64: string): Hdr {
  return hdr.decodeFromCompressedBase64(base64, 32, false);
}

/** A new histogram holding the counts of all the given ones. */
export function mergeHdr(parts: readonly Hdr[]): Hdr {
  const out = newHdr();
  for (const p of parts) out.add(p);
  return out;
}

/**
 * The largest value recorded, in ms, read the way HDR reads a percentile: as the upper
 * edge of its bucket (within HDR_PRECISION of the value itself; HdrHistogram's own
 * getMaxValue does the same). Reading the max as the exact value while percentiles are
 * bucket edges let p99.9 exceed max when both fell in one bucket (p99.9 10.007 ms beside a
 * max of 10.001 ms), and made a run's max differ from the same run's decoded histogram.
 */
export function maxMs(h: Hdr): number {
  if (h.totalCount === 0) return NaN;
  return (h instanceof hdr.JsHistogram ? h.highestEquivalentValue(h.maxValue) : h.maxValue) / 1000;
}

/** The value at a percentile in ms (NaN for an empty histogram); never above maxMs. */
export function percentileMs(h: Hdr, p: number): number {
  if (h.totalCount === 0) return NaN;
  return Math.min(h.getValueAtPercentile(p) / 1000, maxMs(h));
}

export interface HdrSummary {
  count: number;
  p50: number;
  p90: number;
  p95: number;
  p99: number;
  'p99.9': number;
  max: number;
  mean: number;
}

const r3 = (n: number): number => (Number.isFinite(n) ? Math.round(n * 1000) / 1000 : n);

export function summarizeHdr(h: Hdr): HdrSummary {
  const empty = h.totalCount === 0;
  return {
    count: h.totalCount,
    p50: r3(percentileMs(h, 50)),
    p90: r3(percentileMs(h, 90)),
    p95: r3(percentileMs(h, 95)),
    p99: r3(percentileMs(h, 99)),
    'p99.9': r3(percentileMs(h, 99.9)),
    max: r3(maxMs(h)),
    mean: empty ? NaN : r3(h.mean / 1000),
  };
}

/** The report chart's log-spaced buckets, filled from every recorded value of `h`. */
export function chartBuckets(h: Hdr): Histogram {
  const bounds = logBounds(h.totalCount ? h.maxValue / 1000 : 0);
  const out = { bounds, counts: new Array<number>(bounds.length).fill(0) };
  // The pure-JS histogram exposes its counts array; walking it is exact and cheap.
  if (!(h instanceof hdr.JsHistogram) || h.totalCount === 0) return out;
  for (let i = 0; i < h.countsArrayLength; i++) {
    const c = h.getCountAtIndex(i);
    if (c > 0) addToBuckets(out, h.valueFromIndex(i) / 1000, c);
  }
  return out;
}
