// v2 job records: what the v2 surfaces know about a job beyond its execution
// (labels, the surface it was sent to, its retention), plus idempotency keys.
import type { ApiWorkflow } from '../engine/types.ts';

export interface V2Job {
  id: string;
  account: string;
  /** Jobs are listed and read only on the surface (deployment) they were sent to. */
  scope: string;
  labels?: Record<string, string>;
  workflow: ApiWorkflow;
  createdAt: number;
  expiresAt: number;
}

/** Job expiry: creation + 30 days (seed W § Limits 2; a placeholder, not a promise). */
export const JOB_RETENTION_MS = 30 * 86_400_000;
const IDEMPOTENCY_TTL_MS = 86_400_000;

export class JobStore {
  private readonly jobs = new Map<string, V2Job>();
  private readonly keys = new Map<string, { at: number; jobId?: string }>();

  constructor(private readonly now: () => number = Date.now) {}

  add(job: V2Job): void {
    this.jobs.set(job.id, job);
  }

  /** The job while it is retrievable (until expires_at), else undefined. */
  get(id: string): V2Job | undefined {
    const job = this.jobs.get(id);
    return job && job.expiresAt > this.now() ? job : undefined;
  }

  list(scope: string, account: string): V2Job[] {
    return [...this.jobs.values()]
      .filter((j) => j.scope === scope && j.account === account && j.expiresAt > this.now())
      .sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? 1 : -1));
  }

  /** True when no live record holds the key. */
  keyFree(scope: string, account: string, key: string): boolean {
    const held = this.keys.get(`${scope}\n${account}\n${key}`);
    return held === undefined || held.at + IDEMPOTENCY_TTL_MS <= this.now();
  }

  /**
   * Claims an idempotency key; false when it was claimed before (reject semantics:
   * any later request with the key is refused, never replayed). Synchronous, so
   * concurrent requests with one key cannot both claim it.
   */
  claimKey(scope: string, account: string, key: string): boolean {
    if (!this.keyFree(scope, account, key)) return false;
    this.keys.set(`${scope}\n${account}\n${key}`, { at: this.now() });
    return true;
  }

  /** Records which job a claimed key created (read back by the idempotent-replay control and the idempotency-replay fault). */
  bindKey(scope: string, account: string, key: string, jobId: string): void {
    const held = this.keys.get(`${scope}\n${account}\n${key}`);
    if (held) held.jobId = jobId;
  }

  jobOfKey(scope: string, account: string, key: string): string | undefined {
    return this.keys.get(`${scope}\n${account}\n${key}`)?.jobId;
  }

  releaseKey(scope: string, account: string, key: string): void {
    this.keys.delete(`${scope}\n${account}\n${key}`);
  }
}
