import type { Allowance } from './accounts.ts';

export type LimitDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/**
 * How a limiter spends an allowance of N requests per window (seed W names no algorithm,
 * W:243:b753a80a141e gives no numbers): `rolling-window` (the reference's own), a fixed window
 * opened by the first request after the previous one lapsed; `clock-window`, fixed windows
 * aligned to the clock (each starts at a multiple of the window since the epoch); `token-bucket`,
 * a bucket of N tokens refilled evenly over the window.
 */
export type LimiterKind = 'rolling-window' | 'clock-window' | 'token-bucket';

interface Window {
  startedAt: number;
  count: number;
}

interface Bucket {
  tokens: number;
  at: number;
}

/** The algorithms a control may put in place of the reference's own. */
export type AlternativeKind = Exclude<LimiterKind, 'rolling-window'>;

export class RateLimiter {
  // Every algorithm keeps its own books on every request, so the one serving an answer has
  // the state it would have had alone; only where their answers differ is it asked which serves.
  private readonly rolling = new Map<string, Window>();
  private readonly clock = new Map<string, Window>();
  private readonly buckets = new Map<string, Bucket>();
  private readonly serves: (alternative: AlternativeKind) => boolean;

  constructor(
    private readonly allowanceOf: (account: string) => Allowance,
    private readonly now: () => number = Date.now,
    /** A fixed algorithm, or a question asked where an alternative's answer differs from the rolling window's. */
    kind: LimiterKind | ((alternative: AlternativeKind) => boolean) = 'rolling-window',
  ) {
    this.serves = typeof kind === 'function' ? kind : (alternative) => alternative === kind;
  }

  take(account: string): LimitDecision {
    const allowance = this.allowanceOf(account);
    const rolling = this.fromWindow(this.rolling, false, account, allowance);
    const clock = this.fromWindow(this.clock, true, account, allowance);
    const bucket = this.fromBucket(account, allowance);
    if (!sameDecision(clock, rolling) && this.serves('clock-window')) return clock;
    if (!sameDecision(bucket, rolling) && this.serves('token-bucket')) return bucket;
    return rolling;
  }

  // A fixed window per account, predictable enough for tests to exhaust on purpose.
  private fromWindow(
    windows: Map<string, Window>,
    aligned: boolean,
    account: string,
    { requests, windowSeconds }: Allowance,
  ): LimitDecision {
    const windowMs = windowSeconds * 1000;
    const t = this.now();
    let w = windows.get(account);
    if (w === undefined || t - w.startedAt >= windowMs) {
      w = { startedAt: aligned ? t - (t % windowMs) : t, count: 0 };
      windows.set(account, w);
    }
    if (w.count < requests) {
      w.count += 1;
      return { allowed: true };
    }
    const remainingMs = w.startedAt + windowMs - t;
    const seconds = Math.ceil(remainingMs / 1000);
    return { allowed: false, retryAfterSeconds: Math.max(1, seconds) };
  }

  private fromBucket(account: string, { requests, windowSeconds }: Allowance): LimitDecision {
    const perMs = requests / (windowSeconds * 1000);
    const t = this.now();
    const b = this.buckets.get(account) ?? { tokens: requests, at: t };
    b.tokens = Math.min(requests, b.tokens + (t - b.at) * perMs);
    b.at = t;
    this.buckets.set(account, b);
    if (b.tokens >= 1) {
      b.tokens -= 1;
      return { allowed: true };
    }
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - b.tokens) / perMs / 1000)) };
  }
}

function sameDecision(a: LimitDecision, b: LimitDecision): boolean {
  return a.allowed ? b.allowed : !b.allowed && a.retryAfterSeconds === b.retryAfterSeconds;
}
