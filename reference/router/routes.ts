// The router's HTTP surface (seed R § Endpoints): catalog, detail, schema documents and
// snapshots, synchronous runs, estimates and the queue. Every response carries
// X-<Brand>-Request-Id; every error X-<Brand>-Error-Type.
import { randomUUID } from 'node:crypto';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { validSegments, type ModelDef } from './catalog.ts';
import { commitmentCents, errorAnswer, fallback, parseRunQuery, presentOutput, runSync, selectLeg, SLOW_MS, validateBody, type Answer } from './dispatch.ts';
import { RouterError, RouterValidationError, invalidInput, modelNotFound } from './errors.ts';
import { fingerprintOf, type Lookup } from './idempotency.ts';
import { callPartner, canonical, translate, type PartnerAnswer } from './partners.ts';
import { StaleCardError, charge, estimateBody, quote, type Leg, type Quote } from './pricing.ts';
import { resolvePrincipal, scopeOf, type Principal } from './principals.ts';
import type { QueuedRequest } from './queue.ts';
import { H, MAX_BODY_BYTES, type RouterState } from './state.ts';
import { capacityBucket, defaultMaxTokens, memberNames, partnerImageCap, providerFailure, quoteVideoOperation, rateLimited, rateLimitRetryAfter, schemaFailureBucket, shapeQuote, shownProvider, shownQueueStatus, spendHeadersOnRuns, submitEstimates } from './variations.ts';

interface ModelParams {
  provider: string;
  model: string;
}
interface RequestParams extends ModelParams {
  request_id: string;
}

function send(reply: FastifyReply, answer: Answer): FastifyReply {
  for (const [k, v] of Object.entries(answer.headers)) reply.header(k, v);
  return reply.code(answer.status).send(answer.body);
}

function sendError(reply: FastifyReply, err: RouterError): FastifyReply {
  if (err.opts.retryAfter !== undefined) reply.header('Retry-After', String(err.opts.retryAfter));
  return send(reply, errorAnswer(err.status, err.errorType, err.detail, err.opts.headers ?? {}, err.opts.extra ?? {}));
}

function sendJson(reply: FastifyReply, status: number, body: unknown, headers: Record<string, string> = {}): FastifyReply {
  return send(reply, { status, headers: { 'content-type': 'application/json; charset=utf-8', ...headers }, body: Buffer.from(JSON.stringify(body)) });
}

