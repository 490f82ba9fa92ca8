// A serverless deployment surface. Each deployment has its own address; here they are
// mounted under /deployment/<id> on one port (the public gateway's mount prefix), so one
// reference can show every deployment state: ready, warming up, without GPU capacity, stopped.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  API_KEY_PREFIX,
  FORBIDDEN_KEY,
  SSO_BOUND_KEY,
  SSO_ORGANIZATION_ID,
  bearerToken,
  cloudAccountForKey,
} from '../accounts.ts';
import { createSurfaceApp } from '../app.ts';
import type { ReferenceContext } from '../context.ts';
import { ApiError, notFound } from '../errors.ts';
import { deploymentWorkflowBody, jwtRefusalMessage } from '../v2/variations.ts';
import { createGuard } from '../guard.ts';
import type { AccountResolver } from '../guard.ts';
import { registerAssetRoutes } from '../v2/assets.ts';
import { registerJobRoutes } from '../v2/jobs.ts';
import type { SurfaceDefinition } from './surface.ts';
import { keyNotAllowed } from './cloud.ts';
import { DEPLOYMENT_WORKFLOW } from '../v2/deployments.ts';

function serverlessResolver(ctx: ReferenceContext): AccountResolver {
  return (header, request) => {
    if (header === undefined)
      throw new ApiError('unauthorized', 'missing Authorization header; send Authorization: Bearer <API key>');
    const token = bearerToken(header);
    if (token === undefined)
      throw new ApiError('unauthorized', 'malformed Authorization header; expected Bearer <API key>');
    if (token === SSO_BOUND_KEY) {
      const acting = ctx.policy.v2.ssoBoundAccount(request);
      if (acting !== undefined) return acting;
      throw new ApiError('sso_required', 'this account must sign in through its organization single sign-on', {
        organizationId: SSO_ORGANIZATION_ID,
      });
    }
    if (token === FORBIDDEN_KEY) throw keyNotAllowed();
    const account = cloudAccountForKey(token);
    if (account !== undefined) return account;
    // JWT acceptance is deployment configuration; this one takes API keys only.
    if (!token.startsWith(API_KEY_PREFIX)) {
      throw new ApiError('unauthorized', jwtRefusalMessage(ctx));
    }
    throw new ApiError('unauthorized', 'unknown API key');
  };
}

const deploymentOf = (request: FastifyRequest): string => (request.params as { deployment?: string }).deployment ?? '';

export const serverlessSurface: SurfaceDefinition = {
  name: 'serverless',
  portOffset: 2,
  async build(ctx: ReferenceContext): Promise<FastifyInstance> {
    const app = await createSurfaceApp(ctx, 'serverless');
    const guard = createGuard(serverlessResolver(ctx), ctx.limiter);
    const base = (request: FastifyRequest) => `${ctx.baseUrl('serverless')}/deployment/${deploymentOf(request)}`;

    await app.register(
      async (deployment) => {
        // Authentication first (an SSO-bound key is refused on any operation), then the deployment's state.
        deployment.addHook('onRequest', async (request) => {
          const state = ctx.policy.v2.deploymentState(deploymentOf(request));
          if (state === undefined) throw notFound('deployment');
          await guard.authenticate(request);
          if (state === 'not_ready')
            throw new ApiError('deployment_not_ready', 'the deployment is starting; retry', { retryAfterSeconds: 5 });
          if (state === 'unavailable')
            throw new ApiError(
              'deployment_unavailable',
              'the deployment is ready but its GPU provider takes no work yet; retry',
              { retryAfterSeconds: 10 },
            );
          if (state === 'stopped')
            throw new ApiError('deployment_stopped', 'the deployment is stopped; an operator must start it');
        });
        // Authenticated above, so routes only charge the rate limit.
        const rateLimited = {
          ...guard,
          admit: async (request: FastifyRequest) => guard.charge(request),
          authenticate: async () => undefined,
        };
        // Hosted: asset reads hand out signed storage URLs, so no content-endpoint base is needed here.
        registerAssetRoutes(deployment, ctx, rateLimited, {
          signedUrls: true,
          retention: true,
          baseUrl: () => ctx.baseUrl('serverless'),
        });
        registerJobRoutes(deployment, ctx, rateLimited, {
          scope: (r) => `serverless:${deploymentOf(r)}`,
          mountPrefix: (r) => `/deployment/${deploymentOf(r)}`,
          baseUrl: base,
          labels: true,
          listing: true,
          credits: true,
        });
        // The graph that was executed: the workflow of the caller's job that started last on
        // this deployment (seed W design rule 7).
        deployment.get('/workflow', { onRequest: rateLimited.admit }, async (request) => {
          const ran = ctx.jobs
            .list(`serverless:${deploymentOf(request)}`, rateLimited.requireAccount(request))
            .map((job) => ({ job, startedAt: ctx.engine.get(job.id)?.startedAt ?? null }))
            .filter((j) => j.startedAt !== null)
            .sort((a, b) => b.startedAt! - a.startedAt!)[0];
          return deploymentWorkflowBody(ctx, ran ? ran.job.workflow : DEPLOYMENT_WORKFLOW, ran?.job.id);
        });
      },
      { prefix: '/deployment/:deployment' },
    );
    return app;
  },
};
