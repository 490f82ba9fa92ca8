// Property: any asset UUID the caller does not own answers 404 not_found in a valid
// envelope, never 5xx (seed W § Endpoints › GET /api/v2/assets/{id}).
import fc from 'fast-check';
import { test, rules } from '../../fixtures/test.ts';
import { checkStatus } from '../../fixtures/check.ts';
import { assertProperty } from '../../fixtures/property.ts';

test.describe('Asset', () => {
  test('any asset UUID the caller does not own answers 404 not_found, never 5xx', { annotation: rules('V2.ASSET.UNKNOWN_ID_404') }, async ({ api, profile }, testInfo) => {
    await assertProperty(testInfo, profile, fc.uuid(), async (id) => {
      const res = await api.call('getAsset', { path: { id } });
      checkStatus('V2.ASSET.UNKNOWN_ID_404', res, [404], 'not_found');
    });
  });
});
