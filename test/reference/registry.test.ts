// The reference registry surface on its own (no suite fixtures): dev JWTs, the three
// credential schemes, body and node-id handling, both error shapes, and that each
// registry fault changes the behaviour it names.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  CLOUD_KEYS,
  REGISTRY_ADMIN_HEADER,
  REGISTRY_ADMIN_SECRET,
  REGISTRY_JWT_SECRET,
  REVOKED_CLOUD_KEY,
} from '../../reference/accounts.ts';
import { REGISTRY_FAULTS } from '../../reference/faults/registry.ts';
import { faultSeams } from '../../reference/faults.ts';
import { UNUSUAL_NODE_ID } from '../../reference/registry/nodes.ts';
import { mintDevJwt, verifyDevJwt } from '../../reference/registry/jwt.ts';
import type { RunningReference } from '../../reference/server.ts';
import { loadRules } from '../../lib/rules.ts';
import { startOnFreePorts } from './helpers.ts';

const NODE = 'ref-image-tools';
const JWT = mintDevJwt(REGISTRY_JWT_SECRET, 'alice');
const BODY = { data: { fr: { title: 'titre' } } };

interface Answer {
  status: number;
  type: string;
  json: Record<string, unknown> | undefined;
}

async function post(
  base: string,
  nodeId: string,
  opts: { headers?: Record<string, string>; body?: unknown } = {},
): Promise<Answer> {
  const headers: Record<string, string> = {
    authorization: `Bearer ${JWT}`,
    'content-type': 'application/json',
    ...(opts.headers ?? {}),
  };
  for (const [k, v] of Object.entries(headers)) if (v === '') delete headers[k];
  const res = await fetch(`${base}/nodes/${encodeURIComponent(nodeId)}/translations`, {
    method: 'POST',
    headers,
    body: JSON.stringify(opts.body === undefined ? BODY : opts.body),
  });
  const text = await res.text();
  const type = res.headers.get('content-type') ?? '';
  let json: Record<string, unknown> | undefined;
  try {
    json = type.includes('json') ? (JSON.parse(text) as Record<string, unknown>) : undefined;
  } catch {
    json = undefined;
  }
  return { status: res.status, type, json };
}

const isDetails = (b: Record<string, unknown> | undefined): boolean =>
  Array.isArray(b?.details) &&
  (b.details as unknown[]).every((d) => typeof d === 'string') &&
  typeof b?.message === 'string';
const isMessage = (b: Record<string, unknown> | undefined): boolean =>
  typeof b?.error === 'string' && typeof b?.message === 'string';

describe('registry dev JWTs', () => {
  test('a minted token verifies; expired, tampered and unsigned ones do not', () => {
    const now = Date.now();
    assert.equal(verifyDevJwt(REGISTRY_JWT_SECRET, JWT, now).ok, true);
    const old = mintDevJwt(REGISTRY_JWT_SECRET, 'alice', { issuedAt: Math.floor(now / 1000) - 7200, ttlSeconds: 3600 });
    assert.deepEqual(verifyDevJwt(REGISTRY_JWT_SECRET, old, now), { ok: false, reason: 'expired' });
    assert.equal(verifyDevJwt(REGISTRY_JWT_SECRET, old, now, true).ok, true);
    assert.deepEqual(verifyDevJwt('another-secret', JWT, now), { ok: false, reason: 'bad-signature' });
    const [, payload] = JWT.split('.');
    const none = `${Buffer.from(JSON.stringify({ alg: 'none' })).toString('base64url')}.${payload}.`;
    assert.deepEqual(verifyDevJwt(REGISTRY_JWT_SECRET, none, now), { ok: false, reason: 'malformed' });
    assert.deepEqual(verifyDevJwt(REGISTRY_JWT_SECRET, 'comfyui-not-a-jwt', now), { ok: false, reason: 'malformed' });
  });
});

describe('registry surface', () => {
  let ref: RunningReference;
  before(async () => {
    ref = await startOnFreePorts();
  });
  after(async () => ref.close());
  const base = (): string => ref.surfaces.registry;

  test('each scheme is accepted: JWT, API key as bearer, administrative secret', async () => {
    assert.equal((await post(base(), NODE)).status, 201);
    assert.equal((await post(base(), NODE, { headers: { authorization: `Bearer ${CLOUD_KEYS.bob}` } })).status, 201);
    assert.equal(
      (await post(base(), NODE, { headers: { authorization: '', [REGISTRY_ADMIN_HEADER]: REGISTRY_ADMIN_SECRET } }))
        .status,
      201,
    );
  });

  test('refusals: 401/403 {error, message}; 400 and 404 {details, message}', async () => {
    for (const headers of [
      { authorization: '' },
      { authorization: `Bearer ${REVOKED_CLOUD_KEY}` },
      { authorization: 'Bearer nope' },
    ]) {
      const a = await post(base(), NODE, { headers });
      assert.equal(a.status, 401, JSON.stringify(headers));
      assert.ok(isMessage(a.json));
    }
    const wrongAdmin = await post(base(), NODE, { headers: { authorization: '', [REGISTRY_ADMIN_HEADER]: 'wrong' } });
    assert.equal(wrongAdmin.status, 403);
    assert.ok(isMessage(wrongAdmin.json));
    for (const body of [{}, { data: 'x' }, { data: [] }, { data: null }, { data: { fr: 'x' } }, []]) {
      const a = await post(base(), NODE, { body });
      assert.equal(a.status, 400, JSON.stringify(body));
      assert.ok(isDetails(a.json));
    }
    const unknown = await post(base(), 'no-such-node');
    assert.equal(unknown.status, 404);
    assert.ok(isDetails(unknown.json));
  });

  test('node ids are percent-decoded exactly once', async () => {
    const a = await post(base(), UNUSUAL_NODE_ID);
    assert.equal(a.status, 201);
    assert.equal(a.json?.id, UNUSUAL_NODE_ID);
    for (const id of ['%', '%zz', '100%25', 'a/b', '..%2F', '\u0000'])
      assert.equal((await post(base(), id)).status, 404, id);
  });
});

