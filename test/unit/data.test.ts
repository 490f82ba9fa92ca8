import { test } from 'node:test';
import assert from 'node:assert/strict';
import { uniquePng } from '../../lib/data/png.ts';
import { blake3Of } from '../../lib/v2/assets.ts';

test('uniquePng makes a real PNG, different on every call', () => {
  const a = uniquePng();
  const b = uniquePng();
  assert.deepEqual([...a.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  assert.equal(a.subarray(a.length - 8, a.length - 4).toString('ascii'), 'IEND');
  assert.notDeepEqual(a, b);
});

test('blake3Of matches the published test vector for the empty input', () => {
  assert.equal(blake3Of(new Uint8Array(0)), 'blake3:af1349b9f5f9a1a6a0404dea36dcc9499bcb25c9adc112b7cc9a93cae41f3262');
});
