// Contract-driven exploration of the registry operation (lib/explore/). It writes
// translations to a node: sent only when the target sets explore_paid. Runs in the full
// profile and under `workflow-conformance explore`.
import { test, rules } from '../../fixtures/test.ts';
import { explore } from '../../fixtures/explore.ts';

test.describe('Contract-driven exploration', () => {
  test(
    'CreateNodeTranslations',
    rules('REGISTRY.CONTRACT.STATUS_DECLARED', 'REGISTRY.BODY.DATA'),
    explore('CreateNodeTranslations'),
  );
});
