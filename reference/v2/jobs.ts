// v2 job operations on every surface: submit, read, list, cancel, workflow read and
// the live event stream. Validation and execution belong to the engine; the routes add
// what v2 promises around them (labels, idempotency, cursors, embedded URLs), one file per
// operation or group in reference/v2/jobs/, each given the shared JobKit.
import type { FastifyInstance } from 'fastify';
import type { ReferenceContext } from '../context.ts';
import type { Guard } from '../guard.ts';
import { registerJobEventsRoute } from './jobs/events.ts';
import { jobKit, type JobSurface } from './jobs/kit.ts';
import { registerJobListRoute } from './jobs/list.ts';
import { registerJobReadRoutes } from './jobs/read.ts';
import { registerSubmitRoute } from './jobs/submit.ts';

export type { JobSurface } from './jobs/kit.ts';

export function registerJobRoutes(
  app: FastifyInstance,
  ctx: ReferenceContext,
  guard: Guard,
  surface: JobSurface,
): void {
  const kit = jobKit(ctx, guard, surface);
  registerSubmitRoute(app, kit);
  registerJobReadRoutes(app, kit);
  registerJobListRoute(app, kit);
  registerJobEventsRoute(app, kit);
}
