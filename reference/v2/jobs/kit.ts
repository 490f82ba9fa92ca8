// What the v2 job routes share: the surface's options, the caller's own job (or the 404),
// and the job record as every job answer presents it, with the controls that vary it.
import type { FastifyRequest } from 'fastify';
import type { ReferenceContext } from '../../context.ts';
import { invalidRequest, notFound, upstreamError } from '../../errors.ts';
import type { Guard } from '../../guard.ts';
import type { JobState } from '../../engine/types.ts';
import { accountTraits } from '../account-traits.ts';
import type { V2Job } from '../job-store.ts';
import type { V2Policy } from '../policy.ts';
import { UUID_RE } from '../../../lib/values.ts';

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

export interface JobKit {
  readonly ctx: ReferenceContext;
  readonly guard: Guard;
  readonly surface: JobSurface;
  /** ctx.policy.v2 as it was when the routes were registered. */
  readonly policy: V2Policy;
  /** The caller's job in this scope, with its engine state, or the refusal. */
  ownJob(request: FastifyRequest, id: string): { job: V2Job; state: JobState };
  /** The job record every job answer (submit, read, cancel, events) carries. */
  present(request: FastifyRequest, job: V2Job, state: JobState): Record<string, unknown>;
}

export function iso(ms: number | null): string | null {
  return ms === null ? null : new Date(ms).toISOString();
}

/**
 * The node errors of a job the engine failed after dispatch: keyed by the failing node's id,
 * its class, and one error typed as the v1 WebSocket names a run-time failure
 * (execution_error, seed W § Errors, v1 errors); the message is the engine's own.
 */
export function engineNodeErrors(
  nodeId: string,
  classType: string,
  message: string,
): Record<string, { class_type: string; errors: Array<{ type: string; message: string }> }> {
  return { [nodeId]: { class_type: classType, errors: [{ type: 'execution_error', message }] } };
}

export function jobKit(ctx: ReferenceContext, guard: Guard, surface: JobSurface): JobKit {
  const { engine, jobs, assets } = ctx;
  const policy = ctx.policy.v2;

  const ownJob = (request: FastifyRequest, id: string): { job: V2Job; state: JobState } => {
    const account = guard.requireAccount(request);
    // The scenario account whose backing services are down fails its job reads too (seed W § Errors, upstream_error).
    if (accountTraits(account).upstreamFailure) throw upstreamError();
    // A control: an id not in the shape this server issues is refused as a bad request rather
    // than not found (the seed does not say how such an id is answered).
    if (!UUID_RE.test(id) && ctx.isControl('malformed-job-id-422'))
      throw invalidRequest('id', 'is not a job id this server issues');
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
            ...(f.node_id !== null && f.class_type !== null
              ? { node_errors: engineNodeErrors(f.node_id, f.class_type, f.exception_message) }
              : {}),
          }
        : null,
      metrics: {
        queue_ms: state.startedAt === null ? null : state.startedAt - job.createdAt,
        execution_ms:
          state.startedAt === null || state.completedAt === null ? null : state.completedAt - state.startedAt,
      },
      // A control: the records embed no urls (the public documents' names; the seed names none).
      // Asked per record, so only the tests that read jobs count as consulting it.
      ...(ctx.isControl('job-without-urls')
        ? {}
        : { urls: { self: mount, events: `${mount}/events`, cancel: `${mount}/cancel` } }),
    };
    // A control leaves them off the job read (the seed's job record names no labels member);
    // they still show on the outputs' job_metadata.
    if (job.labels !== undefined && !ctx.isControl('job-read-without-labels')) body.metadata = { ...job.labels };
    return body;
  };

  return { ctx, guard, surface, policy, ownJob, present };
}
