// Idempotent replays (R § Endpoints › Idempotency, rule 1): a retry under a key, with the
// request that made the key's record, is answered from that record and marked
// Idempotent-Replayed. One judgement for the router state machine's retries and for the
// retries a passive observer sees (lib/passive/).
import type { ApiResponse } from '../api.ts';
import { check } from '../check.ts';
import type { RuleId } from '../rule-ids.ts';
import { jsonOf } from './models.ts';

export const REPLAYED = 'idempotent-replayed';
export const replayed = (res: ApiResponse): boolean => res.header(REPLAYED)?.trim().toLowerCase() === 'true';
export const marked = (res: ApiResponse): string => res.header(REPLAYED) ?? 'absent';

/** A key's record: a queued submit's admission (its request_id), or a synchronous run's answer (status and bytes). */
export type KeyRecord = { route: 'submit'; requestId: string } | { route: 'run'; status: number; bytes: Buffer };

/** Whether an answer under the key is its record: the same request admitted, or the same answer byte for byte. */
export function fromRecord(record: KeyRecord, res: ApiResponse): boolean {
  if (record.route === 'submit') return res.status === 201 && jsonOf(res)?.request_id === record.requestId;
  return res.status === record.status && res.body.equals(record.bytes);
}

/**
 * A retry of the key's first request: answered from its record (under `rule`: REPLAY for the
 * key's owner, SCOPE for a teammate), then marked replayed. Returns whether it was the
 * record (however marked).
 */
export function judgeRetry(record: KeyRecord, res: ApiResponse, rule: RuleId, what: string, got: string): boolean {
  const want =
    record.route === 'submit'
      ? `the recorded answer: 201 for the same request ${record.requestId}`
      : `the recorded answer: ${record.status} with its ${record.bytes.length} bytes`;
  if (!check(rule, fromRecord(record, res), { what, expected: want, received: got, on: res })) return false;
  check('ROUTER.IDEM.REPLAY', replayed(res), {
    what: `${what}, answered from the record`,
    expected: 'Idempotent-Replayed: true',
    received: marked(res),
    on: res,
  });
  return true;
}
