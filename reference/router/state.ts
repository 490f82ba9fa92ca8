// Everything one running router keeps: catalog, cursors, documents, idempotency
// records, queued requests, rate limits and committed spend.
import { randomUUID } from 'node:crypto';
import { RateLimiter } from '../ratelimit.ts';
import { Catalog, type ModelDef } from './catalog.ts';
import { CursorCodec } from './cursor.ts';
import { IdempotencyStore } from './idempotency.ts';
import { AGED_OUT_REQUEST_ID, QueueStore } from './queue.ts';
import { scopeOfCaller } from './principals.ts';
import type { RouterPolicy } from './policy.ts';
import type { SchemaDocument } from './schemas.ts';
import type { ControlName } from '../controls.ts';
import { SPEND_LIMIT_CENTS } from './constants.ts';

export class RouterState {
  readonly catalog = new Catalog(randomUUID());
  readonly cursors = new CursorCodec(this.catalog.epoch);
  readonly idempotency = new IdempotencyStore();
  readonly queue = new QueueStore();
  readonly limiter: RateLimiter;
  /** When the rate cards were fetched (every card but the stale one's). */
  readonly pricingAsOf = new Date().toISOString();
  private readonly docs = new Map<string, SchemaDocument>();
  private readonly inFlight = new Map<string, number>();
  private readonly runningCalls = new Map<string, number>();

  constructor(
    /** The override points (reference/router/policy.ts): correct unless a fault replaced one. */
    readonly policy: RouterPolicy,
    readonly baseUrl: () => string,
    /** The harmless variation the reference runs with (reference/controls.ts), for the router's own. */
    readonly isControl: (name: ControlName) => boolean = () => false,
  ) {
    this.limiter = new RateLimiter((caller) => policy.callerAllowance(caller));
    this.queue.addAgedOut(AGED_OUT_REQUEST_ID, scopeOfCaller('alice'), 'pixelforge/pf-flux-lite');
  }

  /**
   * Admits one synchronous call for a scope with an in-flight limit: undefined when the
   * limit is reached, else the function that ends the call.
   */
  startCall(scope: string, limit: number | undefined): (() => void) | undefined {
    if (limit === undefined) return () => {};
    const running = this.runningCalls.get(scope) ?? 0;
    if (running >= this.policy.inFlightLimit(limit)) return undefined;
    this.runningCalls.set(scope, running + 1);
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.runningCalls.set(scope, Math.max(0, (this.runningCalls.get(scope) ?? 0) - 1));
    };
  }

  document(model: ModelDef): SchemaDocument {
    let doc = this.docs.get(model.id);
    if (!doc) {
      doc = this.policy.schemaDocument(model);
      this.docs.set(model.id, doc);
    }
    return doc;
  }

  /** Commits `cents` for a call in flight; the returned function releases them. */
  reserve(scope: string, cents: number): () => void {
    this.inFlight.set(scope, (this.inFlight.get(scope) ?? 0) + cents);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.inFlight.set(scope, Math.max(0, (this.inFlight.get(scope) ?? 0) - cents));
    };
  }

  spendHeaders(scope: string): Record<string, string> {
    const current = this.inFlight.get(scope) ?? 0;
    const remaining = Math.max(0, SPEND_LIMIT_CENTS - current);
    return {
      'X-Committed-Spend-Limit': String(SPEND_LIMIT_CENTS),
      'X-Committed-Spend-Current': String(current),
      'X-Committed-Spend-Remaining': String(remaining),
    };
  }
}
