// What the router fault units share: the routes as registered, and readers of the
// router's answers ({detail, error_type} errors, queue handles, estimates).
import type { Outgoing, Seams, ResponseHook } from '../seams.ts';
import { isObj, type Obj } from '../v2/shared.ts';
import type { ReferenceContext } from '../../context.ts';
import { H } from '../../router/constants.ts';
import type { RecordedAnswer } from '../../router/idempotency.ts';
import type { RouterPolicy } from '../../router/policy.ts';
import { resolvePrincipal, scopeOf } from '../../router/principals.ts';
import type { QueuedRequest } from '../../router/queue.ts';

export { isObj, type Obj };

export const LIST = 'GET /v2/models';
export const DETAIL = 'GET /v2/models/:provider/:model';
export const SCHEMA = 'GET /v2/models/:provider/:model/openapi.json';
export const SNAPSHOT = 'GET /router-schemas/:provider/:file';
export const RUN = 'POST /v2/models/:provider/:model';
export const ESTIMATE = 'POST /v2/models/:provider/:model/estimate';
export const SUBMIT = 'POST /v2/models/:provider/:model/requests';
export const STATUS = 'GET /v2/models/:provider/:model/requests/:request_id/status';
export const COLLECT = 'GET /v2/models/:provider/:model/requests/:request_id';
export const CANCEL = 'PUT /v2/models/:provider/:model/requests/:request_id/cancel';
export const QUEUE_URLS = ['status_url', 'response_url', 'cancel_url'] as const;

/** A response hook on the router surface, on the given routes or on every answer. */
export function onRouter(s: Seams, routes: readonly string[] | undefined, hook: ResponseHook): void {
  s.respond(routes === undefined ? { surfaces: ['router'] } : { surfaces: ['router'], routes }, hook);
}

/** The body of a router error answer, `{detail, error_type, ...}`. */
export function routerError(out: Outgoing): Obj | undefined {
  return out.status >= 400 && isObj(out.body) && typeof out.body.error_type === 'string' ? out.body : undefined;
}

/** Answers a router error instead: the status, the error-type header and `{detail, error_type}`. */
export function answerError(out: Outgoing, status: number, errorType: string, detail: string): void {
  out.status = status;
  out.setHeader(H.errorType, errorType);
  out.body = { detail, error_type: errorType };
}

/** Files a router error answer under another error_type, in its body and its header. */
export function retypeError(out: Outgoing, errorType: string): void {
  if (isObj(out.body)) out.body.error_type = errorType;
  out.setHeader(H.errorType, errorType);
}

export function params(out: { request: { params: unknown } }): Record<string, string> {
  return out.request.params as Record<string, string>;
}

/** The estimate an answer carries: the estimate route's body, or a queued submit's `estimate`. */
export function estimateOf(out: Outgoing): Obj | undefined {
  if (out.status >= 300 || !isObj(out.body)) return undefined;
  if (isObj(out.body.estimate)) return out.body.estimate;
  return typeof out.body.source === 'string' && typeof out.body.currency === 'string' ? out.body : undefined;
}

/** The end of the detail of a capacity refusal (503 on a busy model). */
export const CAPACITY_DETAIL = 'is at capacity; retry after the indicated time';

export function dropSpendHeaders(out: Outgoing): void {
  for (const h of ['X-Committed-Spend-Limit', 'X-Committed-Spend-Current', 'X-Committed-Spend-Remaining'])
    out.setHeader(h, undefined);
}

/** The key scope (workspace, or user) of the caller of a router request. */
export function scopeOfRequest(ctx: ReferenceContext, request: { headers: Outgoing['request']['headers'] }): string {
  const { router } = ctx;
  return router.policy.requestScope(resolvePrincipal(request.headers, router.policy.bearerFirst), scopeOf);
}

/** The caller's queued request `id` of the model in the path of a queue route. */
export function queuedOf(out: Outgoing, id: string): QueuedRequest | undefined {
  const { provider, model } = params(out);
  return out.ctx.router.queue.get(scopeOfRequest(out.ctx, out.request), `${provider}/${model}`, id);
}

/**
 * A `keyAfterRefusal` under which the refusals `recorded` gives an answer for record their
 * Idempotency-Key with that answer, as a dispatched answer would; the others release it.
 */
export function recordingRefusals(
  recorded: (err: unknown) => RecordedAnswer | undefined,
): RouterPolicy['keyAfterRefusal'] {
  return (store, scope, key, fingerprint, err) => {
    const answer = recorded(err);
    if (answer !== undefined) store.record(scope, key, fingerprint, answer, true);
    else store.release(scope, key);
  };
}
