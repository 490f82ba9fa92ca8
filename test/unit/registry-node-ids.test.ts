// The registry fixtures: node-id arbitraries generate only ids a client can send, and
// each arrives as exactly one path segment; tampered JWTs stay well-formed.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { AWKWARD, encodeNodeId, nodeIdArbitrary, sendable } from '../../lib/registry/node-ids.ts';
import { looksLikeJwt, tamperedJwt } from '../../lib/registry/requests.ts';
import { mintDevJwt, verifyDevJwt } from '../../reference/registry/jwt.ts';

test('every generated id is sendable and travels as one path segment that decodes back to it', () => {
  fc.assert(
    fc.property(nodeIdArbitrary(), (id) => {
      assert.ok(sendable(id));
      const url = new URL(`http://127.0.0.1/nodes/${encodeNodeId(id)}/translations`);
      const segments = url.pathname.split('/');
      assert.equal(segments.length, 4, `${JSON.stringify(id)} -> ${url.pathname}`);
      assert.equal(decodeURIComponent(segments[2]), id);
    }),
    { numRuns: 500 },
  );
});

test('ids that cannot be a segment are never generated, and awkward characters are', () => {
  for (const id of ['', '.', '..', '\uD800']) assert.equal(sendable(id), false, JSON.stringify(id));
  const sample = fc.sample(nodeIdArbitrary(), { numRuns: 400, seed: 7 });
  for (const ch of ['/', '%', ' ', '?', '#'])
    assert.ok(
      sample.some((id) => id.includes(ch)),
      `no id with ${JSON.stringify(ch)}`,
    );
  assert.ok(
    sample.some((id) => id.length >= 200),
    'no long id',
  );
  assert.ok(AWKWARD.includes('%zz'));
});

test('a tampered JWT is still a well-formed JWT whose signature no longer verifies', () => {
  const jwt = mintDevJwt('secret', 'alice');
  const bad = tamperedJwt(jwt);
  assert.notEqual(bad, jwt);
  assert.ok(looksLikeJwt(bad));
  assert.deepEqual(verifyDevJwt('secret', bad), { ok: false, reason: 'bad-signature' });
});
