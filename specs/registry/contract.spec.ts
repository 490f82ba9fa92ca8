// Seed W § Node registry operation: the operation's contract (contracts/registry.openapi.yaml).
// The api fixture judges status and media type on every response; this test provokes a
// success and each kind of refusal so both are seen in one place.
import { test, rules } from '../../fixtures/test.ts';
import { attach, unknownNodeId } from '../../lib/registry/requests.ts';

test.describe('Node registry operation › Contract', () => {
  test(
    'every answer carries a declared status, and every error a JSON body',
    rules('REGISTRY.CONTRACT.STATUS_DECLARED', 'REGISTRY.CONTRACT.BODY'),
    async ({ api, requireScenario, target }) => {
      const nodeId = requireScenario('node_id', 'node to attach translations to') as string;
      await attach(api, nodeId);
      // A success under each scheme the target gives: an administrative path may answer differently.
      const header = target.scenario.admin_secret_header;
      const secret = target.scenario.admin_secret;
      if (typeof header === 'string' && typeof secret === 'string')
        await attach(api, nodeId, { auth: { headers: { [header]: secret } } });
      await attach(api, nodeId, { auth: 'none' });
      await attach(api, nodeId, { json: { data: 'fr' } });
      await attach(api, unknownNodeId());
    },
  );
});
