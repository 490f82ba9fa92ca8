// The faults of reference/faults/router/model.ts break their rule only after a sequence of
// actions: for each, the sequence holds on a clean reference and breaks under the fault,
// while the single scenario a hand-written check runs (the same action without the step
// before it) still holds under the fault. The router state machine finding each one is
// proven end to end by test/e2e/faults.test.ts.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { RunningReference } from '../../reference/server.ts';
import { ROUTER_MODEL_FAULTS } from '../../reference/faults/router/model.ts';
import { sleep, startOnFreePorts } from './helpers.ts';
import { IMAGE, KEYS, call, prompt, uniqueKey, type Answer } from './router-helpers.ts';

const SLOW = '/v2/models/pixelforge/pf-slow';

const submit = (
  base: string,
  model: string,
  body: unknown,
  opts: { key?: string; as?: string } = {},
): Promise<Answer> =>
  call(base, 'POST', `${model}/requests`, {
    body,
    ...(opts.as ? { key: opts.as } : {}),
    ...(opts.key ? { headers: { 'idempotency-key': opts.key } } : {}),
  });
const follow = (url: string, method = 'GET'): Promise<Answer> =>
  call(new URL(url).origin, method, new URL(url).pathname);
const id = (a: Answer) => String(a.json.request_id);
/** Reads the request's status until it is COMPLETED (the reference's image_model takes ~30 ms), within 5 s. */
async function completed(handle: Answer): Promise<void> {
  const deadline = Date.now() + 5_000;
  for (;;) {
    const status = await follow(String(handle.json.status_url));
    if (status.json.status === 'COMPLETED') return;
    if (Date.now() > deadline)
      throw new Error(`request ${id(handle)} not COMPLETED within 5 s: ${JSON.stringify(status.json)}`);
    await sleep(10);
  }
}

type Probe = (base: string) => Promise<boolean>;

const PROBES: Record<string, { sequence: Probe; single: Probe }> = {
  'router-key-freed-by-cancel': {
    // A keyed submit, its cancel, then the same request under the key: the same request again.
    sequence: async (base) => {
      const key = uniqueKey('freed');
      const body = prompt('freed');
      const first = await submit(base, SLOW, body, { key });
      await follow(String(first.json.cancel_url), 'PUT');
      const again = await submit(base, SLOW, body, { key });
      return again.status === 201 && id(again) === id(first) && again.headers.get('idempotent-replayed') === 'true';
    },
    single: async (base) => {
      const key = uniqueKey('freed');
      const body = prompt('freed');
      const first = await submit(base, SLOW, body, { key });
      const again = await submit(base, SLOW, body, { key });
      return again.status === 201 && id(again) === id(first);
    },
  },
  'router-collect-shifted-after-cancel': {
    // A request of slow_model, then one of image_model; the first is cancelled; the second is collected.
    sequence: async (base) => {
      const first = await submit(base, SLOW, prompt('shift-a'));
      const body = prompt('shift-b');
      const second = await submit(base, IMAGE, body);
      await follow(String(first.json.cancel_url), 'PUT');
      await completed(second);
      const collected = await follow(String(second.json.response_url));
      const sync = await call(base, 'POST', IMAGE, { body });
      return collected.status === 200 && collected.bytes.equals(sync.bytes);
    },
    single: async (base) => {
      const body = prompt('shift-b');
      const second = await submit(base, IMAGE, body);
      await completed(second);
      const collected = await follow(String(second.json.response_url));
      const sync = await call(base, 'POST', IMAGE, { body });
      return collected.status === 200 && collected.bytes.equals(sync.bytes);
    },
  },
  'router-teammate-replay-cache': {
    // The caller's keyed submit and its replay, then a teammate's other request under the key: 409.
    sequence: async (base) => {
      const key = uniqueKey('cache');
      const body = prompt('cache');
      await submit(base, IMAGE, body, { key });
      await submit(base, IMAGE, body, { key });
      const other = await submit(base, IMAGE, prompt('cache-other'), { key, as: KEYS.carol });
      return other.status === 409 && other.json.error_type === 'invalid_input';
    },
    single: async (base) => {
      const key = uniqueKey('cache');
      const body = prompt('cache');
      await submit(base, IMAGE, body, { key });
      await submit(base, IMAGE, body, { key, as: KEYS.carol });
      const other = await submit(base, IMAGE, prompt('cache-other'), { key, as: KEYS.carol });
      return other.status === 409 && other.json.error_type === 'invalid_input';
    },
  },
  'router-status-reopened-after-collect': {
    // A finished request collected, then its status read: COMPLETED still.
    sequence: async (base) => {
      const h = await submit(base, IMAGE, prompt('reopened'));
      await completed(h);
      await follow(String(h.json.response_url));
      return (await follow(String(h.json.status_url))).json.status === 'COMPLETED';
    },
    single: async (base) => {
      const h = await submit(base, IMAGE, prompt('reopened'));
      await completed(h);
      const status = await follow(String(h.json.status_url));
      return status.json.status === 'COMPLETED' && (await follow(String(h.json.response_url))).status === 200;
    },
  },
};

describe('router faults only a sequence shows', { concurrency: true }, () => {
  test('every fault of the file has a probe', () => {
    assert.deepEqual(ROUTER_MODEL_FAULTS.map((f) => f.name).sort(), Object.keys(PROBES).sort());
  });

  for (const fault of ROUTER_MODEL_FAULTS) {
    test(`${fault.name}: the sequence breaks ${fault.breaks}, the single scenario does not`, async () => {
      const probe = PROBES[fault.name];
      const [clean, broken]: RunningReference[] = await Promise.all([
        startOnFreePorts(),
        startOnFreePorts({ fault: fault.name }),
      ]);
      try {
        assert.equal(await probe.sequence(clean.surfaces.router), true, 'the sequence holds on a clean reference');
        assert.equal(await probe.single(clean.surfaces.router), true, 'the single scenario holds on a clean reference');
        assert.equal(await probe.sequence(broken.surfaces.router), false, `the sequence breaks under ${fault.name}`);
        assert.equal(
          await probe.single(broken.surfaces.router),
          true,
          `the single scenario still holds under ${fault.name}`,
        );
      } finally {
        await Promise.all([clean.close(), broken.close()]);
      }
    });
  }
});
