import multipart from '@fastify/multipart';
import Fastify from 'fastify';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import type { ReferenceContext, SurfaceName } from './context.ts';
import { installErrorHandling } from './errors.ts';
import { MAX_UPLOAD_BYTES } from './v2/upload.ts';

export const HEALTH_PATH = '/__reference/health';

/** The Fastify app of any surface, with the fault seams installed and no route yet; `options` adds to the shared ones. */
export function createBareApp(
  ctx: ReferenceContext,
  surface: SurfaceName,
  options: FastifyServerOptions = {},
): FastifyInstance {
  // HEAD is only answered where the contract defines it (by-hash), not mirrored from GET.
  const app = Fastify({
    // stderr, so the CLI's stdout stays the machine-readable surface list.
    logger: ctx.log ? { level: 'info', stream: process.stderr } : false,
    exposeHeadRoutes: false,
    // Keeps close() prompt even when a client left a response unread.
    forceCloseConnections: true,
    ...options,
  });
  // First, so a fault's hooks run before the surface's own (reference/faults/seams.ts).
  ctx.installSeams(app, surface);
  return app;
}

/** The parts every v2 surface shares: error envelope, multipart parsing, readiness probe. */
export async function createSurfaceApp(ctx: ReferenceContext, surface: SurfaceName): Promise<FastifyInstance> {
  const app = createBareApp(ctx, surface);
  installErrorHandling(app);
  await app.register(multipart, { limits: { fileSize: MAX_UPLOAD_BYTES } });
  // Outside /api/v2, so it needs no credentials and never counts against a limit.
  app.get(HEALTH_PATH, async () => ({ ok: true }));
  return app;
}
