import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadContract, matchOperation, responseFor, substituteBrand } from '../../lib/contracts/loader.ts';
import { loadRules } from '../../lib/rules.ts';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { CONTRACTS_DIR } from '../../lib/contracts/loader.ts';

const v2 = () => loadContract('workflow-v2.openapi.yaml', 'Comfy', 'V2');

test('the brand placeholder Svc/svc is substituted in names, not inside other words', () => {
  assert.equal(
    substituteBrand('X-Svc-Request-Id api_key_svc_org x-svc-input', 'Comfy'),
    'X-Comfy-Request-Id api_key_comfy_org x-comfy-input',
  );
  assert.equal(substituteBrand('Svcs svcx', 'Comfy'), 'Svcs svcx');
});

test('every v2 operation the seed and public docs describe is indexed by operationId', () => {
  const ids = [...v2().operations.keys()].sort();
  for (const id of [
    'postAssets',
    'assetFromHash',
    'checkAssetByHash',
    'getAsset',
    'getAssetContent',
    'deleteAsset',
    'postJobs',
    'getJob',
    'listJobs',
    'cancelJob',
    'getJobWorkflow',
    'streamJobEvents',
    'getDeploymentWorkflow',
  ]) {
    assert.ok(ids.includes(id), `missing ${id}`);
  }
  assert.equal(v2().version, '2.0.0');
});

test('embedded URLs resolve to their operation; a literal segment beats a parameter', () => {
  assert.equal(matchOperation(v2(), 'POST', '/api/v2/assets/from-hash')?.id, 'assetFromHash');
  assert.equal(matchOperation(v2(), 'GET', '/api/v2/assets/123/content')?.id, 'getAssetContent');
  assert.equal(matchOperation(v2(), 'GET', '/storage/blobs/abc'), undefined);
});

test('a status falls under its exact code, then its class, then default', () => {
  const op = v2().operations.get('getAsset')!;
  assert.equal(responseFor(op, 404)?.status, '404');
  assert.equal(responseFor(op, 418), undefined);
});

test('the error code table is the seed table: known codes map to their HTTP status', () => {
  const codes = v2().errorCodes;
  assert.equal(codes.rate_limited, 429);
  assert.equal(codes.not_found, 404);
  assert.equal(codes.content_blocked, 451);
  assert.equal(codes.invalid_request, 422);
  assert.equal(codes.not_implemented, 501);
  assert.ok(Object.keys(codes).length >= 24);
});

test('v2 response schemas never close additionalProperties (v2 is additive)', () => {
  const doc = readFileSync(path.join(CONTRACTS_DIR, 'workflow-v2.openapi.yaml'), 'utf8');
  const asset = v2().schema('Asset');
  const ok = asset({
    id: '5f0c8a52-8f65-4a0e-9d5b-2a8d7b0e1c11',
    hash: null,
    size_bytes: 1,
    content_type: 'image/png',
    created_at: '2026-01-01T00:00:00Z',
    url: 'https://x.example/a',
    url_expires_at: '2026-01-01T06:00:00Z',
    brand_new_field: { any: 1 },
  });
  assert.ok(ok, JSON.stringify(asset.errors));
  assert.ok(doc.includes('additionalProperties: false'), 'only request-side objects may close (ExtraData)');
  const envelope = v2().schema('ErrorEnvelope');
  assert.ok(
    envelope({ error: { code: 'some_future_code', message: 'x', extra: true } }),
    'unknown codes and fields are allowed',
  );
  assert.ok(!envelope({ code: 'not_found', message: 'flat' }), 'a flat body is not the envelope');
});

test('every x-rule the contract names is a rule in rules.yaml', () => {
  const doc = readFileSync(path.join(CONTRACTS_DIR, 'workflow-v2.openapi.yaml'), 'utf8');
  const rules = loadRules();
  for (const m of doc.matchAll(/x-rule:\s*([A-Z0-9_.]+)/g)) assert.ok(rules.has(m[1]), `${m[1]} is not in rules.yaml`);
});
