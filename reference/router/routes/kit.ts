// What the router's route groups share: sending answers, the caller a request was
// authenticated as, the addressed model, the catalog entry shape, and queue URLs.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { errorAnswer, type Answer } from '../answer.ts';
import { validSegments, type ModelDef } from '../catalog.ts';
import { RouterError, modelNotFound } from '../errors.ts';
import type { RouterPolicy } from '../policy.ts';
import { scopeOf, type Principal } from '../principals.ts';
import type { RouterState } from '../state.ts';
import { memberNames, type MemberNames } from '../variations.ts';

export interface ModelParams {
  provider: string;
  model: string;
}
export interface RequestParams extends ModelParams {
  request_id: string;
}

export function send(reply: FastifyReply, answer: Answer): FastifyReply {
  for (const [k, v] of Object.entries(answer.headers)) reply.header(k, v);
  return reply.code(answer.status).send(answer.body);
}

export function sendError(reply: FastifyReply, err: RouterError): FastifyReply {
  if (err.opts.retryAfter !== undefined) reply.header('Retry-After', String(err.opts.retryAfter));
  return send(reply, errorAnswer(err.status, err.errorType, err.detail, err.opts.headers ?? {}, err.opts.extra ?? {}));
}

export function sendJson(
  reply: FastifyReply,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): FastifyReply {
  return send(reply, {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
    body: Buffer.from(JSON.stringify(body)),
  });
}

export interface RouteKit {
  readonly state: RouterState;
  readonly policy: RouterPolicy;
  /** The caller the authentication hook found for this request. */
  principalOf(req: FastifyRequest): Principal;
  /** The scope a caller's keys, queue and spend live in. */
  scope(p: Principal): string;
  /** The model the path addresses, or the refusal (unknown, retired, restricted). */
  resolveModel(params: ModelParams): ModelDef;
  /** Member names the seed does not show: public docs' by default (reference/router/variations.ts). */
  readonly names: MemberNames;
  /** A model's catalog entry, as the listing and the detail answer it. */
  entryOf(def: ModelDef): Record<string, unknown>;
  publicOrigin(): string;
  queueUrls(def: ModelDef, id: string): Record<string, string>;
  /** A run or a queued submit needs credits. */
  requireCredits(p: Principal): void;
}

export function routeKit(state: RouterState, principals: WeakMap<FastifyRequest, Principal>): RouteKit {
  const { catalog, policy } = state;
  return {
    state,
    policy,
    principalOf(req) {
      const p = principals.get(req);
      if (!p) throw new Error('route reached without authentication');
      return p;
    },
    scope: (p) => policy.requestScope(p, scopeOf),
    resolveModel(params) {
      const { provider, model } = policy.modelSegments(params.provider, params.model);
      const id = `${provider}/${model}`;
      const def = validSegments(provider, model) ? catalog.get(provider, model) : undefined;
      if (!def) throw modelNotFound(id.length > 200 ? `${id.slice(0, 200)}…` : id);
      const retiredOn = policy.retiredOn(def);
      if (retiredOn !== undefined) {
        const successor = def.retired?.successor;
        throw new RouterError(
          404,
          'model_not_found',
          successor
            ? `${def.id} was retired on ${retiredOn}; use ${successor}`
            : `${def.id} was retired on ${retiredOn}`,
        );
      }
      if (policy.restricted(def)) throw new RouterError(403, 'forbidden', `this caller may not use ${def.id}`);
      return def;
    },
    // Asked each time an answer names one (the router-renamed-members control).
    get names() {
      return memberNames(state);
    },
    entryOf(def) {
      const names = memberNames(state);
      return {
        [names.id]: def.id,
        provider: def.provider,
        model: def.model,
        [names.billing]: { [names.chargesOnPolicyRejection]: def.chargesOnPolicyRejection },
      };
    },
    publicOrigin: () => state.baseUrl().replace(/^http:/, 'https:'),
    queueUrls(def, id) {
      const root = `${state.baseUrl()}/v2/models/${def.id}/requests/${id}`;
      return { status_url: `${root}/status`, response_url: root, cancel_url: `${root}/cancel` };
    },
    requireCredits(p) {
      if (!policy.funded(p))
        throw new RouterError(
          402,
          'insufficient_credits',
          'this workspace has no credits; add credits to run partner models',
        );
    },
  };
}
