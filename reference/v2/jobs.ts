// v2 job operations on every surface: submit, read, list, cancel, workflow read and
// the live event stream. Validation and execution belong to the engine; this file
// adds what v2 promises around them (labels, idempotency, cursors, embedded URLs).
import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ReferenceContext } from '../context.ts';
import { ApiError, invalidRequest, notFound, upstreamError } from '../errors.ts';
import { accountTraits } from './account-traits.ts';
import type { Guard } from '../guard.ts';
import type { ApiWorkflow, EngineEvent, JobState } from '../engine/types.ts';
import { CursorCodec, type CursorPosition } from './cursor.ts';
import { JOB_RETENTION_MS, type V2Job } from './job-store.ts';
import { parseFilters, parseLabels } from './labels.ts';
import { engineTypedRefusal, fileNameFormRefusal } from './job-variations.ts';
import { UUID_RE } from '../../lib/values.ts';

/** What differs between the surfaces serving the v2 job contract. */
export interface JobSurface {
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

const DEFAULT_LIMIT = 20;
const MAX_LIMIT = 100;

function iso(ms: number | null): string | null {
  return ms === null ? null : new Date(ms).toISOString();
}

export function registerJobRoutes(app: FastifyInstance, ctx: ReferenceContext, guard: Guard, surface: JobSurface): void {
  const { engine, jobs, assets } = ctx;
  const policy = ctx.policy.v2;
  const cursors = new CursorCodec(ctx.isControl('job-list-plain-cursors'));
  // The seed gives the job list no order: newest first (public docs), or oldest first under a control.
  const oldestFirst = ctx.isControl('job-list-oldest-first');
  const labelsOffJobRead = ctx.isControl('job-read-without-labels');
  // A control: the records embed no urls (the public documents' names; the seed names none).
  const withoutUrls = ctx.isControl('job-without-urls');
  // Controls of the hosted cloud (its scope): labels taken and not kept (W:53:60fb6dc0818b
  // lists that as a reason for an absent job_metadata), and a submit answered 200.
  const labelsDropped = (request: FastifyRequest): boolean => ctx.isControl('labels-not-kept') && surface.scope(request) === 'cloud';
  const submitted = (request: FastifyRequest): number => (ctx.isControl('job-submit-200') && surface.scope(request) === 'cloud' ? 200 : 201);

  const ownJob = (request: FastifyRequest, id: string): { job: V2Job; state: JobState } => {
    const account = guard.requireAccount(request);
    // The scenario account whose backing services are down fails its job reads too (seed W § Errors, upstream_error).
    if (accountTraits(account).upstreamFailure) throw upstreamError();
    // A control: an id not in the shape this server issues is refused as a bad request rather
    // than not found (the seed does not say how such an id is answered).
    if (!UUID_RE.test(id) && ctx.isControl('malformed-job-id-422')) throw invalidRequest('id', 'is not a job id this server issues');
    const job = UUID_RE.test(id) ? jobs.get(id) : undefined;
    const state = job ? engine.get(job.id) : undefined;
    if (!job || !state || job.account !== account || job.scope !== surface.scope(request)) throw notFound('job');
    return { job, state };
  };

  const present = (request: FastifyRequest, job: V2Job, state: JobState): Record<string, unknown> => {
    const base = surface.baseUrl(request);
    const mount = `${surface.mountPrefix(request)}/api/v2/jobs/${job.id}`;
    const outputs = state.outputs
      .filter((o) => o.type === 'output')
      .map((o) => {
        const rec = assets.get(o.ref);
        return {
          node_id: o.nodeId,
          name: o.filename,
          type: 'image',
          content_type: o.contentType,
          size_bytes: o.sizeBytes,
          id: o.ref,
          hash: rec ? `blake3:${rec.hex}` : null,
          // The authenticated content endpoint, stable while the asset exists; its
          // url_expires_at repeats the job's expires_at (seed W § Output URL forms, rule 3).
          url: `${base}/api/v2/assets/${o.ref}/content`,
          url_expires_at: iso(job.expiresAt),
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
        ? {
            code: 'node_execution_error',
            message: f.exception_message,
            node_id: f.node_id,
            class_type: f.class_type,
            traceback: f.traceback.join('\n'),
            // A failure of one node after dispatch is that node's error, in the same entry
            // shape a submit refusal's details.node_errors uses (seed W:230:2a85600fa562).
            ...(f.node_id !== null && f.class_type !== null ? { node_errors: engineNodeErrors(f.node_id, f.class_type, f.exception_message) } : {}),
          }
        : null,
      metrics: {
        queue_ms: state.startedAt === null ? null : state.startedAt - job.createdAt,
        execution_ms: state.startedAt === null || state.completedAt === null ? null : state.completedAt - state.startedAt,
      },
      ...(withoutUrls ? {} : { urls: { self: mount, events: `${mount}/events`, cancel: `${mount}/cancel` } }),
    };
    // A control leaves them off the job read (the seed's job record names no labels member);
    // they still show on the outputs' job_metadata.
    if (job.labels !== undefined && !labelsOffJobRead) body.metadata = { ...job.labels };
    return body;
  };

  app.post('/api/v2/jobs', { onRequest: guard.admit }, async (request, reply) => {
    const account = guard.requireAccount(request);
    const scope = surface.scope(request);
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
    if (body.metadata !== undefined) {
      if (!surface.labels) throw new ApiError('metadata_not_supported', 'this surface keeps no job labels yet');
      labels = parseLabels(body.metadata);
    }
    const traits = policy.submitTraits(account);
    if (traits.upstreamFailure) throw new ApiError('upstream_error', 'The server hit an unexpected error; try again later.');
    if (surface.credits && traits.noCredits) throw new ApiError('insufficient_credits', 'the account has no credits left');

    // A control: a graph input referencing an asset by an id that is not a UUID is an invalid
    // input (422 invalid_workflow naming the node), not a missing asset; the seed allows both.
    if (ctx.isControl('asset-ref-url-invalid-workflow')) {
      const named = nonUuidAssetRefs(body.workflow);
      if (Object.keys(named).length > 0) throw new ApiError('invalid_workflow', 'an asset reference must name an asset by its UUID', { details: { node_errors: named } });
    }
    const fileForm = fileNameFormRefusal(ctx, body.workflow, account);
    if (fileForm) throw fileForm;
    const refusal = engineTypedRefusal(ctx, policy.validateWorkflow(engine, body.workflow, account));
    if (refusal) throw new ApiError(refusal.code, refusal.message, refusal.details ? { details: { ...refusal.details } } : {});

    const active = engine.activeCount(account);
    if (active >= traits.queueCapacity) throw new ApiError('queue_full', 'the queue for this account is full', { retryAfterSeconds: 1 });

    // Claimed only once the request reaches submission, so refusals above leave the key free.
    const key = request.headers['idempotency-key'];
    if (typeof key === 'string' && key.length > 0) {
      const claim = await policy.claimKey(jobs, scope, account, key);
      const replay = claim.kind === 'replay' ? jobs.get(claim.jobId) : undefined;
      if (replay) return reply.code(submitted(request)).send(present(request, replay, engine.get(replay.id)!));
      if (claim.kind !== 'claimed') {
        // The other reading of "submission is idempotent" (seed W:19:bd358774d6ec), a control:
        // a retry of the same request under its key is answered with the job the key made.
        const earlier = ctx.isControl('idempotent-replay') ? jobs.get(jobs.jobOfKey(scope, account, key) ?? '') : undefined;
        if (earlier && isDeepStrictEqual(earlier.workflow, body.workflow) && isDeepStrictEqual(earlier.labels, labels)) {
          return reply.code(submitted(request)).send(present(request, earlier, engine.get(earlier.id)!));
        }
        throw new ApiError('idempotency_key_reuse', 'this Idempotency-Key was already used');
      }
    }
    const now = Date.now();
    const job: V2Job = {
      id: randomUUID(),
      account,
      scope,
      ...(labels !== undefined && !labelsDropped(request) ? { labels } : {}),
      workflow: body.workflow as ApiWorkflow,
      createdAt: now,
      // The hosted cloud's placeholder (seed W § Limits 2); elsewhere a scenario account may keep jobs shorter.
      expiresAt: now + (scope === 'cloud' ? JOB_RETENTION_MS : (accountTraits(account).jobRetentionMs ?? JOB_RETENTION_MS)),
    };
    jobs.add(job);
    if (typeof key === 'string' && key.length > 0) jobs.bindKey(scope, account, key, job.id);
    const state = engine.submit({ id: job.id, account, workflow: job.workflow, ...(extraData ? { extraData: extraData as Record<string, unknown> } : {}) });
    return reply.code(submitted(request)).send(present(request, job, state));
  });

  app.get<{ Params: { id: string } }>('/api/v2/jobs/:id', { onRequest: guard.admit }, async (request, reply) => {
    const { job, state } = ownJob(request, request.params.id);
    return reply.send(present(request, job, state));
  });

  app.post<{ Params: { id: string } }>('/api/v2/jobs/:id/cancel', { onRequest: guard.admit }, async (request, reply) => {
    const { job } = ownJob(request, request.params.id);
    policy.cancel(engine, job.id);
    return reply.send(present(request, job, engine.get(job.id)!));
  });

  app.get<{ Params: { id: string } }>('/api/v2/jobs/:id/workflow', { onRequest: guard.admit }, async (request, reply) => {
    const { job } = ownJob(request, request.params.id);
    // A v2-submitted job is always read back in API format, never with extra_data.
    return reply.send({ workflow: job.workflow, format: 'api' });
  });

  app.get('/api/v2/jobs', { onRequest: guard.admit }, async (request, reply) => {
    if (!surface.listing) throw new ApiError('not_implemented', 'this surface does not list jobs yet');
    const account = guard.requireAccount(request);
    if (accountTraits(account).upstreamFailure) throw upstreamError();
    const query = request.query as Record<string, unknown>;
    let limit = DEFAULT_LIMIT;
    if (query.limit !== undefined) {
      const raw = query.limit;
      if (typeof raw !== 'string' || !/^\d+$/.test(raw) || Number(raw) < 1) throw invalidRequest('limit', 'must be a positive integer');
      limit = Math.min(Number(raw), MAX_LIMIT);
    }
    const filters = parseFilters(query, request.url);
    if (query.cursor !== undefined && typeof query.cursor !== 'string') throw new ApiError('invalid_cursor', 'cursor must be given once');
    const cursor = query.cursor;
    // A cursor is bound to the listing it was issued for: surface, account and filters.
    const owner = cursor === undefined ? account : policy.listingOwner(account, cursor, cursors);
    const scope = `${surface.scope(request)}\n${owner}\n${JSON.stringify(Object.entries(filters).sort())}`;
    let list = jobs.list(surface.scope(request), owner).filter((j) => policy.matchesFilters(j.labels, filters));
    if (oldestFirst) list.reverse();
    const pos = cursor === undefined ? undefined : policy.cursorPosition(cursors, scope, cursor);
    const before = (j: V2Job, p: CursorPosition) => j.createdAt < p.createdAt || (j.createdAt === p.createdAt && j.id < p.id);
    if (pos) list = list.filter((j) => (oldestFirst ? !before(j, pos) && !(j.createdAt === pos.createdAt && j.id === pos.id) : before(j, pos)));
    const page = list.slice(0, policy.pageSize(limit));
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
    streamEvents(request, reply, ctx, job.id, state, (s) => present(request, job, s));
  });
}

/**
 * The node errors of a job the engine failed after dispatch: keyed by the failing node's id,
 * its class, and one error typed as the v1 WebSocket names a run-time failure
 * (execution_error, seed W § Errors, v1 errors); the message is the engine's own.
 */
export function engineNodeErrors(nodeId: string, classType: string, message: string): Record<string, { class_type: string; errors: Array<{ type: string; message: string }> }> {
  return { [nodeId]: { class_type: classType, errors: [{ type: 'execution_error', message }] } };
}

/** The nodes whose inputs reference an asset (`core/ASSET`) by an id that is not a UUID, as node errors. */
function nonUuidAssetRefs(workflow: unknown): Record<string, { class_type: string; errors: Array<{ type: string; message: string }> }> {
  const named: Record<string, { class_type: string; errors: Array<{ type: string; message: string }> }> = {};
  if (typeof workflow !== 'object' || workflow === null) return named;
  for (const [id, node] of Object.entries(workflow as Record<string, { class_type?: unknown; inputs?: Record<string, unknown> }>)) {
    for (const [input, value] of Object.entries(node?.inputs ?? {})) {
      const ref = value as { __type?: unknown; info?: { id?: unknown } } | null;
      if (typeof ref !== 'object' || ref === null || ref.__type !== 'core/ASSET' || typeof ref.info?.id !== 'string' || UUID_RE.test(ref.info.id)) continue;
      named[id] = { class_type: String(node.class_type), errors: [{ type: 'invalid_inputs', message: `input ${input}: an asset reference must name an asset by its UUID` }] };
    }
  }
  return named;
}

/** Server-sent events for one job: current state on connect, then live changes; ends after the terminal status. */
function streamEvents(request: FastifyRequest, reply: FastifyReply, ctx: ReferenceContext, jobId: string, state: JobState, presentJob: (s: JobState) => Record<string, unknown>): void {
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
  // The events-state-member control names the state `state` (the seed shows no payload).
  const stateMember = ctx.isControl('events-state-member') ? 'state' : 'status';
  function onEvent(e: EngineEvent): void {
    if (e.jobId !== jobId) return;
    if (e.kind === 'progress') send('progress', e.progress);
    else if (e.kind === 'preview') send('preview', { node_id: e.node, content_type: 'image/png', data_base64: Buffer.from(e.png).toString('base64') });
    else if (e.kind === 'executed') {
      const current = ctx.engine.get(jobId);
      if (current) for (const o of outputsOf(current)) if ((o as { node_id: string }).node_id === e.node) send('output', o);
    } else if (e.kind === 'status') {
      send('status', { [stateMember]: e.status, queue_position: e.status === 'queued' ? e.queuePosition : null });
      if (ctx.policy.v2.streamEnds(e.status)) end();
    }
  }
  send('status', { [stateMember]: state.status, queue_position: state.status === 'queued' ? state.queuePosition : null });
  if (state.progress) send('progress', state.progress);
  if (state.lastPreview) send('preview', { node_id: state.lastPreview.node, content_type: 'image/png', data_base64: Buffer.from(state.lastPreview.png).toString('base64') });
  if (ctx.policy.v2.streamEnds(state.status)) {
    res.end();
    return;
  }
  ctx.engine.on('event', onEvent);
  request.raw.on('close', () => ctx.engine.off('event', onEvent));
}
