// What the router fault units share: the routes as registered, and readers of the
// router's answers ({detail, error_type} errors, queue handles, estimates).
import type { Outgoing, Seams, ResponseHook } from '../seams.ts';
import { isObj, type Obj } from '../v2/shared.ts';

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
