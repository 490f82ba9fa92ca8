// v2 faults of serverless deployments (seed W § Serverless deployments).
import type { FaultUnit } from '../unit.ts';
import { bearerToken } from '../../accounts.ts';
import { DEPLOYMENTS, DEPLOYMENT_WORKFLOW } from '../../v2/deployments.ts';
import { ApiError } from '../../errors.ts';

export const SERVERLESS_FAULTS = [
  {
    name: 'stopped-deployment-runs',
    breaks: 'V2.SERVERLESS.DEPLOYMENT_STATE',
    statements: ['W:216:688cbaf926cc'],
    description: 'a stopped deployment accepts jobs',
    install(s) {
      s.policy.v2.deploymentState = (id) => (DEPLOYMENTS[id] === 'stopped' ? 'ready' : DEPLOYMENTS[id]);
    },
  },
  {
    // W:214: a deployment still starting answers 429 deployment_not_ready. A gateway that reads
    // readiness from the GPU pool alone reports a warming deployment as one without capacity.
    name: 'warming-deployment-unavailable',
    breaks: 'V2.SERVERLESS.DEPLOYMENT_STATE',
    statements: ['W:214:8f06ae686dfb'],
    description:
      'a deployment that is still starting is refused 429 deployment_unavailable (with Retry-After) instead of deployment_not_ready',
    install(s) {
      s.policy.v2.deploymentState = (id) => (DEPLOYMENTS[id] === 'not_ready' ? 'unavailable' : DEPLOYMENTS[id]);
    },
  },
  {
    // W:215: a ready deployment whose GPU provider takes no work answers 429
    // deployment_unavailable. A gateway that checks readiness only takes the jobs, which wait.
    name: 'nogpu-deployment-runs',
    breaks: 'V2.SERVERLESS.DEPLOYMENT_STATE',
    statements: ['W:215:bc704bdd471a'],
    description:
      'a ready deployment whose GPU provider takes no work yet accepts jobs instead of refusing 429 deployment_unavailable',
    install(s) {
      s.policy.v2.deploymentState = (id) => (DEPLOYMENTS[id] === 'unavailable' ? 'ready' : DEPLOYMENTS[id]);
    },
  },
  {
    name: 'deployment-workflow-forbidden',
    breaks: 'V2.SERVERLESS.WORKFLOW_READ',
    statements: ['W:24:b2fff39263f9', 'W:121:983158308780'],
    description: 'GET /workflow answers 403 forbidden',
    install(s) {
      s.respond({ surfaces: ['serverless'], routes: ['GET /workflow'] }, (out) => {
        if (out.error === undefined && out.status === 200) out.fail(new ApiError('forbidden', 'not allowed'));
      });
    },
  },
  {
    name: 'deployment-workflow-fixed',
    breaks: 'V2.SERVERLESS.WORKFLOW_READ',
    statements: ['W:121:983158308780'],
    description: 'GET /workflow returns the graph the deployment was built around, not the graph that was executed',
    install(s) {
      s.respond({ surfaces: ['serverless'], routes: ['GET /workflow'] }, (out) => {
        if (out.error === undefined && out.status === 200) out.body = structuredClone(DEPLOYMENT_WORKFLOW);
      });
    },
  },
  {
    name: 'workflow-read-on-cloud',
    breaks: 'V2.SERVERLESS.WORKFLOW_ONLY',
    statements: ['W:24:b2fff39263f9'],
    description: 'the hosted cloud serves GET /workflow with a graph, a read only serverless deployments offer',
    install(s) {
      // The deployment-only read served on the cloud too, to an account key, within its rate limit.
      s.request({ surfaces: ['cloud'] }, ({ request, reply, ctx }) => {
        if (request.method !== 'GET' || request.url.split('?')[0] !== '/workflow') return;
        const token = bearerToken(request.headers.authorization);
        const account = token === undefined ? undefined : ctx.policy.v2.cloudBearerAccount(token);
        if (account === undefined) throw new ApiError('unauthorized', 'unknown API key');
        const decision = ctx.limiter.take(account);
        if (!decision.allowed)
          throw new ApiError('rate_limited', 'rate limit exceeded for this account', {
            retryAfterSeconds: decision.retryAfterSeconds,
          });
        reply.send({ '1': { class_type: 'EmptyImage', inputs: { width: 8, height: 8 } } });
      });
    },
  },
] as const satisfies ReadonlyArray<FaultUnit>;