export function registerRouterRoutes(app: FastifyInstance, state: RouterState): void {
  const { catalog, rules } = state;
  const principals = new WeakMap<FastifyRequest, Principal>();
  const principalOf = (req: FastifyRequest): Principal => {
    const p = principals.get(req);
    if (!p) throw new Error('route reached without authentication');
    return p;
  };
  const scope = (p: Principal): string => rules.requestScope(p, scopeOf);

  // ---- every response: request id; errors: error type ----
  // Callback style: it runs on every call, and an async hook costs a promise per request.
  app.addHook('onRequest', (_req, reply, done) => {
    reply.header(H.requestId, randomUUID());
    done();
  });

  app.setErrorHandler((err: unknown, request: FastifyRequest, reply: FastifyReply) => {
    if (err instanceof RouterValidationError) {
      return sendJson(reply, 422, { detail: err.entries }, { [H.errorType]: 'invalid_input' });
    }
    if (err instanceof RouterError) return sendError(reply, err);
    const fe = err as Partial<FastifyError>;
    if (fe.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      // Fastify answers `Connection: close` and closes at once, with the body unread: the
      // reset can reach the client before this answer does (RFC 9112 § 9.6). Keeping the
      // connection lets Node read the rest of the body and the client read the 413.
      reply.removeHeader('connection');
      return sendError(reply, new RouterError(413, 'invalid_input', `the request body is larger than ${MAX_BODY_BYTES} bytes`));
    }
    if (typeof fe.statusCode === 'number' && fe.statusCode >= 400 && fe.statusCode < 500) {
      return sendError(reply, invalidInput(`malformed request: ${fe.message ?? 'unreadable body'}; send a JSON object as application/json`));
    }
    request.log.error({ err }, 'unexpected router error');
    return sendError(reply, new RouterError(500, 'internal_error', 'the router hit an unexpected error'));
  });
  app.setNotFoundHandler((request, reply) => sendError(reply, new RouterError(404, 'model_not_found', `no route for ${request.method} ${request.url.split('?')[0]}`)));

  // ---- authentication, then the caller's request allowance ----
  // Callback style too: it runs on every /v2 call (the polls of a load run among them).
  const authenticate = (req: FastifyRequest): void => {
    if (!req.url.startsWith('/v2/')) return;
    const anonymous = req.headers.authorization === undefined && req.headers['x-api-key'] === undefined;
    const guest = anonymous ? rules.anonymousPrincipal(req) : undefined;
    if (guest !== undefined) {
      principals.set(req, guest);
      return;
    }
    const p = resolvePrincipal(req.headers, rules.bearerFirst, !rules.acceptsJwt);
    principals.set(req, p);
    if (!rateLimited(state, req.method, req.url)) return;
    const decision = rules.rateDecision(p.caller, state.limiter.take(p.caller));
    if (!decision.allowed) {
      const retryAfter = rateLimitRetryAfter(state, decision.retryAfterSeconds);
      throw new RouterError(429, 'rate_limited', retryAfter === undefined ? 'request allowance used up; try again once it resets' : `request allowance used up; retry in ${retryAfter} s`, { ...(retryAfter === undefined ? {} : { retryAfter }), headers: state.spendHeaders(scopeOf(p)) });
    }
  };
  app.addHook('onRequest', (req, _reply, done) => {
    try {
      authenticate(req);
    } catch (err) {
      done(err as Error);
      return;
    }
    done();
  });

  // ---- the addressed model ----
  const resolveModel = (params: ModelParams): ModelDef => {
    const { provider, model } = rules.modelSegments(params.provider, params.model);
    const id = `${provider}/${model}`;
    const def = validSegments(provider, model) ? catalog.get(provider, model) : undefined;
    if (!def) throw modelNotFound(id.length > 200 ? `${id.slice(0, 200)}…` : id);
    const retiredOn = rules.retiredOn(def);
    if (retiredOn !== undefined) {
      const successor = def.retired?.successor;
      throw new RouterError(404, 'model_not_found', successor ? `${def.id} was retired on ${retiredOn}; use ${successor}` : `${def.id} was retired on ${retiredOn}`);
    }
    if (rules.restricted(def)) throw new RouterError(403, 'forbidden', `this caller may not use ${def.id}`);
    return def;
  };

  // Member names the seed does not show: public docs' by default (reference/router/variations.ts).
  const names = memberNames(state);
  const entryOf = (def: ModelDef): Record<string, unknown> => ({
    [names.id]: def.id,
    provider: def.provider,
    model: def.model,
    [names.billing]: { [names.chargesOnPolicyRejection]: def.chargesOnPolicyRejection },
  });

  const publicOrigin = (): string => state.baseUrl().replace(/^http:/, 'https:');
  const queueUrls = (def: ModelDef, id: string): Record<string, string> => {
    const root = `${state.baseUrl()}/v2/models/${def.id}/requests/${id}`;
    return { status_url: `${root}/status`, response_url: root, cancel_url: `${root}/cancel` };
  };

  // ---- GET /v2/models ----
  app.get('/v2/models', async (req, reply) => {
    const q = req.query as Record<string, unknown>;
    let limit = 20;
    if (q.limit !== undefined) {
      const raw = String(q.limit);
      if (!/^-?\d+$/.test(raw)) throw invalidInput('limit must be an integer');
      const n = Number(raw);
      // 0 and negative select the default; above the maximum is clamped.
      limit = n <= 0 ? 20 : Math.min(n, rules.maxPageLimit);
    }
    let position = 0;
    if (q.cursor !== undefined) {
      const raw = String(q.cursor);
      const decoded = rules.decodeCursor(state.cursors, raw);
      if (decoded === undefined || decoded > catalog.listed.length) throw invalidInput('cursor is malformed or expired; start the walk again without a cursor');
      position = decoded;
    }
    const start = rules.pageStart(position);
    const page = catalog.listed.slice(start, start + limit);
    const next = start + page.length;
    const hasMore = next < catalog.listed.length;
    const body: Record<string, unknown> = { data: page.map(entryOf), has_more: hasMore };
    if (hasMore) body.next_cursor = rules.encodeCursor(state.cursors, next);
    body[names.pageSize] = limit;
    return sendJson(reply, 200, body);
  });

  // ---- GET /v2/models/{provider}/{model} ----
  app.get('/v2/models/:provider/:model', async (req, reply) => {
    const def = resolveModel(req.params as ModelParams);
    const body = entryOf(def);
    if (def.authored) body[names.schemaUrl] = `${publicOrigin()}/v2/models/${def.id}/openapi.json`;
    body[names.alternates] = def.alternates.map((a) => shownProvider(state, a));
    if (def.sunset !== undefined) body.sunset_date = def.sunset;
    return sendJson(reply, 200, body);
  });

  // ---- GET /v2/models/{provider}/{model}/openapi.json ----
  app.get('/v2/models/:provider/:model/openapi.json', async (req, reply) => {
    const def = resolveModel(req.params as ModelParams);
    if (def.behaviour === 'schema-unbuildable') {
      const bucket = schemaFailureBucket(state);
      throw bucket === undefined ? rules.schemaFailure(def) : new RouterError(500, bucket, `the schema document of ${def.id} could not be built; try again later`);
    }
    const doc = state.document(def);
    const inm = req.headers['if-none-match'];
    const matches = typeof inm === 'string' && inm.split(',').some((t) => t.trim() === '*' || t.trim().replace(/^W\//, '') === doc.etag);
    const headers = { ETag: doc.etag, 'Cache-Control': 'private, max-age=300, must-revalidate' };
    if (matches) return reply.code(304).headers(headers).send();
    return send(reply, { status: 200, headers: { 'content-type': 'application/json', ...headers }, body: doc.bytes });
  });

  // ---- GET /router-schemas/{provider}/{model}.json (published snapshot, no key) ----
  app.get('/router-schemas/:provider/:file', async (req, reply) => {
    const { provider, file } = req.params as { provider: string; file: string };
    const model = file.endsWith('.json') ? file.slice(0, -5) : '';
    const def = validSegments(provider, model) ? catalog.get(provider, model) : undefined;
    if (!def || !def.authored || def.retired || def.behaviour === 'restricted' || def.behaviour === 'schema-unbuildable') throw new RouterError(404, 'model_not_found', `no published schema for ${provider}/${model}`);
    const doc = state.document(def);
    return send(reply, { status: 200, headers: { 'content-type': 'application/json', ETag: doc.etag, 'Cache-Control': 'public, max-age=3600' }, body: doc.bytes });
  });

  // ---- idempotency around a call: claim, replay, refuse, record or release ----
  const withKey = async (req: FastifyRequest, reply: FastifyReply, p: Principal, run: () => Promise<{ answer: Answer; dispatched: boolean; record?: Answer }>): Promise<FastifyReply> => {
    const raw = req.headers['idempotency-key'];
    if (raw === undefined) {
      const { answer } = await run();
      return send(reply, answer);
    }
    const key = Array.isArray(raw) ? raw.join(',') : raw;
    if (key.length < 1 || key.length > rules.maxKeyLength) throw invalidInput(`Idempotency-Key must be 1 to 255 characters (got ${key.length})`);
    const url = new URL(req.url, 'http://x');
    const fingerprint = fingerprintOf(req.method, url.pathname, [...url.searchParams].sort().map(([k, v]) => `${k}=${v}`).join('&'), canonical(req.body ?? null));
    const s = scope(p);
    const found: Lookup = rules.claimKey(state.idempotency, s, key, fingerprint, p.caller);
    switch (found.kind) {
      case 'replay':
        return send(reply, { ...found.answer, headers: { ...found.answer.headers, 'Idempotent-Replayed': 'true' } });
      case 'running':
        if (found.sameRequest) throw new RouterError(409, 'concurrency_limit_exceeded', 'the original call with this Idempotency-Key is still running; wait Retry-After and reuse the same key', { retryAfter: 1 });
        throw new RouterError(409, 'invalid_input', 'this Idempotency-Key is in use by a different request; use a new key');
      case 'conflict':
        throw new RouterError(409, 'invalid_input', 'this Idempotency-Key was used for a different request; use a new key');
      case 'not-replayable':
        throw new RouterError(409, 'invalid_input', 'the answer recorded for this Idempotency-Key cannot be replayed; the key stays consumed, use a new key');
      case 'fresh':
        break;
    }
    let outcome: { answer: Answer; dispatched: boolean; record?: Answer };
    try {
      outcome = await run();
    } catch (err) {
      // Refusals raised before dispatch charged nothing and release the key.
      rules.keyAfterRefusal(state.idempotency, s, key, fingerprint, err);
      throw err;
    }
    if (outcome.dispatched && rules.keyKept(outcome.answer)) {
      const kept = outcome.record ?? outcome.answer;
      state.idempotency.record(s, key, fingerprint, kept, rules.replayable(kept));
    } else {
      state.idempotency.release(s, key);
    }
    return send(reply, outcome.answer);
  };

  const requireCredits = (p: Principal): void => {
    if (!rules.funded(p)) throw new RouterError(402, 'insufficient_credits', 'this workspace has no credits; add credits to run partner models');
  };

  // ---- POST /v2/models/{provider}/{model} (synchronous run) ----
  app.post('/v2/models/:provider/:model', async (req, reply) => {
    const p = principalOf(req);
    const def = resolveModel(req.params as ModelParams);
    requireCredits(p);
    const q = parseRunQuery(req.query as Record<string, unknown>, state);
    const hasKey = req.headers['idempotency-key'] !== undefined;
    return withKey(req, reply, p, async () => {
      if (def.behaviour === 'busy') throw new RouterError(503, capacityBucket(state), `${def.id} is at capacity; retry after the indicated time`, { retryAfter: 1 });
      const leg = selectLeg(state, def, p, q, req.body, 'run', hasKey);
      // strict_mode means something only with an alternate.
      const strict = rules.strictMode(q.strict, leg);
      const body = validateBody(state, def, req.body, { skipNative: strict, rejectUnknown: q.rejectUnknown, route: 'run' });
      const s = scopeOf(p);
      // The in-flight limit of a scope that has one (seed R § 409 and 429 rules, 3).
      const endCall = state.startCall(s, p.inFlightLimit);
      if (!endCall) {
        throw new RouterError(429, 'concurrency_limit_exceeded', `this workspace already has ${p.inFlightLimit ?? 0} calls in flight; reduce in-flight calls`, { headers: state.spendHeaders(s) });
      }
      const release = rules.holdSpend(() => state.reserve(s, commitmentCents(p.ownKeys.has(def.provider) ? undefined : charge(def, leg, body, 0))));
      try {
        const { keyRecord, ...answer } = await runSync(state, def, p, { ...q, strict }, leg, body);
        if (answer.status === 200 && spendHeadersOnRuns(state)) Object.assign(answer.headers, state.spendHeaders(s));
        if (keyRecord?.status === 200 && spendHeadersOnRuns(state)) Object.assign(keyRecord.headers, state.spendHeaders(s));
        return { answer, dispatched: true, ...(keyRecord ? { record: keyRecord } : {}) };
      } finally {
        release();
        endCall();
      }
    });
  });

  // ---- POST /v2/models/{provider}/{model}/estimate ----
  app.post('/v2/models/:provider/:model/estimate', async (req, reply) => {
    const p = principalOf(req);
    if (!rules.estimatesEnabled(p)) throw new RouterError(403, 'not_enabled', 'cost estimates are rolling out and not enabled for this caller');
    const def = resolveModel(req.params as ModelParams);
    const q = parseRunQuery(req.query as Record<string, unknown>, state);
    const leg = selectLeg(state, def, p, { ...q, strict: false }, req.body, 'estimate', false);
    const body = validateBody(state, def, req.body, { skipNative: rules.estimateStrict(q.strict) && leg.kind === 'alternate', rejectUnknown: false, route: 'estimate' });
    const result = rules.estimateQuote(p, def, leg, () => {
      try {
        return quote(def, leg, body, { cardFresh: () => rules.cardFresh(def), videoOperation: quoteVideoOperation(state), defaultMaxTokens: defaultMaxTokens(state) });
      } catch (err) {
        if (err instanceof StaleCardError) throw new RouterError(503, 'service_unavailable', `the rate card for ${def.provider} is stale; no figure is given instead of a guess`);
        throw err;
      }
    });
    const asOf = def.behaviour === 'stale-card' ? new Date().toISOString() : state.pricingAsOf;
    return sendJson(reply, 200, shapeQuote(state, estimateBody(result, def, leg, asOf, rules.figures)));
  });

  // ---- POST /v2/models/{provider}/{model}/requests (queued submit) ----
  const presentStatus = (def: ModelDef, r: QueuedRequest): Record<string, unknown> => {
    const status = state.queue.status(r);
    const body: Record<string, unknown> = { request_id: r.id, status: shownQueueStatus(state, status) };
    if (status === 'IN_QUEUE') body.queue_position = rules.queuePosition(state.queue, r);
    if (status === 'COMPLETED' && r.errorType !== undefined) body.error_type = r.errorType;
    return { ...body, ...queueUrls(def, r.id) };
  };

  app.post('/v2/models/:provider/:model/requests', async (req, reply) => {
    const p = principalOf(req);
    const def = resolveModel(req.params as ModelParams);
    requireCredits(p);
    if (!rules.queueable(def)) throw new RouterError(403, 'not_enabled', `${def.id} answers with bytes and cannot be queued; run it on the synchronous route`);
    const q = parseRunQuery(req.query as Record<string, unknown>, state);
    const hasKey = req.headers['idempotency-key'] !== undefined;
    return withKey(req, reply, p, async () => {
      if (def.behaviour === 'busy') throw new RouterError(503, capacityBucket(state), `${def.id} is at capacity; retry after the indicated time`, { retryAfter: 1 });
      const leg = selectLeg(state, def, p, q, req.body, 'submit', hasKey);
      const strict = q.strict && leg.kind === 'alternate';
      const body = rules.validateSubmit(req.body, () => validateBody(state, def, req.body, { skipNative: strict, rejectUnknown: q.rejectUnknown, route: 'submit' }));
      const r = admit(def, leg, strict, body, p);
      const handle: Record<string, unknown> = { request_id: r.id, status: shownQueueStatus(state, 'IN_QUEUE'), queue_position: rules.queuePosition(state.queue, r), ...queueUrls(def, r.id) };
      const withEstimate = p.estimates && submitEstimates(state) ? { ...handle, estimate: submitEstimate(def, leg, body, p) } : handle;
      const json = (b: unknown): Buffer => Buffer.from(JSON.stringify(b));
      const headers = { 'content-type': 'application/json; charset=utf-8' };
      // The original quote is not stored: a replay answers the handle without it.
      const record: Answer = { status: 201, headers, body: json(handle) };
      return { answer: { status: 201, headers, body: json(withEstimate) }, dispatched: true, record };
    });
  });

  const submitEstimate = (def: ModelDef, pinned: Leg, body: Record<string, unknown>, p: Principal): Record<string, unknown> => {
    const leg = rules.submitEstimateLeg(pinned, def);
    let result: Quote;
    if (p.ownKeys.has(def.provider) && leg.kind === 'native') result = { source: 'unknown', reason: 'byok' };
    else {
      try {
        result = quote(def, leg, body, { cardFresh: () => rules.cardFresh(def), videoOperation: rules.videoOperation, defaultMaxTokens: defaultMaxTokens(state) });
      } catch (err) {
        if (!(err instanceof StaleCardError)) throw err;
        result = rules.submitQuoteUnavailable(def);
      }
    }
    return shapeQuote(state, estimateBody(result, def, leg, def.behaviour === 'stale-card' ? new Date().toISOString() : state.pricingAsOf, rules.figures));
  };

  const admit = (def: ModelDef, leg: Leg, accepted: boolean, body: Record<string, unknown>, p: Principal): QueuedRequest => {
    const strict = rules.queuedStrict(accepted);
    const sent = leg.kind === 'alternate' && !strict ? { ...body } : body;
    const answer = callPartner({ model: def, leg, body: leg.kind === 'alternate' && !strict ? translate(def, leg.provider, sent).body : sent, strict, imageCap: partnerImageCap(state) });
    const runMs = def.behaviour === 'slow' ? 3 * SLOW_MS : 20;
    // A slow model's requests also wait in the queue long enough to be seen (and cancelled) there.
    const waitMs = def.behaviour === 'slow' ? 2 * SLOW_MS : undefined;
    const stored = (ok: Extract<PartnerAnswer, { kind: 'ok' }>, served: Leg = leg): QueuedRequest => {
      const out = presentOutput(state, def, strict, ok, served);
      return state.queue.add({ scope: scope(p), modelId: def.id, result: { status: 200, contentType: out.contentType, bytes: out.bytes } }, runMs, waitMs);
    };
    if (answer.kind === 'ok') return stored(answer);
    // A queued submit has no fallback: only a fault turns it on.
    const served = rules.queuedFallback && !strict ? fallback(state, def, p, leg, body, answer) : undefined;
    if (served?.kind === 'served') return stored(served.answer, served.leg);
    const failed = providerFailure(state, answer, def);
    const errorType = failed.headers[H.errorType] ?? 'provider_error';
    const parsed = JSON.parse(failed.body.toString('utf8')) as { detail?: string };
    return state.queue.add({ scope: scope(p), modelId: def.id, errorType, failure: { status: failed.status, errorType, detail: parsed.detail ?? 'the run failed' } }, runMs, waitMs);
  };

  // ---- queue reads ----
  const findRequest = (req: FastifyRequest): { def: ModelDef; r: QueuedRequest | undefined; id: string } => {
    const params = req.params as RequestParams;
    const def = resolveModel(params);
    const p = principalOf(req);
    const id = params.request_id;
    return { def, r: state.queue.get(scope(p), def.id, id), id };
  };
  const unknownRequest = (id: string): RouterError => new RouterError(404, 'request_not_found', `no queued request ${id} for this model and caller`);
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
    if (r.agedOut) throw new RouterError(410, 'request_not_found', `the result of request ${r.id} is no longer kept; submit the request again`);
    if (r.result) return send(reply, { status: 200, headers: { 'content-type': r.result.contentType, 'X-Content-Type-Options': 'nosniff' }, body: r.result.bytes });
    const failure = r.failure ?? { status: 502, errorType: 'provider_error', detail: 'the run failed' };
    return send(reply, errorAnswer(failure.status, failure.errorType, failure.detail));
  });

  app.put('/v2/models/:provider/:model/requests/:request_id/cancel', async (req, reply) => {
    const { r, id } = findRequest(req);
    if (!r) throw unknownRequest(id);
    if (state.queue.status(r) === 'COMPLETED') return sendJson(reply, 409, { request_id: r.id, status: 'ALREADY_COMPLETED' }, { [H.errorType]: 'invalid_input' });
    rules.cancelRequest(state.queue, r);
    return sendJson(reply, 202, { request_id: r.id, status: 'CANCELLATION_REQUESTED' });
  });
}
