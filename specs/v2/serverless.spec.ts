// Serverless deployments: SSO-bound keys, JWT acceptance, deployment states and the
// deployment-only workflow read (seed W § Authentication 2, 5; Errors; design rule 7).
import { randomUUID } from 'node:crypto';
import { test, rules } from '../../fixtures/test.ts';
import { isDeepStrictEqual } from 'node:util';
import { check, checkStatus } from '../../lib/check.ts';
import { DEFAULT_TIMEOUT_MS, send } from '../../lib/http.ts';
import { anyWorkflow, pollToEnd, submitJob } from '../../lib/v2/jobs.ts';

test.describe('Serverless deployment', () => {
  test('an SSO-bound key is refused 403 sso_required on any operation, with organization_id when known', rules('V2.AUTH.SSO_REQUIRED'), async ({ api, requireScenario }) => {
    const sso = api.as({ bearer: requireScenario('sso_required_token', 'SSO-bound key') as string });
    const calls = [
      sso.call('getAsset', { path: { id: randomUUID() } }),
      sso.call('postJobs', { json: { workflow: anyWorkflow(api) } }),
      sso.call('listJobs'),
      sso.call('getDeploymentWorkflow'),
    ];
    for (const res of await Promise.all(calls)) {
      checkStatus('V2.AUTH.SSO_REQUIRED', res, [403], 'sso_required');
      const org = res.json<{ error: { organization_id?: unknown } }>().error.organization_id;
      check('V2.AUTH.SSO_REQUIRED', org === undefined || (typeof org === 'string' && org.length > 0), `organization_id on ${res.operationId}`, 'an opaque string, or absent when unknown', org, res);
    }
  });

  test('a deployment that does not accept JWT bearers answers 401 with a message saying so', rules('V2.AUTH.JWT_REFUSAL'), async ({ api, target }) => {
    test.skip(target.capabilities.accepts_jwt === true, 'not applicable: this deployment is configured to accept JWT bearers');
    const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJjb25mb3JtYW5jZSJ9.c2lnbmF0dXJlLW5vdC12YWxpZA';
    const res = await api.call('getAsset', { path: { id: randomUUID() }, auth: { bearer: jwt } });
    checkStatus('V2.AUTH.JWT_REFUSAL', res, [401], 'unauthorized');
    const message = res.json<{ error: { message: string } }>().error.message;
    // "With a message saying so": it names JWTs and says they are not taken. A message any
    // key refusal would give ("unknown API key", "invalid credentials") does not say so.
    const namesJwt = /\bjwts?\b|json web tokens?/i.test(message);
    const refuses = /\b(not|no|never|unsupported|disabled|only|refus\w*|reject\w*|disallow\w*)\b/i.test(message);
    check('V2.AUTH.JWT_REFUSAL', namesJwt && refuses, 'the 401 message for a JWT bearer', 'a message saying JWT bearers are not accepted here', message, res);
  });

  test('a deployment not ready or without capacity answers 429 with Retry-After; a stopped one 422 deployment_stopped', rules('V2.SERVERLESS.DEPLOYMENT_STATE'), async ({ api, requireScenario }) => {
    const cases: Array<[string, string, number, string]> = [
      ['not_ready_base_url', 'deployment that is not ready yet', 429, 'deployment_not_ready'],
      ['unavailable_base_url', 'deployment whose GPU provider takes no work yet', 429, 'deployment_unavailable'],
      ['stopped_base_url', 'stopped deployment', 422, 'deployment_stopped'],
    ];
    for (const [key, what, status, code] of cases) {
      const deployment = api.at(requireScenario(key, what) as string);
      checkStatus('V2.SERVERLESS.DEPLOYMENT_STATE', await deployment.call('postJobs', { json: { workflow: anyWorkflow(api) } }), [status], code);
    }
  });

  test('GET /workflow returns the graph the deployment executed', rules('V2.SERVERLESS.WORKFLOW_READ'), async ({ api }) => {
    // The graph's shape is not shown, so the check looks for the graph that ran as the body
    // or as one of its members. Another test may run a job on this deployment in between,
    // so a miss is tried again (three times) before it counts.
    let last: { body: unknown; res: Awaited<ReturnType<typeof api.call>> } | undefined;
    let matched = false;
    for (let attempt = 1; attempt <= 3 && !matched; attempt++) {
      const ran = anyWorkflow(api, 4 + attempt, 3, `deployment-${randomUUID().slice(0, 8)}`);
      await pollToEnd(api, await submitJob(api, { workflow: ran }));
      const res = await api.call('getDeploymentWorkflow');
      checkStatus('V2.SERVERLESS.WORKFLOW_READ', res, [200]);
      const body = res.json<unknown>();
      last = { body, res };
      const members = typeof body === 'object' && body !== null ? Object.values(body) : [];
      matched = isDeepStrictEqual(body, ran) || members.some((m) => isDeepStrictEqual(m, ran));
    }
    check('V2.SERVERLESS.WORKFLOW_READ', matched, 'the /workflow body right after a job ran (up to three tries)', 'the graph that ran (as the body or one of its members)', last?.body, last?.res);
  });
});

test.describe('Only the serverless surface reads the executed graph', () => {
  test('GET {base}/workflow serves no graph outside serverless deployments', rules('V2.SERVERLESS.WORKFLOW_ONLY'), async ({ api }) => {
    // Sent past the contract client on purpose: on this surface the route is not expected to
    // exist, so there is no operation to validate the answer against.
    const url = `${api.target.baseUrl}/workflow`;
    const res = await send({ method: 'GET', url, headers: api.target.token ? { authorization: `Bearer ${api.target.token}` } : {}, timeoutMs: DEFAULT_TIMEOUT_MS, maxBodyBytes: 65_536 });
    check('V2.SERVERLESS.WORKFLOW_ONLY', res.status >= 400 && res.status < 500, `GET ${url} on the ${api.target.surface} surface`, 'a 4xx (this surface has no executed-graph read)', `${res.status} ${res.body.subarray(0, 120).toString('utf8')}`);
  });
});
