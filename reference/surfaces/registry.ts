import { HEALTH_PATH, createBareApp } from '../app.ts';
import { registerRegistryRoutes } from '../registry/routes.ts';
import type { SurfaceDefinition } from './surface.ts';

// The node registry (seed W § Node registry operation): its own two error shapes, so it
// does not use the v2 surface app; it shares only the readiness probe.
export const registrySurface: SurfaceDefinition = {
  name: 'registry',
  portOffset: 4,
  async build(ctx) {
    const app = createBareApp(ctx, 'registry', {
      // Node ids are arbitrary strings; long ones must still reach the route (and its 404).
      routerOptions: { maxParamLength: 2048 },
    });
    app.get(HEALTH_PATH, async () => ({ ok: true }));
    registerRegistryRoutes(app, ctx.policy.registry, ctx);
    return app;
  },
};
