// GET /api/v2/jobs/{id}/events: server-sent events for one job, its current state on
// connect, then live changes until the stream's end status.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ReferenceContext } from '../../context.ts';
import type { EngineEvent, JobState } from '../../engine/types.ts';
import type { JobKit } from './kit.ts';

export function registerJobEventsRoute(app: FastifyInstance, kit: JobKit): void {
  const { ctx, guard, ownJob, present } = kit;
  app.get<{ Params: { id: string } }>('/api/v2/jobs/:id/events', { onRequest: guard.admit }, async (request, reply) => {
    const { job, state } = ownJob(request, request.params.id);
    streamEvents(request, reply, ctx, job.id, state, (s) => present(request, job, s));
  });
}

/** Server-sent events for one job: current state on connect, then live changes; ends after the terminal status. */
function streamEvents(
  request: FastifyRequest,
  reply: FastifyReply,
  ctx: ReferenceContext,
  jobId: string,
  state: JobState,
  presentJob: (s: JobState) => Record<string, unknown>,
): void {
  reply.hijack();
  const res = reply.raw;
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
  });
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
    else if (e.kind === 'preview')
      send('preview', {
        node_id: e.node,
        content_type: 'image/png',
        data_base64: Buffer.from(e.png).toString('base64'),
      });
    else if (e.kind === 'executed') {
      const current = ctx.engine.get(jobId);
      if (current)
        for (const o of outputsOf(current)) if ((o as { node_id: string }).node_id === e.node) send('output', o);
    } else if (e.kind === 'status') {
      send('status', { [stateMember]: e.status, queue_position: e.status === 'queued' ? e.queuePosition : null });
      if (ctx.policy.v2.streamEnds(e.status)) end();
    }
  }
  send('status', {
    [stateMember]: state.status,
    queue_position: state.status === 'queued' ? state.queuePosition : null,
  });
  if (state.progress) send('progress', state.progress);
  if (state.lastPreview)
    send('preview', {
      node_id: state.lastPreview.node,
      content_type: 'image/png',
      data_base64: Buffer.from(state.lastPreview.png).toString('base64'),
    });
  if (ctx.policy.v2.streamEnds(state.status)) {
    res.end();
    return;
  }
  ctx.engine.on('event', onEvent);
  request.raw.on('close', () => ctx.engine.off('event', onEvent));
}
