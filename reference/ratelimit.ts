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

export class RateLimiter {
  private readonly windows = new Map<string, Window>();
  private readonly buckets = new Map<string, Bucket>();

  constructor(
    private readonly allowanceOf: (account: string) => Allowance,
    private readonly now: () => number = Date.now,
    private readonly kind: LimiterKind = 'rolling-window',
  ) {}

  take(account: string): LimitDecision {
    const allowance = this.allowanceOf(account);
    return this.kind === 'token-bucket' ? this.fromBucket(account, allowance) : this.fromWindow(account, allowance);
  }

  // A fixed window per account, predictable enough for tests to exhaust on purpose.
  private fromWindow(account: string, { requests, windowSeconds }: Allowance): LimitDecision {
    const windowMs = windowSeconds * 1000;
    const t = this.now();
    let w = this.windows.get(account);
    if (w === undefined || t - w.startedAt >= windowMs) {
      w = { startedAt: this.kind === 'clock-window' ? t - (t % windowMs) : t, count: 0 };
      this.windows.set(account, w);
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
