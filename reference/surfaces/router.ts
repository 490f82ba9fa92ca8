import { HEALTH_PATH, createBareApp } from '../app.ts';
import { registerRouterRoutes } from '../router/routes.ts';
import type { SurfaceDefinition } from './surface.ts';

// The model router (seed R): its own error body ({detail, error_type}), so it does not use
// the v2 surface app; it shares only the readiness probe.
export const routerSurface: SurfaceDefinition = {
  name: 'router',
  portOffset: 3,
  async build(ctx) {
    const app = createBareApp(ctx, 'router', {
      // Model segments reach 128 characters, and invalid ones must still be answered.
      routerOptions: { maxParamLength: 1024 },
      bodyLimit: ctx.router.policy.bodyLimitBytes,
    });
    app.get(HEALTH_PATH, async () => ({ ok: true }));
    registerRouterRoutes(app, ctx.router);
    return app;
  },
};
