// Seed W § Node registry operation: error bodies take one of two shapes,
// {details: [string], message} or {error, message}. The api fixture judges the shape of
// every error answer of every registry test; this test provokes each kind of refusal.
import { test, rules } from '../../fixtures/test.ts';
import { attach, describe, unknownNodeId } from '../../lib/registry/requests.ts';
import type { Auth } from '../../lib/api.ts';

test.describe('Node registry operation › Error bodies', () => {
  test(
    'every error body is {details: [string], message} or {error, message}',
    rules('REGISTRY.ERR.SHAPE'),
    async ({ api, target, requireScenario }) => {
      const nodeId = requireScenario('node_id', 'node to attach translations to') as string;
      const provoked: Array<[string, string, { json?: unknown; auth?: Auth }]> = [
        ['no credentials', nodeId, { auth: 'none' }],
        ['a bearer that is not a credential', nodeId, { auth: { bearer: 'not-a-credential' } }],
        ['a body without data', nodeId, { json: { note: 'no data' } }],
        ['data that is a string', nodeId, { json: { data: 'fr' } }],
        ['an unknown node', unknownNodeId(), {}],
      ];
      const header = target.scenario.admin_secret_header;
      if (typeof header === 'string')
        provoked.push([
          'a wrong administrative secret',
          nodeId,
          { auth: { headers: { [header]: 'conformance-wrong-secret' } } },
        ]);
      for (const [what, id, opts] of provoked) {
        // The contract check inside api.call fails the test on a body of a third shape.
        const res = await attach(api, id, opts);
        test.info().annotations.push({ type: 'exchange', description: `${what}: ${describe(res)}` });
      }
    },
  );
});
