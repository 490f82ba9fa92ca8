// The bounded HTTP layer against a broken server: every misbehaviour ends, within
// its bound, in an answer to judge or one clear suite error. Never a hang, never a crash.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { send } from '../../lib/http.ts';
import { SuiteError } from '../../lib/violations.ts';
import { startHostileServer, type Behaviour, type HostileServer } from '../support/hostile-server.ts';

let hostile: HostileServer;
before(async () => {
  hostile = await startHostileServer();
});
after(() => hostile.close());

const get = (b: Behaviour, timeoutMs = 1000, maxBodyBytes = 256 * 1024) =>
  send({ method: 'GET', url: hostile.url(b, '/api/v2/assets/x'), headers: {}, timeoutMs, maxBodyBytes });

/** Runs `fn`, asserting it settles within `boundMs`; returns the elapsed time. */
async function within<T>(boundMs: number, fn: () => Promise<T>): Promise<number> {
  const started = performance.now();
  await fn();
  const elapsed = performance.now() - started;
  assert.ok(elapsed < boundMs, `took ${Math.round(elapsed)} ms, bound ${boundMs} ms`);
  return elapsed;
}

const suiteError = (pattern: RegExp) => (e: unknown) => {
  assert.ok(e instanceof SuiteError, `expected a SuiteError, got ${String(e)}`);
  assert.match(e.message, /^\[suite-error\] /);
  assert.match(e.message, pattern);
  return true;
};

test('headers that never come: a suite error naming the path that hung and the bound, within it', async () => {
  await within(2500, () =>
    assert.rejects(
      get('hang', 400),
      suiteError(/GET \/hang\/api\/v2\/assets\/x at http:\/\/127\.0\.0\.1:\d+: no response within 400 ms/),
    ),
  );
});

test('headers, then a body that stalls: a suite error saying the body did not complete, within the bound', async () => {
  await within(2500, () =>
    assert.rejects(get('stall', 400), suiteError(/status 200 arrived but the body not complete within 400 ms/)),
  );
});

test('Content-Length larger than what is sent, then close: a suite error, not a short body taken as whole', async () => {
  await within(2500, () =>
    assert.rejects(get('truncated', 2000), suiteError(/status 200 arrived but the connection failed mid-body/)),
  );
});

test('a connection closed mid-response (chunked): a suite error naming it', async () => {
  await within(2500, () => assert.rejects(get('midbody', 2000), suiteError(/connection failed mid-body/)));
});

test('a connection closed before any response: a suite error naming it', async () => {
  await within(2500, () =>
    assert.rejects(get('reset', 2000), suiteError(/the exchange failed before a response arrived \(\w+/)),
  );
});

test('an endless body is cut at the cap, marked truncated, and the connection let go', async () => {
  let res: Awaited<ReturnType<typeof get>> | undefined;
  await within(5000, async () => {
    res = await get('huge', 5000, 300 * 1024);
  });
  assert.equal(res!.truncated, true);
  assert.equal(res!.body.length, 300 * 1024);
});

test("non-JSON and invalid UTF-8 bodies are delivered as bytes; judging them is the contract layer's job", async () => {
  const html = await get('nonjson');
  assert.equal(html.status, 200);
  assert.match(html.body.toString('utf8'), /Bad Gateway/);
  const bad = await get('badutf8');
  assert.ok(bad.body.includes(0xff));
});

test('a redirect loop: one exchange answers the 302; nothing is followed silently', async () => {
  const before = hostile.hits.get('loop') ?? 0;
  const res = await get('loop');
  assert.equal(res.status, 302);
  assert.match(res.headers.location ?? '', /\/loop\/api\/v2\/assets\/x$/);
  assert.equal((hostile.hits.get('loop') ?? 0) - before, 1);
});

test('the server survives all of it: a fresh request after every misbehaviour still gets its answer', async () => {
  const res = await get('nonjson');
  assert.equal(res.status, 200);
});
