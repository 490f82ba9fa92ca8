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
  /**
   * The status answer's body once COMPLETED, serialised on its first poll: a finished
   * request never changes again, and polls of it are the hot path under load.
   */
  completedStatus?: Buffer;
}

export const QUEUE_WAIT_MS = 10;

export class QueueStore {
  private readonly requests = new Map<string, QueuedRequest>();

  constructor(private readonly now: () => number = Date.now) {}

  add(init: Omit<QueuedRequest, 'id' | 'enqueuedAt' | 'startsAt' | 'endsAt'>, runMs: number, waitMs = QUEUE_WAIT_MS): QueuedRequest {
    const t = this.now();
    const req: QueuedRequest = { ...init, id: randomUUID(), enqueuedAt: t, startsAt: t + waitMs, endsAt: t + waitMs + runMs };
    this.requests.set(req.id, req);
    return req;
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

  /** Requests ahead of this one that are still waiting (0 = front). */
  position(r: QueuedRequest): number {
    let ahead = 0;
    for (const other of this.requests.values()) {
      if (other !== r && other.enqueuedAt <= r.enqueuedAt && this.status(other) === 'IN_QUEUE') ahead += 1;
    }
    return ahead;
  }

  /** Cancellation takes effect at once here: the request ends COMPLETED, failed as cancelled. */
  cancel(r: QueuedRequest): void {
    r.cancelled = true;
    r.endsAt = Math.min(r.endsAt, this.now());
    r.startsAt = Math.min(r.startsAt, r.endsAt);
    delete r.result;
    r.errorType = 'cancelled';
    r.failure = { status: 409, errorType: 'cancelled', detail: 'the request was cancelled before it produced a result' };
  }
}
