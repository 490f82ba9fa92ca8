// The router's HTTP surface (seed R § Endpoints): catalog, detail, schema documents and
// snapshots, synchronous runs, estimates and the queue. Every response carries
// X-<Brand>-Request-Id; every error X-<Brand>-Error-Type.
import { randomUUID } from 'node:crypto';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ROUTER_KEYS } from '../accounts.ts';
import { validSegments, type ModelDef } from './catalog.ts';
import { commitmentCents, errorAnswer, failureAnswer, parseRunQuery, presentOutput, runSync, selectLeg, SLOW_MS, validateBody, type Answer } from './dispatch.ts';
import { RouterError, RouterValidationError, invalidInput, modelNotFound } from './errors.ts';
import { fingerprintOf, REPLAY_CAP_BYTES, type Lookup } from './idempotency.ts';
import { callPartner, canonical, translate } from './partners.ts';
import { StaleCardError, charge, estimateBody, quote, type Leg, type Quote } from './pricing.ts';
import { resolvePrincipal, scopeOf, type Principal } from './principals.ts';
import type { QueuedRequest } from './queue.ts';
import { H, MAX_BODY_BYTES, type RouterState } from './state.ts';

interface ModelParams {
  provider: string;
  model: string;
}
interface RequestParams extends ModelParams {
  request_id: string;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function send(reply: FastifyReply, answer: Answer): FastifyReply {
  for (const [k, v] of Object.entries(answer.headers)) reply.header(k, v);
  return reply.code(answer.status).send(answer.body);
}

function sendError(reply: FastifyReply, err: RouterError, notFoundAs400 = false): FastifyReply {
  if (err.opts.retryAfter !== undefined) reply.header('Retry-After', String(err.opts.retryAfter));
  const status = notFoundAs400 && err.errorType === 'model_not_found' ? 400 : err.status;
  return send(reply, errorAnswer(status, err.errorType, err.detail, err.opts.headers ?? {}, err.opts.extra ?? {}));
}

function sendJson(reply: FastifyReply, status: number, body: unknown, headers: Record<string, string> = {}): FastifyReply {
  return send(reply, { status, headers: { 'content-type': 'application/json; charset=utf-8', ...headers }, body: Buffer.from(JSON.stringify(body)) });
}

export function registerRouterRoutes(app: FastifyInstance, state: RouterState): void {
  const f = state.isFault;
  const { catalog } = state;
  const principals = new WeakMap<FastifyRequest, Principal>();
  const principalOf = (req: FastifyRequest): Principal => {
    const p = principals.get(req);
    if (!p) throw new Error('route reached without authentication');
    return p;
  };
  const scope = (p: Principal): string => (f('router-keys-global') ? 'global' : scopeOf(p));

  // ---- every response: request id; errors: error type ----
  // Callback style: it runs on every call, and an async hook costs a promise per request.
  app.addHook('onRequest', (_req, reply, done) => {
    reply.header(H.requestId, randomUUID());
    done();
  });
  if (f('router-no-request-id-on-errors')) {
    app.addHook('onSend', async (_req, reply, payload) => {
      if (reply.statusCode >= 400) reply.removeHeader(H.requestId);
      return payload;
    });
  }
  if (f('router-error-type-header-mismatch')) {
    app.addHook('onSend', async (_req, reply, payload) => {
      if (reply.statusCode === 404) reply.header(H.errorType, 'not_found');
      return payload;
    });
  }

  app.setErrorHandler((err: unknown, request: FastifyRequest, reply: FastifyReply) => {
    if (err instanceof RouterValidationError) {
      const body = f('router-422-string-detail') ? { detail: err.entries.map((e) => e.msg).join('; ') } : { detail: err.entries };
      return sendJson(reply, 422, body, { [H.errorType]: 'invalid_input' });
    }
    if (err instanceof RouterError) return sendError(reply, err, f('router-model-not-found-400'));
    if (err instanceof ReplayAnswer) return send(reply, { ...err.answer, headers: { ...err.answer.headers, 'Idempotent-Replayed': 'true' } });
    const fe = err as Partial<FastifyError>;
    if (fe.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return sendError(reply, new RouterError(413, 'invalid_input', `the request body is larger than ${MAX_BODY_BYTES} bytes`));
    if (typeof fe.statusCode === 'number' && fe.statusCode >= 400 && fe.statusCode < 500) {
      return sendError(reply, invalidInput(`malformed request: ${fe.message ?? 'unreadable body'}; send a JSON object as application/json`));
    }
    request.log.error({ err }, 'unexpected router error');
    return sendError(reply, new RouterError(500, 'internal_error', 'the router hit an unexpected error'));
  });
  app.setNotFoundHandler((request, reply) => sendError(reply, new RouterError(404, 'model_not_found', `no route for ${request.method} ${request.url.split('?')[0]}`)));
  if (f('router-v2-envelope')) {
    app.addHook('onSend', async (_req, reply, payload) => {
      if (reply.statusCode < 400 || reply.statusCode === 422 || !Buffer.isBuffer(payload)) return payload;
      try {
        const body = JSON.parse(payload.toString('utf8')) as { error_type?: unknown; detail?: unknown };
        if (typeof body.error_type !== 'string') return payload;
        return Buffer.from(JSON.stringify({ error: { code: body.error_type, message: body.detail } }));
      } catch {
        return payload;
      }
    });
  }

  // ---- authentication, then the caller's request allowance ----
  app.addHook('onRequest', async (req) => {
    if (!req.url.startsWith('/v2/')) return;
    const anonymous = req.headers.authorization === undefined && req.headers['x-api-key'] === undefined;
    if (anonymous && f('router-catalog-open') && req.method === 'GET' && req.url.split('?')[0] === '/v2/models') {
      principals.set(req, resolvePrincipal({ 'x-api-key': ROUTER_KEYS.alice }, false));
      return;
    }
    if (anonymous && f('router-keyed-anonymous-replay') && typeof req.headers['idempotency-key'] === 'string') {
      const answer = state.idempotency.anyRecorded(req.headers['idempotency-key']);
      if (answer) throw new ReplayAnswer(answer);
    }
    const p = resolvePrincipal(req.headers, f('router-bearer-wins'), f('router-jwt-refused'));
    principals.set(req, p);
    let decision = state.limiter.take(p.caller);
    if (!decision.allowed) state.lastRefusal = { caller: p.caller, at: Date.now() };
    else if (f('load-limit-spills-over') && p.caller !== state.lastRefusal.caller && Date.now() - state.lastRefusal.at < 1000) decision = { allowed: false, retryAfterSeconds: 1 };
    if (!decision.allowed) {
      const spend = f('router-429-no-spend') ? {} : state.spendHeaders(scopeOf(p));
      // load-429-no-detail: an undefined detail drops out of the serialised body.
      throw new RouterError(429, 'rate_limited', `request allowance used up; retry in ${decision.retryAfterSeconds} s`, { retryAfter: decision.retryAfterSeconds, headers: spend, ...(f('load-429-no-detail') ? { extra: { detail: undefined } } : {}) });
    }
  });

  // ---- the addressed model ----
  const resolveModel = (params: ModelParams, opts: { route?: 'estimate' } = {}): ModelDef => {
    let { provider, model } = params;
    if (!validSegments(provider, model) && f('router-ids-case-insensitive') && validSegments(provider.toLowerCase(), model.toLowerCase())) {
      provider = provider.toLowerCase();
      model = model.toLowerCase();
    }
    const id = `${provider}/${model}`;
    const def = validSegments(provider, model) ? catalog.get(provider, model) : undefined;
    if (!def) {
      if (opts.route === 'estimate' && f('router-unknown-model-estimate-400')) throw invalidInput(`unknown model ${id}`);
      throw modelNotFound(id.length > 200 ? `${id.slice(0, 200)}…` : id);
    }
    const retiredOn = def.retired?.on ?? (def.sunset !== undefined && f('router-sunset-retired') ? def.sunset : undefined);
    if (retiredOn !== undefined && !f('router-retired-200')) {
      if (f('router-retired-wording')) throw new RouterError(404, 'model_not_found', 'this model is no longer available');
      const successor = def.retired?.successor;
      throw new RouterError(404, 'model_not_found', successor ? `${def.id} was retired on ${retiredOn}; use ${successor}` : `${def.id} was retired on ${retiredOn}`);
    }
    if (def.behaviour === 'restricted' && !f('router-restricted-visible')) throw new RouterError(403, 'forbidden', `this caller may not use ${def.id}`);
    return def;
  };

  const entryOf = (def: ModelDef): Record<string, unknown> =>
    f('router-billing-renamed')
      ? { id: def.id, provider: def.provider, model: def.model, billing_facts: { charged_on_policy_rejection: def.chargesOnPolicyRejection } }
      : { id: def.id, provider: def.provider, model: def.model, billing: { charges_on_policy_rejection: def.chargesOnPolicyRejection } };

  const publicOrigin = (): string => state.baseUrl().replace(/^http:/, 'https:');
  const queueUrls = (def: ModelDef, id: string): Record<string, string> => {
    const base = f('router-status-url-relative') ? '' : state.baseUrl();
    const root = `${base}/v2/models/${def.id}/requests/${f('router-request-id-uppercase') ? id.toUpperCase() : id}`;
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
      limit = n <= 0 ? 20 : Math.min(n, f('router-limit-unclamped') ? 150 : 100);
    }
    let position = 0;
    if (q.cursor !== undefined) {
      const raw = String(q.cursor);
      const decoded = f('router-cursor-offset') ? (/^\d+$/.test(raw) ? Number(raw) : undefined) : state.cursors.decode(raw);
      if (decoded === undefined || decoded > catalog.listed.length) throw invalidInput('cursor is malformed or expired; start the walk again without a cursor');
      position = decoded;
    }
    const start = f('router-page-overlap') && position > 0 ? position - 1 : position;
    const page = catalog.listed.slice(start, start + limit);
    const next = start + page.length;
    const hasMore = next < catalog.listed.length;
    const data = page.map((def) => {
      const e = entryOf(def);
      if (f('router-entry-no-billing')) delete e.billing;
      if (f('router-catalog-prices')) e.price_usd = def.rates.text_to_image ?? def.rates.text_to_video ?? '0';
      return e;
    });
    const body: Record<string, unknown> = { data };
    if (!f('router-page-no-has-more')) body.has_more = hasMore;
    if (hasMore) body.next_cursor = f('router-cursor-offset') ? String(next) : state.cursors.encode(next);
    body.limit = limit;
    return sendJson(reply, 200, body);
  });

