// Many clients polling at one fixed arrival rate: a pool of prepared jobs or requests,
// each polled only when its previous answer's Retry-After has elapsed. The pool is
// sized so the arrival rate never forces an early poll; finished items are replaced by
// fresh submits while the load runs, so work keeps really running under the polls.
import { setTimeout as delay } from 'node:timers/promises';
import type { CheckResult, Observation } from '../types.ts';
import type { RuleId } from '../../lib/rule-ids.ts';
import { loadCheck } from '../checks.ts';

interface Item {
  path: string;
  dueAt: number;
  done: boolean;
}

/** The `status` member of a polled JSON body, or undefined when the body is not such JSON. */
export function statusOf(body: string): unknown {
  try {
    return (JSON.parse(body) as { status?: unknown } | null)?.status;
  } catch {
    return undefined;
  }
}

/** Header value as integer seconds, or undefined when absent; NaN when present but not an integer. */
export function retryAfterSeconds(headers: Record<string, string>): number | undefined {
  const raw = headers['retry-after'];
  if (raw === undefined) return undefined;
  return /^\d+$/.test(raw.trim()) ? Number(raw.trim()) : NaN;
}

export class PollPool {
  private readonly items: Item[] = [];
  private readonly byPath = new Map<string, Item>();
  private cursor = 0;
  polls = 0;
  early = 0;
  submitted = 0;
  finished = 0;
  submitFailures = 0;
  lastSubmitError = '';

  constructor(
    private readonly submit: () => Promise<string>,
    readonly size: number,
  ) {}

  private add(path: string): void {
    const item = { path, dueAt: 0, done: false };
    this.items.push(item);
    this.byPath.set(path, item);
  }

  /** Preparation: submits until the pool is full (a few at a time). */
  async fill(): Promise<void> {
    while (this.items.length < this.size) {
      const batch = Math.min(5, this.size - this.items.length);
      const paths = await Promise.all(Array.from({ length: batch }, () => this.submit()));
      this.submitted += paths.length;
      paths.forEach((p) => this.add(p));
    }
  }

  /** The next item to poll: the next due one in turn, else the one due soonest (an early poll). */
  next(now: number): string {
    const n = this.items.length;
    let soonest: Item | undefined;
    for (let k = 0; k < n; k++) {
      const item = this.items[(this.cursor + k) % n];
      if (item.done) continue;
      if (item.dueAt <= now) {
        this.cursor = (this.cursor + k + 1) % n;
        this.polls += 1;
        return item.path;
      }
      if (!soonest || item.dueAt < soonest.dueAt) soonest = item;
    }
    this.polls += 1;
    if (soonest) {
      this.early += 1;
      return soonest.path;
    }
    // Every item finished and not yet replaced: poll a finished one (a valid read).
    const any = this.items[this.cursor % n];
    this.cursor = (this.cursor + 1) % n;
    return any.path;
  }

  wait(path: string, seconds: number, now: number): void {
    const item = this.byPath.get(path);
    if (item) item.dueAt = now + seconds * 1000;
  }

  finish(path: string): void {
    const item = this.byPath.get(path);
    if (item && !item.done) {
      item.done = true;
      this.finished += 1;
    }
  }

  /** Replaces finished items with fresh submits until the signal aborts. */
  async replenish(signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      const done = this.items.filter((i) => i.done).slice(0, 5);
      for (const old of done) {
        if (signal.aborted) break;
        try {
          const path = await this.submit();
          this.submitted += 1;
          const at = this.items.indexOf(old);
          this.byPath.delete(old.path);
          const item = { path, dueAt: 0, done: false };
          this.items[at] = item;
          this.byPath.set(path, item);
        } catch (err) {
          this.submitFailures += 1;
          this.lastSubmitError = (err as Error).message.split('\n')[0] ?? '';
          break;
        }
      }
      await delay(100, undefined, { signal }).catch(() => {});
    }
  }
}

/**
 * What a polling client is told: how often an answer asked it to wait, whether every
 * answer on unfinished work did, and whether the hint was consistent.
 */
export class RetryAfterLedger {
  polls = 0;
  told = 0;
  unfinished = 0;
  missing = 0;
  invalid = 0;
  readonly values = new Map<number, number>();
  readonly bad: string[] = [];

  /** Records one measured or warm-up poll; `unfinished` = the work was still in flight. */
  record(o: Observation, unfinished: boolean): void {
    const ra = retryAfterSeconds(o.headers);
    if (o.measured) {
      this.polls += 1;
      if (ra !== undefined) this.told += 1;
    }
    if (ra !== undefined && Number.isFinite(ra)) this.values.set(ra, (this.values.get(ra) ?? 0) + 1);
    if (!unfinished) return;
    this.unfinished += 1;
    if (ra === undefined) {
      this.missing += 1;
      if (this.bad.length < 3)
        this.bad.push(
          `${o.path} answered ${o.status} without Retry-After while unfinished (at ${(o.at / 1000).toFixed(1)} s)`,
        );
    } else if (Number.isNaN(ra)) {
      this.invalid += 1;
      if (this.bad.length < 3)
        this.bad.push(`${o.path}: Retry-After "${o.headers['retry-after']}" is not integer seconds`);
    }
  }

  metrics(): Record<string, number> {
    return {
      told_to_wait: this.polls ? Math.round((10000 * this.told) / this.polls) / 100 : 0,
      retry_after_missing: this.missing + this.invalid,
      unfinished_polls: this.unfinished,
    };
  }

  figures(): Record<string, unknown> {
    const values = [...this.values.keys()].sort((a, b) => a - b);
    return {
      retry_after_values: Object.fromEntries(
        [...this.values.entries()].sort((a, b) => a[0] - b[0]).map(([k, v]) => [`${k}s`, v]),
      ),
      retry_after_consistent: this.missing === 0 && this.invalid === 0 && values.length <= 1,
      retry_after_spread_s: values.length ? values[values.length - 1] - values[0] : 0,
    };
  }

  check(rule: RuleId): CheckResult {
    const values =
      [...this.values.entries()]
        .sort((a, b) => a[0] - b[0])
        .map(([k, v]) => `${k} s ×${v}`)
        .join(', ') || 'none';
    const ok = this.unfinished > 0 && this.missing === 0 && this.invalid === 0;
    return loadCheck(
      rule,
      ok,
      'every poll of unfinished work carries Retry-After in integer seconds',
      'polls of unfinished work, each with an integer Retry-After',
      this.unfinished === 0
        ? 'no poll saw unfinished work, so the hint was never exercised'
        : ok
          ? `${this.unfinished} polls of unfinished work, all told when to poll again (${values})`
          : `${this.missing} of ${this.unfinished} polls of unfinished work had no Retry-After and ` +
            `${this.invalid} had a non-integer one; ${this.bad.join('; ')}`,
    );
  }
}

/** A host-relative path for a URL the server gave, which must be on the target's origin. */
export function pathOnOrigin(url: string, baseUrl: string): string {
  const u = new URL(url, baseUrl);
  if (u.origin !== new URL(baseUrl).origin)
    throw new Error(`${url} is on another origin than ${baseUrl}; the runner polls one origin`);
  return `${u.pathname}${u.search}`;
}
