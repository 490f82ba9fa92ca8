import Fastify from 'fastify';
import { HEALTH_PATH } from '../app.ts';
import { registerRegistryRoutes } from '../registry/routes.ts';
import type { SurfaceDefinition } from './surface.ts';

// The node registry (seed W § Node registry operation): its own two error shapes, so it
// does not use the v2 surface app; it shares only the readiness probe.
export const registrySurface: SurfaceDefinition = {
  name: 'registry',
  portOffset: 4,
  async build(ctx) {
    const app = Fastify({
      logger: ctx.log ? { level: 'info', stream: process.stderr } : false,
      exposeHeadRoutes: false,
      forceCloseConnections: true,
      // Node ids are arbitrary strings; long ones must still reach the route (and its 404).
      routerOptions: { maxParamLength: 2048 },
    });
    ctx.installSeams(app, 'registry');
    app.get(HEALTH_PATH, async () => ({ ok: true }));
    registerRegistryRoutes(app, ctx.policy.registry, ctx);
    return app;
  },
};
