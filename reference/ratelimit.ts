import type { Allowance } from './accounts.ts';

export type LimitDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

interface Window {
  startedAt: number;
  count: number;
}

// Fixed window per account, opened by the first request after the previous one
// lapsed; predictable enough for tests to exhaust on purpose.
export class RateLimiter {
  private readonly windows = new Map<string, Window>();

  constructor(
    private readonly allowanceOf: (account: string) => Allowance,
    private readonly now: () => number = Date.now,
  ) {}

  take(account: string): LimitDecision {
    const { requests, windowSeconds } = this.allowanceOf(account);
    const windowMs = windowSeconds * 1000;
    const t = this.now();
    let w = this.windows.get(account);
    if (w === undefined || t - w.startedAt >= windowMs) {
      w = { startedAt: t, count: 0 };
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
}
