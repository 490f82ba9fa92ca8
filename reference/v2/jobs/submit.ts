// POST /api/v2/jobs: the body's shape, labels, credits, the engine's validation and the
// queue's capacity, then the Idempotency-Key (claimed only once a submit would be accepted).
import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ApiWorkflow } from '../../engine/types.ts';
import { ApiError, invalidRequest } from '../../errors.ts';
import { accountTraits } from '../account-traits.ts';
import { JOB_RETENTION_MS, type V2Job } from '../job-store.ts';
import { engineTypedRefusal, fileNameFormRefusal, unnamedClassesRefusal } from '../job-variations.ts';
import { parseLabels } from '../labels.ts';
import { UUID_RE } from '../../../lib/values.ts';
import type { JobKit } from './kit.ts';

type NodeErrors = Record<string, { class_type: string; errors: Array<{ type: string; message: string }> }>;

/** The nodes whose inputs reference an asset (`core/ASSET`) by an id that is not a UUID, as node errors. */
function nonUuidAssetRefs(workflow: unknown): NodeErrors {
  const named: NodeErrors = {};
  if (typeof workflow !== 'object' || workflow === null) return named;
  for (const [id, node] of Object.entries(
    workflow as Record<string, { class_type?: unknown; inputs?: Record<string, unknown> }>,
  )) {
    for (const [input, value] of Object.entries(node?.inputs ?? {})) {
      const ref = value as { __type?: unknown; info?: { id?: unknown } } | null;
      if (
        typeof ref !== 'object' ||
        ref === null ||
        ref.__type !== 'core/ASSET' ||
        typeof ref.info?.id !== 'string' ||
        UUID_RE.test(ref.info.id)
      )
        continue;
      named[id] = {
        class_type: String(node.class_type),
        errors: [
          { type: 'invalid_inputs', message: `input ${input}: an asset reference must name an asset by its UUID` },
        ],
      };
    }
  }
  return named;
}

export function registerSubmitRoute(app: FastifyInstance, kit: JobKit): void {
  const { ctx, guard, surface, policy, present } = kit;
  const { engine, jobs } = ctx;
  // Controls of the hosted cloud (its scope): labels taken and not kept (W:53:60fb6dc0818b
  // lists that as a reason for an absent job_metadata), and a submit answered 200.
  const labelsDropped = (request: FastifyRequest): boolean =>
    ctx.isControl('labels-not-kept') && surface.scope(request) === 'cloud';
  const submitted = (request: FastifyRequest): number =>
    ctx.isControl('job-submit-200') && surface.scope(request) === 'cloud' ? 200 : 201;

  app.post('/api/v2/jobs', { onRequest: guard.admit }, async (request, reply) => {
    const account = guard.requireAccount(request);
    const scope = surface.scope(request);
    const body = request.body as Record<string, unknown> | null;
    if (typeof body !== 'object' || body === null || Array.isArray(body))
      throw invalidRequest('body', 'must be a JSON object');
    for (const reserved of ['webhook_url', 'inputs']) {
      if (reserved in body)
        throw new ApiError('invalid_workflow', `field "${reserved}" is reserved and not accepted yet`);
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
    if (traits.upstreamFailure)
      throw new ApiError('upstream_error', 'The server hit an unexpected error; try again later.');
    if (surface.credits && traits.noCredits)
      throw new ApiError('insufficient_credits', 'the account has no credits left');

    // A control: a graph input referencing an asset by an id that is not a UUID is an invalid
    // input (422 invalid_workflow naming the node), not a missing asset; the seed allows both.
    const named = nonUuidAssetRefs(body.workflow);
    if (Object.keys(named).length > 0 && ctx.isControl('asset-ref-url-invalid-workflow'))
      throw new ApiError('invalid_workflow', 'an asset reference must name an asset by its UUID', {
        details: { node_errors: named },
      });
    const fileForm = fileNameFormRefusal(ctx, body.workflow, account);
    if (fileForm) throw fileForm;
    const refusal = unnamedClassesRefusal(
      ctx,
      engineTypedRefusal(ctx, policy.validateWorkflow(engine, body.workflow, account)),
    );
    if (refusal)
      throw new ApiError(refusal.code, refusal.message, refusal.details ? { details: { ...refusal.details } } : {});

    const active = engine.activeCount(account);
    if (active >= traits.queueCapacity)
      throw new ApiError('queue_full', 'the queue for this account is full', { retryAfterSeconds: 1 });

    // Claimed only once the request reaches submission, so refusals above leave the key free.
    const key = request.headers['idempotency-key'];
    if (typeof key === 'string' && key.length > 0) {
      const claim = await policy.claimKey(jobs, scope, account, key);
      const replay = claim.kind === 'replay' ? jobs.get(claim.jobId) : undefined;
      if (replay) return reply.code(submitted(request)).send(present(request, replay, engine.get(replay.id)!));
      if (claim.kind !== 'claimed') {
        // The other reading of "submission is idempotent" (seed W:19:bd358774d6ec), a control:
        // a retry of the same request under its key is answered with the job the key made.
        const earlier = ctx.isControl('idempotent-replay')
          ? jobs.get(jobs.jobOfKey(scope, account, key) ?? '')
          : undefined;
        if (
          earlier &&
          isDeepStrictEqual(earlier.workflow, body.workflow) &&
          isDeepStrictEqual(earlier.labels, labels)
        ) {
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
      expiresAt:
        now + (scope === 'cloud' ? JOB_RETENTION_MS : (accountTraits(account).jobRetentionMs ?? JOB_RETENTION_MS)),
    };
    jobs.add(job);
    if (typeof key === 'string' && key.length > 0) jobs.bindKey(scope, account, key, job.id);
    const state = engine.submit({
      id: job.id,
      account,
      workflow: job.workflow,
      ...(extraData ? { extraData: extraData as Record<string, unknown> } : {}),
    });
    return reply.code(submitted(request)).send(present(request, job, state));
  });
}
