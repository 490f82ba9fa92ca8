// Contract-driven exploration of every router operation (lib/explore/): parameters from the
// contract, bodies from the body schema in the model's schema document. Runs and queued submits cost money:
// they are sent only when the target sets explore_paid. Runs in the full profile and under
// `workflow-conformance explore`.
import { test, rules } from '../../fixtures/test.ts';
import { explore } from '../../fixtures/explore.ts';

test.describe('Contract-driven exploration', () => {
  test('listModels', rules('ROUTER.CONTRACT.STATUS_DECLARED'), explore('listModels'));
  test('getModel', rules('ROUTER.CONTRACT.STATUS_DECLARED'), explore('getModel'));
  test('getModelSchema', rules('ROUTER.CONTRACT.STATUS_DECLARED'), explore('getModelSchema'));
  test('getSchemaSnapshot', rules('ROUTER.CONTRACT.STATUS_DECLARED'), explore('getSchemaSnapshot'));
  test('estimateModel', rules('ROUTER.CONTRACT.STATUS_DECLARED'), explore('estimateModel'));
  test('runModel', rules('ROUTER.CONTRACT.STATUS_DECLARED'), explore('runModel'));
  test('submitModelRequest', rules('ROUTER.CONTRACT.STATUS_DECLARED'), explore('submitModelRequest'));
  test('getModelRequest', rules('ROUTER.CONTRACT.STATUS_DECLARED'), explore('getModelRequest'));
  test('getModelRequestStatus', rules('ROUTER.CONTRACT.STATUS_DECLARED'), explore('getModelRequestStatus'));
  test('cancelModelRequest', rules('ROUTER.CONTRACT.STATUS_DECLARED'), explore('cancelModelRequest'));
});
