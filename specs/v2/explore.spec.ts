// Contract-driven exploration of every v2 operation (lib/explore/): requests drawn from the
// contract's schemas, valid and broken in one place, each answer judged by the contract and
// the rules named here. Runs in the full profile and under `workflow-conformance explore`.
import { test, rules } from '../../fixtures/test.ts';
import { explore } from '../../fixtures/explore.ts';

test.describe('Contract-driven exploration', () => {
  test('postAssets', rules('V2.CONTRACT.STATUS_DECLARED', 'V2.ASSET.INVALID_UPLOAD'), explore('postAssets'));
  test('assetFromHash', rules('V2.CONTRACT.STATUS_DECLARED', 'V2.ASSET.INVALID_UPLOAD'), explore('assetFromHash'));
  test('checkAssetByHash', rules('V2.CONTRACT.STATUS_DECLARED'), explore('checkAssetByHash'));
  test('getAsset', rules('V2.CONTRACT.STATUS_DECLARED', 'V2.ERR.IDS_NEVER_5XX'), explore('getAsset'));
  test('deleteAsset', rules('V2.CONTRACT.STATUS_DECLARED', 'V2.ERR.IDS_NEVER_5XX'), explore('deleteAsset'));
  test('getAssetContent', rules('V2.CONTRACT.STATUS_DECLARED', 'V2.ERR.IDS_NEVER_5XX'), explore('getAssetContent'));
  test('postJobs', rules('V2.CONTRACT.STATUS_DECLARED'), explore('postJobs'));
  test('listJobs', rules('V2.CONTRACT.STATUS_DECLARED', 'V2.CONTRACT.BODY'), explore('listJobs'));
  test('getJob', rules('V2.CONTRACT.STATUS_DECLARED', 'V2.ERR.IDS_NEVER_5XX'), explore('getJob'));
  test('cancelJob', rules('V2.CONTRACT.STATUS_DECLARED', 'V2.ERR.IDS_NEVER_5XX'), explore('cancelJob'));
  test('getJobWorkflow', rules('V2.CONTRACT.STATUS_DECLARED', 'V2.ERR.IDS_NEVER_5XX'), explore('getJobWorkflow'));
  test('streamJobEvents', rules('V2.CONTRACT.STATUS_DECLARED', 'V2.ERR.IDS_NEVER_5XX'), explore('streamJobEvents'));
  test('getDeploymentWorkflow', rules('V2.CONTRACT.STATUS_DECLARED'), explore('getDeploymentWorkflow'));
});
