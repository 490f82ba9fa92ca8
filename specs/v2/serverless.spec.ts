// Serverless deployments: SSO-bound keys, JWT acceptance, deployment states and the
// deployment-only workflow read (seed W § Authentication 2, 5; Errors; design rule 7).
import { randomUUID } from 'node:crypto';
import { test, rules } from '../../fixtures/test.ts';
import { check, checkStatus } from '../../lib/check.ts';
import { emptyImageWorkflow } from '../../lib/data/workflows.ts';
import { pollToEnd, submitJob } from '../../lib/v2/jobs.ts';

test.describe('Serverless deployment', () => {
  test('an SSO-bound key is refused 403 sso_required on any operation, with organization_id when known', rules('V2.AUTH.SSO_REQUIRED'), async ({ api, requireScenario }) => {
    const sso = api.as({ bearer: requireScenario('sso_required_token', 'SSO-bound key') as string });
    const calls = [
      sso.call('getAsset', { path: { id: randomUUID() } }),
      sso.call('postJobs', { json: { workflow: emptyImageWorkflow() } }),
      sso.call('listJobs'),
      sso.call('getDeploymentWorkflow'),
    ];
    for (const res of await Promise.all(calls)) {
      checkStatus('V2.AUTH.SSO_REQUIRED', res, [403], 'sso_required');
      const org = res.json<{ error: { organization_id?: unknown } }>().error.organization_id;
      check('V2.AUTH.SSO_REQUIRED', org === undefined || (typeof org === 'string' && org.length > 0), `organization_id on ${res.operationId}`, 'an opaque string, or absent when unknown', org);
    }
  });

  test('a deployment that does not accept JWT bearers answers 401 with a message saying so', rules('V2.AUTH.JWT_REFUSAL'), async ({ api, target }) => {
    test.skip(target.capabilities.accepts_jwt === true, 'not applicable: this deployment is configured to accept JWT bearers');
    const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJjb25mb3JtYW5jZSJ9.c2lnbmF0dXJlLW5vdC12YWxpZA';
    const res = await api.call('getAsset', { path: { id: randomUUID() }, auth: { bearer: jwt } });
    checkStatus('V2.AUTH.JWT_REFUSAL', res, [401], 'unauthorized');
    const message = res.json<{ error: { message: string } }>().error.message;
    check('V2.AUTH.JWT_REFUSAL', /jwt|json web token|token type|api key/i.test(message), 'the 401 message for a JWT bearer', 'a message saying JWT bearers are not accepted', message);
  });

  test('a deployment not ready or without capacity answers 429 with Retry-After; a stopped one 422 deployment_stopped', rules('V2.SERVERLESS.DEPLOYMENT_STATE'), async ({ api, requireScenario }) => {
    const cases: Array<[string, string, number, string]> = [
      ['not_ready_base_url', 'deployment that is not ready yet', 429, 'deployment_not_ready'],
      ['unavailable_base_url', 'deployment whose GPU provider takes no work yet', 429, 'deployment_unavailable'],
      ['stopped_base_url', 'stopped deployment', 422, 'deployment_stopped'],
    ];
    for (const [key, what, status, code] of cases) {
      const deployment = api.at(requireScenario(key, what) as string);
      checkStatus('V2.SERVERLESS.DEPLOYMENT_STATE', await deployment.call('postJobs', { json: { workflow: emptyImageWorkflow() } }), [status], code);
    }
  });

  test('GET /workflow returns the graph the deployment executed', rules('V2.SERVERLESS.WORKFLOW_READ'), async ({ api }) => {
    await pollToEnd(api, await submitJob(api, { workflow: emptyImageWorkflow() }));
    const res = await api.call('getDeploymentWorkflow');
    checkStatus('V2.SERVERLESS.WORKFLOW_READ', res, [200]);
    const body = res.json<unknown>();
    check('V2.SERVERLESS.WORKFLOW_READ', typeof body === 'object' && body !== null && Object.keys(body).length > 0, 'the /workflow body', 'a non-empty graph object', body);
  });
});
