// Contract-driven exploration of every v1 cloud operation (lib/explore/). The v1 statuses
// and error bodies come from the public documents, so the contract alone judges them.
// Runs in the full profile and under `workflow-conformance explore`.
import { test, rules } from '../../fixtures/test.ts';
import { explore } from '../../fixtures/explore.ts';

test.describe('Contract-driven exploration', () => {
  test('getObjectInfo', rules('V1.CONTRACT.STATUS_DECLARED'), explore('getObjectInfo'));
  test('uploadImage', rules('V1.CONTRACT.STATUS_DECLARED'), explore('uploadImage'));
  test('uploadMask', rules('V1.CONTRACT.STATUS_DECLARED'), explore('uploadMask'));
  test('postPrompt', rules('V1.CONTRACT.STATUS_DECLARED'), explore('postPrompt'));
  test('getJobStatus', rules('V1.CONTRACT.STATUS_DECLARED'), explore('getJobStatus'));
  test('viewFile', rules('V1.CONTRACT.STATUS_DECLARED'), explore('viewFile'));
});
