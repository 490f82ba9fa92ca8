import { API_KEY_PREFIX, bearerToken } from '../accounts.ts';
import { createSurfaceApp } from '../app.ts';
import type { ReferenceContext } from '../context.ts';
import { ApiError } from '../errors.ts';
import { createGuard } from '../guard.ts';
import type { AccountResolver } from '../guard.ts';
import { registerStorageRoute } from '../storage.ts';
import { registerAssetRoutes } from '../v2/assets.ts';
import { registerJobRoutes } from '../v2/jobs.ts';
import { registerV1 } from '../v1/index.ts';
import type { SurfaceDefinition } from './surface.ts';

const unauthorized = (message: string): ApiError => new ApiError('unauthorized', message);

function cloudResolver(ctx: ReferenceContext): AccountResolver {
  return (header) => {
    if (header === undefined) throw unauthorized('missing Authorization header; send Authorization: Bearer <API key>');
    const token = bearerToken(header);
    if (token === undefined) throw unauthorized('malformed Authorization header; expected Bearer <API key>');
    const account = ctx.policy.v2.cloudBearerAccount(token);
    if (account !== undefined) return account;
    if (!token.startsWith(API_KEY_PREFIX)) {
      throw unauthorized(`JWT bearer tokens are not accepted by this deployment; use an API key (${API_KEY_PREFIX}...)`);
    }
    throw unauthorized('unknown API key');
  };
}

export const cloudSurface: SurfaceDefinition = {
  name: 'cloud',
  portOffset: 1,
  async build(ctx) {
    const app = await createSurfaceApp(ctx, 'cloud');
    const guard = createGuard(cloudResolver(ctx), ctx.limiter);
    registerAssetRoutes(app, ctx, guard, { signedUrls: true, retention: true, baseUrl: () => ctx.baseUrl('cloud') });
    registerStorageRoute(app, ctx);
    // The hosted cloud keeps labels and charges credits, but does not list jobs yet (501).
    registerJobRoutes(app, ctx, guard, { scope: () => 'cloud', mountPrefix: () => '', baseUrl: () => ctx.baseUrl('cloud'), labels: true, listing: false, credits: true });
    // The deprecated v1 operations (X-API-Key) and their WebSocket stream.
    registerV1(app, ctx);
    return app;
  },
};
