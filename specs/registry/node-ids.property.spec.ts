// Seed W § Node registry operation, Path: any string is a node id. Whatever the id, the
// answer is a declared status with a well-shaped body (the api fixture judges both on
// every response), and the server keeps serving known nodes. That no id makes it fail
// (5xx) is assumed, at SHOULD: the seed shows the operation no statuses (W:152:dff12f6f29d0).
import { test, rules } from '../../fixtures/test.ts';
import { check } from '../../lib/check.ts';
import { assertProperty } from '../../fixtures/property.ts';
import { attach, checkAccepted, describe } from '../../lib/registry/requests.ts';
import { AWKWARD_IDS, nodeIdArbitrary } from '../../lib/registry/node-ids.ts';

test.describe('Node registry operation › Path (property)', () => {
  test(
    'any string is a node id: none, percent-encoded, makes the server fail (assumed)',
    rules('REGISTRY.NODE.ID_NO_5XX'),
    async ({ api, profile }, testInfo) => {
      // The awkward characters are tried on every run, not only when the draw finds them.
      await assertProperty(
        testInfo,
        profile,
        nodeIdArbitrary(),
        async (nodeId) => {
          const res = await attach(api, nodeId);
          check('REGISTRY.NODE.ID_NO_5XX', res.status < 500, {
            what: `translations for the node id ${JSON.stringify(nodeId)} (sent as ${encodeURIComponent(nodeId)})`,
            expected: 'a success or a refusal, not a 5xx',
            received: describe(res),
          });
        },
        AWKWARD_IDS,
      );
    },
  );

  test(
    'any string is a node id: after odd ids, a known node is still served',
    rules('REGISTRY.NODE.PATH_ID'),
    async ({ api, requireScenario }) => {
      const known = requireScenario('node_id', 'node to attach translations to') as string;
      // What the odd ids are answered is the property above's question (SHOULD); here only that
      // the server goes on serving the node it has.
      for (const odd of AWKWARD_IDS) await attach(api, odd);
      checkAccepted('REGISTRY.NODE.PATH_ID', await attach(api, known), 'translations for a known node after odd ids');
    },
  );
});
