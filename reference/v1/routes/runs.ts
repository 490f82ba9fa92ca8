// One prompt by id: POST /api/interrupt stops it, GET /api/job/{id}/status reads it in the
// v1 status vocabulary.
import type { FastifyInstance } from 'fastify';
import { v1Account } from '../auth.ts';
import { sendV1Error } from '../errors.ts';
import { v1Status } from '../jobs.ts';
import { iso, type V1RouteKit } from './kit.ts';

export function registerPromptRunRoutes(app: FastifyInstance, kit: V1RouteKit): void {
  const { ctx, jobs, auth } = kit;
  const { engine } = ctx;
  // The engine's own interrupt of one running prompt (seed W shows no cancel for v1 prompts; a
  // target names its operation in scenario input prompt_interrupt). The run ends cancelled,
  // its stream with execution_interrupted.
  app.post('/api/interrupt', { onRequest: auth }, async (request, reply) => {
    const account = v1Account(request);
    const body = request.body as { prompt_id?: unknown } | undefined;
    const id = typeof body?.prompt_id === 'string' ? body.prompt_id : undefined;
    if (id === undefined) return sendV1Error(reply, 400, 'invalid_request', 'prompt_id names the prompt to interrupt');
    const job = jobs.get(id);
    if (!job || !engine.get(job.id)) return sendV1Error(reply, 404, 'not_found', 'job not found');
    if (job.account !== account) return sendV1Error(reply, 403, 'forbidden', 'the job belongs to another user');
    engine.cancel(job.id);
    return reply.code(200).send({});
  });

  app.get<{ Params: { id: string } }>('/api/job/:id/status', { onRequest: auth }, async (request, reply) => {
    const account = v1Account(request);
    const job = jobs.get(request.params.id);
    const state = job ? engine.get(job.id) : undefined;
    if (!job || !state) return sendV1Error(reply, 404, 'not_found', 'job not found');
    if (job.account !== account) return sendV1Error(reply, 403, 'forbidden', 'the job belongs to another user');
    const updated = state.completedAt ?? state.startedAt ?? state.createdAt;
    return reply.code(200).send({
      id: job.id,
      status: v1Status(state, account, ctx.isControl('v1-second-vocabulary-only')),
      created_at: iso(state.createdAt),
      updated_at: iso(updated),
      last_state_update: iso(updated),
      assigned_inference: null,
      error_message: state.failure ? state.failure.exception_message : null,
    });
  });
}
