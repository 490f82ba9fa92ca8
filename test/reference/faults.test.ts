import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { FAULTS } from '../../reference/server.ts';
import type { RunningReference } from '../../reference/server.ts';
import {
  ALICE,
  BOB,
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

/**
 * A probe checks one contract rule and resolves true when the rule holds. Each
 * fault must leave the probe passing on a clean reference and failing on the
 * faulted one, which proves the fault changes exactly the behaviour it names.
 */
type Probe = (ref: RunningReference) => Promise<boolean>;

const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

/**
 * Sends a burst past tiny's allowance and returns the first 429, or the last
 * answer when none came. Bursts are concurrent and retried because a slow,
 * loaded machine can let tiny's 2 s window roll over mid-burst.
 */
async function exhaustTiny(ref: RunningReference, path: string, method = 'GET'): Promise<Response> {
  let last: Response | undefined;
  // tiny's allowance is 5 per 2 s: a burst of twice that, again while none was refused (on a
  // loaded machine a burst can spread past one window).
  for (let attempt = 0; attempt < 6; attempt += 1) {
    const burst = await Promise.all(
      Array.from({ length: 12 }, async () => {
        const res = await fetch(`${ref.surfaces.cloud}${path}`, { method, headers: bearer(TINY) });
        await res.arrayBuffer();
        return res;
      }),
    );
    const limited = burst.find((r) => r.status === 429);
    if (limited !== undefined) return limited;
    last = burst[burst.length - 1];
  }
  if (last === undefined) throw new Error('unreachable');
  return last;
}

const PROBES: Record<string, { probe: Probe }> = {
  'stale-asset-url': {
    probe: async (ref) => {
      const created = await upload(ref.surfaces.cloud, ALICE);
      await sleep(1100);
      const read = await getJson(`${ref.surfaces.cloud}/api/v2/assets/${str(created.body, 'id')}`, ALICE);
      return read.body.url !== created.body.url && read.body.url_expires_at !== created.body.url_expires_at;
    },
  },
  'missing-retry-after': {
    probe: async (ref) => {
      // by-hash, so the probe does not depend on how GET asset orders its limiter.
      const res = await exhaustTiny(ref, `/api/v2/assets/by-hash/${blake3Hash(uniqueBytes())}`, 'HEAD');
      return res.status === 429 && /^\d+$/.test(res.headers.get('retry-after') ?? '');
    },
  },
  'flat-error-envelope': {
    probe: async (ref) =>
      errorCode((await getJson(`${ref.surfaces.cloud}/api/v2/assets/${UNKNOWN_ID}`, ALICE)).body) === 'not_found',
  },
  'content-without-credentials': {
    probe: async (ref) => {
      const created = await upload(ref.surfaces.cloud, ALICE);
      const res = await fetch(`${ref.surfaces.cloud}/api/v2/assets/${str(created.body, 'id')}/content`, {
        redirect: 'manual',
      });
      await res.arrayBuffer();
      return res.status === 401;
    },
  },
  'drop-url-expires-at': {
    probe: async (ref) => {
      const created = await upload(ref.surfaces.cloud, ALICE);
      const read = await getJson(`${ref.surfaces.cloud}/api/v2/assets/${str(created.body, 'id')}`, ALICE);
      return typeof created.body.url_expires_at === 'string' && typeof read.body.url_expires_at === 'string';
    },
  },
  'dedup-created-new': {
    probe: async (ref) => {
      const bytes = uniqueBytes();
      await upload(ref.surfaces.cloud, ALICE, { bytes });
      const again = await upload(ref.surfaces.cloud, ALICE, { bytes });
      return again.status === 200 && again.body.created_new === false;
    },
  },
  'retention-shortened': {
    probe: async (ref) => {
      const bytes = uniqueBytes();
      const first = await upload(ref.surfaces.cloud, ALICE, { bytes, expiresIn: 7200 });
      const again = await upload(ref.surfaces.cloud, ALICE, { bytes, expiresIn: 600 });
      return Date.parse(str(again.body, 'expires_at')) >= Date.parse(str(first.body, 'expires_at'));
    },
  },
  'by-hash-global': {
    probe: async (ref) => {
      const created = await upload(ref.surfaces.cloud, ALICE);
      const res = await fetch(`${ref.surfaces.cloud}/api/v2/assets/by-hash/${str(created.body, 'hash')}`, {
        method: 'HEAD',
        headers: bearer(BOB),
      });
      await res.arrayBuffer();
      return res.status === 404;
    },
  },
  'rate-limit-after-lookup': {
    probe: async (ref) => (await exhaustTiny(ref, `/api/v2/assets/${UNKNOWN_ID}`)).status === 429,
  },
  'hash-not-blake3': {
    probe: async (ref) => {
      const bytes = uniqueBytes();
      return (await upload(ref.surfaces.cloud, ALICE, { bytes })).body.hash === blake3Hash(bytes);
    },
  },
  'non-v4-id-500': {
    probe: async (ref) =>
      (await getJson(`${ref.surfaces.cloud}/api/v2/assets/6ba7b810-9dad-11d1-80b4-00c04fd430c8`, ALICE)).status === 404,
  },
  'not-found-as-400': {
    probe: async (ref) => (await getJson(`${ref.surfaces.cloud}/api/v2/assets/${UNKNOWN_ID}`, ALICE)).status === 404,
  },
  'foreign-asset-visible': {
    probe: async (ref) => {
      const bobs = await upload(ref.surfaces.cloud, BOB);
      return (await getJson(`${ref.surfaces.cloud}/api/v2/assets/${str(bobs.body, 'id')}`, ALICE)).status === 404;
    },
  },
  'proxy-redirects': {
    probe: async (ref) => {
      const bytes = uniqueBytes();
      const created = await upload(ref.surfaces.local, undefined, { bytes });
      const res = await fetch(`${ref.surfaces.local}/api/v2/assets/${str(created.body, 'id')}/content`, {
        redirect: 'manual',
      });
      // Length, not bytes: byte integrity is another fault's rule.
      return res.status === 200 && (await res.arrayBuffer()).byteLength === bytes.length;
    },
  },
  'signed-url-needs-key': {
    probe: async (ref) => {
      const res = await fetch(str((await upload(ref.surfaces.cloud, ALICE)).body, 'url'));
      await res.arrayBuffer();
      return res.status === 200;
    },
  },
  'expires-equals-url-expiry': {
    // The fault shows on reads only, so the retention arithmetic of creates stays intact.
    probe: async (ref) => {
      const created = (await upload(ref.surfaces.cloud, ALICE)).body;
      const a = (await getJson(`${ref.surfaces.cloud}/api/v2/assets/${String(created.id)}`, ALICE)).body;
      return a.expires_at !== a.url_expires_at;
    },
  },
  'upload-has-job': {
    probe: async (ref) => {
      const a = (await upload(ref.surfaces.cloud, ALICE)).body;
      return !('job_id' in a) && !('job_metadata' in a);
    },
  },
  'from-hash-any-blob': {
    probe: async (ref) => {
      const created = await upload(ref.surfaces.cloud, ALICE);
      const res = await postJson(`${ref.surfaces.cloud}/api/v2/assets/from-hash`, BOB, {
        hash: created.body.hash,
        file_path: 'b.bin',
      });
      return res.status === 404 && anyCode(res.body) === 'blob_not_found';
    },
  },
  'delete-keeps-record': {
    probe: async (ref) => {
      const id = str((await upload(ref.surfaces.cloud, ALICE)).body, 'id');
      const del = await fetch(`${ref.surfaces.cloud}/api/v2/assets/${id}`, {
        method: 'DELETE',
        headers: bearer(ALICE),
      });
      await del.arrayBuffer();
      return del.status === 204 && (await getJson(`${ref.surfaces.cloud}/api/v2/assets/${id}`, ALICE)).status === 404;
    },
  },
  'hash-mismatch-accepted': {
    probe: async (ref) => {
      const res = await upload(ref.surfaces.cloud, ALICE, { expectedHash: blake3Hash(uniqueBytes()) });
      return res.status >= 400 && res.status < 500;
    },
  },
  'hash-mismatch-as-invalid-request': {
    probe: async (ref) => {
      const res = await upload(ref.surfaces.cloud, ALICE, { expectedHash: blake3Hash(uniqueBytes()) });
      // Accepted (the field not read) is not this rule's; a refusal must be 409 hash_mismatch.
      return (res.status >= 200 && res.status < 300) || (res.status === 409 && anyCode(res.body) === 'hash_mismatch');
    },
  },
  'from-hash-size-zero': {
    probe: async (ref) => {
      const bytes = uniqueBytes();
      await upload(ref.surfaces.cloud, ALICE, { bytes });
      const res = await postJson(`${ref.surfaces.cloud}/api/v2/assets/from-hash`, ALICE, {
        hash: blake3Hash(bytes),
        file_path: 'minted.bin',
      });
      return res.status < 300 && res.body.size_bytes === bytes.length;
    },
  },
  'unknown-key-accepted': {
    probe: async (ref) =>
      (await getJson(`${ref.surfaces.cloud}/api/v2/assets/${UNKNOWN_ID}`, 'comfyui-not-a-real-key-123456')).status ===
      401,
  },
  'content-bytes-flipped': {
    probe: async (ref) => {
      const bytes = uniqueBytes();
      const signed = await fetch(str((await upload(ref.surfaces.cloud, ALICE, { bytes })).body, 'url'));
      const proxied = await fetch(str((await upload(ref.surfaces.local, undefined, { bytes })).body, 'url'));
      const same = async (res: Response) => Buffer.from(await res.arrayBuffer()).equals(Buffer.from(bytes));
      const [a, b] = await Promise.all([same(signed), same(proxied)]);
      return a && b;
    },
  },
  'invalid-upload-500': {
    probe: async (ref) => {
      const res = await upload(ref.surfaces.cloud, ALICE, { omitFile: true });
      return res.status === 422 && anyCode(res.body) === 'invalid_request';
    },
  },
  'local-requires-token': {
    probe: async (ref) => (await upload(ref.surfaces.local, undefined)).status === 201,
  },
  'url-expiry-past': {
    probe: async (ref) => {
      const a = (await upload(ref.surfaces.cloud, ALICE)).body;
      return Date.parse(str(a, 'url_expires_at')) > Date.now();
    },
  },
};

// Faults whose broken rule other probes necessarily observe: the envelope shape
// and the 404 status are how those probes recognise the outcome they expect.
const OVERLAPS: Record<string, string[]> = {
  'drop-url-expires-at': ['url-expiry-past', 'stale-asset-url'],
  'not-found-as-400': ['non-v4-id-500', 'foreign-asset-visible', 'delete-keeps-record'],
  'signed-url-needs-key': ['content-bytes-flipped'],
  'local-requires-token': ['proxy-redirects', 'content-bytes-flipped'],
};

// A probe that throws (e.g. a field it reads is missing) counts as the rule failing.
async function verdict(probe: Probe, ref: RunningReference): Promise<boolean> {
  try {
    return await probe(ref);
  } catch {
    return false;
  }
}

/** The error code under either envelope shape, so only the envelope probe depends on the shape. */
function anyCode(body: Record<string, unknown>): unknown {
  return errorCode(body) ?? body.code;
}

describe('faults', { concurrency: true }, () => {
  // Every fault is proven end to end by test/e2e/faults.test.ts (the suite catches it by
  // exactly its rule). These probes add a fast, reference-level proof for the asset faults.
  test('every probe belongs to a catalogued fault, and every fault names a rule', () => {
    const names = new Set(FAULTS.map((f) => f.name));
    for (const probe of Object.keys(PROBES)) assert.ok(names.has(probe), `probe ${probe} has no fault`);
    for (const f of FAULTS) {
      assert.match(f.breaks, /^[A-Z0-9]+\.[A-Z0-9_.]+$/, f.name);
      assert.ok(f.description.length > 0, f.name);
    }
  });

  for (const fault of FAULTS.filter((f) => f.name in PROBES)) {
    test(`${fault.name} breaks ${fault.breaks}`, async () => {
      const entry = PROBES[fault.name];
      assert.ok(entry !== undefined, `no probe for ${fault.name}`);
      const [clean, broken] = await Promise.all([startOnFreePorts(), startOnFreePorts({ fault: fault.name })]);
      try {
        const [holds, holdsUnderFault] = await Promise.all([verdict(entry.probe, clean), verdict(entry.probe, broken)]);
        assert.equal(holds, true, `${fault.breaks} should hold without the fault`);
        assert.equal(holdsUnderFault, false, `${fault.breaks} should break with ${fault.name}`);
        // The other rules must survive this fault, except checks that read the very thing it breaks.
        const others = Object.entries(PROBES).filter(
          ([name]) => name !== fault.name && !(OVERLAPS[fault.name] ?? []).includes(name),
        );
        const verdicts = await Promise.all(
          others.map(async ([name, other]) => [name, await verdict(other.probe, broken)] as const),
        );
        assert.deepEqual(
          verdicts.filter(([, ok]) => !ok).map(([name]) => name),
          [],
          `${fault.name} broke other rules`,
        );
      } finally {
        await Promise.all([clean.close(), broken.close()]);
      }
    });
  }
});
