// Router faults of Idempotency-Key handling (seed R § Idempotency).
import type { FaultUnit } from '../unit.ts';
import { randomUUID } from 'node:crypto';
import { RouterValidationError } from '../../router/errors.ts';
import { fingerprintOf, REPLAY_CAP_BYTES } from '../../router/idempotency.ts';
import { canonical, holdsPartnerLink } from '../../router/partners.ts';
import { H } from '../../router/constants.ts';
import { RUN, SUBMIT, onRouter, recordingRefusals, routerError, scopeOfRequest } from './shared.ts';

/** What a fault records for a 422 schema refusal it keeps the key of. */
const SCHEMA_REFUSAL = { status: 422, headers: {}, body: Buffer.from('{}') };

export const IDEMPOTENCY_FAULTS = [
  {
    name: 'router-replay-unmarked',
    breaks: 'ROUTER.IDEM.REPLAY',
    statements: ['R:169:6f5647df6adb', 'R:188:cc76cfcb4a6b', 'R:214:5d06e0920a4c'],
    description: 'replays of successful answers lack Idempotent-Replayed',
    install(s) {
      onRouter(s, undefined, (out) => {
        if (out.status < 300) out.setHeader('Idempotent-Replayed', undefined);
      });
    },
  },
  {
    name: 'router-key-256-accepted',
    breaks: 'ROUTER.IDEM.KEY_OUT_OF_RANGE',
    description: 'a 256-character Idempotency-Key is accepted',
    install(s) {
      s.policy.router.maxKeyLength = 256;
    },
  },
  {
    name: 'router-key-cap-128',
    breaks: 'ROUTER.IDEM.KEY_LENGTH',
    statements: ['R:125:a8636bbeb1af', 'R:283:40db08880b8a'],
    description:
      'Idempotency-Keys longer than 128 characters are refused 400 invalid_input, below the 255 the seed allows',
    install(s) {
      s.policy.router.maxKeyLength = 128;
    },
  },
  {
    name: 'router-key-cap-128-conflict',
    breaks: 'ROUTER.IDEM.KEY_LENGTH',
    statements: ['R:125:a8636bbeb1af', 'R:283:40db08880b8a'],
    description:
      'Idempotency-Keys longer than 128 characters are refused 409 invalid_input, as if they held another request',
    install(s) {
      s.policy.router.claimKey = (store, scope, key, fingerprint) =>
        key.length > 128 ? { kind: 'conflict' } : store.claim(scope, key, fingerprint);
    },
  },
  {
    name: 'router-replay-redispatches',
    breaks: 'ROUTER.IDEM.REPLAY',
    statements: ['R:169:f7d57f5d4f81', 'R:169:6f5647df6adb'],
    description:
      'a synchronous run retried under a recorded key is dispatched (and charged) again, and its new ' +
      'answer is sent marked Idempotent-Replayed: true (queued submits replay their handle)',
    install(s) {
      const runKeys = new Set<string>();
      const again = new Set<string>();
      s.request({ surfaces: ['router'], routes: [RUN] }, ({ request }) => {
        const key = request.headers['idempotency-key'];
        if (typeof key === 'string') runKeys.add(key);
      });
      s.policy.router.claimKey = (store, scope, key, fingerprint) => {
        const found = store.claim(scope, key, fingerprint);
        if (found.kind !== 'replay' || !runKeys.has(key)) return found;
        store.release(scope, key);
        again.add(key);
        return store.claim(scope, key, fingerprint);
      };
      onRouter(s, [RUN], (out) => {
        const key = out.request.headers['idempotency-key'];
        if (out.status === 200 && typeof key === 'string' && again.has(key))
          out.setHeader('Idempotent-Replayed', 'true');
      });
    },
  },
  {
    name: 'router-conflict-replays',
    breaks: 'ROUTER.IDEM.CONFLICT',
    statements: ['R:165:954ec7a8c43e', 'R:265:f8f2f15b8db3'],
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
    breaks: 'ROUTER.IDEM.IN_FLIGHT',
    statements: ['R:138:bc1b401a1951', 'R:164:21135e0ced7b', 'R:265:f8f2f15b8db3'],
    description: 'a same-key retry while the original runs is dispatched again',
    install(s) {
      s.policy.router.claimKey = (store, scope, key, fingerprint) => {
        const found = store.claim(scope, key, fingerprint);
        return found.kind === 'running' && found.sameRequest ? { kind: 'fresh' } : found;
      };
    },
  },
  {
    name: 'router-teammate-conflict-runs',
    breaks: 'ROUTER.IDEM.SCOPE',
    statements: ['R:170:fbe5d04d02cd', 'R:170:583f5ec8e664'],
    description:
      "key conflicts are told apart per member: a teammate's different request under a key of the workspace is run afresh instead of refused 409",
    install(s) {
      const owner = new Map<string, string>();
      s.policy.router.claimKey = (store, scope, key, fingerprint, caller) => {
        const id = `${scope}\0${key}`;
        let found = store.claim(scope, key, fingerprint);
        if (found.kind === 'conflict' && owner.has(id) && owner.get(id) !== caller) {
          store.release(scope, key);
          found = store.claim(scope, key, fingerprint);
        }
        if (found.kind === 'fresh') owner.set(id, caller);
        return found;
      };
    },
  },
  {
    name: 'router-keys-global',
    breaks: 'ROUTER.IDEM.SCOPE',
    statements: ['R:170:fbe5d04d02cd'],
    description: 'idempotency keys are shared by every workspace',
    install(s) {
      s.policy.router.requestScope = () => 'global';
    },
  },
  {
    name: 'router-keyed-anonymous-replay',
    breaks: 'ROUTER.IDEM.AUTH_401',
    statements: ['R:171:0f992c6bbbab'],
    description: 'an unauthenticated request with a recorded key is answered from the record',
    install(s) {
      // Before authentication: a recorded answer under the key, in any workspace, is replayed.
      s.request({ surfaces: ['router'] }, ({ request, reply, ctx }) => {
        const key = request.headers['idempotency-key'];
        const anonymous = request.headers.authorization === undefined && request.headers['x-api-key'] === undefined;
        if (!request.url.startsWith('/v2/') || !anonymous || typeof key !== 'string') return;
        const answer = ctx.router.idempotency.anyRecorded(key);
        if (answer === undefined) return;
        reply
          .headers({ [H.requestId]: randomUUID(), ...answer.headers, 'Idempotent-Replayed': 'true' })
          .code(answer.status)
          .send(answer.body);
      });
    },
  },
  {
    name: 'router-gallery-rerun',
    breaks: 'ROUTER.IDEM.NOT_REPLAYABLE',
    statements: ['R:172:9866bea06ef5', 'R:172:01e994d949d3'],
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
    breaks: 'ROUTER.IDEM.RELEASED_ON_REFUSAL',
    statements: ['R:173:123a957184e7', 'R:173:9444fff5531e'],
    description: 'a 422 schema refusal records the key',
    install(s) {
      s.policy.router.keyAfterRefusal = recordingRefusals((err) =>
        err instanceof RouterValidationError ? SCHEMA_REFUSAL : undefined,
      );
    },
  },
  {
    name: 'router-forbidden-records-key',
    breaks: 'ROUTER.IDEM.RELEASED_ON_REFUSAL',
    statements: ['R:173:123a957184e7', 'R:173:9444fff5531e'],
    description:
      'a 403 for a model the caller may not use records its Idempotency-Key, as a dispatched answer would be, so the corrected request under it is refused 409',
    install(s) {
      onRouter(s, [RUN], (out) => {
        const key = out.request.headers['idempotency-key'];
        if (out.status !== 403 || routerError(out)?.error_type !== 'forbidden' || typeof key !== 'string') return;
        const scope = scopeOfRequest(out.ctx, out.request);
        const url = new URL(out.request.url, 'http://x');
        const fingerprint = fingerprintOf(
          out.request.method,
          url.pathname,
          [...url.searchParams]
            .sort()
            .map(([k, v]) => `${k}=${v}`)
            .join('&'),
          canonical(out.request.body ?? null),
        );
        out.ctx.router.idempotency.record(
          scope,
          key,
          fingerprint,
          { status: 403, headers: { [H.errorType]: 'forbidden' }, body: Buffer.from(JSON.stringify(out.body)) },
          true,
        );
      });
    },
  },
  {
    name: 'router-mismatch-records-key',
    breaks: 'ROUTER.IDEM.RELEASED_ON_REFUSAL',
    statements: ['R:173:123a957184e7', 'R:173:9444fff5531e'],
    description:
      'the 422 for a body naming another model than the path records its Idempotency-Key (the check ' +
      'runs after the key is taken), so the corrected request under it is refused 409',
    install(s) {
      s.policy.router.keyAfterRefusal = recordingRefusals((err) =>
        err instanceof RouterValidationError && err.entries.some((e) => e.type === 'model_mismatch')
          ? SCHEMA_REFUSAL
          : undefined,
      );
    },
  },
  {
    name: 'router-partner-link-not-replayed',
    breaks: 'ROUTER.IDEM.PROVIDER_LINK_WINDOW',
    statements: ['R:172:012b38b74594'],
    description:
      "an answer that carries the partner's own asset link is recorded but never replayable: a retry a moment later is refused 409 invalid_input (no window)",
    install(s) {
      s.policy.router.replayable = (answer) => answer.body.length <= REPLAY_CAP_BYTES && !holdsPartnerLink(answer.body);
    },
  },
  {
    name: 'router-cutoff-replays-failure',
    breaks: 'ROUTER.IDEM.PROVIDER_LINK_WINDOW',
    statements: ['R:172:095fab30ad8d'],
    description:
      'the key of a call cut off mid-generation at a submit-and-poll partner holds the 504 the caller ' +
      'got, not the generation: the same-key retry gets the 504 again instead of the result',
    install(s) {
      s.policy.router.cutoffRecord = (sent) => sent;
    },
  },
  {
    name: 'router-policy-released',
    breaks: 'ROUTER.IDEM.POLICY_REPLAYED',
    statements: ['R:173:cb4a265cbad7'],
    description: 'content-policy refusals release the key',
    install(s) {
      s.policy.router.keyKept = (answer) => answer.headers[H.errorType] !== 'content_policy_violation';
    },
  },
  {
    name: 'router-inflight-no-retry-after',
    breaks: 'ROUTER.IDEM.IN_FLIGHT',
    statements: ['R:138:bc1b401a1951', 'R:164:21135e0ced7b', 'R:215:49b76e9b4942'],
    description:
      'the 409 concurrency_limit_exceeded for a key whose original call still runs carries no ' +
      "Retry-After (the header is set by the 429 limiter's path only), so the caller is not told when " +
      'to retry the same key',
    install(s) {
      onRouter(s, [RUN, SUBMIT], (out) => {
        if (out.status === 409 && routerError(out)?.error_type === 'concurrency_limit_exceeded')
          out.setHeader('Retry-After', undefined);
      });
    },
  },
  {
    name: 'router-cutoff-holds-job-record',
    breaks: 'ROUTER.IDEM.PROVIDER_LINK_WINDOW',
    statements: ['R:172:095fab30ad8d'],
    description:
      "the key of a call cut off mid-generation at a submit-and-poll partner holds the partner's job " +
      "record ({id, status: completed}, the last poll answer) instead of the generation's result: the " +
      'same-key retry gets a 200 that is not the result',
    install(s) {
      s.policy.router.cutoffRecord = (_sent, generation) => ({
        ...generation,
        headers: { ...generation.headers, 'content-type': 'application/json' },
        body: Buffer.from(JSON.stringify({ id: randomUUID(), status: 'completed' })),
      });
    },
  },
] as const satisfies ReadonlyArray<FaultUnit>;
