// The router faults are wired and change the behaviour they name. The suite catching each
// by exactly its rule is proven end to end by test/e2e/faults.test.ts; these are fast,
// reference-level probes for a few of them, plus a check that none is left unwired.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ROUTER_FAULTS } from '../../reference/faults/router.ts';
import { faultSeams } from '../../reference/faults.ts';
import type { RunningReference } from '../../reference/server.ts';
import { loadRules } from '../../lib/rules.ts';
import { startOnFreePorts } from './helpers.ts';
import { IMAGE, KEYS, call, prompt, uniqueKey } from './router-helpers.ts';

type Probe = (base: string) => Promise<boolean>;

/** Each probe resolves true when the rule holds. */
const PROBES: Record<string, Probe> = {
  'router-cursor-offset': async (base) => {
    const c = (await call(base, 'GET', '/v2/models?limit=5')).json.next_cursor as string;
    return !/^\d+$/.test(c) && (await call(base, 'GET', '/v2/models?cursor=7')).status === 400;
  },
  'router-dropped-params-comma': async (base) => {
    const res = await call(base, 'POST', `${IMAGE}?model_provider=wavespeed`, {
      body: { ...prompt(), negative_prompt: 'x', style: 'photo' },
    });
    return Array.isArray(JSON.parse(res.headers.get('x-comfy-router-dropped-params') ?? 'null'));
  },
  'router-refusal-order': async (base) => {
    const res = await call(base, 'POST', `${IMAGE}?model_provider=wavespeed`, {
      key: KEYS.byok,
      body: { ...prompt(), image: 'https://example.com/a.png' },
    });
    return String(res.json.detail).startsWith("this request's `image` selects the edit operation");
  },
  'router-replay-unmarked': async (base) => {
    const key = uniqueKey();
    const body = prompt();
    await call(base, 'POST', IMAGE, { body, headers: { 'idempotency-key': key } });
    return (
      (await call(base, 'POST', IMAGE, { body, headers: { 'idempotency-key': key } })).headers.get(
        'idempotent-replayed',
      ) === 'true'
    );
  },
  'router-error-type-null': async (base) => {
    const h = (await call(base, 'POST', `${IMAGE}/requests`, { body: prompt() })).json as { status_url: string };
    for (let i = 0; i < 40; i++) {
      const s = (await call(base, 'GET', new URL(h.status_url).pathname)).json;
      if (s.status === 'COMPLETED') return !('error_type' in s);
      await new Promise((r) => setTimeout(r, 25));
    }
    return false;
  },
  'router-fourth-status': async (base) => {
    const h = (await call(base, 'POST', '/v2/models/pixelforge/pf-slow/requests', { body: prompt() })).json as {
      status_url: string;
    };
    // The fault renames every unfinished status, so the first read shows it: no wait needed.
    return ['IN_QUEUE', 'IN_PROGRESS', 'COMPLETED'].includes(
      String((await call(base, 'GET', new URL(h.status_url).pathname)).json.status),
    );
  },
  'router-fallback-until-served': async (base) => {
    const res = await call(base, 'POST', IMAGE, { body: { prompt: '[[fail:native,fal]]' } });
    return res.status === 502 && res.headers.get('x-comfy-router-fallback-provider') === null;
  },
  'router-fallback-on-rejection': async (base) =>
    (await call(base, 'POST', IMAGE, { body: { prompt: '[[malformed:native]]' } })).status === 400,
  'router-fallback-after-timeout': async (base) =>
    (await call(base, 'POST', IMAGE, { body: { prompt: '[[timeout:native]]' } })).status === 504,
  // One call per image: three images are three calls of 2.6375 credits, 7.91 in all.
  'router-credits-last-call': async (base) =>
    (await call(base, 'POST', IMAGE, { body: { ...prompt(), num_images: 3 } })).headers.get('x-comfy-credits-used') ===
    '7.91',
  'router-amount-exponent': async (base) =>
    /^\d+(\.\d+)?$/.test(
      String((await call(base, 'POST', `${IMAGE}/estimate`, { body: { prompt: 'x' } })).json.amount),
    ),
  'router-credits-truncated': async (base) =>
    (await call(base, 'POST', `${IMAGE}/estimate`, { body: { prompt: 'x' } })).json.credits === 2.64,
  'router-no-request-id-on-errors': async (base) =>
    (await call(base, 'GET', '/v2/models/a/b')).headers.get('x-comfy-request-id') !== null,
  'router-etag-weak': async (base) =>
    !(await call(base, 'GET', `${IMAGE}/openapi.json`)).headers.get('etag')!.startsWith('W/'),
  'router-ignore-if-none-match': async (base) => {
    const etag = (await call(base, 'GET', `${IMAGE}/openapi.json`)).headers.get('etag')!;
    return (await call(base, 'GET', `${IMAGE}/openapi.json`, { headers: { 'if-none-match': etag } })).status === 304;
  },
};

describe('router faults', { concurrency: true }, () => {
  test('every router fault names a catalogued ROUTER rule, and installs something through the seams', () => {
    const rules = loadRules();
    for (const f of ROUTER_FAULTS) {
      assert.ok(f.breaks.startsWith('ROUTER.') && rules.has(f.breaks), `${f.name} names ${f.breaks}`);
      const { hooks, overrides } = faultSeams(f.name).describe();
      assert.ok(hooks > 0 || overrides.length > 0, `${f.name} installs no hook and replaces no override point`);
      assert.ok(
        overrides.every((o) => o.startsWith('router.')),
        `${f.name} replaces override points of another family: ${overrides.join(', ')}`,
      );
    }
  });

  for (const [name, probe] of Object.entries(PROBES)) {
    test(`${name} changes the behaviour it names`, async () => {
      const [clean, broken]: RunningReference[] = await Promise.all([
        startOnFreePorts(),
        startOnFreePorts({ fault: name }),
      ]);
      try {
        // A probe that throws (a header that does not parse) counts as the rule failing.
        const verdict = (base: string): Promise<boolean> => probe(base).catch(() => false);
        assert.equal(await verdict(clean.surfaces.router), true, 'holds without the fault');
        assert.equal(await verdict(broken.surfaces.router), false, `breaks with ${name}`);
      } finally {
        await Promise.all([clean.close(), broken.close()]);
      }
    });
  }
});
