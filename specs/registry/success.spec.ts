// Seed W § Node registry operation, success response ("detailed information about a
// node"); the status is not shown there, the public documents give 201.
import { test, rules } from '../../fixtures/test.ts';
import { check } from '../../lib/check.ts';
import { attach, describe } from '../../lib/registry/requests.ts';

test.describe('Node registry operation › Success', () => {
  test(
    'translations attached to an existing node are answered 201',
    rules('REGISTRY.CREATE.STATUS'),
    async ({ api, requireScenario }) => {
      const nodeId = requireScenario('node_id', 'node to attach translations to') as string;
      const res = await attach(api, nodeId);
      check('REGISTRY.CREATE.STATUS', res.status === 201, {
        what: 'translations attached with the default credential',
        expected: '201',
        received: describe(res),
      });
    },
  );
});
