// v2 job operations on every surface: submit, read, list, cancel, workflow read and
// the live event stream. Validation and execution belong to the engine; this file
// adds what v2 promises around them (labels, idempotency, cursors, embedded URLs).
import { randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ReferenceContext } from '../context.ts';
import { ApiError, invalidRequest, notFound } from '../errors.ts';
import type { Guard } from '../guard.ts';
import type { ApiWorkflow, EngineEvent, JobState, Refusal } from '../engine/types.ts';
import { accountTraits } from './account-traits.ts';
import { CursorCodec } from './cursor.ts';
import { JOB_RETENTION_MS, type V2Job } from './job-store.ts';
import { parseFilters, parseLabels } from './labels.ts';

/** What differs between the surfaces serving the v2 job contract. */
export interface JobPolicy {
  /** Listing and reads are confined to this scope (a surface, or one deployment). */
  scope(request: FastifyRequest): string;
  /** Where job URLs are mounted, host-relative (`/deployment/<id>` on serverless, '' elsewhere). */
  mountPrefix(request: FastifyRequest): string;
  /** Absolute base for content-endpoint URLs of outputs. */
  baseUrl(request: FastifyRequest): string;
  /** The surface keeps job labels (else `metadata` is refused with metadata_not_supported). */
  readonly labels: boolean;
  /** The surface lists jobs (else 501 not_implemented). */
  readonly listing: boolean;
  /** Credits apply (cloud and serverless), so a submit can be refused 402. */
  readonly credits: boolean;
}

const TERMINAL = new Set(['succeeded', 'failed', 'canceled']);
const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DEFAULT_LIMIT = 20;
const MAX_LIMIT = 100;

function iso(ms: number | null): string | null {
  return ms === null ? null : new Date(ms).toISOString();
}

