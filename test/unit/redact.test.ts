import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Redactor, REDACTED } from '../../lib/redact.ts';

test('known secret values are removed wherever they appear', () => {
  const r = new Redactor(['comfyui-secret-key-123']);
  assert.equal(r.text('key comfyui-secret-key-123 in prose'), `key ${REDACTED} in prose`);
});

test('auth headers, URL signatures, key query parameters and partner keys are redacted by shape', () => {
  const r = new Redactor([]);
  assert.equal(r.header('Authorization', 'Bearer abc'), REDACTED);
  assert.equal(r.header('x-api-key', 'anything'), REDACTED);
  assert.equal(r.text('Authorization: Bearer eyJhbGciOi.payload.sig'), `Authorization: Bearer ${REDACTED}`);
  assert.equal(
    r.text('https://s.example/b?ct=image%2Fpng&expires=1&signature=deadbeef'),
    `https://s.example/b?ct=image%2Fpng&expires=1&signature=${REDACTED}`,
  );
  assert.equal(r.text('wss://h/ws?clientId=1&token=comfyui-xyz'), `wss://h/ws?clientId=1&token=${REDACTED}`);
  assert.equal(
    r.text('{"extra_data": {"api_key_comfy_org": "comfyui-partner"}}'),
    `{"extra_data": {"api_key_comfy_org": "${REDACTED}"}}`,
  );
  assert.equal(
    r.text('https://g.example/o?X-Goog-Date=1&X-Goog-Signature=abc123'),
    `https://g.example/o?X-Goog-Date=1&X-Goog-Signature=${REDACTED}`,
  );
});

test('prose that merely mentions a bearer is left readable', () => {
  assert.equal(
    new Redactor([]).text('a key sent as Authorization Bearer works'),
    'a key sent as Authorization Bearer works',
  );
});

test('redacting serialized JSON keeps it JSON: a signed URL quoted inside a string, a token with an escaped quote', () => {
  const r = new Redactor([]);
  const quoted = r.text(
    JSON.stringify({ received: JSON.stringify('/storage/blobs/ab?ct=image%2Fpng&signature=0f1e2d') }),
  );
  assert.match((JSON.parse(quoted) as { received: string }).received, /signature=\[REDACTED\]"$/);
  const body = r.text(JSON.stringify({ token: 'a"b-secret' }));
  assert.deepEqual(JSON.parse(body), { token: REDACTED });
});
