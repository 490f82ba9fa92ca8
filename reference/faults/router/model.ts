// Router faults only a sequence of actions shows (issue #24 § 5): each breaks its rule after
// some earlier action changed the router's state (a cancel, a replay, a collect), the way a
// real router keeps state wrong. No single-scenario check takes the path that leads there;
// the router state machine (specs/router/model.property.spec.ts) draws sequences that do, and
// catches each under the rule.
import type { FastifyRequest } from 'fastify';
import type { FaultUnit } from '../unit.ts';
import type { RecordedAnswer } from '../../router/idempotency.ts';
import { H } from '../../router/constants.ts';
import { CANCEL, COLLECT, STATUS, SUBMIT, isObj, onRouter, params, scopeOfRequest } from './shared.ts';

const keyOf = (request: FastifyRequest): string | undefined => {
  const key = request.headers['idempotency-key'];
  return typeof key === 'string' && key.length > 0 ? key : undefined;
};

const fresh = (out: { status: number; header(name: string): string | undefined }) =>
  out.status === 201 && out.header('Idempotent-Replayed') !== 'true';

export const ROUTER_MODEL_FAULTS = [
  {
    name: 'router-key-freed-by-cancel',
    breaks: 'ROUTER.IDEM.REPLAY',
    statements: ['R:169:6f5647df6adb'],
    description:
      'a cancel that is taken (202 CANCELLATION_REQUESTED) frees the Idempotency-Key the request was ' +
      'submitted under: the cancel runs the clean-up meant for a submit refused before dispatch, so ' +
      'the same key and request are then admitted again as a new request, dispatched and charged anew, ' +
      'instead of answered from the record. Caught by the router state machine alone; no hand-written ' +
      'check sends a key again after cancelling the request it admitted ' +
      '(specs/router/idempotency.spec.ts replays keys of requests never cancelled, ' +
      'specs/router/queue.spec.ts cancels requests submitted without a key)',
    install(s) {
      const keys = new Map<string, { scope: string; key: string }>();
      onRouter(s, [SUBMIT], (out) => {
        const key = keyOf(out.request);
        if (key === undefined || !fresh(out) || !isObj(out.body) || typeof out.body.request_id !== 'string') return;
        keys.set(out.body.request_id, { scope: scopeOfRequest(out.ctx, out.request), key });
      });
      onRouter(s, [CANCEL], (out) => {
        if (out.status !== 202) return;
        const held = keys.get(params(out).request_id ?? '');
        if (held !== undefined) out.ctx.router.idempotency.release(held.scope, held.key);
      });
    },
  },
  {
    name: 'router-collect-shifted-after-cancel',
    breaks: 'ROUTER.QUEUE.COLLECT_IDENTICAL',
    statements: ['R:195:adc652f16295'],
    description:
      "collect finds a stored result by the request's place in its workspace's list of admissions, " +
      'fixed when it was admitted; a cancel that is taken removes the cancelled request from that ' +
      'list, so a request admitted before the cancel (and after the cancelled one) is then collected ' +
      'with the result of the request admitted after it (or, at the end of the list, as a failed run: ' +
      '502 provider_error). Caught by specs/router/queue.spec.ts, whose test of a cancel taken on one ' +
      'request submits a slow_model request and then two image_model requests, cancels the first and ' +
      'compares each image collect with a synchronous run of its own body (the router state machine ' +
      'catches it too when a random run cancels and then collects)',
    install(s) {
      const lists = new Map<string, string[]>();
      const admitted = new Map<string, { place: number; model: string }>();
      onRouter(s, [SUBMIT], (out) => {
        if (
          !fresh(out) ||
          !isObj(out.body) ||
          typeof out.body.request_id !== 'string' ||
          admitted.has(out.body.request_id)
        )
          return;
        const scope = scopeOfRequest(out.ctx, out.request);
        const list = lists.get(scope) ?? [];
        lists.set(scope, list);
        admitted.set(out.body.request_id, {
          place: list.length,
          model: `${params(out).provider}/${params(out).model}`,
        });
        list.push(out.body.request_id);
      });
      onRouter(s, [CANCEL], (out) => {
        if (out.status !== 202) return;
        const list = lists.get(scopeOfRequest(out.ctx, out.request));
        const at = list?.indexOf(params(out).request_id ?? '') ?? -1;
        if (list !== undefined && at >= 0) list.splice(at, 1);
      });
      onRouter(s, [COLLECT], (out) => {
        if (out.status !== 200) return;
        const id = params(out).request_id ?? '';
        const own = admitted.get(id);
        const scope = scopeOfRequest(out.ctx, out.request);
        const list = lists.get(scope);
        if (own === undefined || list === undefined || list[own.place] === id) return;
        const other = list[own.place];
        const { queue } = out.ctx.router;
        const r = other === undefined ? undefined : queue.get(scope, admitted.get(other)?.model ?? '', other);
        if (r?.result !== undefined && queue.status(r) === 'COMPLETED') {
          out.payload = r.result.bytes;
          out.setHeader('content-type', r.result.contentType);
          return;
        }
        // No result at that place: the run reads as failed.
        out.status = 502;
        out.setHeader('content-type', 'application/json; charset=utf-8');
        out.setHeader('X-Content-Type-Options', undefined);
        out.setHeader(H.errorType, 'provider_error');
        out.payload = Buffer.from(JSON.stringify({ detail: 'the run failed', error_type: 'provider_error' }));
      });
    },
  },
  {
    name: 'router-teammate-replay-cache',
    breaks: 'ROUTER.IDEM.SCOPE',
    statements: ['R:170:583f5ec8e664'],
    description:
      "once the member who made a key's record has been answered from it again, the record is copied " +
      "into the workspace's hot replay cache, keyed by workspace and key alone; the other members' " +
      'requests under that key are answered from that cache without comparing the request, so a ' +
      "teammate's different request under the key is answered with the record instead of 409. Caught " +
      'by the scope test of specs/router/idempotency.spec.ts (the teammate sends another request under ' +
      "the key after its maker's retry), and by the router state machine",
    install(s) {
      const owners = new Map<string, string>();
      const hot = new Map<string, RecordedAnswer>();
      s.policy.router.claimKey = (store, scope, key, fingerprint, caller) => {
        const id = `${scope}\0${key}`;
        const owner = owners.get(id);
        const cached = hot.get(id);
        if (owner !== undefined && owner !== caller && cached !== undefined) return { kind: 'replay', answer: cached };
        const found = store.claim(scope, key, fingerprint);
        if (found.kind === 'fresh') owners.set(id, caller);
        if (found.kind === 'replay' && owner === caller) hot.set(id, found.answer);
        return found;
      };
    },
  },
  {
    name: 'router-status-reopened-after-collect',
    breaks: 'ROUTER.QUEUE.STATUS_CLOSED',
    statements: ['R:107:74fe11755885'],
    description:
      'a collect that answers a result hands the request to the result-retention sweeper, which puts ' +
      "it back on the worker's list; the status, read from that list, says IN_PROGRESS (with " +
      'Retry-After) from then on, as if the finished request ran once more, while a collect, read from ' +
      'the result store, still answers the result. Caught by the router state machine, and since issue ' +
      '#29 by specs/router/queue.spec.ts, which reads a finished request again after collecting it ' +
      '(before a late cancel)',
    install(s) {
      const reopened = new Set<string>();
      // One clause: the status reopens. A collect only hands the request over (a collect answering
      // 202 again would be ROUTER.QUEUE.COLLECT_IDENTICAL's to judge, and a second rule).
      const unfinished = (collect: boolean) => (out: Parameters<Parameters<typeof onRouter>[2]>[0]) => {
        const { provider, model, request_id: id = '' } = params(out);
        if (collect) {
          if (out.status === 200) reopened.add(id);
          return;
        }
        if (!reopened.has(id)) return;
        if (out.status !== 200 && out.status !== 202) return;
        const root = `${out.ctx.router.baseUrl()}/v2/models/${provider}/${model}/requests/${id}`;
        out.status = 200;
        out.setHeader('content-type', 'application/json; charset=utf-8');
        out.setHeader('X-Content-Type-Options', undefined);
        out.setHeader('Retry-After', '1');
        out.payload = Buffer.from(
          JSON.stringify({
            request_id: id,
            status: 'IN_PROGRESS',
            status_url: `${root}/status`,
            response_url: root,
            cancel_url: `${root}/cancel`,
          }),
        );
      };
      onRouter(s, [STATUS], unfinished(false));
      onRouter(s, [COLLECT], unfinished(true));
    },
  },
] as const satisfies ReadonlyArray<FaultUnit>;
