// Queued requests. A request waits IN_QUEUE, runs IN_PROGRESS and ends COMPLETED; its
// state is derived from the clock, so no timers are left behind when the server closes.
import { randomUUID } from 'node:crypto';

export type QueueStatus = 'IN_QUEUE' | 'IN_PROGRESS' | 'COMPLETED';

export interface StoredResult {
  status: number;
  contentType: string;
  bytes: Buffer;
}

export interface QueuedRequest {
  id: string;
  /** Admission order (two admissions within one millisecond are still ordered). */
  seq: number;
  scope: string;
  modelId: string;
  enqueuedAt: number;
  startsAt: number;
  endsAt: number;
  /** What the run produced when it succeeded. */
  result?: StoredResult;
  /** The bucket of a run that did not succeed (set at completion). */
  errorType?: string;
  /** The error answer a collect of a failed run gives. */
  failure?: { status: number; errorType: string; detail: string };
  cancelled?: boolean;
  /** A finished request whose stored result is no longer kept (collect answers 410). */
  agedOut?: boolean;
  /**
   * The status answer's body once COMPLETED, serialised on its first poll: a finished
   * request never changes again, and polls of it are the hot path under load.
   */
  completedStatus?: Buffer;
}

const QUEUE_WAIT_MS = 10;

/** The queued request of the default caller on pixelforge/pf-flux-lite whose result has aged out (targets.yaml: aged_out_request_id). */
export const AGED_OUT_REQUEST_ID = '5e0c1d2a-7b3f-4c8e-9a61-0d4f2b8c3e71';

export class QueueStore {
  private readonly requests = new Map<string, QueuedRequest>();
  private admitted = 0;

  constructor(private readonly now: () => number = Date.now) {}

  add(
    init: Omit<QueuedRequest, 'id' | 'seq' | 'enqueuedAt' | 'startsAt' | 'endsAt'>,
    runMs: number,
    waitMs = QUEUE_WAIT_MS,
  ): QueuedRequest {
    const t = this.now();
    const req: QueuedRequest = {
      ...init,
      id: randomUUID(),
      seq: ++this.admitted,
      enqueuedAt: t,
      startsAt: t + waitMs,
      endsAt: t + waitMs + runMs,
    };
    this.requests.set(req.id, req);
    return req;
  }

  /** A request that finished long ago and whose result has aged out of retention (a scenario's, by a known ID). */
  addAgedOut(id: string, scope: string, modelId: string): void {
    const t = this.now() - 48 * 3600 * 1000;
    this.requests.set(id, { id, seq: 0, scope, modelId, enqueuedAt: t, startsAt: t, endsAt: t + 1000, agedOut: true });
  }

  get(scope: string, modelId: string, id: string): QueuedRequest | undefined {
    const r = this.requests.get(id);
    return r && r.scope === scope && r.modelId === modelId ? r : undefined;
  }

  status(r: QueuedRequest): QueueStatus {
    const t = this.now();
    if (t >= r.endsAt) return 'COMPLETED';
    return t >= r.startsAt ? 'IN_PROGRESS' : 'IN_QUEUE';
  }

  /** Requests admitted before this one that are still waiting (0 = front). */
  position(r: QueuedRequest): number {
    let ahead = 0;
    for (const other of this.requests.values()) {
      if (other.seq < r.seq && this.status(other) === 'IN_QUEUE') ahead += 1;
    }
    return ahead;
  }

  /** The scope's requests of a model that have not finished (a control's per-caller cap counts them). */
  unfinished(scope: string, modelId: string): number {
    let n = 0;
    for (const r of this.requests.values())
      if (r.scope === scope && r.modelId === modelId && this.status(r) !== 'COMPLETED') n += 1;
    return n;
  }

  /** Requests admitted after this one that are still waiting (only a fault reports it). */
  behind(r: QueuedRequest): number {
    let count = 0;
    for (const other of this.requests.values()) {
      if (other.seq > r.seq && this.status(other) === 'IN_QUEUE') count += 1;
    }
    return count;
  }

  /** Cancellation takes effect at once here: the request ends COMPLETED, failed as cancelled. */
  cancel(r: QueuedRequest): void {
    r.cancelled = true;
    r.endsAt = Math.min(r.endsAt, this.now());
    r.startsAt = Math.min(r.startsAt, r.endsAt);
    delete r.result;
    r.errorType = 'cancelled';
    r.failure = {
      status: 409,
      errorType: 'cancelled',
      detail: 'the request was cancelled before it produced a result',
    };
  }
}
