// A run's raw figures, as written into its report so shards can be merged exactly: the
// counts, the HDR histograms (compressed base64) and the seconds. The headline metrics
// are always computed from these, for one run and for a merge alike, so a merged
// report's percentiles come from the added histograms, never from averaged percentiles.
import { chartBuckets, decodeHdr, encodeHdr, mergeHdr, summarizeHdr, type Hdr } from './hdr.ts';
import type { DriveCounts, Model } from './drivers/types.ts';
import { round, type Histogram } from './stats.ts';
import { mergeSeconds, type SecondRaw } from './timeline.ts';

export interface RawCounts extends DriveCounts {
  /** Measured answers the profile did not expect, failures, drops and cut requests. */
  errors: number;
  /** Measured arrivals that did not end in a 2xx answer. */
  non2xx: number;
}

export interface RawFigures {
  model: Model;
  /** Requested arrivals per second (summed over shards). */
  requested_rate: number;
  /** Requests actually sent per second in the measured window (summed over shards). */
  sent_rate: number;
  measured_s: number;
  counts: RawCounts;
  /** HDR histograms, µs, compressed base64 (HdrHistogram's V2 encoding). */
  corrected: string;
  uncorrected: string;
  spacing: string;
  seconds: SecondRaw[];
}

export interface Decoded {
  corrected: Hdr;
  uncorrected: Hdr;
  spacing: Hdr;
}

export function encodeFigures(h: Decoded): Pick<RawFigures, 'corrected' | 'uncorrected' | 'spacing'> {
  return { corrected: encodeHdr(h.corrected), uncorrected: encodeHdr(h.uncorrected), spacing: encodeHdr(h.spacing) };
}

function decodeFigures(raw: RawFigures): Decoded {
  return {
    corrected: decodeHdr(raw.corrected),
    uncorrected: decodeHdr(raw.uncorrected),
    spacing: decodeHdr(raw.spacing),
  };
}

const pct = (part: number, whole: number, digits = 4): number => (whole ? round((100 * part) / whole, digits) : 0);

/** The headline metrics thresholds read. Latency metrics are corrected (what users felt). */
export function metricsOf(raw: RawFigures, h: Decoded = decodeFigures(raw)): Record<string, number> {
  const c = raw.counts;
  const lat = summarizeHdr(h.corrected);
  const unc = summarizeHdr(h.uncorrected);
  const open = raw.model === 'open';
  const sp = summarizeHdr(h.spacing);
  return {
    requests: c.scheduled,
    rate: round(raw.sent_rate, 2),
    requested_rate: round(raw.requested_rate, 3),
    rate_achieved: raw.requested_rate ? round((100 * raw.sent_rate) / raw.requested_rate, 2) : 0,
    measured_s: round(raw.measured_s, 3),
    p50: lat.p50,
    p90: lat.p90,
    p95: lat.p95,
    p99: lat.p99,
    'p99.9': lat['p99.9'],
    max: lat.max,
    mean: lat.mean,
    uncorrected_p50: unc.p50,
    uncorrected_p90: unc.p90,
    uncorrected_p99: unc.p99,
    'uncorrected_p99.9': unc['p99.9'],
    uncorrected_max: unc.max,
    late: open ? pct(c.late, c.scheduled) : NaN,
    late_requests: open ? c.late : NaN,
    dropped: open ? c.dropped : NaN,
    spacing_p50: open ? sp.p50 : NaN,
    spacing_p99: open ? sp.p99 : NaN,
    spacing_max: open ? sp.max : NaN,
    errors: pct(c.errors, c.scheduled),
    non_2xx: pct(c.non2xx, c.scheduled),
    transport_errors: c.failed + c.unfinished,
  };
}

export function chartOf(raw: RawFigures): Histogram {
  return chartBuckets(decodeHdr(raw.corrected));
}

/** Adds shards' raw figures: counts and rates summed, histograms added bucket by bucket. */
export function mergeFigures(parts: readonly RawFigures[]): RawFigures {
  if (parts.length === 0) throw new Error('nothing to merge');
  const model = parts[0].model;
  const counts = { ...parts[0].counts };
  for (const p of parts.slice(1))
    for (const k of Object.keys(counts) as Array<keyof RawCounts>) counts[k] += p.counts[k];
  const decoded = parts.map(decodeFigures);
  return {
    model,
    requested_rate: parts.reduce((s, p) => s + p.requested_rate, 0),
    sent_rate: parts.reduce((s, p) => s + p.sent_rate, 0),
    measured_s: Math.max(...parts.map((p) => p.measured_s)),
    counts,
    ...encodeFigures({
      corrected: mergeHdr(decoded.map((d) => d.corrected)),
      uncorrected: mergeHdr(decoded.map((d) => d.uncorrected)),
      spacing: mergeHdr(decoded.map((d) => d.spacing)),
    }),
    seconds: mergeSeconds(parts.map((p) => p.seconds)),
  };
}
