// The v1 cloud operations and their WebSocket stream, registered on the cloud surface.
import type { FastifyInstance } from 'fastify';
import type { ReferenceContext } from '../context.ts';
import { V1Jobs } from './jobs.ts';
import { registerV1Routes } from './routes.ts';
import { attachV1Socket } from './socket.ts';

export function registerV1(app: FastifyInstance, ctx: ReferenceContext): void {
  const jobs = new V1Jobs();
  registerV1Routes(app, ctx, jobs);
  attachV1Socket(app, ctx, jobs);
}
