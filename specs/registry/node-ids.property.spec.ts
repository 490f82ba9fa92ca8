// Seed W § Node registry operation, Path: any string is a node id. Whatever the id, the
// answer is a declared status with a well-shaped body (the api fixture judges both on
// every response), never a server failure, and the server keeps serving known nodes.
import { test, rules } from '../../fixtures/test.ts';
import { check } from '../../lib/check.ts';
import { assertProperty } from '../../fixtures/property.ts';
import { attach, checkAccepted, describe } from '../../lib/registry/requests.ts';
import { nodeIdArbitrary } from '../../lib/registry/node-ids.ts';

test.describe('Node registry operation › Path (property)', () => {
  test('no string node id, percent-encoded, makes the server fail', rules('REGISTRY.NODE.PATH_ID'), async ({ api, profile, requireScenario }, testInfo) => {
    const known = requireScenario('node_id', 'node to attach translations to') as string;
    await assertProperty(testInfo, profile, nodeIdArbitrary(), async (nodeId) => {
      const res = await attach(api, nodeId);
      check('REGISTRY.NODE.PATH_ID', res.status < 500, `translations for the node id ${JSON.stringify(nodeId)} (sent as ${encodeURIComponent(nodeId)})`, 'a success or a refusal, not a 5xx', describe(res));
    });
    checkAccepted('REGISTRY.NODE.PATH_ID', await attach(api, known), 'translations for a known node after the odd ids');
  });
});
