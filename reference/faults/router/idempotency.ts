// Router faults of Idempotency-Key handling (seed R § Idempotency).
import type { FaultUnit } from '../../faults.ts';
import { randomUUID } from 'node:crypto';
import { RouterValidationError } from '../../router/errors.ts';
import { H } from '../../router/state.ts';
import { onRouter } from './shared.ts';

export const IDEMPOTENCY_FAULTS = [
  {
    name: 'router-replay-unmarked',
    rule: 'ROUTER.IDEM.REPLAY',
    description: 'replays of successful answers lack Idempotent-Replayed',
    install(s) {
      onRouter(s, undefined, (out) => {
        if (out.status < 300) out.setHeader('Idempotent-Replayed', undefined);
      });
    },
  },
  {
    name: 'router-key-256-accepted',
    rule: 'ROUTER.IDEM.KEY_OUT_OF_RANGE',
    description: 'a 256-character Idempotency-Key is accepted',
    install(s) {
      s.policy.router.maxKeyLength = 256;
    },
  },
  {
    name: 'router-key-cap-128',
    rule: 'ROUTER.IDEM.KEY_LENGTH',
    description: 'Idempotency-Keys longer than 128 characters are refused 400 invalid_input, below the 255 the seed allows',
    install(s) {
      s.policy.router.maxKeyLength = 128;
    },
  },
  {
    name: 'router-conflict-replays',
    rule: 'ROUTER.IDEM.CONFLICT',
    description: 'a key reused with a different body replays the first answer',
    install(s) {
      s.policy.router.claimKey = (store, scope, key, fingerprint) => {
        const found = store.claim(scope, key, fingerprint);
        const any = found.kind === 'conflict' ? store.recordedAnswer(scope, key) : undefined;
        return any === undefined ? found : { kind: 'replay', answer: any };
      };
    },
  },
  {
    name: 'router-inflight-dispatches',
    rule: 'ROUTER.IDEM.IN_FLIGHT',
    description: 'a same-key retry while the original runs is dispatched again',
    install(s) {
      s.policy.router.claimKey = (store, scope, key, fingerprint) => {
        const found = store.claim(scope, key, fingerprint);
        return found.kind === 'running' && found.sameRequest ? { kind: 'fresh' } : found;
      };
    },
  },
  {
    name: 'router-keys-global',
    rule: 'ROUTER.IDEM.SCOPE',
    description: 'idempotency keys are shared by every workspace',
    install(s) {
      s.policy.router.requestScope = () => 'global';
    },
  },
  {
    name: 'router-keyed-anonymous-replay',
    rule: 'ROUTER.IDEM.AUTH_401',
    description: 'an unauthenticated request with a recorded key is answered from the record',
    install(s) {
      // Before authentication: a recorded answer under the key, in any workspace, is replayed.
      s.request({ surfaces: ['router'] }, ({ request, reply, ctx }) => {
        const key = request.headers['idempotency-key'];
        const anonymous = request.headers.authorization === undefined && request.headers['x-api-key'] === undefined;
        if (!request.url.startsWith('/v2/') || !anonymous || typeof key !== 'string') return;
        const answer = ctx.router.idempotency.anyRecorded(key);
        if (answer === undefined) return;
        reply.headers({ [H.requestId]: randomUUID(), ...answer.headers, 'Idempotent-Replayed': 'true' }).code(answer.status).send(answer.body);
      });
    },
  },
  {
    name: 'router-gallery-rerun',
    rule: 'ROUTER.IDEM.NOT_REPLAYABLE',
    description: 'a key whose answer was too large to replay is run again',
    install(s) {
      s.policy.router.claimKey = (store, scope, key, fingerprint) => {
        const found = store.claim(scope, key, fingerprint);
        return found.kind === 'not-replayable' ? { kind: 'fresh' } : found;
      };
    },
  },
  {
    name: 'router-refusal-records-key',
    rule: 'ROUTER.IDEM.RELEASED_ON_REFUSAL',
    description: 'a 422 schema refusal records the key',
    install(s) {
      s.policy.router.keyAfterRefusal = (store, scope, key, fingerprint, err) => {
        if (err instanceof RouterValidationError) store.record(scope, key, fingerprint, { status: 422, headers: {}, body: Buffer.from('{}') }, true);
        else store.release(scope, key);
      };
    },
  },
  {
    name: 'router-policy-released',
    rule: 'ROUTER.IDEM.POLICY_REPLAYED',
    description: 'content-policy refusals release the key',
    install(s) {
      s.policy.router.keyKept = (answer) => answer.headers[H.errorType] !== 'content_policy_violation';
    },
  },
] as const satisfies ReadonlyArray<FaultUnit>;
