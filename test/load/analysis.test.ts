import { test } from 'node:test';
import assert from 'node:assert/strict';
import { estimateAllowance, judge429, type Admission } from '../../load/profiles/rate-limit.ts';
import { ApiClient } from '../../lib/api.ts';
import { loadContract } from '../../lib/contracts/loader.ts';
import { FAMILY_CONTRACTS } from '../../lib/contracts/registry.ts';
import { Recorder } from '../../lib/recorder.ts';
import { Redactor } from '../../lib/redact.ts';
import type { SurfaceTarget } from '../../lib/targets.ts';
import { runConfig } from '../../lib/config/env.ts';
import { linkEdgeMs, maxOverlap, spendProblem } from '../../load/profiles/router-concurrency.ts';
import { PollPool, retryAfterSeconds } from '../../load/profiles/poll-pool.ts';
import { histogram, percentile } from '../../load/stats.ts';

/** A limiter of 5 per 2 s under excess at 20/s, seen over `spanMs` from a start at `phaseMs` into its schedule. */
function seen(
  kind: 'rolling' | 'clock' | 'bucket' | 'sliding',
  phaseMs: number,
  spanMs: number,
  perWindow = 5,
  windowMs = 2000,
): Admission[] {
  const out: Admission[] = [];
  let opened = -Infinity;
  let count = 0;
  let tokens = perWindow;
  let last = 0;
  const log: number[] = [];
  // The limiter runs from time 0; the run measures [phaseMs, phaseMs + spanMs).
  for (let t = 0; t < phaseMs + spanMs; t += 50) {
    let admitted: boolean;
    if (kind === 'bucket') {
      tokens = Math.min(perWindow, tokens + ((t - last) * perWindow) / windowMs);
      last = t;
      admitted = tokens >= 1;
      if (admitted) tokens -= 1;
    } else if (kind === 'sliding') {
      while (log.length > 0 && t - log[0] >= windowMs) log.shift();
      admitted = log.length < perWindow;
      if (admitted) log.push(t);
    } else {
      if (t - opened >= windowMs) {
        opened = kind === 'clock' ? t - (t % windowMs) : t;
        count = 0;
      }
      admitted = count < perWindow;
      if (admitted) count += 1;
    }
    if (t >= phaseMs) out.push({ sentAt: t, admitted });
  }
  return out;
}

test('the admitted count is judged fairly to every limiting algorithm, whatever the phase of its windows', () => {
  for (const kind of ['rolling', 'clock', 'bucket', 'sliding'] as const) {
    for (const phase of [0, 130, 700, 1250, 1990, 3333]) {
      for (const spanS of [8, 12, 20]) {
        const e = estimateAllowance(seen(kind, phase, spanS * 1000), 5, 2, spanS);
        assert.equal(
          e.accuracyPct,
          0,
          `${kind} limiter, phase ${phase} ms, ${spanS} s: admitted ${e.admitted} against ${e.expected} ± ${e.edge}`,
        );
      }
    }
  }
});

test('a limiter letting twice its allowance through is far off, at any phase', () => {
  for (const kind of ['rolling', 'clock', 'bucket', 'sliding'] as const) {
    for (const phase of [0, 700, 1990]) {
      const e = estimateAllowance(seen(kind, phase, 8000, 10), 5, 2, 8);
      assert.ok(e.accuracyPct >= 50, `${kind}, phase ${phase}: ${e.admitted} admitted read ${e.accuracyPct}% off`);
    }
  }
});

test('in-flight peak counts overlapping calls, ignoring the edges where client and server clocks differ', () => {
  assert.equal(
    maxOverlap([
      [0, 1000],
      [10, 1010],
      [980, 2000],
    ]),
    2,
  );
  assert.equal(
    maxOverlap([
      [0, 1000],
      [100, 1100],
      [200, 1200],
    ]),
    3,
  );
  assert.equal(maxOverlap([]), 0);
});

