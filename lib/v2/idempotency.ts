// Idempotent submission (seed W:19:bd358774d6ec, W:207:65c2b70e7bc8). The seed allows two
// readings of a retry that repeats a request under its key: the retry is refused 422
// idempotency_key_reuse (the public documents' single-use keys), or it is answered with the
// job the key first created (replay). Either way a key never creates a second job, and a
// different request under a used key is a reuse, refused 422 idempotency_key_reuse.
import type { ApiResponse } from '../api.ts';
import { check } from '../check.ts';

const REUSE = 'idempotency_key_reuse';

/** A refusal of a used key: 422 idempotency_key_reuse. */
export const isReuseRefusal = (res: ApiResponse): boolean => res.status === 422 && res.errorCode === REUSE;

/** The job id a success answer carries (undefined for anything else). */
export function acceptedJobId(res: ApiResponse): string | undefined {
  // Any success (the public documents say 201; that is V2.CONTRACT.DOCUMENTED's, not this rule's).
  if (res.status < 200 || res.status >= 300) return undefined;
  const id = res.json<{ id?: unknown }>().id;
  return typeof id === 'string' ? id : undefined;
}

const shown = (answers: ApiResponse[]) =>
  answers
    .map(
      (r) => `${r.status}${r.errorCode ? ` ${r.errorCode}` : ''}${acceptedJobId(r) ? ` job ${acceptedJobId(r)}` : ''}`,
    )
    .join(', ');

/**
 * Submits of one request under one key (sent together or one after another): exactly one
 * job results; every other answer is that job again or a 422 idempotency_key_reuse.
 * Returns the job id, when there is exactly one.
 */
export function checkOneJobPerKey(answers: ApiResponse[], what: string): string | undefined {
  const ids = new Set(answers.map(acceptedJobId).filter((id): id is string => id !== undefined));
  const stray = answers.filter((r) => acceptedJobId(r) === undefined && !isReuseRefusal(r));
  const ok = ids.size === 1 && stray.length === 0;
  check('V2.JOB.IDEMPOTENT', ok, {
    what,
    expected: 'exactly one job; every other answer that same job again or 422 idempotency_key_reuse',
    received: shown(answers),
    on: stray[0] ?? answers[0],
  });
  return ids.size === 1 ? [...ids][0] : undefined;
}

/** Another request (another workflow) under a key already used: refused 422 idempotency_key_reuse, never a job. */
export function checkOtherRequestRefused(res: ApiResponse, firstJobId: string | undefined): void {
  const id = acceptedJobId(res);
  check('V2.JOB.IDEMPOTENT', isReuseRefusal(res), {
    what: 'a submit of another workflow under a key already used',
    expected: `422 idempotency_key_reuse (a reused key; seed W:207:65c2b70e7bc8)`,
    received:
      id === undefined
        ? `${res.status}${res.errorCode ? ` ${res.errorCode}` : ''}`
        : `${res.status} job ${id}${id === firstJobId ? ' (the first job, though the request differs)' : ' (a second job)'}`,
    on: res,
  });
}