  // ---- GET /v2/models/{provider}/{model} ----
  app.get('/v2/models/:provider/:model', async (req, reply) => {
    const def = resolveModel(req.params as ModelParams);
    const body = entryOf(def);
    // The detail repeats the entry, so a priced catalog prices it too (router-catalog-prices breaks NO_PRICES alone).
    if (f('router-catalog-prices')) body.price_usd = def.rates.text_to_image ?? def.rates.text_to_video ?? '0';
    if (def.authored && !f('router-detail-no-schema-url')) body.input_schema_url = `${f('router-detail-http-url') ? state.baseUrl() : publicOrigin()}/v2/models/${def.id}/openapi.json`;
    const legs = [...def.alternates];
    if (f('router-detail-extra-leg') && !legs.includes('higgsfield')) legs.push('higgsfield');
    body.model_providers = legs;
    if (def.sunset !== undefined) body.sunset_date = def.sunset;
    return sendJson(reply, 200, body);
  });

  // ---- GET /v2/models/{provider}/{model}/openapi.json ----
  app.get('/v2/models/:provider/:model/openapi.json', async (req, reply) => {
    const def = resolveModel(req.params as ModelParams);
    const doc = state.document(def);
    const inm = req.headers['if-none-match'];
    const matches = typeof inm === 'string' && inm.split(',').some((t) => t.trim() === '*' || t.trim().replace(/^W\//, '') === doc.etag);
    const etag = f('router-etag-weak') ? `W/${doc.etag}` : doc.etag;
    const cache: Record<string, string> = f('router-no-cache-control') ? {} : { 'Cache-Control': 'private, max-age=300, must-revalidate' };
    if (matches && !f('router-ignore-if-none-match')) {
      for (const [k, v] of Object.entries({ ETag: etag, ...cache })) reply.header(k, v);
      return reply.code(304).send();
    }
    return send(reply, { status: f('router-schema-203') ? 203 : 200, headers: { 'content-type': 'application/json', ETag: etag, ...cache }, body: doc.bytes });
  });

  // ---- GET /router-schemas/{provider}/{model}.json (published snapshot, no key) ----
  app.get('/router-schemas/:provider/:file', async (req, reply) => {
    const { provider, file } = req.params as { provider: string; file: string };
    const model = file.endsWith('.json') ? file.slice(0, -5) : '';
    const def = validSegments(provider, model) ? catalog.get(provider, model) : undefined;
    const keyless = req.headers.authorization === undefined && req.headers['x-api-key'] === undefined;
    if (!def || !def.authored || def.retired || def.behaviour === 'restricted' || (keyless && f('router-snapshot-needs-key'))) throw new RouterError(404, 'model_not_found', `no published schema for ${provider}/${model}`);
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
    const max = f('router-key-256-accepted') ? 256 : 255;
    if (key.length < 1 || key.length > max) throw invalidInput(`Idempotency-Key must be 1 to 255 characters (got ${key.length})`);
    const url = new URL(req.url, 'http://x');
    const fingerprint = fingerprintOf(req.method, url.pathname, [...url.searchParams].sort().map(([k, v]) => `${k}=${v}`).join('&'), canonical(req.body ?? null));
    const s = scope(p);
    let found: Lookup = state.idempotency.claim(s, key, fingerprint);
    const replay = (recorded: Answer): FastifyReply => {
      const unmarked = f('router-replay-unmarked') && recorded.status < 300;
      const headers = { ...recorded.headers, ...(unmarked ? {} : { 'Idempotent-Replayed': 'true' }) };
      return send(reply, { ...recorded, headers });
    };
    if (found.kind === 'conflict' && f('router-conflict-replays')) {
      const any = state.idempotency.recordedAnswer(s, key);
      if (any) return replay(any);
    }
    if ((found.kind === 'running' && found.sameRequest && f('router-inflight-dispatches')) || (found.kind === 'not-replayable' && f('router-gallery-rerun'))) {
      found = { kind: 'fresh' };
    }
    switch (found.kind) {
      case 'replay':
        return replay(found.answer);
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
      if (err instanceof RouterValidationError && f('router-refusal-records-key')) {
        state.idempotency.record(s, key, fingerprint, { status: 422, headers: {}, body: Buffer.from('{}') }, true);
      } else {
        state.idempotency.release(s, key);
      }
      throw err;
    }
    const policyReleased = outcome.answer.headers[H.errorType] === 'content_policy_violation' && f('router-policy-released');
    if (outcome.dispatched && !policyReleased) {
      const kept = outcome.record ?? outcome.answer;
      state.idempotency.record(s, key, fingerprint, kept, kept.body.length <= REPLAY_CAP_BYTES);
    } else {
      state.idempotency.release(s, key);
    }
    return send(reply, outcome.answer);
  };

  const requireCredits = (p: Principal): void => {
    if (!p.credits && f('router-unfunded-403')) throw new RouterError(403, 'forbidden', 'this workspace may not run partner models without credits');
    if (!p.credits && !f('router-unfunded-runs')) throw new RouterError(402, 'insufficient_credits', 'this workspace has no credits; add credits to run partner models');
  };

  // ---- POST /v2/models/{provider}/{model} (synchronous run) ----
  app.post('/v2/models/:provider/:model', async (req, reply) => {
    const p = principalOf(req);
    const def = resolveModel(req.params as ModelParams);
    requireCredits(p);
    const q = parseRunQuery(req.query as Record<string, unknown>, state);
    const hasKey = req.headers['idempotency-key'] !== undefined;
    return withKey(req, reply, p, async () => {
      if (def.behaviour === 'busy') throw new RouterError(503, 'service_unavailable', `${def.id} is at capacity; retry after the indicated time`, f('router-capacity-no-retry-after') ? {} : { retryAfter: 1 });
      const leg = selectLeg(state, def, p, q, req.body, 'run', hasKey);
      // strict_mode means something only with an alternate; the fault lets it skip native validation alone.
      const strict = q.strict && (leg.kind === 'alternate' || f('router-strict-without-provider'));
      const body = validateBody(state, def, req.body, { skipNative: strict, rejectUnknown: q.rejectUnknown, route: 'run' });
      const s = scopeOf(p);
      // The in-flight limit of a scope that has one (seed R § 409 and 429 rules, 3).
      const endCall = state.startCall(s, p.inFlightLimit);
      if (!endCall) {
        const spend = f('load-concurrency-no-spend') ? {} : state.spendHeaders(s);
        throw new RouterError(429, 'concurrency_limit_exceeded', `this workspace already has ${p.inFlightLimit ?? 0} calls in flight; reduce in-flight calls`, { headers: spend });
      }
      const release = state.reserve(s, commitmentCents(p.ownKeys.has(def.provider) ? undefined : charge(def, leg, body, 0)));
      try {
        const answer = await runSync(state, def, p, { ...q, strict }, leg, body);
        if (answer.status === 200) Object.assign(answer.headers, state.spendHeaders(s));
        return { answer, dispatched: true };
      } finally {
        release();
        endCall();
      }
    });
  });

  // ---- POST /v2/models/{provider}/{model}/estimate ----
  app.post('/v2/models/:provider/:model/estimate', async (req, reply) => {
    const p = principalOf(req);
    if (!p.estimates && !f('router-estimate-rollout-open')) throw new RouterError(403, 'not_enabled', 'cost estimates are rolling out and not enabled for this caller');
    const def = resolveModel(req.params as ModelParams, { route: 'estimate' });
    const q = parseRunQuery(req.query as Record<string, unknown>, state);
    const leg = selectLeg(state, def, p, { ...q, strict: false }, req.body, 'estimate', false);
    const body = validateBody(state, def, req.body, { skipNative: false, rejectUnknown: false, route: 'estimate' });
    let result: Quote;
    if (f('router-estimate-byok-reason') && p.ownKeys.has(def.provider) && leg.kind === 'native') {
      result = { source: 'unknown', reason: 'byok' };
    } else {
      try {
        result = quote(def, leg, body, { isFault: f, cardFresh: () => def.behaviour !== 'stale-card' });
      } catch (err) {
        if (err instanceof StaleCardError) throw new RouterError(503, 'service_unavailable', `the rate card for ${def.provider} is stale; no figure is given instead of a guess`);
        throw err;
      }
    }
    if (result.source === 'unknown' && result.reason === 'not_quotable' && f('router-not-quotable-wrong-reason')) result = { source: 'unknown', reason: 'pricing_unavailable' };
    const asOf = def.behaviour === 'stale-card' ? new Date().toISOString() : state.pricingAsOf;
    const payload = estimateBody(result, def, leg, asOf, f);
    if (f('router-estimate-text-plain')) return send(reply, { status: 200, headers: { 'content-type': 'text/plain; charset=utf-8' }, body: Buffer.from(JSON.stringify(payload)) });
    return sendJson(reply, 200, payload);
  });

  // ---- POST /v2/models/{provider}/{model}/requests (queued submit) ----
  const presentStatus = (def: ModelDef, r: QueuedRequest): Record<string, unknown> => {
    const status = state.queue.status(r);
    const body: Record<string, unknown> = { request_id: f('router-request-id-uppercase') ? r.id.toUpperCase() : r.id, status: status !== 'COMPLETED' && f('router-fourth-status') ? 'RUNNING' : status };
    if (status === 'IN_QUEUE') body.queue_position = state.queue.position(r);
    if (status === 'COMPLETED') {
      // The fault gives a failed request a terminal status of its own.
      if (r.errorType !== undefined && f('router-failed-status')) body.status = r.cancelled ? 'CANCELLED' : 'FAILED';
      if (r.errorType !== undefined) body.error_type = r.errorType;
      else if (f('router-error-type-null')) body.error_type = null;
      if (r.result && f('router-status-with-result') && r.result.contentType === 'application/json') Object.assign(body, JSON.parse(r.result.bytes.toString('utf8')) as object);
    }
    return { ...body, ...queueUrls(def, r.id) };
  };

  app.post('/v2/models/:provider/:model/requests', async (req, reply) => {
    const p = principalOf(req);
    const def = resolveModel(req.params as ModelParams);
    requireCredits(p);
    if (def.kind === 'audio' && !f('router-bytes-queued')) throw new RouterError(403, 'not_enabled', `${def.id} answers with bytes and cannot be queued; run it on the synchronous route`);
    const q = parseRunQuery(req.query as Record<string, unknown>, state);
    const hasKey = req.headers['idempotency-key'] !== undefined;
    return withKey(req, reply, p, async () => {
      if (def.behaviour === 'busy') throw new RouterError(503, 'service_unavailable', `${def.id} is at capacity; retry after the indicated time`, { retryAfter: 1 });
      const leg = selectLeg(state, def, p, q, req.body, 'submit', hasKey);
      const strict = q.strict && leg.kind === 'alternate';
      let body: Record<string, unknown>;
      if (f('router-submit-unvalidated') && isObject(req.body)) body = req.body;
      else body = validateBody(state, def, req.body, { skipNative: strict, rejectUnknown: q.rejectUnknown, route: 'submit' });
      const r = admit(def, leg, strict, body, p);
      const handle: Record<string, unknown> = { request_id: f('router-request-id-uppercase') ? r.id.toUpperCase() : r.id, status: 'IN_QUEUE', queue_position: state.queue.position(r), ...queueUrls(def, r.id) };
      const withEstimate = p.estimates ? { ...handle, estimate: submitEstimate(def, leg, body, p) } : handle;
      const json = (b: unknown): Buffer => Buffer.from(JSON.stringify(b));
      const headers = { 'content-type': 'application/json; charset=utf-8' };
      // The original quote is not stored: a replay answers the handle without it.
      const record: Answer = { status: 201, headers, body: json(f('router-estimate-on-replay') ? withEstimate : handle) };
      return { answer: { status: 201, headers, body: json(withEstimate) }, dispatched: true, record };
    });
  });

  const submitEstimate = (def: ModelDef, leg: Leg, body: Record<string, unknown>, p: Principal): Record<string, unknown> => {
    let result: Quote;
    if (p.ownKeys.has(def.provider) && leg.kind === 'native') result = { source: 'unknown', reason: 'byok' };
    else {
      try {
        result = quote(def, leg, body, { isFault: f, cardFresh: () => def.behaviour !== 'stale-card' });
      } catch {
        result = { source: 'unknown', reason: 'pricing_unavailable' };
      }
    }
    return estimateBody(result, def, leg, def.behaviour === 'stale-card' ? new Date().toISOString() : state.pricingAsOf, f);
  };

  const admit = (def: ModelDef, leg: Leg, strict: boolean, body: Record<string, unknown>, p: Principal): QueuedRequest => {
    const sent = leg.kind === 'alternate' && !strict ? { ...body } : body;
    const answer = callPartner({ model: def, leg, body: leg.kind === 'alternate' && !strict ? translate(def, leg.provider, sent).body : sent, strict });
    const runMs = def.behaviour === 'slow' ? 3 * SLOW_MS : 20;
    // A slow model's requests also wait in the queue long enough to be seen (and cancelled) there.
    const waitMs = def.behaviour === 'slow' ? 2 * SLOW_MS : undefined;
    if (answer.kind === 'ok') {
      const out = presentOutput(state, def, strict, answer);
      return state.queue.add({ scope: scope(p), modelId: def.id, result: { status: 200, contentType: out.contentType, bytes: out.bytes } }, runMs, waitMs);
    }
    const failed = failureAnswer(state, answer, def);
    const errorType = failed.headers[H.errorType] ?? 'provider_error';
    const parsed = JSON.parse(failed.body.toString('utf8')) as { detail?: string };
    return state.queue.add({ scope: scope(p), modelId: def.id, errorType, failure: { status: failed.status, errorType, detail: parsed.detail ?? 'the run failed' } }, runMs, waitMs);
  };

  // ---- queue reads ----
  const findRequest = (req: FastifyRequest): { def: ModelDef; r: QueuedRequest | undefined; id: string } => {
    const params = req.params as RequestParams;
    const def = resolveModel(params);
    const p = principalOf(req);
    const id = f('router-request-id-uppercase') ? params.request_id.toLowerCase() : params.request_id;
    return { def, r: state.queue.get(scope(p), def.id, id), id };
  };
  const unknownRequest = (id: string): RouterError => new RouterError(404, 'request_not_found', `no queued request ${id} for this model and caller`);
  const pollHeaders = (): Record<string, string> => {
    if (f('router-poll-no-retry-after')) return {};
    return { 'Retry-After': f('router-retry-after-date') ? new Date(Date.now() + 1000).toUTCString() : '1' };
  };

  app.get('/v2/models/:provider/:model/requests/:request_id/status', async (req, reply) => {
    const { def, r, id } = findRequest(req);
    if (!r) {
      if (f('router-unknown-request-200') && /^[0-9a-f-]{36}$/.test(id)) return sendJson(reply, 200, { request_id: id, status: 'IN_QUEUE', queue_position: 0, ...queueUrls(def, id) }, pollHeaders());
      throw unknownRequest(id);
    }
    const unfinished = state.queue.status(r) !== 'COMPLETED';
    // Faults that show only when many clients poll at once (reference/faults/load.ts).
    const busy = (f('load-poll-no-retry-after') || f('load-poll-invalid-body')) && state.pollMeter.hit();
    if (!unfinished && !busy) {
      r.completedStatus ??= Buffer.from(JSON.stringify(presentStatus(def, r)));
      return reply.code(200).header('content-type', 'application/json; charset=utf-8').send(r.completedStatus);
    }
    const body = presentStatus(def, r);
    if (busy && f('load-poll-invalid-body')) delete body.status;
    return sendJson(reply, 200, body, unfinished && !(busy && f('load-poll-no-retry-after')) ? pollHeaders() : {});
  });

  app.get('/v2/models/:provider/:model/requests/:request_id', async (req, reply) => {
    const { def, r, id } = findRequest(req);
    if (!r) throw unknownRequest(id);
    if (state.queue.status(r) !== 'COMPLETED') {
      if (f('router-collect-pending-200')) return sendJson(reply, 200, presentStatus(def, r), { 'X-Content-Type-Options': 'nosniff' });
      return sendJson(reply, 202, presentStatus(def, r), pollHeaders());
    }
    if (r.result) {
      let bytes = r.result.bytes;
      if (f('router-collect-reserialized') && r.result.contentType === 'application/json') bytes = Buffer.from(JSON.stringify(JSON.parse(bytes.toString('utf8')), null, 2));
      const headers: Record<string, string> = { 'content-type': r.result.contentType };
      if (!f('router-no-nosniff')) headers['X-Content-Type-Options'] = 'nosniff';
      return send(reply, { status: 200, headers, body: bytes });
    }
    const failure = r.failure ?? { status: 502, errorType: 'provider_error', detail: 'the run failed' };
    return send(reply, errorAnswer(failure.status, failure.errorType, failure.detail));
  });

  app.put('/v2/models/:provider/:model/requests/:request_id/cancel', async (req, reply) => {
    const { r, id } = findRequest(req);
    if (!r) throw unknownRequest(id);
    const rid = f('router-request-id-uppercase') ? r.id.toUpperCase() : r.id;
    if (state.queue.status(r) === 'COMPLETED') {
      if (f('router-cancel-done-202')) return sendJson(reply, 202, { request_id: rid, status: 'CANCELLATION_REQUESTED' });
      return sendJson(reply, 409, { request_id: rid, status: 'ALREADY_COMPLETED' }, { [H.errorType]: 'invalid_input' });
    }
    // The fault acknowledges the cancel and lets the request run on.
    if (!f('router-cancel-ignored')) state.queue.cancel(r);
    return sendJson(reply, 202, { request_id: rid, status: 'CANCELLATION_REQUESTED' });
  });
}

/** A replay served before authentication (only under the router-keyed-anonymous-replay fault). */
export class ReplayAnswer extends Error {
  constructor(readonly answer: Answer) {
    super('replay');
  }
}