test("the in-flight peak does not depend on the link: the edge is the round trip measured from the run's refusals", () => {
  // A router that keeps its limit of 2, admitting each call the moment another ends: calls of
  // 1 s in two lanes, back to back. Seen from a client over a link whose legs take `leg` ms
  // (plus up to 10 ms of jitter), each interval is wider than the run by a leg at each end.
  const seen = (leg: number, lanes: number, calls = 8): Array<[number, number]> =>
    Array.from({ length: calls }, (_, i) => {
      const start = Math.floor(i / lanes) * 1000 + (i % lanes) * (1000 / lanes);
      return [start - leg - ((i * 7) % 10), start + 1000 + leg + ((i * 3) % 10)] as [number, number];
    });
  // A refusal is answered without running the model: its send-to-answer time is a round trip.
  const refusals = (leg: number) => [2 * leg + 3, 2 * leg + 1, 2 * leg + 8, 2 * leg + 2, 2 * leg + 5];
  for (const leg of [1, 20, 60, 150]) {
    const edge = linkEdgeMs(refusals(leg));
    assert.equal(maxOverlap(seen(leg, 2), edge), 2, `a kept limit over a link of ${2 * leg} ms round trip`);
    // The limit + 1 (three lanes) is still seen, whatever the link.
    assert.equal(maxOverlap(seen(leg, 3), edge), 3, `one call over the limit, ${2 * leg} ms round trip`);
  }
  // A fixed 50 ms edge misjudges the same kept limit once the link is slower than it.
  assert.equal(maxOverlap(seen(60, 2), 50), 3);
  assert.equal(linkEdgeMs([]), 50, "no refusal: the floor (the client's own timing noise)");
  assert.equal(linkEdgeMs([3, 1, 2]), 50);
});

test('committed-spend headers must be integers with Remaining = max(0, Limit - Current)', () => {
  const h = (l: string, c: string, r: string) => ({
    'x-committed-spend-limit': l,
    'x-committed-spend-current': c,
    'x-committed-spend-remaining': r,
  });
  assert.equal(spendProblem(h('50000', '120', '49880')), undefined);
  assert.equal(spendProblem(h('100', '150', '0')), undefined);
  assert.match(spendProblem(h('50000', '120', '50000')) ?? '', /remaining/);
  assert.match(spendProblem(h('50000', '1.5', '0')) ?? '', /current/);
  assert.match(spendProblem({}) ?? '', /absent/);
});

test('Retry-After is integer seconds or nothing', () => {
  assert.equal(retryAfterSeconds({ 'retry-after': '2' }), 2);
  assert.ok(Number.isNaN(retryAfterSeconds({ 'retry-after': 'Wed, 21 Oct 2015 07:28:00 GMT' })!));
  assert.equal(retryAfterSeconds({}), undefined);
});

test("the poll pool honours each item's Retry-After and counts a poll it had to send early", async () => {
  let n = 0;
  const pool = new PollPool(async () => `/r/${n++}`, 2);
  await pool.fill();
  assert.equal(pool.next(0), '/r/0');
  pool.wait('/r/0', 1, 0);
  assert.equal(pool.next(10), '/r/1');
  pool.wait('/r/1', 1, 10);
  assert.equal(pool.early, 0);
  assert.equal(pool.next(20), '/r/0', 'nothing is due: the soonest is polled');
  assert.equal(pool.early, 1);
  assert.equal(pool.next(1500), '/r/0');
  pool.finish('/r/0');
  pool.wait('/r/1', 1, 1500);
  assert.equal(pool.next(1600), '/r/1', 'finished items are not polled');
});

test('percentiles are exact ranks; the histogram keeps every latency', () => {
  const v = Array.from({ length: 100 }, (_, i) => i + 1);
  assert.equal(percentile(v, 50), 50);
  assert.equal(percentile(v, 99), 99);
  assert.equal(percentile(v, 100), 100);
  const h = histogram([0.05, 1, 1, 7, 300]);
  assert.equal(
    h.counts.reduce((s, c) => s + c, 0),
    5,
  );
  assert.ok(h.bounds[h.bounds.length - 1] >= 300);
});

