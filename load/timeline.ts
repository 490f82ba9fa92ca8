// The run second by second, by intended start (on the open model arrivals line up with
// the requested rate; a late answer still belongs to the second its user arrived in).
// Each second keeps an HDR histogram of corrected latency, so shards' seconds merge by
// adding counts, like the run's whole figures.
import { decodeHdr, encodeHdr, maxMs, mergeHdr, newHdr, percentileMs, recordMs, type Hdr } from './hdr.ts';
import { round } from './stats.ts';

/** One second of the run. */
export interface Second {
  /** Seconds since the load started (0 = first second of warm-up). */
  t: number;
  warmup: boolean;
  requested: number;
  /** Arrivals of this second that were answered, failed or dropped. */
  achieved: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  statuses: Record<string, number>;
  /** Answers the profile did not expect, transport failures and dropped arrivals. */
  errors: number;
  /** Arrivals sent later than the late limit. */
  late: number;
}

/** A second as a shard writes it: counts and the compressed histogram. */
export interface SecondRaw {
  t: number;
  hdr: string;
  statuses: Record<string, number>;
  errors: number;
  late: number;
}

interface Bucket {
  hdr: Hdr;
  statuses: Record<string, number>;
  errors: number;
  late: number;
}

function render(t: number, b: Bucket | undefined, requested: number, warmupS: number): Second {
  const statuses = { ...(b?.statuses ?? {}) };
  const h = b?.hdr;
  const empty = !h || h.totalCount === 0;
  return {
    t,
    warmup: t < warmupS,
    requested,
    achieved: Object.values(statuses).reduce((s, n) => s + n, 0),
    p50: empty ? NaN : round(percentileMs(h, 50)),
    p90: empty ? NaN : round(percentileMs(h, 90)),
    p99: empty ? NaN : round(percentileMs(h, 99)),
    max: empty ? NaN : round(maxMs(h)),
    statuses,
    errors: b?.errors ?? 0,
    late: b?.late ?? 0,
  };
}

export class Timeline {
  private readonly buckets = new Map<number, Bucket>();

  constructor(
    private readonly requestedRate: number,
    private readonly warmupS: number,
  ) {}

  private bucket(t: number): Bucket {
    let b = this.buckets.get(t);
    if (!b) {
      b = { hdr: newHdr(), statuses: {}, errors: 0, late: 0 };
      this.buckets.set(t, b);
    }
    return b;
  }

  add(second: number, status: string, latencyMs: number | undefined, error: boolean, late = false): void {
    const b = this.bucket(second);
    b.statuses[status] = (b.statuses[status] ?? 0) + 1;
    if (latencyMs !== undefined) recordMs(b.hdr, latencyMs);
    if (error) b.errors += 1;
    if (late) b.late += 1;
  }

  /** A second's figures so far, for the live display. */
  peek(second: number): Second | undefined {
    return this.buckets.has(second)
      ? render(second, this.buckets.get(second), this.requestedRate, this.warmupS)
      : undefined;
  }

  /** The run's seconds (a drain after the run is not shown). */
  seconds(totalS: number): Second[] {
    return Array.from({ length: totalS }, (_, t) => render(t, this.buckets.get(t), this.requestedRate, this.warmupS));
  }

  raw(totalS: number): SecondRaw[] {
    return Array.from({ length: totalS }, (_, t) => {
      const b = this.buckets.get(t);
      return {
        t,
        hdr: encodeHdr(b?.hdr ?? newHdr()),
        statuses: { ...(b?.statuses ?? {}) },
        errors: b?.errors ?? 0,
        late: b?.late ?? 0,
      };
    });
  }
}

/** Adds shards' seconds second by second (each shard counts from its own start). */
export function mergeSeconds(parts: ReadonlyArray<readonly SecondRaw[]>): SecondRaw[] {
  const length = Math.max(0, ...parts.map((p) => p.length));
  return Array.from({ length }, (_, t) => {
    const here = parts.map((p) => p[t]).filter((s): s is SecondRaw => s !== undefined);
    const statuses: Record<string, number> = {};
    for (const s of here) for (const [k, v] of Object.entries(s.statuses)) statuses[k] = (statuses[k] ?? 0) + v;
    return {
      t,
      hdr: encodeHdr(mergeHdr(here.map((s) => decodeHdr(s.hdr)))),
      statuses,
      errors: here.reduce((n, s) => n + s.errors, 0),
      late: here.reduce((n, s) => n + s.late, 0),
    };
  });
}

export function secondsFromRaw(raw: readonly SecondRaw[], requested: number, warmupS: number): Second[] {
  return raw.map((s) =>
    render(s.t, { hdr: decodeHdr(s.hdr), statuses: s.statuses, errors: s.errors, late: s.late }, requested, warmupS),
  );
}
