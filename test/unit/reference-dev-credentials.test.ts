// The suite learns the embedded reference's development credentials from targets.yaml,
// never by importing the reference (test/unit/architecture.test.ts holds that); this proves
// the file says what the reference accepts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { referenceDevCredentials } from '../../lib/targets.ts';
import {
  CLOUD_KEYS,
  CLOUD_OAUTH_TOKENS,
  CLOUD_SESSION_SECRET,
  FORBIDDEN_KEY,
  LOCAL_STATIC_TOKEN,
  REGISTRY_ADMIN_SECRET,
  REGISTRY_JWT_SECRET,
  REVOKED_CLOUD_KEY,
  ROUTER_KEYS,
  SSO_BOUND_KEY,
} from '../../reference/accounts.ts';
import { verifyDevJwt } from '../../reference/registry/jwt.ts';

const creds = referenceDevCredentials(path.resolve(import.meta.dirname, '../../targets.yaml'));

test('the development keys in targets.yaml are the keys the reference issues', () => {
  const known = new Set<string>([
    ...Object.values(CLOUD_KEYS),
    ...Object.values(ROUTER_KEYS),
    SSO_BOUND_KEY,
    REVOKED_CLOUD_KEY,
    REGISTRY_ADMIN_SECRET,
    LOCAL_STATIC_TOKEN,
    FORBIDDEN_KEY,
    ...Object.keys(CLOUD_OAUTH_TOKENS),
  ]);
  for (const [name, value] of Object.entries(creds)) {
    if (name.endsWith('_JWT') || name.endsWith('_JWT_EXPIRED')) continue;
    assert.ok(known.has(value), `${name} is not a credential the reference knows`);
  }
  assert.equal(creds.REFERENCE_CLOUD_KEY, CLOUD_KEYS.alice);
});

test('the development JWTs verify against the reference: the valid ones until 2100, the expired one not', () => {
  for (const name of ['REFERENCE_REGISTRY_JWT', 'REFERENCE_ROUTER_JWT'])
    assert.equal(verifyDevJwt(REGISTRY_JWT_SECRET, creds[name]).ok, true, name);
  assert.equal(verifyDevJwt(REGISTRY_JWT_SECRET, creds.REFERENCE_REGISTRY_JWT, Date.UTC(2099, 0, 1)).ok, true);
  assert.equal(verifyDevJwt(REGISTRY_JWT_SECRET, creds.REFERENCE_REGISTRY_JWT_EXPIRED).ok, false);
  assert.equal(
    verifyDevJwt(REGISTRY_JWT_SECRET, creds.REFERENCE_REGISTRY_JWT_EXPIRED, Date.now(), true).ok,
    true,
    'expired, not forged',
  );
  // The hosted cloud's session JWT (V2.AUTH.JWT_ACCEPTED) is signed with the cloud's own secret.
  assert.equal(verifyDevJwt(CLOUD_SESSION_SECRET, creds.REFERENCE_CLOUD_SESSION_JWT, Date.UTC(2099, 0, 1)).ok, true);
});