// A probe resolves true when the rule holds on that reference.
const PROBES: Record<string, (base: string) => Promise<boolean>> = {
  'registry-created-303': async (b) => (await post(b, NODE)).status === 201,
  'registry-admin-write-204': async (b) =>
    (await post(b, NODE, { headers: { authorization: '', [REGISTRY_ADMIN_HEADER]: REGISTRY_ADMIN_SECRET } })).status ===
    201,
  'registry-errors-text-plain': async (b) => (await post(b, 'no-such-node')).type.includes('json'),
  'registry-jwt-refused': async (b) => (await post(b, NODE)).status === 201,
  'registry-api-key-bearer-refused': async (b) =>
    (await post(b, NODE, { headers: { authorization: `Bearer ${CLOUD_KEYS.alice}` } })).status === 201,
  'registry-api-key-unchecked': async (b) =>
    (await post(b, NODE, { headers: { authorization: `Bearer ${REVOKED_CLOUD_KEY}` } })).status === 401,
  'registry-api-key-bearer-needs-credits': async (b) =>
    (await post(b, NODE, { headers: { authorization: `Bearer ${CLOUD_KEYS.broke}` } })).status === 201,
  'registry-admin-secret-ignored': async (b) =>
    (await post(b, NODE, { headers: { authorization: '', [REGISTRY_ADMIN_HEADER]: REGISTRY_ADMIN_SECRET } })).status ===
    201,
  'registry-jwt-expiry-ignored': async (b) => {
    const old = mintDevJwt(REGISTRY_JWT_SECRET, 'alice', {
      issuedAt: Math.floor(Date.now() / 1000) - 7200,
      ttlSeconds: 3600,
    });
    return (await post(b, NODE, { headers: { authorization: `Bearer ${old}` } })).status === 401;
  },
  'registry-anonymous-accepted': async (b) => (await post(b, NODE, { headers: { authorization: '' } })).status === 401,
  'registry-missing-data-accepted': async (b) => (await post(b, NODE, { body: { note: 'x' } })).status === 400,
  'registry-bad-body-422': async (b) => (await post(b, NODE, { body: { data: 1 } })).status === 400,
  'registry-created-200': async (b) => (await post(b, NODE)).status === 201,
  'registry-unknown-node-created': async (b) => (await post(b, 'no-such-node')).status === 404,
  'registry-node-id-decoded-twice': async (b) => (await post(b, UNUSUAL_NODE_ID)).status === 201,
  'registry-node-id-nul-500': async (b) => (await post(b, 'odd\u0000id')).status < 500,
  'registry-error-third-shape': async (b) => isMessage((await post(b, NODE, { headers: { authorization: '' } })).json),
  'registry-details-string': async (b) => isDetails((await post(b, NODE, { body: {} })).json),
};

describe('registry faults', { concurrency: true }, () => {
  test('every registry fault names a catalogued REGISTRY rule, installs something through the seams and has a probe', () => {
    const rules = loadRules();
    for (const f of REGISTRY_FAULTS) {
      assert.ok(f.breaks.startsWith('REGISTRY.') && rules.has(f.breaks), `${f.name} names ${f.breaks}`);
      const { hooks, overrides } = faultSeams(f.name).describe();
      assert.ok(hooks > 0 || overrides.length > 0, `${f.name} installs no hook and replaces no override point`);
      assert.ok(
        overrides.every((o) => o.startsWith('registry.')),
        `${f.name} replaces override points of another family: ${overrides.join(', ')}`,
      );
      assert.ok(f.name in PROBES, `${f.name} has no probe`);
    }
  });

  for (const [name, probe] of Object.entries(PROBES)) {
    test(`${name} changes the behaviour it names`, async () => {
      const [clean, broken] = await Promise.all([startOnFreePorts(), startOnFreePorts({ fault: name })]);
      try {
        assert.equal(await probe(clean.surfaces.registry), true, 'holds without the fault');
        assert.equal(await probe(broken.surfaces.registry), false, `breaks with ${name}`);
      } finally {
        await Promise.all([clean.close(), broken.close()]);
      }
    });
  }
});