// The 429 judge is the suite's own judgement of an answer (lib/contracts/judge.ts): the same
// client the specs use, aimed nowhere, judging answers it is handed.
function judgeOnly(family: 'v2' | 'router'): ApiClient {
  const c = FAMILY_CONTRACTS[family]!;
  const target = {
    surface: family === 'v2' ? 'cloud' : 'router',
    baseUrl: 'http://127.0.0.1:9',
    brand: 'Comfy',
    scenario: {},
    capabilities: {},
  } as unknown as SurfaceTarget;
  return new ApiClient({
    contract: loadContract(c.file, 'Comfy', c.rulePrefix),
    target,
    recorder: new Recorder(new Redactor([])),
    checks: c.checks,
    bounds: runConfig().bounds,
  });
}

test(
  'a 429 under load is judged by the contract and the always-on checks; v2 must say rate_limited ' +
    'with Retry-After, a router one rate_limited or concurrency_limit_exceeded, Retry-After judged ' +
    'only where sent',
  () => {
    const router = judgeOnly('router');
    const v2 = judgeOnly('v2');
    const spend = {
      'x-committed-spend-limit': '100',
      'x-committed-spend-current': '10',
      'x-committed-spend-remaining': '90',
      'x-comfy-request-id': 'r1',
      'content-type': 'application/json',
    };
    const routerBody = (type: string) => JSON.stringify({ detail: 'slow down', error_type: type });
    const r429 = (headers: Record<string, string>, body: string) =>
      judge429(router, 'router', '/v2/models', { status: 429, headers, body });
    assert.equal(
      r429({ 'retry-after': '1', 'x-comfy-error-type': 'rate_limited', ...spend }, routerBody('rate_limited')),
      undefined,
    );
    assert.equal(
      r429({ 'x-comfy-error-type': 'concurrency_limit_exceeded', ...spend }, routerBody('concurrency_limit_exceeded')),
      undefined,
      'the other bucket seed R pairs with 429',
    );
    // Seed R names the buckets a 429 carries (R:166, R:269): a rate-limit refusal under another name is not one a client knows.
    assert.match(
      r429(
        { 'retry-after': '2', 'x-comfy-error-type': 'brand_new_bucket', ...spend },
        routerBody('brand_new_bucket'),
      ) ?? '',
      /brand_new_bucket/,
      'an unknown bucket is no rate-limit refusal',
    );
    assert.match(
      r429(
        { 'retry-after': '1', 'x-comfy-error-type': 'rate_limited', ...spend },
        JSON.stringify({ error_type: 'rate_limited' }),
      ) ?? '',
      /detail/,
    );
    // Seed R lists no Retry-After on a router 429: one that is absent is accepted, one that is sent is judged.
    assert.equal(r429({ 'x-comfy-error-type': 'rate_limited', ...spend }, routerBody('rate_limited')), undefined);
    assert.match(
      r429({ 'retry-after': 'soon', 'x-comfy-error-type': 'rate_limited', ...spend }, routerBody('rate_limited')) ?? '',
      /Retry-After|integer/i,
    );
    const v2Body = (code: string) => JSON.stringify({ error: { code, message: 'slow down' } });
    const json = { 'content-type': 'application/json' };
    const id = '/api/v2/assets/0b6c0e4e-6f2b-4c1e-9b1a-1f2d3c4b5a69';
    const v429 = (headers: Record<string, string>, body: string) =>
      judge429(v2, 'v2', id, { status: 429, headers: { ...json, ...headers }, body });
    assert.equal(v429({ 'retry-after': '3' }, v2Body('rate_limited')), undefined);
    assert.match(
      v429({ 'retry-after': '3' }, v2Body('queue_full')) ?? '',
      /not rate_limited/,
      'the rate limit is refused as rate_limited',
    );
    assert.match(v429({ 'retry-after': '1.5' }, v2Body('rate_limited')) ?? '', /integer/);
    assert.match(
      v429({ 'retry-after': '1' }, JSON.stringify({ code: 'rate_limited', message: 'x' })) ?? '',
      /V2\.ERR\.ENVELOPE/,
    );
  },
);
