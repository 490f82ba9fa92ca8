// The asset-reference form of a submitted v2 workflow is a scenario input (asset_reference),
// since the seed shows no submit payload: its default is the public documents' object, and a
// target's own form is filled from the asset it names.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assetReference, formUsesId, PUBLIC_ASSET_REFERENCE } from '../../lib/data/workflows.ts';
import { SuiteError } from '../../lib/violations.ts';

const asset = { id: '3f1c2d4e-5a6b-4c7d-8e9f-0a1b2c3d4e5f', hash: 'blake3:ab', file_path: 'conformance-x.png' };

test("without the input, an asset is named in the public documents' reference object", () => {
  assert.deepEqual(assetReference(asset), { __type: 'core/ASSET', info: { id: asset.id } });
  assert.deepEqual(PUBLIC_ASSET_REFERENCE, { __type: 'core/ASSET', info: { id: '{id}' } });
  assert.ok(formUsesId({}));
});

test("a target's form is filled from the asset: a plain file name, or an object naming any of its members", () => {
  assert.equal(assetReference(asset, { asset_reference: '{file_path}' }), 'conformance-x.png');
  assert.ok(!formUsesId({ asset_reference: '{file_path}' }));
  assert.deepEqual(
    assetReference(asset, {
      asset_reference: { kind: 'asset', ref: ['{id}', 'inputs/{file_path}'], hash: '{hash}', n: 1 },
    }),
    { kind: 'asset', ref: [asset.id, 'inputs/conformance-x.png'], hash: 'blake3:ab', n: 1 },
  );
});

test('a placeholder the asset cannot fill stops the run naming the input', () => {
  assert.throws(
    () => assetReference({ id: asset.id, file_path: null }, { asset_reference: '{file_path}' }),
    (e: unknown) => e instanceof SuiteError && /asset_reference uses \{file_path\}/.test(e.message),
  );
});
