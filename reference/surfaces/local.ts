import { createHash, timingSafeEqual } from 'node:crypto';
import { LOCAL_ACCOUNT, LOCAL_STATIC_TOKEN, LOCAL_TOKEN_MOUNT, bearerToken } from '../accounts.ts';
import { createSurfaceApp } from '../app.ts';
import type { ReferenceContext } from '../context.ts';
import { ApiError } from '../errors.ts';
import { createGuard } from '../guard.ts';
import type { AccountResolver } from '../guard.ts';
import { registerAssetRoutes } from '../v2/assets.ts';
import { registerJobRoutes } from '../v2/jobs.ts';
import { registerWorkflowPage } from '../v2/variations.ts';
import type { SurfaceDefinition } from './surface.ts';

// Digests first so the comparison takes the same time whatever the lengths.
function sameSecret(a: string, b: string): boolean {
  const da = createHash('sha256').update(a).digest();
  const db = createHash('sha256').update(b).digest();
  return timingSafeEqual(da, db);
}

function localResolver(ctx: ReferenceContext, configured = ctx.localToken): AccountResolver {
  return (header) => {
    if (configured !== undefined) {
      const token = bearerToken(header);
      if (token === undefined || !sameSecret(token, configured)) {
        throw new ApiError('unauthorized', 'this proxy requires Authorization: Bearer <configured token>');
      }
    }
    return LOCAL_ACCOUNT;
  };
}

// The self-hosted proxy: one implicit account, bytes served directly, no retention.
export const localSurface: SurfaceDefinition = {
  name: 'local',
  portOffset: 0,
  async build(ctx) {
    const app = await createSurfaceApp(ctx, 'local');
    const guard = createGuard(localResolver(ctx), ctx.limiter);
    registerAssetRoutes(app, ctx, guard, { signedUrls: false, retention: false, baseUrl: () => ctx.baseUrl('local') });
    // The proxy lists jobs but keeps no labels; no credits apply.
    registerJobRoutes(app, ctx, guard, {
      scope: () => 'local',
      mountPrefix: () => '',
      baseUrl: () => ctx.baseUrl('local'),
      labels: false,
      listing: true,
      credits: false,
    });
    registerWorkflowPage(app, ctx);
    // The same proxy as configured with its optional static bearer token (seed W §
    // Authentication 3), mounted beside the open one so one reference shows both setups.
    const tokenGuard = createGuard(localResolver(ctx, LOCAL_STATIC_TOKEN), ctx.limiter);
    const tokenBase = () => `${ctx.baseUrl('local')}${LOCAL_TOKEN_MOUNT}`;
    await app.register(
      async (sub) => {
        registerAssetRoutes(sub, ctx, tokenGuard, { signedUrls: false, retention: false, baseUrl: tokenBase });
        registerJobRoutes(sub, ctx, tokenGuard, {
          scope: () => 'local',
          mountPrefix: () => LOCAL_TOKEN_MOUNT,
          baseUrl: tokenBase,
          labels: false,
          listing: true,
          credits: false,
        });
      },
      { prefix: LOCAL_TOKEN_MOUNT },
    );
    return app;
  },
};
