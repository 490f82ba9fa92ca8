// v1 prompts: which engine jobs were submitted through /api/prompt, by whom, and the
// v1 job status vocabulary (seed W § States and transitions › v1 job status).
import type { ApiWorkflow, JobState } from '../engine/types.ts';
import { NodeCache } from './cache.ts';

export interface V1Job {
  id: string;
  account: string;
  workflow: ApiWorkflow;
  /** extra_data.client_id, if the client named one (ComfyUI's routing hint; the stream ignores it). */
  clientId: string | undefined;
  createdAt: number;
}

export class V1Jobs {
  private readonly jobs = new Map<string, V1Job>();
  /** The engine's node cache as the stream reports it (consulted only under the caching controls). */
  readonly cache = new NodeCache();

  add(job: V1Job): void {
    this.jobs.set(job.id, job);
  }

  get(id: string): V1Job | undefined {
    return this.jobs.get(id);
  }
}

/**
 * Accounts whose status answers use the second vocabulary (pending, in_progress,
 * completed, failed, cancelled), as another listing of the same operation does.
 * Seed W: the two are not reconciled; clients key on terminal vs in flight.
 */
const SECOND_VOCABULARY = new Set(['bob']);

export function v1Status(state: JobState, account: string, everyAccount = false): string {
  // everyAccount: the v1-second-vocabulary-only control, where every account reads the second listing's names.
  const second = everyAccount || SECOND_VOCABULARY.has(account);
  switch (state.status) {
    case 'queued':
      // The job next in line reports a name only the public spec lists: clients must not match on in-flight names.
      if (second) return 'pending';
      return state.queuePosition === 1 ? 'waiting_to_dispatch' : 'queued_waiting';
    case 'running':
      if (second) return 'in_progress';
      return state.progress?.current_node ? 'executing' : 'preparing';
    case 'canceling':
      return second ? 'in_progress' : 'cancel_requested';
    case 'succeeded':
      return second ? 'completed' : 'success';
    case 'failed':
      return second ? 'failed' : 'error';
    case 'canceled':
      return 'cancelled';
  }
}
