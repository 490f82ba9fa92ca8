// v2 faults of serverless deployments (seed W § Serverless deployments).
import type { FaultUnit } from '../../faults.ts';
import { DEPLOYMENTS } from '../../surfaces/serverless.ts';
import { ApiError } from '../../errors.ts';

export const SERVERLESS_FAULTS = [
  {
    name: 'stopped-deployment-runs',
    rule: 'V2.SERVERLESS.DEPLOYMENT_STATE',
    description: 'a stopped deployment accepts jobs',
    install(s) {
      s.policy.v2.deploymentState = (id) => (DEPLOYMENTS[id] === 'stopped' ? 'ready' : DEPLOYMENTS[id]);
    },
  },
  {
    name: 'deployment-workflow-forbidden',
    rule: 'V2.SERVERLESS.WORKFLOW_READ',
    description: 'GET /workflow answers 403 forbidden',
    install(s) {
      s.respond({ surfaces: ['serverless'], routes: ['GET /workflow'] }, (out) => {
        if (out.error === undefined && out.status === 200) out.fail(new ApiError('forbidden', 'not allowed'));
      });
    },
  },
] as const satisfies ReadonlyArray<FaultUnit>;
