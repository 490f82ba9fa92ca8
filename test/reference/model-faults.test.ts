// The faults of reference/faults/v2/model.ts break their rule only after a sequence of
// actions: for each, the sequence holds on a clean reference and breaks under the fault,
// while the single scenario a hand-written check runs (the same action without the step
// before it) still holds under the fault. The v2 state machine finding each one is proven
// end to end by test/e2e/faults.test.ts.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { RunningReference } from '../../reference/server.ts';
import { MODEL_FAULTS } from '../../reference/faults/v2/model.ts';
import {
  ALICE,
  bearer,
  blake3Hash,
  errorCode,
  getJson,
  postJson,
  str,
  uniqueBytes,
  upload,
  startOnFreePorts,
} from './helpers.ts';

const WORKFLOW = {
  '1': { class_type: 'EmptyImage', inputs: { width: 4, height: 4, batch_size: 1, color: 1 } },
  '2': { class_type: 'SaveImage', inputs: { images: ['1', 0], filename_prefix: 'probe' } },
};

async function submit(
  base: string,
  body: Record<string, unknown>,
  key?: string,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${base}/api/v2/jobs`, {
    method: 'POST',
    headers: { ...bearer(ALICE), 'content-type': 'application/json', ...(key ? { 'idempotency-key': key } : {}) },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** Every job id a walk of the label-filtered list yields, page by page; `between` runs after the first page. */
async function walk(
  base: string,
  label: string,
  between: () => Promise<void> = async () => undefined,
): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 20; page++) {
    const q = new URLSearchParams({ limit: '1', 'metadata[mrun]': label, ...(cursor ? { cursor } : {}) });
    const { body } = await getJson(`${base}/api/v2/jobs?${q}`, ALICE);
    ids.push(...(body.jobs as Array<{ id: string }>).map((j) => j.id));
    if (page === 0) await between();
    cursor = body.next_cursor as string | undefined;
    if (!cursor) return ids;
  }
  throw new Error('the walk did not end');
}

type Probe = (ref: RunningReference) => Promise<boolean>;

const PROBES: Record<string, { sequence: Probe; single: Probe }> = {
  'dedup-lost-after-range': {
    // Upload, a ranged read of it, then the same bytes again: a dedup hit.
    sequence: async (ref) => {
      const bytes = uniqueBytes('range');
      const first = await upload(ref.surfaces.local, undefined, { bytes });
      const slice = await fetch(`${ref.surfaces.local}/api/v2/assets/${str(first.body, 'id')}/content`, {
        headers: { range: 'bytes=0-3' },
      });
      await slice.arrayBuffer();
      const again = await upload(ref.surfaces.local, undefined, { bytes });
      return slice.status === 206 && again.body.created_new === false;
    },
    single: async (ref) => {
      const bytes = uniqueBytes('plain');
      await upload(ref.surfaces.local, undefined, { bytes });
      return (await upload(ref.surfaces.local, undefined, { bytes })).body.created_new === false;
    },
  },
  'key-freed-by-cancel': {
    // A keyed submit, its cancel, then the same request under the key: never a second job.
    sequence: async (ref) => {
      const key = `probe-${Math.random()}`;
      const first = await submit(ref.surfaces.cloud, { workflow: WORKFLOW }, key);
      await postJson(`${ref.surfaces.cloud}/api/v2/jobs/${str(first.body, 'id')}/cancel`, ALICE, {});
      const again = await submit(ref.surfaces.cloud, { workflow: WORKFLOW }, key);
      return again.status === 422 || again.body.id === first.body.id;
    },
    single: async (ref) => {
      const key = `probe-${Math.random()}`;
      const first = await submit(ref.surfaces.cloud, { workflow: WORKFLOW }, key);
      const again = await submit(ref.surfaces.cloud, { workflow: WORKFLOW }, key);
      return first.status === 201 && again.status === 422 && errorCode(again.body) === 'idempotency_key_reuse';
    },
  },
  'filtered-list-offset-skips': {
    // Three labelled jobs walked one per page, an unlabelled job submitted after the first page.
    sequence: async (ref) => {
      const base = `${ref.surfaces.serverless}/deployment/dep-ready`;
      const label = `probe-${Date.now()}`;
      const mine = [];
      for (let i = 0; i < 3; i++)
        mine.push(str((await submit(base, { workflow: WORKFLOW, metadata: { mrun: label } })).body, 'id'));
      const ids = await walk(base, label, async () => void (await submit(base, { workflow: WORKFLOW })));
      return mine.every((id) => ids.filter((x) => x === id).length === 1);
    },
    single: async (ref) => {
      const base = `${ref.surfaces.serverless}/deployment/dep-ready`;
      const label = `probe-${Date.now()}-single`;
      const mine = [];
      for (let i = 0; i < 3; i++)
        mine.push(str((await submit(base, { workflow: WORKFLOW, metadata: { mrun: label } })).body, 'id'));
      const ids = await walk(base, label);
      return mine.every((id) => ids.filter((x) => x === id).length === 1);
    },
  },
  'dedup-hit-hash-of-last-blob': {
    // A, then B, then A again: the dedup hit's hash is A's.
    sequence: async (ref) => {
      const [a, b] = [uniqueBytes('a'), uniqueBytes('b')];
      await upload(ref.surfaces.cloud, ALICE, { bytes: a });
      await upload(ref.surfaces.cloud, ALICE, { bytes: b });
      const again = await upload(ref.surfaces.cloud, ALICE, { bytes: a });
      const read = await getJson(`${ref.surfaces.cloud}/api/v2/assets/${str(again.body, 'id')}`, ALICE);
      return again.body.created_new === false && again.body.hash === blake3Hash(a) && read.body.hash === blake3Hash(a);
    },
    single: async (ref) => {
      const a = uniqueBytes('a');
      await upload(ref.surfaces.cloud, ALICE, { bytes: a });
      const again = await upload(ref.surfaces.cloud, ALICE, { bytes: a });
      return again.body.created_new === false && again.body.hash === blake3Hash(a);
    },
  },
};

describe('faults only a sequence shows', { concurrency: true }, () => {
  test('every fault of the file has a probe', () => {
    assert.deepEqual(MODEL_FAULTS.map((f) => f.name).sort(), Object.keys(PROBES).sort());
  });

  for (const fault of MODEL_FAULTS) {
    test(`${fault.name}: the sequence breaks ${fault.breaks}, the single scenario does not`, async () => {
      const probe = PROBES[fault.name];
      const [clean, broken] = await Promise.all([startOnFreePorts(), startOnFreePorts({ fault: fault.name })]);
      try {
        assert.equal(await probe.sequence(clean), true, 'the sequence holds on a clean reference');
        assert.equal(await probe.single(clean), true, 'the single scenario holds on a clean reference');
        assert.equal(await probe.sequence(broken), false, `the sequence breaks under ${fault.name}`);
        assert.equal(await probe.single(broken), true, `the single scenario still holds under ${fault.name}`);
      } finally {
        await Promise.all([clean.close(), broken.close()]);
      }
    });
  }
});