export function registerJobRoutes(app: FastifyInstance, ctx: ReferenceContext, guard: Guard, policy: JobPolicy): void {
  const { engine, jobs, assets, isFault, signer } = ctx;
  const cursors = new CursorCodec();

  const ownJob = (request: FastifyRequest, id: string): { job: V2Job; state: JobState } => {
    const account = guard.requireAccount(request);
    if (!UUID_RE.test(id) && isFault('malformed-job-id-500')) throw new ApiError('upstream_error', 'The server hit an unexpected error; try again later.');
    const job = UUID_RE.test(id) ? jobs.get(id) : undefined;
    const state = job ? engine.get(job.id) : undefined;
    if (!job || !state || job.account !== account || job.scope !== policy.scope(request)) throw notFound('job');
    return { job, state };
  };

  const present = (request: FastifyRequest, job: V2Job, state: JobState): Record<string, unknown> => {
    const base = policy.baseUrl(request);
    const mount = `${policy.mountPrefix(request)}/api/v2/jobs/${job.id}`;
    const outputs = state.outputs
      .filter((o) => o.type === 'output' && !isFault('outputs-missing'))
      .map((o) => {
        const rec = assets.get(o.ref);
        const signed = rec && (isFault('output-url-signed') || isFault('output-expiry-signed')) ? signer.sign(rec.hex, rec.content_type) : undefined;
        return {
          node_id: o.nodeId,
          name: o.filename,
          type: 'image',
          content_type: o.contentType,
          size_bytes: isFault('output-size-zero') ? 0 : o.sizeBytes,
          id: o.ref,
          hash: rec ? `blake3:${rec.hex}` : null,
          // The authenticated content endpoint, stable while the asset exists; its
          // url_expires_at repeats the job's expires_at (seed W § Output URL forms, rule 3).
          url: signed && isFault('output-url-signed') ? signed.url : `${base}/api/v2/assets/${o.ref}/content${isFault('output-url-rotates') ? `?v=${Date.now()}` : ''}`,
          url_expires_at: signed && isFault('output-expiry-signed') ? iso(signed.expiresAtMs) : iso(job.expiresAt),
          job_id: job.id,
        };
      });
    const f = state.failure;
    const body: Record<string, unknown> = {
      id: job.id,
      status: state.status,
      created_at: iso(job.createdAt),
      started_at: iso(state.startedAt),
      completed_at: iso(state.completedAt),
      expires_at: iso(job.expiresAt),
      queue_position: state.status === 'queued' ? state.queuePosition : null,
      progress: state.progress,
      outputs,
      error: f
        ? { code: 'node_execution_error', message: f.exception_message, node_id: f.node_id, class_type: f.class_type, traceback: f.traceback.join('\n') }
        : null,
      metrics: {
        queue_ms: state.startedAt === null ? null : state.startedAt - job.createdAt,
        execution_ms: state.startedAt === null || state.completedAt === null ? null : state.completedAt - state.startedAt,
      },
      urls: { self: isFault('self-url-wrong') ? `${mount}/status` : mount, events: `${mount}/events`, cancel: `${mount}/cancel` },
    };
    if (job.labels !== undefined && !isFault('job-labels-dropped')) body.metadata = { ...job.labels };
    if (isFault('job-created-at-missing')) delete body.created_at;
    return body;
  };

  // job-read-cached: the record as submitted is served for good. outputs-read-once: a
  // finished job's outputs are handed out once.
  const readCache = new Map<string, Record<string, unknown>>();
  const outputsDelivered = new Set<string>();

  app.post('/api/v2/jobs', { onRequest: guard.admit }, async (request, reply) => {
    const account = guard.requireAccount(request);
    const scope = policy.scope(request);
    const body = request.body as Record<string, unknown> | null;
    if (typeof body !== 'object' || body === null || Array.isArray(body)) throw invalidRequest('body', 'must be a JSON object');
    for (const reserved of ['webhook_url', 'inputs']) {
      if (reserved in body) throw new ApiError('invalid_workflow', `field "${reserved}" is reserved and not accepted yet`);
    }
    const extraData = body.extra_data;
    if (extraData !== undefined && (typeof extraData !== 'object' || extraData === null || Array.isArray(extraData))) {
      throw new ApiError('invalid_workflow', 'extra_data must be an object');
    }
    let labels: Record<string, string> | undefined;
    if (body.metadata !== undefined && !(!policy.labels && isFault('proxy-keeps-labels'))) {
      if (!policy.labels) throw new ApiError('metadata_not_supported', 'this surface keeps no job labels yet');
      try {
        labels = parseLabels(body.metadata);
      } catch (err) {
        if (err instanceof ApiError && isFault('metadata-invalid-no-key')) throw new ApiError(err.code, err.message);
        throw err;
      }
    }
    const traits = accountTraits(account);
    if (traits.upstreamFailure) {
      const leak = isFault('upstream-leaks-stack') ? ` Error: connect ECONNREFUSED 10.0.0.7:5432\n    at TCPConnectWrap.afterConnect (node:net:1555:16)` : '';
      throw new ApiError('upstream_error', `The server hit an unexpected error; try again later.${leak}`);
    }
    if (policy.credits && traits.noCredits && !isFault('credits-ignored')) throw new ApiError('insufficient_credits', 'the account has no credits left');

    const refusal = engine.validate(body.workflow, account);
    if (refusal) throw refusalError(refusal, body.workflow, new Set(engine.catalog.list().map((c) => c.name)), isFault);
    if (isFault('asset-input-refused')) refuseAssetInputs(body.workflow);

    const active = engine.activeCount(account);
    if (active >= traits.queueCapacity && !isFault('queue-unbounded')) throw new ApiError('queue_full', 'the queue for this account is full', { retryAfterSeconds: 1 });

    // Claimed only once the request reaches submission, so refusals above leave the key free.
    const key = request.headers['idempotency-key'];
    // idempotency-race: the key is looked up, then claimed after an await, so submits
    // that arrive together all find it free (a later reuse is still refused).
    const raced = typeof key === 'string' && key.length > 0 && isFault('idempotency-race') && jobs.keyFree(scope, account, key);
    if (raced) await delay(25);
    if (typeof key === 'string' && key.length > 0 && !jobs.claimKey(scope, account, key) && !raced) {
      const original = isFault('idempotency-replay') ? jobs.jobOfKey(scope, account, key) : undefined;
      const replay = original ? jobs.get(original) : undefined;
      if (replay) return reply.code(201).send(present(request, replay, engine.get(replay.id)!));
      throw new ApiError('idempotency_key_reuse', 'this Idempotency-Key was already used');
    }
    const now = Date.now();
    const job: V2Job = {
      id: randomUUID(),
      account,
      scope,
      ...(labels !== undefined ? { labels } : {}),
      workflow: body.workflow as ApiWorkflow,
      createdAt: now,
      expiresAt: now + JOB_RETENTION_MS,
    };
    jobs.add(job);
    if (typeof key === 'string' && key.length > 0) jobs.bindKey(scope, account, key, job.id);
    const state = engine.submit({ id: job.id, account, workflow: job.workflow, ...(extraData ? { extraData: extraData as Record<string, unknown> } : {}) });
    const submitted = present(request, job, state);
    if (isFault('job-read-cached')) readCache.set(job.id, submitted);
    return reply.code(201).send(submitted);
  });

  app.get<{ Params: { id: string } }>('/api/v2/jobs/:id', { onRequest: guard.admit }, async (request, reply) => {
    const { job, state } = ownJob(request, request.params.id);
    const cached = isFault('job-read-cached') ? readCache.get(job.id) : undefined;
    if (cached) return reply.send(cached);
    const body = present(request, job, state);
    if (isFault('outputs-read-once') && TERMINAL.has(state.status)) {
      if (outputsDelivered.has(job.id)) body.outputs = [];
      outputsDelivered.add(job.id);
    }
    return reply.send(body);
  });

  app.post<{ Params: { id: string } }>('/api/v2/jobs/:id/cancel', { onRequest: guard.admit }, async (request, reply) => {
    const { job } = ownJob(request, request.params.id);
    if (!isFault('cancel-ignored')) engine.cancel(job.id);
    return reply.send(present(request, job, engine.get(job.id)!));
  });

  app.get<{ Params: { id: string } }>('/api/v2/jobs/:id/workflow', { onRequest: guard.admit }, async (request, reply) => {
    const { job } = ownJob(request, request.params.id);
    // A v2-submitted job is always read back in API format, never with extra_data.
    return reply.send({ workflow: job.workflow, format: isFault('workflow-read-save-format') ? 'save' : 'api' });
  });

  app.get('/api/v2/jobs', { onRequest: guard.admit }, async (request, reply) => {
    if (!policy.listing) {
      if (isFault('list-unimplemented-as-403')) throw new ApiError('forbidden', 'listing is not allowed');
      // list-empty-not-501: a surface that does not list answers an empty page instead of saying so.
      if (isFault('list-empty-not-501')) return reply.send({ jobs: [] });
      throw new ApiError('not_implemented', 'this surface does not list jobs yet');
    }
    const account = guard.requireAccount(request);
    const query = request.query as Record<string, unknown>;
    let limit = DEFAULT_LIMIT;
    if (query.limit !== undefined) {
      const raw = query.limit;
      if (typeof raw !== 'string' || !/^\d+$/.test(raw) || Number(raw) < 1) throw invalidRequest('limit', 'must be a positive integer');
      limit = Math.min(Number(raw), MAX_LIMIT);
    }
    const filters = parseFilters(query, request.url);
    let scope = `${policy.scope(request)}\n${account}\n${JSON.stringify(Object.entries(filters).sort())}`;
    let list = jobs.list(policy.scope(request), account).filter((j) => isFault('list-filter-ignored') || Object.entries(filters).every(([k, v]) => j.labels?.[k] === v));
    if (query.cursor !== undefined) {
      if (typeof query.cursor !== 'string') throw new ApiError('invalid_cursor', 'cursor must be given once');
      let pos: { createdAt: number; id: string } | undefined;
      // cursor-follows-owner: a genuine cursor of another account continues that account's listing.
      const issued = isFault('cursor-follows-owner') ? cursors.issuedScope(query.cursor) : undefined;
      const owner = issued?.split('\n')[1];
      if (issued !== undefined && owner !== undefined && owner !== account) {
        list = jobs.list(policy.scope(request), owner).filter((j) => Object.entries(filters).every(([k, v]) => j.labels?.[k] === v));
        scope = issued;
      }
      try {
        pos = cursors.decode(scope, query.cursor);
      } catch (err) {
        if (!isFault('cursor-garbage-restarts')) throw err;
      }
      if (pos) list = list.filter((j) => j.createdAt < pos.createdAt || (j.createdAt === pos.createdAt && j.id < pos.id));
    }
    const page = list.slice(0, isFault('list-page-one-extra') ? limit + 1 : limit);
    const body: Record<string, unknown> = {
      jobs: page.map((j) => {
        const state = engine.get(j.id);
        return { id: j.id, status: state?.status ?? 'expired', created_at: iso(j.createdAt), expires_at: iso(j.expiresAt), ...(j.labels ? { metadata: { ...j.labels } } : {}) };
      }),
    };
    const last = page[page.length - 1];
    if (list.length > limit && last) body.next_cursor = cursors.encode(scope, { createdAt: last.createdAt, id: last.id });
    return reply.send(body);
  });

  app.get<{ Params: { id: string } }>('/api/v2/jobs/:id/events', { onRequest: guard.admit }, async (request, reply) => {
    const { job, state } = ownJob(request, request.params.id);
    streamEvents(request, reply, ctx, job.id, state, (s) => present(request, job, s), isFault('events-end-early'));
  });
}

