// Property: any asset UUID the caller does not own answers 404 not_found in a valid
// envelope, never 5xx (seed W § Endpoints › GET /api/v2/assets/{id}).
import fc from 'fast-check';
import { test, rules } from '../../fixtures/test.ts';
import { checkStatus } from '../../lib/check.ts';
import { assertProperty } from '../../fixtures/property.ts';

test.describe('Asset', () => {
  test('any asset UUID the caller does not own answers 404 not_found, never 5xx', rules('V2.ASSET.UNKNOWN_ID_404'), async ({ api, profile }, testInfo) => {
    await assertProperty(testInfo, profile, fc.uuid(), async (id) => {
      const res = await api.call('getAsset', { path: { id } });
      checkStatus('V2.ASSET.UNKNOWN_ID_404', res, [404], 'not_found');
    });
  });
});

/** Path segments a client might send by mistake: wrong shapes, odd characters, overlong. */
const malformedId = fc.oneof(
  fc.stringMatching(/^[0-9a-f]{1,40}$/),
  fc.string({ minLength: 1, maxLength: 80 }).filter((s) => s.trim().length > 0 && !s.includes('/') && s !== '.' && s !== '..'),
  fc.uuid().map((u) => u.toUpperCase()),
  fc.uuid().map((u) => `${u}x`),
);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

test.describe('Errors: identifiers', () => {
  test('random and malformed job and asset IDs answer 404 not_found in a valid envelope, never 5xx', rules('V2.ERR.IDS_NEVER_5XX'), async ({ api, profile }, testInfo) => {
    // Asset UUIDs the caller does not own are V2.ASSET.UNKNOWN_ID_404's property; here assets get only non-UUIDs.
    const jobCall = fc.tuple(fc.constantFrom('getJob', 'getJobWorkflow', 'cancelJob'), fc.oneof(fc.uuid(), malformedId));
    const assetCall = fc.tuple(fc.constant('getAsset'), malformedId.filter((id) => !UUID.test(id)));
    await assertProperty(testInfo, profile, fc.oneof(jobCall, assetCall), async ([op, id]) => {
      const res = await api.call(op, { path: { id } });
      checkStatus('V2.ERR.IDS_NEVER_5XX', res, [404], 'not_found');
    });
  });
});
