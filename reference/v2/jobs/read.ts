// One job by id: its record, its cancel, and the workflow it was submitted with.
import type { FastifyInstance } from 'fastify';
import type { JobKit } from './kit.ts';

export function registerJobReadRoutes(app: FastifyInstance, kit: JobKit): void {
  const { ctx, guard, policy, ownJob, present } = kit;
  const { engine } = ctx;

  app.get<{ Params: { id: string } }>('/api/v2/jobs/:id', { onRequest: guard.admit }, async (request, reply) => {
    const { job, state } = ownJob(request, request.params.id);
    return reply.send(present(request, job, state));
  });

  app.post<{ Params: { id: string } }>(
    '/api/v2/jobs/:id/cancel',
    { onRequest: guard.admit },
    async (request, reply) => {
      const { job } = ownJob(request, request.params.id);
      policy.cancel(engine, job.id);
      return reply.send(present(request, job, engine.get(job.id)!));
    },
  );

  app.get<{ Params: { id: string } }>(
    '/api/v2/jobs/:id/workflow',
    { onRequest: guard.admit },
    async (request, reply) => {
      const { job } = ownJob(request, request.params.id);
      // A v2-submitted job is always read back in API format, never with extra_data.
      return reply.send({ workflow: job.workflow, format: 'api' });
    },
  );
}
