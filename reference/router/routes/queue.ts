// The queue (seed R § Endpoints): a queued submit runs its partner call at once and
// stores the result; status, result and cancel read it back by request id.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { errorAnswer, type Answer } from '../answer.ts';
import type { ModelDef } from '../catalog.ts';
import { H } from '../constants.ts';
import { SLOW_MS, fallback, parseRunQuery, presentOutput, selectLeg, validateBody } from '../dispatch.ts';
import { RouterError } from '../errors.ts';
import { callPartner, translate, type PartnerAnswer } from '../partners.ts';
import type { Leg } from '../pricing.ts';
import type { Principal } from '../principals.ts';
import type { QueuedRequest } from '../queue.ts';
import {
  cancelTakesEffect,
  atCapacity,
  partnerImageCap,
  providerFailure,
  queuedCap,
  shownQueueStatus,
  submitEstimates,
} from '../variations.ts';
import { submitEstimate } from './estimates.ts';
import { withKey } from './keyed.ts';
import { send, sendJson, type ModelParams, type RequestParams, type RouteKit } from './kit.ts';

/** Runs a submit's partner call and stores its result (or failure) in the queue. */
function admit(
  kit: RouteKit,
  def: ModelDef,
  leg: Leg,
  accepted: boolean,
  body: Record<string, unknown>,
  p: Principal,
): QueuedRequest {
  const { state, policy } = kit;
  const strict = policy.queuedStrict(accepted);
  const sent = leg.kind === 'alternate' && !strict ? { ...body } : body;
  const answer = callPartner({
    model: def,
    leg,
    body: leg.kind === 'alternate' && !strict ? translate(def, leg.provider, sent).body : sent,
    strict,
    imageCap: partnerImageCap(state),
  });
  const runMs = def.behaviour === 'slow' ? 3 * SLOW_MS : 20;
  // A slow model's requests also wait in the queue long enough to be seen (and cancelled) there.
  const waitMs = def.behaviour === 'slow' ? 2 * SLOW_MS : undefined;
  const stored = (ok: Extract<PartnerAnswer, { kind: 'ok' }>, served: Leg = leg): QueuedRequest => {
    const out = presentOutput(state, def, strict, ok, served);
    return state.queue.add(
      { scope: kit.scope(p), modelId: def.id, result: { status: 200, contentType: out.contentType, bytes: out.bytes } },
      runMs,
      waitMs,
    );
  };
  if (answer.kind === 'ok') return stored(answer);
  // A queued submit has no fallback: only a fault turns it on.
  const served = policy.queuedFallback && !strict ? fallback(state, def, p, leg, body, answer) : undefined;
  if (served?.kind === 'served') return stored(served.answer, served.leg);
  const failed = providerFailure(state, answer, def);
  const errorType = failed.headers[H.errorType] ?? 'provider_error';
  const parsed = JSON.parse(failed.body.toString('utf8')) as { detail?: string };
  return state.queue.add(
    {
      scope: kit.scope(p),
      modelId: def.id,
      errorType,
      failure: { status: failed.status, errorType, detail: parsed.detail ?? 'the run failed' },
    },
    runMs,
    waitMs,
  );
}