/** The refusal as an ApiError, bent by the faults that break one refusal rule each. */
function refusalError(refusal: Refusal, workflow: unknown, known: ReadonlySet<string>, isFault: ReferenceContext['isFault']): ApiError {
  let code: Refusal['code'] | 'invalid_request' = refusal.code;
  if (code === 'workflow_format_ui' && isFault('ui-format-as-invalid')) code = 'invalid_workflow';
  if (code === 'missing_asset' && isFault('missing-asset-as-invalid')) code = 'invalid_workflow';
  if (code === 'invalid_workflow' && refusal.details?.node_errors && isFault('invalid-workflow-code')) code = 'invalid_request';
  const details: Record<string, unknown> | undefined = refusal.details ? { ...refusal.details } : undefined;
  if (details && isFault('truncation-count-missing')) delete details.malformed_node_count;
  if (details?.unknown_node_classes && isFault('unknown-classes-unbounded') && typeof workflow === 'object' && workflow !== null) {
    const all = new Set<string>();
    for (const node of Object.values(workflow as Record<string, { class_type?: unknown }>)) {
      if (typeof node?.class_type === 'string' && !known.has(node.class_type)) all.add(node.class_type);
    }
    details.unknown_node_classes = [...all];
  }
  return new ApiError(code, refusal.message, details ? { details } : {});
}

