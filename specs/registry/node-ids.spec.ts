// Seed W § Node registry operation, Path: `nodeId` is a string, the node's unique identifier.
import { test, rules } from '../../fixtures/test.ts';
import { check } from '../../lib/check.ts';
import { attach, checkAccepted, describe, unknownNodeId } from '../../lib/registry/requests.ts';

test.describe('Node registry operation › Path', () => {
  test(
    'a node id that needs percent-encoding reaches the node it names',
    rules('REGISTRY.NODE.PATH_ID'),
    async ({ api, requireScenario }) => {
      const nodeId = requireScenario('unusual_node_id', 'node whose id needs percent-encoding') as string;
      checkAccepted(
        'REGISTRY.NODE.PATH_ID',
        await attach(api, nodeId),
        `translations for the node ${JSON.stringify(nodeId)} (sent as ${encodeURIComponent(nodeId)})`,
      );
    },
  );

  test('an id that names no node is answered 404', rules('REGISTRY.NODE.UNKNOWN'), async ({ api }) => {
    const nodeId = unknownNodeId();
    const res = await attach(api, nodeId);
    check('REGISTRY.NODE.UNKNOWN', res.status === 404, {
      what: `translations for the unknown node ${nodeId}`,
      expected: '404',
      received: describe(res),
    });
  });
});
