// A call under an Idempotency-Key (seed R § Idempotency rules): claim the key, replay a
// recorded answer, refuse a conflict, then record the answer or release the key.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Answer } from '../answer.ts';
import { RouterError, invalidInput } from '../errors.ts';
import { fingerprintOf, type Lookup } from '../idempotency.ts';
import { canonical } from '../partners.ts';
import type { Principal } from '../principals.ts';
import { send, type RouteKit } from './kit.ts';

/** What a keyed call produced: its answer, whether it reached a provider, and what to record if not the answer itself. */
export interface KeyedOutcome {
  answer: Answer;
  dispatched: boolean;
  record?: Answer;
}

export async function withKey(
  kit: RouteKit,
  req: FastifyRequest,
  reply: FastifyReply,
  p: Principal,
  run: () => Promise<KeyedOutcome>,
): Promise<FastifyReply> {
  const { state, policy } = kit;
  const raw = req.headers['idempotency-key'];
  if (raw === undefined) {
    const { answer } = await run();
    return send(reply, answer);
  }
  const key = Array.isArray(raw) ? raw.join(',') : raw;
  if (key.length < 1 || key.length > policy.maxKeyLength)
    throw invalidInput(`Idempotency-Key must be 1 to 255 characters (got ${key.length})`);
  const url = new URL(req.url, 'http://x');
  const fingerprint = fingerprintOf(
    req.method,
    url.pathname,
    [...url.searchParams]
      .sort()
      .map(([k, v]) => `${k}=${v}`)
      .join('&'),
    canonical(req.body ?? null),
  );
  const s = kit.scope(p);
  const found: Lookup = policy.claimKey(state.idempotency, s, key, fingerprint, p.caller);
  switch (found.kind) {
    case 'replay':
      return send(reply, { ...found.answer, headers: { ...found.answer.headers, 'Idempotent-Replayed': 'true' } });
    case 'running':
      if (found.sameRequest)
        throw new RouterError(
          409,
          'concurrency_limit_exceeded',
          'the first call with this Idempotency-Key has not finished; retry with the same key after Retry-After',
          { retryAfter: 1 },
        );
      throw new RouterError(
        409,
        'invalid_input',
        'this Idempotency-Key is in use by a different request; use a new key',
      );
    case 'conflict':
      throw new RouterError(
        409,
        'invalid_input',
        'this Idempotency-Key was used for a different request; use a new key',
      );
    case 'not-replayable':
      throw new RouterError(
        409,
        'invalid_input',
        'the answer recorded for this Idempotency-Key cannot be replayed; the key stays consumed, use a new key',
      );
    case 'fresh':
      break;
  }
  let outcome: KeyedOutcome;
  try {
    outcome = await run();
  } catch (err) {
    // Refusals raised before dispatch charged nothing and release the key.
    policy.keyAfterRefusal(state.idempotency, s, key, fingerprint, err);
    throw err;
  }
  if (outcome.dispatched && policy.keyKept(outcome.answer)) {
    const kept = outcome.record ?? outcome.answer;
    state.idempotency.record(s, key, fingerprint, kept, policy.replayable(kept));
  } else {
    state.idempotency.release(s, key);
  }
  return send(reply, outcome.answer);
}
