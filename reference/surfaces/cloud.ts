import {
  API_KEY_PREFIX,
  CLOUD_KEYS,
  FORBIDDEN_KEY,
  CLOUD_OAUTH_TOKENS,
  CLOUD_SESSION_SECRET,
  bearerToken,
} from '../accounts.ts';
import { verifyDevJwt } from '../registry/jwt.ts';
import { createSurfaceApp } from '../app.ts';
import type { ReferenceContext } from '../context.ts';
import { ApiError } from '../errors.ts';
import { createGuard } from '../guard.ts';
import type { AccountResolver } from '../guard.ts';
import { registerStorageRoute } from '../storage.ts';
import { registerAssetRoutes } from '../v2/assets.ts';
import { registerJobRoutes } from '../v2/jobs.ts';
import { cloudJwtRefusal, registerWorkflowPage } from '../v2/variations.ts';
import { registerV1 } from '../v1/index.ts';
import type { SurfaceDefinition } from './surface.ts';

const unauthorized = (message: string): ApiError => new ApiError('unauthorized', message);

/** Seed W § Errors: forbidden 403 = authenticated but not allowed. */
export const keyNotAllowed = (): ApiError =>
  new ApiError('forbidden', 'this key is valid but its scopes do not include the workflow API');

function cloudResolver(ctx: ReferenceContext): AccountResolver {
  return (header) => {
    if (header === undefined) throw unauthorized('missing Authorization header; send Authorization: Bearer <API key>');
    const token = bearerToken(header);
    if (token === undefined) throw unauthorized('malformed Authorization header; expected Bearer <API key>');
    if (token === FORBIDDEN_KEY) throw keyNotAllowed();
    const account = ctx.policy.v2.cloudBearerAccount(token);
    if (account !== undefined) return account;
    if (!token.startsWith(API_KEY_PREFIX)) {
      // A cloud configured not to take JWT bearers refuses every bearer that is no API key, saying so.
      const refusal = cloudJwtRefusal(ctx, API_KEY_PREFIX);
      if (refusal !== undefined) throw unauthorized(refusal);
      // Seed W § Authentication 1: the hosted cloud also takes a session JWT and an OAuth
      // access token issued for it.
      const oauth = CLOUD_OAUTH_TOKENS[token];
      if (oauth !== undefined) return oauth;
      const verdict = verifyDevJwt(CLOUD_SESSION_SECRET, token);
      if (verdict.ok && verdict.claims.sub in CLOUD_KEYS) return verdict.claims.sub;
      throw unauthorized(`invalid or expired session JWT or access token; or use an API key (${API_KEY_PREFIX}...)`);
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
    registerJobRoutes(app, ctx, guard, {
      scope: () => 'cloud',
      mountPrefix: () => '',
      baseUrl: () => ctx.baseUrl('cloud'),
      labels: true,
      listing: false,
      credits: true,
    });
    registerWorkflowPage(app, ctx);
    // The deprecated v1 operations (X-API-Key) and their WebSocket stream.
    registerV1(app, ctx);
    return app;
  },
};
