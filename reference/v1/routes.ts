// The deprecated v1 cloud operations on the cloud surface (seed W § v1 cloud
// operations): object_info from the engine's catalog, flat-namespace uploads, prompt
// submission into the same engine the v2 jobs use, the v1 status vocabulary, and
// /api/view redirecting to a signed storage URL that needs no key. One file per operation
// or group in reference/v1/routes/, each given the shared V1RouteKit.
import type { FastifyInstance } from 'fastify';
import type { ReferenceContext } from '../context.ts';
import type { V1Jobs } from './jobs.ts';
import { v1RouteKit } from './routes/kit.ts';
import { registerObjectInfoRoute } from './routes/object-info.ts';
import { registerPromptRoute } from './routes/prompt.ts';
import { registerPromptRunRoutes } from './routes/runs.ts';
import { registerUploadRoutes } from './routes/uploads.ts';
import { registerViewRoute } from './routes/view.ts';

export function registerV1Routes(app: FastifyInstance, ctx: ReferenceContext, jobs: V1Jobs): void {
  const kit = v1RouteKit(ctx, jobs);
  registerObjectInfoRoute(app, kit);
  registerUploadRoutes(app, kit);
  registerPromptRoute(app, kit);
  registerPromptRunRoutes(app, kit);
  registerViewRoute(app, kit);
}