export function registerQueueRoutes(app: FastifyInstance, kit: RouteKit): void {
  const { state, policy } = kit;

  const presentStatus = (def: ModelDef, r: QueuedRequest): Record<string, unknown> => {
    const status = state.queue.status(r);
    const body: Record<string, unknown> = { request_id: r.id, status: shownQueueStatus(state, status) };
    if (status === 'IN_QUEUE') body.queue_position = policy.queuePosition(state.queue, r);
    if (status === 'COMPLETED' && r.errorType !== undefined) body.error_type = r.errorType;
    return { ...body, ...kit.queueUrls(def, r.id) };
  };

  // ---- POST /v2/models/{provider}/{model}/requests (queued submit) ----
  app.post('/v2/models/:provider/:model/requests', async (req, reply) => {
    const p = kit.principalOf(req);
    const def = kit.resolveModel(req.params as ModelParams);
    kit.requireCredits(p);
    if (!policy.queueable(def))
      throw new RouterError(
        403,
        'not_enabled',
        `${def.id} answers with bytes and cannot be queued; run it on the synchronous route`,
      );
    const q = parseRunQuery(req.query as Record<string, unknown>, state);
    const hasKey = req.headers['idempotency-key'] !== undefined;
    return withKey(kit, req, reply, p, async () => {
      if (def.behaviour === 'busy') throw atCapacity(state, def);
      const cap = queuedCap(state, def);
      if (cap !== undefined && state.queue.unfinished(kit.scope(p), def.id) >= cap) {
        throw new RouterError(
          429,
          'concurrency_limit_exceeded',
          `this caller already has ${cap} unfinished requests of ${def.id}; wait for one to finish`,
          { retryAfter: 1, headers: state.spendHeaders(kit.scope(p)) },
        );
      }
      const leg = selectLeg(state, def, p, q, req.body, 'submit', hasKey);
      const strict = q.strict && leg.kind === 'alternate';
      const body = policy.validateSubmit(req.body, () =>
        validateBody(state, def, req.body, { skipNative: strict, rejectUnknown: q.rejectUnknown, route: 'submit' }),
      );
      const r = admit(kit, def, leg, strict, body, p);
      const handle: Record<string, unknown> = {
        request_id: r.id,
        status: shownQueueStatus(state, 'IN_QUEUE'),
        queue_position: policy.queuePosition(state.queue, r),
        ...kit.queueUrls(def, r.id),
      };
      const withEstimate =
        p.estimates && submitEstimates(state)
          ? { ...handle, estimate: submitEstimate(kit, def, leg, body, p) }
          : handle;
      const json = (b: unknown): Buffer => Buffer.from(JSON.stringify(b));
      const headers = { 'content-type': 'application/json; charset=utf-8' };
      // The original quote is not stored: a replay answers the handle without it.
      const record: Answer = { status: 201, headers, body: json(handle) };
      return { answer: { status: 201, headers, body: json(withEstimate) }, dispatched: true, record };
    });
  });

  // ---- queue reads ----
  const findRequest = (req: FastifyRequest): { def: ModelDef; r: QueuedRequest | undefined; id: string } => {
    const params = req.params as RequestParams;
    const def = kit.resolveModel(params);
    const p = kit.principalOf(req);
    const id = params.request_id;
    return { def, r: state.queue.get(kit.scope(p), def.id, id), id };
  };
  const unknownRequest = (id: string): RouterError =>
    new RouterError(404, 'request_not_found', `no queued request ${id} for this model and caller`);
  const pollHeaders = (): Record<string, string> => ({ 'Retry-After': '1' });

  app.get('/v2/models/:provider/:model/requests/:request_id/status', async (req, reply) => {
    const { def, r, id } = findRequest(req);
    if (!r) throw unknownRequest(id);
    const unfinished = state.queue.status(r) !== 'COMPLETED';
    if (!unfinished) {
      // A finished request never changes again, and polls of it are the hot path under load.
      r.completedStatus ??= Buffer.from(JSON.stringify(presentStatus(def, r)));
      return reply.code(200).header('content-type', 'application/json; charset=utf-8').send(r.completedStatus);
    }
    return sendJson(reply, 200, presentStatus(def, r), pollHeaders());
  });

  app.get('/v2/models/:provider/:model/requests/:request_id', async (req, reply) => {
    const { def, r, id } = findRequest(req);
    if (!r) throw unknownRequest(id);
    if (state.queue.status(r) !== 'COMPLETED') return sendJson(reply, 202, presentStatus(def, r), pollHeaders());
    if (r.agedOut)
      throw new RouterError(
        410,
        'request_not_found',
        `the result of request ${r.id} is no longer kept; submit the request again`,
      );
    if (r.result)
      return send(reply, {
        status: 200,
        headers: { 'content-type': r.result.contentType, 'X-Content-Type-Options': 'nosniff' },
        body: r.result.bytes,
      });
    const failure = r.failure ?? { status: 502, errorType: 'provider_error', detail: 'the run failed' };
    return send(reply, errorAnswer(failure.status, failure.errorType, failure.detail));
  });

  app.put('/v2/models/:provider/:model/requests/:request_id/cancel', async (req, reply) => {
    const { r, id } = findRequest(req);
    if (!r) throw unknownRequest(id);
    if (state.queue.status(r) === 'COMPLETED')
      return sendJson(
        reply,
        409,
        { request_id: r.id, status: 'ALREADY_COMPLETED' },
        { [H.errorType]: 'invalid_input' },
      );
    if (cancelTakesEffect(state)) policy.cancelRequest(state.queue, r);
    return sendJson(reply, 202, { request_id: r.id, status: 'CANCELLATION_REQUESTED' });
  });
}