/** Server-sent events for one job: current state on connect, then live changes; ends after the terminal status. */
function streamEvents(request: FastifyRequest, reply: FastifyReply, ctx: ReferenceContext, jobId: string, state: JobState, presentJob: (s: JobState) => Record<string, unknown>, endEarly: boolean): void {
  reply.hijack();
  const res = reply.raw;
  res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive' });
  const send = (event: string, data: unknown): void => {
    res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  };
  const end = (): void => {
    ctx.engine.off('event', onEvent);
    res.end();
  };
  const outputsOf = (s: JobState) => (presentJob(s).outputs as unknown[]) ?? [];
  function onEvent(e: EngineEvent): void {
    if (e.jobId !== jobId) return;
    if (e.kind === 'progress') send('progress', e.progress);
    else if (e.kind === 'preview') send('preview', { node_id: e.node, content_type: 'image/png', data_base64: Buffer.from(e.png).toString('base64') });
    else if (e.kind === 'executed') {
      const current = ctx.engine.get(jobId);
      if (current) for (const o of outputsOf(current)) if ((o as { node_id: string }).node_id === e.node) send('output', o);
    } else if (e.kind === 'status') {
      send('status', ctx.isFault('events-status-renamed') ? { state: e.status } : { status: e.status, queue_position: e.status === 'queued' ? e.queuePosition : null });
      if (TERMINAL.has(e.status)) end();
    }
  }
  send('status', ctx.isFault('events-status-renamed') ? { state: state.status } : { status: state.status, queue_position: state.status === 'queued' ? state.queuePosition : null });
  if (state.progress) send('progress', state.progress);
  if (state.lastPreview) send('preview', { node_id: state.lastPreview.node, content_type: 'image/png', data_base64: Buffer.from(state.lastPreview.png).toString('base64') });
  if (TERMINAL.has(state.status) || endEarly) {
    res.end();
    return;
  }
  ctx.engine.on('event', onEvent);
  request.raw.on('close', () => ctx.engine.off('event', onEvent));
}

/** Fault asset-input-refused: refuses a LoadImage that takes an asset reference, as a server that does not know that input form would. */
function refuseAssetInputs(workflow: unknown): void {
  const nodes = Object.entries(workflow as Record<string, { class_type?: unknown; inputs?: Record<string, unknown> }>);
  const named: Record<string, unknown> = {};
  for (const [id, node] of nodes) {
    const image = node.inputs?.image as { __type?: unknown } | undefined;
    if (node.class_type === 'LoadImage' && typeof image === 'object' && image !== null && image.__type === 'core/ASSET') {
      named[id] = { class_type: 'LoadImage', errors: [{ type: 'value_not_valid', message: 'image must be a file name' }] };
    }
  }
  if (Object.keys(named).length > 0) throw new ApiError('invalid_workflow', 'the workflow has invalid nodes', { details: { node_errors: named } });
}
