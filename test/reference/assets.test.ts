import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { FAULTS, startReference } from '../../reference/server.ts';
import type { RunningReference } from '../../reference/server.ts';
import {
  ALICE,
  BOB,
  ISO_MS,
  TINY,
  bearer,
  blake3Hash,
  errorCode,
  getJson,
  postJson,
  sleep,
  startOnFreePorts,
  str,
  uniqueBytes,
  upload,
} from './helpers.ts';

let ref: RunningReference;
let cloud: string;
let local: string;

before(async () => {
  ref = await startOnFreePorts();
  cloud = ref.surfaces.cloud;
  local = ref.surfaces.local;
});
after(async () => {
  await ref.close();
});

describe('reference server', { concurrency: true }, () => {
  test('surfaces bind loopback on consecutive ports and answer health without auth', async () => {
    const localPort = Number(new URL(local).port);
    assert.equal(new URL(local).hostname, '127.0.0.1');
    assert.equal(cloud, `http://127.0.0.1:${localPort + 1}`);
    for (const base of [local, cloud]) {
      const res = await fetch(`${base}/__reference/health`);
      assert.equal(res.status, 200);
      assert.deepEqual(await res.json(), { ok: true });
    }
    assert.deepEqual(
      { alice: ref.credentials.cloud.alice, bob: ref.credentials.cloud.bob, tiny: ref.credentials.cloud.tiny },
      { alice: ALICE, bob: BOB, tiny: TINY },
    );
    assert.deepEqual(ref.credentials.tinyAllowance, { requests: 5, windowSeconds: 2 });
  });

  test('unknown fault name is refused with the valid names', async () => {
    await assert.rejects(startReference({ portBase: 1, fault: 'no-such-fault' }), (err: Error) => {
      assert.match(err.message, /no-such-fault/);
      for (const f of FAULTS) assert.ok(err.message.includes(f.name), f.name);
      return true;
    });
  });

  test('upload computes blake3 server-side and reports the asset fields', async () => {
    const bytes = new TextEncoder().encode(`known bytes ${Math.random()}`);
    const before = Date.now();
    const res = await upload(cloud, ALICE, {
      bytes,
      contentType: 'image/png',
      filePath: 'photo.png',
      tags: ['input', 'x'],
    });
    assert.equal(res.status, 201);
    const a = res.body;
    assert.equal(a.hash, blake3Hash(bytes));
    assert.match(str(a, 'id'), /^[0-9a-f-]{36}$/);
    assert.equal(a.size_bytes, bytes.length);
    assert.equal(a.content_type, 'image/png');
    assert.equal(a.file_path, 'photo.png');
    assert.equal(a.created_new, true);
    assert.deepEqual(a.tags, ['input', 'x']);
    assert.ok(!('job_id' in a) && !('job_metadata' in a));
    for (const f of ['created_at', 'url_expires_at', 'expires_at']) assert.match(str(a, f), ISO_MS, f);
    const url = new URL(str(a, 'url'));
    assert.equal(url.origin, cloud);
    assert.equal(Number(url.searchParams.get('expires')) * 1000, Date.parse(str(a, 'url_expires_at')));
    assert.ok(Date.parse(str(a, 'url_expires_at')) >= before + 21_600_000);
    assert.notEqual(a.expires_at, a.url_expires_at);
    const expiresAt = Date.parse(str(a, 'expires_at'));
    assert.ok(Math.abs(expiresAt - (before + 86_400_000)) < 5_000, 'default retention is 24 h');
  });

  test('identical bytes dedup per account: 201 then 200, and 201 again for another account', async () => {
    const bytes = uniqueBytes('dedup');
    const first = await upload(cloud, ALICE, { bytes });
    const second = await upload(cloud, ALICE, { bytes, filePath: 'other.bin' });
    const bobs = await upload(cloud, BOB, { bytes });
    assert.equal(first.status, 201);
    assert.equal(first.body.created_new, true);
    assert.equal(second.status, 200);
    assert.equal(second.body.created_new, false);
    assert.notEqual(second.body.id, first.body.id);
    assert.equal(second.body.hash, first.body.hash);
    assert.equal(bobs.status, 201);
    assert.equal(bobs.body.created_new, true);
  });

  test('parts are accepted in any order', async () => {
    const res = await upload(cloud, ALICE, { fileFirst: true });
    assert.equal(res.status, 201);
  });

  test('retention extends on re-reference and never shortens', async () => {
    const bytes = uniqueBytes('retention');
    const first = await upload(cloud, ALICE, { bytes, expiresIn: 3600 });
    const d1 = Date.parse(str(first.body, 'expires_at'));
    assert.ok(Math.abs(d1 - (Date.now() + 3_600_000)) < 5_000);
    const shorter = await upload(cloud, ALICE, { bytes, expiresIn: 600 });
    assert.equal(shorter.status, 200);
    assert.equal(Date.parse(str(shorter.body, 'expires_at')), d1);
    const viaHash = await postJson(`${cloud}/api/v2/assets/from-hash`, ALICE, {
      hash: first.body.hash,
      file_path: 'r.bin',
      expires_in: 60,
    });
    assert.equal(viaHash.status, 201);
    assert.equal(Date.parse(str(viaHash.body, 'expires_at')), d1);
    const longer = await upload(cloud, ALICE, { bytes, expiresIn: 7200 });
    const d2 = Date.parse(str(longer.body, 'expires_at'));
    assert.ok(d2 > d1 + 3_000_000);
    const read = await getJson(`${cloud}/api/v2/assets/${str(first.body, 'id')}`, ALICE);
    assert.equal(Date.parse(str(read.body, 'expires_at')), d2, 'the deadline is per account and blob');
  });

  test('by-hash and from-hash are scoped to the calling account', async () => {
    const bytes = uniqueBytes('scope');
    const created = await upload(cloud, ALICE, { bytes, filePath: 'a.bin' });
    const hash = str(created.body, 'hash');
    const head = (key: string, h: string) =>
      fetch(`${cloud}/api/v2/assets/by-hash/${h}`, { method: 'HEAD', headers: bearer(key) });
    const own = await head(ALICE, hash);
    assert.equal(own.status, 200);
    assert.equal(await own.text(), '');
    assert.equal((await head(BOB, hash)).status, 404);
    assert.equal((await head(ALICE, 'blake3:xyz')).status, 404);
    assert.equal((await head(ALICE, blake3Hash(uniqueBytes()))).status, 404);

    const bobMiss = await postJson(`${cloud}/api/v2/assets/from-hash`, BOB, { hash, file_path: 'b.bin' });
    assert.equal(bobMiss.status, 404);
    assert.equal(errorCode(bobMiss.body), 'blob_not_found');

    const same = await postJson(`${cloud}/api/v2/assets/from-hash`, ALICE, { hash, file_path: 'a.bin' });
    assert.equal(same.status, 200);
    assert.equal(same.body.id, created.body.id);
    const minted = await postJson(`${cloud}/api/v2/assets/from-hash`, ALICE, {
      hash,
      file_path: 'copy.bin',
      tags: ['t'],
    });
    assert.equal(minted.status, 201);
    assert.equal(minted.body.created_new, false);
    assert.notEqual(minted.body.id, created.body.id);
    assert.equal(minted.body.size_bytes, bytes.length);
    assert.deepEqual(minted.body.tags, ['t']);

    for (const bad of [{}, { hash: 'sha256:abc' }, { hash, expires_in: 10 }, { hash, tags: 'x' }]) {
      const res = await postJson(`${cloud}/api/v2/assets/from-hash`, ALICE, bad);
      assert.equal(res.status, 422, JSON.stringify(bad));
      assert.equal(errorCode(res.body), 'invalid_request');
    }
  });

  test('every GET returns a freshly signed url', async () => {
    const created = await upload(cloud, ALICE);
    const id = str(created.body, 'id');
    const r1 = await getJson(`${cloud}/api/v2/assets/${id}`, ALICE);
    await sleep(1100);
    const r2 = await getJson(`${cloud}/api/v2/assets/${id}`, ALICE);
    assert.equal(r1.status, 200);
    assert.ok(!('created_new' in r1.body));
    const s1 = new URL(str(r1.body, 'url')).searchParams.get('signature');
    const s2 = new URL(str(r2.body, 'url')).searchParams.get('signature');
    assert.notEqual(s1, s2);
    assert.ok(Date.parse(str(r2.body, 'url_expires_at')) > Date.parse(str(r1.body, 'url_expires_at')));
  });

  test('signed url opens without credentials; tampered url is 403', async () => {
    const bytes = uniqueBytes('signed');
    const created = await upload(cloud, ALICE, { bytes, contentType: 'text/plain' });
    const url = str(created.body, 'url');
    const ok = await fetch(url);
    assert.equal(ok.status, 200);
    assert.equal(ok.headers.get('content-type'), 'text/plain');
    assert.equal(ok.headers.get('content-length'), String(bytes.length));
    assert.deepEqual(new Uint8Array(await ok.arrayBuffer()), bytes);

    const u = new URL(url);
    const sig = u.searchParams.get('signature') ?? '';
    const tampered = new URL(url);
    tampered.searchParams.set('signature', (sig[0] === 'a' ? 'b' : 'a') + sig.slice(1));
    const otherCt = new URL(url);
    otherCt.searchParams.set('ct', 'text/html');
    const longer = new URL(url);
    longer.searchParams.set('expires', String(Number(u.searchParams.get('expires')) + 10));
    for (const bad of [tampered, otherCt, longer]) {
      const res = await fetch(bad);
      assert.equal(res.status, 403, bad.toString());
    }
  });

  test('signed url stops working after its expiry', async () => {
    const short = await startOnFreePorts({ urlTtlSeconds: 1 });
    try {
      const created = await upload(short.surfaces.cloud, ALICE);
      const url = str(created.body, 'url');
      assert.ok(Date.parse(str(created.body, 'url_expires_at')) <= Date.now() + 2000);
      await sleep(Math.max(0, Date.parse(str(created.body, 'url_expires_at')) - Date.now()) + 100);
      assert.equal((await fetch(url)).status, 403);
    } finally {
      await short.close();
    }
  });

  test('cloud content endpoint redirects to a signed url and requires credentials', async () => {
    const bytes = uniqueBytes('content');
    const created = await upload(cloud, ALICE, { bytes });
    const id = str(created.body, 'id');
    const res = await fetch(`${cloud}/api/v2/assets/${id}/content`, { headers: bearer(ALICE), redirect: 'manual' });
    assert.equal(res.status, 302);
    assert.equal(await res.text(), '');
    const location = res.headers.get('location') ?? '';
    assert.ok(location.startsWith(`${cloud}/storage/blobs/`));
    assert.deepEqual(new Uint8Array(await (await fetch(location)).arrayBuffer()), bytes);
    const anon = await getJson(`${cloud}/api/v2/assets/${id}/content`);
    assert.equal(anon.status, 401);
    assert.equal(errorCode(anon.body), 'unauthorized');
    assert.equal((await getJson(`${cloud}/api/v2/assets/${id}/content`, BOB)).status, 404);
  });

  test('missing, malformed, unknown and JWT credentials are 401 on every route', async () => {
    const created = await upload(cloud, ALICE);
    const id = str(created.body, 'id');
    const variants: Array<Record<string, string>> = [
      {},
      { authorization: ALICE },
      { authorization: 'Basic YWxpY2U6eA==' },
      { authorization: 'Bearer comfyui-ref-nobody-0000000000000000' },
      { authorization: 'Bearer eyJhbGciOiJIUzI1NiJ9.e30.sig' },
    ];
    for (const headers of variants) {
      const label = JSON.stringify(headers);
      const get = await getJson(`${cloud}/api/v2/assets/${id}`, undefined, { headers });
      assert.equal(get.status, 401, label);
      assert.equal(errorCode(get.body), 'unauthorized', label);
      assert.match(get.headers.get('content-type') ?? '', /^application\/json/);
      const del = await fetch(`${cloud}/api/v2/assets/${id}`, { method: 'DELETE', headers });
      assert.equal(del.status, 401, label);
      const head = await fetch(`${cloud}/api/v2/assets/by-hash/${str(created.body, 'hash')}`, {
        method: 'HEAD',
        headers,
      });
      assert.equal(head.status, 401, label);
      const post = await fetch(`${cloud}/api/v2/assets`, { method: 'POST', headers, body: new FormData() });
      assert.equal(post.status, 401, label);
    }
    const jwt = await getJson(`${cloud}/api/v2/assets/${id}`, 'eyJhbGciOiJIUzI1NiJ9.e30.sig');
    assert.match(String((jwt.body.error as Record<string, unknown>).message), /JWT/);
    assert.equal((await getJson(`${cloud}/api/v2/assets/${id}`, ALICE)).status, 200, 'the asset survived');
  });

  test("tiny's allowance gives 429 with an integer Retry-After, even for assets that do not exist", async () => {
    const missing = '00000000-0000-4000-8000-000000000000';
    const statuses: number[] = [];
    for (let i = 0; i < 5; i += 1) statuses.push((await getJson(`${cloud}/api/v2/assets/${missing}`, TINY)).status);
    assert.deepEqual(statuses, [404, 404, 404, 404, 404]);
    const limited = await getJson(`${cloud}/api/v2/assets/${missing}`, TINY);
    assert.equal(limited.status, 429);
    assert.equal(errorCode(limited.body), 'rate_limited');
    const retryAfter = limited.headers.get('retry-after') ?? '';
    assert.match(retryAfter, /^\d+$/);
    assert.ok(Number(retryAfter) >= 1 && Number(retryAfter) <= 2);
    const foreign = await upload(cloud, BOB);
    assert.equal((await getJson(`${cloud}/api/v2/assets/${str(foreign.body, 'id')}`, TINY)).status, 429);
    const upl = await upload(cloud, TINY);
    assert.equal(upl.status, 429);
    assert.equal((await getJson(`${cloud}/__reference/health`)).status, 200, 'health is never limited');
    assert.equal((await getJson(`${cloud}/api/v2/assets/${missing}`, ALICE)).status, 404, 'limits are per account');
  });

  test('GET answers 404 for malformed, unknown and foreign ids', async () => {
    const own = await upload(cloud, ALICE);
    const bobs = await upload(cloud, BOB);
    const id = str(own.body, 'id');
    for (const bad of ['not-a-uuid', '6ba7b810-9dad-11d1-80b4-00c04fd430c8', str(bobs.body, 'id')]) {
      const res = await getJson(`${cloud}/api/v2/assets/${bad}`, ALICE);
      assert.equal(res.status, 404, bad);
      assert.equal(errorCode(res.body), 'not_found');
    }
    assert.equal((await getJson(`${cloud}/api/v2/assets/${id}`, ALICE)).status, 200);
  });

  test('delete answers 204 once, then the record is gone but the blob stays', async () => {
    const bytes = uniqueBytes('delete');
    const created = await upload(cloud, ALICE, { bytes });
    const id = str(created.body, 'id');
    const url = str(created.body, 'url');
    assert.equal((await fetch(`${cloud}/api/v2/assets/${id}`, { method: 'DELETE', headers: bearer(BOB) })).status, 404);
    const del = await fetch(`${cloud}/api/v2/assets/${id}`, { method: 'DELETE', headers: bearer(ALICE) });
    assert.equal(del.status, 204);
    assert.equal(await del.text(), '');
    assert.equal((await getJson(`${cloud}/api/v2/assets/${id}`, ALICE)).status, 404);
    const again = await getJson(`${cloud}/api/v2/assets/${id}`, ALICE, { method: 'DELETE' });
    assert.equal(again.status, 404);
    assert.equal(errorCode(again.body), 'not_found');
    assert.deepEqual(new Uint8Array(await (await fetch(url)).arrayBuffer()), bytes);
    const head = await fetch(`${cloud}/api/v2/assets/by-hash/${str(created.body, 'hash')}`, {
      method: 'HEAD',
      headers: bearer(ALICE),
    });
    assert.equal(head.status, 404, 'no asset over the blob is left');
  });

  test('invalid uploads are 422 naming the field; a hash mismatch is 409 and mints nothing', async () => {
    const cases: Array<[string, Parameters<typeof upload>[2]]> = [
      ['content_type', { contentType: undefined }],
      ['content_type', { contentType: 'not a type' }],
      ['file_path', { filePath: undefined }],
      ['file', { omitFile: true }],
      ['expires_in', { expiresIn: 10 }],
      ['expires_in', { expiresIn: 'soon' }],
      ['expected_hash', { expectedHash: 'md5:abc' }],
    ];
    for (const [field, spec] of cases) {
      const res = await upload(cloud, ALICE, spec);
      assert.equal(res.status, 422, field);
      assert.equal(errorCode(res.body), 'invalid_request');
      assert.match(String((res.body.error as Record<string, unknown>).message), new RegExp(field));
    }
    const bytes = uniqueBytes('mismatch');
    const res = await upload(cloud, ALICE, { bytes, expectedHash: blake3Hash(uniqueBytes()) });
    assert.equal(res.status, 409);
    assert.equal(errorCode(res.body), 'hash_mismatch');
    const head = await fetch(`${cloud}/api/v2/assets/by-hash/${blake3Hash(bytes)}`, {
      method: 'HEAD',
      headers: bearer(ALICE),
    });
    assert.equal(head.status, 404);
    const good = await upload(cloud, ALICE, { bytes, expectedHash: blake3Hash(bytes) });
    assert.equal(good.status, 201);
    const notMultipart = await postJson(`${cloud}/api/v2/assets`, ALICE, { file: 'x' });
    assert.equal(notMultipart.status, 422);
  });

  test('framework errors and unknown routes use the envelope', async () => {
    const res = await fetch(`${cloud}/api/v2/assets/from-hash`, {
      method: 'POST',
      headers: { ...bearer(ALICE), 'content-type': 'application/json' },
      body: '{not json',
    });
    assert.equal(res.status, 422);
    assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
    const body = (await res.json()) as Record<string, unknown>;
    assert.equal(errorCode(body), 'invalid_request');
    assert.ok(!JSON.stringify(body).includes('    at '), 'no stack trace');
    const unknown = await getJson(`${cloud}/api/v2/nothing-here`, ALICE);
    assert.equal(unknown.status, 404);
    assert.equal(errorCode(unknown.body), 'not_found');
  });

  test('local surface: no auth, no retention, proxy url, bytes with Range', async () => {
    const bytes = new TextEncoder().encode('0123456789abcdef');
    const created = await upload(local, undefined, {
      bytes: Uint8Array.from([...bytes, ...uniqueBytes()]),
      contentType: 'text/plain',
      expiresIn: 5,
    });
    assert.equal(created.status, 201);
    const a = created.body;
    const id = str(a, 'id');
    const size = Number(a.size_bytes);
    assert.equal(a.expires_at, null);
    assert.equal(a.url, `${local}/api/v2/assets/${id}/content`);
    assert.ok(Math.abs(Date.parse(str(a, 'url_expires_at')) - (Date.now() + 3_600_000)) < 5_000);

    const full = await fetch(str(a, 'url'));
    assert.equal(full.status, 200);
    assert.equal(full.headers.get('content-type'), 'text/plain');
    assert.equal(full.headers.get('content-length'), String(size));
    assert.equal((await full.arrayBuffer()).byteLength, size);

    const part = await fetch(str(a, 'url'), { headers: { range: 'bytes=2-5' } });
    assert.equal(part.status, 206);
    assert.equal(part.headers.get('content-range'), `bytes 2-5/${size}`);
    assert.equal(await part.text(), '2345');
    const open = await fetch(str(a, 'url'), { headers: { range: 'bytes=10-' } });
    assert.equal(open.status, 206);
    assert.equal(open.headers.get('content-range'), `bytes 10-${size - 1}/${size}`);
    const suffix = await fetch(str(a, 'url'), { headers: { range: 'bytes=-3' } });
    assert.equal(suffix.status, 206);
    assert.equal(suffix.headers.get('content-length'), '3');
    const beyond = await fetch(str(a, 'url'), { headers: { range: `bytes=${size}-` } });
    assert.equal(beyond.status, 416);
    assert.equal(beyond.headers.get('content-range'), `bytes */${size}`);

    const read = await getJson(`${local}/api/v2/assets/${id}`);
    assert.equal(read.status, 200);
    assert.equal(read.body.hash, a.hash);
    assert.equal((await getJson(`${local}/api/v2/assets/${id}`, ALICE)).status, 200, 'a stray bearer is harmless');
  });

  test('local surface enforces a configured token', async () => {
    const guarded = await startOnFreePorts({ localToken: 'local-secret-token' });
    try {
      const base = guarded.surfaces.local;
      assert.equal(guarded.credentials.localToken, 'local-secret-token');
      const none = await upload(base, undefined);
      assert.equal(none.status, 401);
      assert.equal(errorCode(none.body), 'unauthorized');
      assert.equal((await upload(base, 'wrong-token')).status, 401);
      const ok = await upload(base, 'local-secret-token');
      assert.equal(ok.status, 201);
      const content = await fetch(str(ok.body, 'url'));
      assert.equal(content.status, 401, 'content endpoint is authenticated too');
      assert.equal((await fetch(str(ok.body, 'url'), { headers: bearer('local-secret-token') })).status, 200);
      assert.equal((await fetch(`${base}/__reference/health`)).status, 200);
    } finally {
      await guarded.close();
    }
  });
});
