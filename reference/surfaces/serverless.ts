// A serverless deployment surface. Each deployment has its own address; here they are
// mounted under /deployment/<id> on one port (the public gateway's mount prefix), so one
// reference can show every deployment state: ready, warming up, without GPU capacity, stopped.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { API_KEY_PREFIX, FORBIDDEN_KEY, SSO_BOUND_KEY, SSO_ORGANIZATION_ID, bearerToken, cloudAccountForKey } from '../accounts.ts';
import { createSurfaceApp } from '../app.ts';
import type { ReferenceContext } from '../context.ts';
import { ApiError, notFound } from '../errors.ts';
import { createGuard } from '../guard.ts';
import type { AccountResolver } from '../guard.ts';
import { registerAssetRoutes } from '../v2/assets.ts';
import { registerJobRoutes } from '../v2/jobs.ts';
import type { SurfaceDefinition } from './surface.ts';
import { keyNotAllowed } from './cloud.ts';

export type DeploymentState = 'ready' | 'not_ready' | 'unavailable' | 'stopped';

export const DEPLOYMENTS: Record<string, DeploymentState> = {
  'dep-ready': 'ready',
  'dep-warming': 'not_ready',
  'dep-nogpu': 'unavailable',
  'dep-stopped': 'stopped',
};

/** The graph a deployment is built around, returned by GET /workflow until a job has run there. */
const DEPLOYMENT_WORKFLOW = {
  '1': { class_type: 'EmptyImage', inputs: { width: 8, height: 8, color: 0 } },
  '2': { class_type: 'SaveImage', inputs: { images: ['1', 0], filename_prefix: 'deployment' } },
};

class SsoRequired extends ApiError {
  constructor() {
    super('sso_required', 'this account must sign in through its organization single sign-on');
  }
}

function serverlessResolver(ctx: ReferenceContext): AccountResolver {
  return (header) => {
    if (header === undefined) throw new ApiError('unauthorized', 'missing Authorization header; send Authorization: Bearer <API key>');
    const token = bearerToken(header);
    if (token === undefined) throw new ApiError('unauthorized', 'malformed Authorization header; expected Bearer <API key>');
    if (token === SSO_BOUND_KEY) throw new SsoRequired();
    if (token === FORBIDDEN_KEY) throw keyNotAllowed(ctx);
    const account = cloudAccountForKey(token);
    if (account !== undefined) return account;
    // JWT acceptance is deployment configuration; this one takes API keys only.
    if (!token.startsWith(API_KEY_PREFIX)) {
      if (ctx.isFault('jwt-message-unknown-key')) throw new ApiError('unauthorized', 'unknown API key');
      throw new ApiError('unauthorized', ctx.isFault('jwt-message-generic') ? 'unauthorized' : 'this deployment does not accept JWT bearer tokens; use an API key');
    }
    throw new ApiError('unauthorized', 'unknown API key');
  };
}

const deploymentOf = (request: FastifyRequest): string => (request.params as { deployment?: string }).deployment ?? '';

export const serverlessSurface: SurfaceDefinition = {
  name: 'serverless',
  portOffset: 2,
  async build(ctx: ReferenceContext): Promise<FastifyInstance> {
    const app = await createSurfaceApp(ctx);
    const guard = createGuard(serverlessResolver(ctx), ctx.limiter);
    // The sso-only-on-jobs fault lets the SSO-bound key through everywhere but the job routes.
    const ssoLeak = createGuard(() => 'dave', ctx.limiter);
    const base = (request: FastifyRequest) => `${ctx.baseUrl('serverless')}/deployment/${deploymentOf(request)}`;

    const leaked = new WeakSet<FastifyRequest>();
    await app.register(
      async (deployment) => {
        // Authentication first (an SSO-bound key is refused on any operation), then the deployment's state.
        deployment.addHook('onRequest', async (request) => {
          const state = DEPLOYMENTS[deploymentOf(request)];
          if (state === undefined) throw notFound('deployment');
          try {
            await guard.authenticate(request);
          } catch (err) {
            const onJobs = request.url.includes('/api/v2/jobs');
            if (err instanceof SsoRequired && ctx.isFault('sso-only-on-jobs') && !onJobs) {
              await ssoLeak.authenticate(request);
              leaked.add(request);
            } else if (err instanceof SsoRequired) {
              throw new ApiError('sso_required', err.message, { organizationId: SSO_ORGANIZATION_ID });
            } else {
              throw err;
            }
          }
          if (state === 'not_ready') throw new ApiError('deployment_not_ready', 'the deployment is starting; retry', { retryAfterSeconds: 5 });
          if (state === 'unavailable') throw new ApiError('deployment_unavailable', 'the deployment is ready but its GPU provider takes no work yet; retry', { retryAfterSeconds: 10 });
          if (state === 'stopped' && !ctx.isFault('stopped-deployment-runs')) throw new ApiError('deployment_stopped', 'the deployment is stopped; an operator must start it');
        });
        const pick = (request: FastifyRequest) => (leaked.has(request) ? ssoLeak : guard);
        const rateLimited = {
          ...guard,
          admit: async (request: FastifyRequest) => pick(request).charge(request),
          authenticate: async () => undefined,
          charge: (request: FastifyRequest) => pick(request).charge(request),
          accountOf: (request: FastifyRequest) => pick(request).accountOf(request),
          requireAccount: (request: FastifyRequest) => pick(request).requireAccount(request),
        };
        // Hosted: asset reads hand out signed storage URLs, so no content-endpoint base is needed here.
        registerAssetRoutes(deployment, ctx, rateLimited, { signedUrls: true, retention: true, baseUrl: () => ctx.baseUrl('serverless') });
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
          if (ctx.isFault('deployment-workflow-forbidden')) throw new ApiError('forbidden', 'not allowed');
          if (ctx.isFault('deployment-workflow-fixed')) return DEPLOYMENT_WORKFLOW;
          const ran = ctx.jobs
            .list(`serverless:${deploymentOf(request)}`, rateLimited.requireAccount(request))
            .map((job) => ({ job, startedAt: ctx.engine.get(job.id)?.startedAt ?? null }))
            .filter((j) => j.startedAt !== null)
            .sort((a, b) => b.startedAt! - a.startedAt!)[0];
          return ran ? ran.job.workflow : DEPLOYMENT_WORKFLOW;
        });
      },
      { prefix: '/deployment/:deployment' },
    );
    return app;
  },
};
