// Time bounds the seeds do not give (issue #21 § 3): a Retry-After longer than the suite
// waits, a job or queued request slower than its deadline, a live stream that stays open
// after its terminal event. A slow server is not a failing one: a bound the suite chose
// ends as error naming the bound and the variable that raises it, never as a broken rule.
// Nothing here waits long: the bounds are set small through their variables.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

// The job deadline is set before any import of lib/: each fake client below is given the bounds the
// configuration reads from the variables (runConfig().bounds), as fixtures/test.ts gives the specs' client.
process.env.CONFORMANCE_JOB_DEADLINE_MS = '300';

const { honourRetryAfter, SuiteBound } = await import('../../lib/time.ts');
const { ApiResponse } = await import('../../lib/api.ts');
const { pollToEnd } = await import('../../lib/v2/jobs.ts');
const { untilCompleted } = await import('../../lib/router/queue.ts');
const { V1Client } = await import('../../lib/v1/client.ts');
const { send } = await import('../../lib/http.ts');
const { reachedStatus } = await import('../../lib/v2/events.ts');
const { runLikeATest } = await import('./run-like-a-test.ts');
const { resetRunConfig, runConfig } = await import('../../lib/config/index.ts');
/** Sets (or, with undefined, clears) one variable and has the configuration read again. */
function setVar(name: string, value: string | undefined): void {
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
  resetRunConfig();
}
type Api = import('../../lib/api.ts').ApiClient;

function answer(
  operationId: string,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): InstanceType<typeof ApiResponse> {
  const raw = {
    status,
    headers: { 'content-type': 'application/json', ...headers },
    body: Buffer.from(JSON.stringify(body)),
    truncated: false,
    elapsedMs: 1,
  };
  return new ApiResponse(operationId, 'GET', 'http://127.0.0.1:1/x', raw, body);
}

// The rule a test would declare; a neutral name, since test/support/fault-coverage.ts reads a quoted
// rule id in a unit test as a proof that its check can fail, and these prove the opposite.
const DECLARED = ['A.DECLARED.RULE'];

/** Runs `body` as the fixture does and returns the results it left, per outcome. */
async function outcomes(
  declared: string[],
  body: () => Promise<unknown>,
): Promise<{ blocked: string[]; broken: string[] }> {
  const { evidence } = await runLikeATest(declared, async () => void (await body()));
  return {
    blocked: evidence.results.filter((r) => r.outcome === 'blocked').map((r) => r.what),
    broken: evidence.results.filter((r) => r.outcome === 'broken').map((r) => `${r.rule}: ${r.what}`),
  };
}

test("a Retry-After of 12 s is honoured under a ceiling of 20 s, and the suite's bound (naming its variable) under one of 10 s", async () => {
  const waits: number[] = [];
  const sleep = async (ms: number) => void waits.push(ms);
  const before = process.env.CONFORMANCE_RETRY_AFTER_MAX_MS;
  try {
    setVar('CONFORMANCE_RETRY_AFTER_MAX_MS', '20000');
    await honourRetryAfter(12, { sleep, ceilingMs: runConfig().bounds.retryAfterMaxMs });
    assert.ok(waits.length === 1 && waits[0] >= 12_000, `waited ${waits.join(', ')} ms`);
    setVar('CONFORMANCE_RETRY_AFTER_MAX_MS', '10000');
    const ceilingMs = runConfig().bounds.retryAfterMaxMs;
    await assert.rejects(
      honourRetryAfter(12, { sleep, ceilingMs, what: 'the status of queued request r1' }),
      (e: unknown) => {
        assert.ok(e instanceof SuiteBound);
        assert.match(
          e.message,
          /the status of queued request r1 asked to wait Retry-After 12 s, longer than the suite's bound of 10 s \(CONFORMANCE_RETRY_AFTER_MAX_MS raises it\)/,
        );
        return true;
      },
    );
    assert.equal(waits.length, 1, 'a Retry-After over the ceiling is not waited');
    setVar('CONFORMANCE_RETRY_AFTER_MAX_MS', undefined);
    await honourRetryAfter(12, { sleep, ceilingMs: runConfig().bounds.retryAfterMaxMs });
    assert.equal(waits.length, 2, 'the default ceiling (60 s) honours 12 s');
  } finally {
    setVar('CONFORMANCE_RETRY_AFTER_MAX_MS', before);
  }
});

test('a queued router request whose poll asks Retry-After 12 s, over the ceiling, ends error naming the variable, not a broken rule', async () => {
  setVar('CONFORMANCE_RETRY_AFTER_MAX_MS', '10000');
  try {
    const handle = {
      request_id: 'r1',
      status: 'IN_QUEUE',
      status_url: 'http://127.0.0.1:1/s',
      response_url: 'http://127.0.0.1:1/r',
      cancel_url: 'http://127.0.0.1:1/c',
    };
    const api = {
      bounds: runConfig().bounds,
      follow: async () =>
        answer('getRequestStatus', 200, { ...handle, status: 'IN_PROGRESS' }, { 'retry-after': '12' }),
    } as unknown as Api;
    const started = Date.now();
    const got = await outcomes(DECLARED, () => untilCompleted(api, handle));
    assert.ok(Date.now() - started < 2000, 'nothing waited');
    assert.deepEqual(got.broken, []);
    assert.equal(got.blocked.length, 1);
    assert.match(
      got.blocked[0],
      /Retry-After 12 s, longer than the suite's bound of 10 s \(CONFORMANCE_RETRY_AFTER_MAX_MS raises it\)/,
    );
  } finally {
    setVar('CONFORMANCE_RETRY_AFTER_MAX_MS', undefined);
  }
});

test('a queued request slower than the job deadline ends error naming CONFORMANCE_JOB_DEADLINE_MS', async () => {
  const handle = {
    request_id: 'r2',
    status: 'IN_QUEUE',
    status_url: 'http://127.0.0.1:1/s',
    response_url: 'http://127.0.0.1:1/r',
    cancel_url: 'http://127.0.0.1:1/c',
  };
  const api = {
    bounds: runConfig().bounds,
    follow: async () => answer('getRequestStatus', 200, { ...handle, status: 'IN_PROGRESS' }, { 'retry-after': '1' }),
  } as unknown as Api;
  const got = await outcomes(DECLARED, () => untilCompleted(api, handle));
  assert.deepEqual(got.broken, []);
  assert.match(
    got.blocked[0],
    /queued request r2 did not complete .* within the suite's bound of 0\.3 s \(CONFORMANCE_JOB_DEADLINE_MS raises it\)/,
  );
});

test('a v2 job slower than the deadline set through CONFORMANCE_JOB_DEADLINE_MS ends error naming it, not a broken V2.JOB.POLL_FIRST', async () => {
  assert.equal(runConfig().bounds.jobDeadlineMs, 300);
  const job = {
    id: 'j1',
    status: 'running',
    expires_at: '',
    outputs: [],
    error: null,
    urls: { self: 'http://127.0.0.1:1/api/v2/jobs/j1', events: '', cancel: '' },
  };
  let reads = 0;
  const api = {
    target: { scenario: {} },
    bounds: runConfig().bounds,
    follow: async () => (reads++, answer('getJob', 200, job)),
  } as unknown as Api;
  const got = await outcomes(DECLARED, () => pollToEnd(api, job));
  assert.ok(reads > 0);
  assert.deepEqual(got.broken, []);
  assert.equal(got.blocked.length, 1, 'the declared rule is left unjudged (the cell reads error)');
  assert.match(
    got.blocked[0],
    /job j1 did not finish \(still running\) within the suite's bound of 0\.3 s \(CONFORMANCE_JOB_DEADLINE_MS raises it\)/,
  );
});

test('a v1 prompt still in flight at the deadline ends error naming CONFORMANCE_JOB_DEADLINE_MS, not a broken V1.STATUS.TERMINAL', async () => {
  const api = {
    as: () => api,
    bounds: runConfig().bounds,
    call: async () => answer('getJobStatus', 200, { status: 'executing' }),
  } as unknown as Api;
  const v1 = new V1Client(
    api,
    { surface: 'cloud', baseUrl: 'http://127.0.0.1:1', brand: 'Comfy', scenario: {}, capabilities: {} } as never,
    'key',
  );
  const got = await outcomes(DECLARED, () => v1.pollToTerminal('p1'));
  assert.deepEqual(got.broken, []);
  assert.match(
    got.blocked[0],
    /prompt p1 did not reach a terminal status .* within the suite's bound of 0\.3 s \(CONFORMANCE_JOB_DEADLINE_MS raises it\)/,
  );
});

test('a live event stream that stays open after its terminal event is read up to that event, not until the server closes it', async () => {
  const terminal = new Set(['succeeded', 'failed', 'canceled', 'expired']);
  // Writes two status events, the second terminal, then keeps the stream open for good; a
  // second path never sends a terminal one.
  const server = http.createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write('event: status\ndata: {"status":"running"}\n\n');
    if (req.url === '/ends') setTimeout(() => res.write('event: status\ndata: {"status":"succeeded"}\n\n'), 50);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    const started = Date.now();
    const res = await send({
      method: 'GET',
      url: `${base}/ends`,
      headers: {},
      timeoutMs: 5000,
      maxBodyBytes: 65_536,
      boundVariable: 'CONFORMANCE_JOB_DEADLINE_MS',
      readUntil: (b) => reachedStatus(b, terminal),
    });
    assert.ok(Date.now() - started < 2000, `the read ended at the terminal event (${Date.now() - started} ms)`);
    assert.match(res.body.toString(), /"succeeded"/);
    // A frame not closed yet by its blank line does not end the read.
    assert.equal(reachedStatus('event: status\ndata: {"status":"succeeded"}\n', terminal), false);
    await assert.rejects(
      send({
        method: 'GET',
        url: `${base}/never`,
        headers: {},
        timeoutMs: 300,
        maxBodyBytes: 65_536,
        boundVariable: 'CONFORMANCE_JOB_DEADLINE_MS',
        readUntil: (b) => reachedStatus(b, terminal),
      }),
      (e: unknown) => {
        assert.ok(e instanceof SuiteBound, String(e));
        assert.match(
          e.message,
          new RegExp(
            /status 200 arrived but the stream did not reach the event the suite reads it up to /.source +
              /within the suite's bound of 0\.3 s \(CONFORMANCE_JOB_DEADLINE_MS raises it\)/.source,
          ),
        );
        return true;
      },
    );
  } finally {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  }
});

test('the runs spent looking for a router 429 are a scenario input: a burst with no 429 ends error naming rate_limit_max_runs, not a broken rule', async () => {
  const { rateLimitMaxRuns, RATE_LIMIT_MAX_RUNS } = await import('../../lib/router/limits.ts');
  const { SuiteCountBound } = await import('../../lib/violations.ts');
  assert.equal(rateLimitMaxRuns({}), 20, 'a modest default');
  assert.equal(rateLimitMaxRuns({ rate_limit_allowance: 5 }), 15, 'twice a stated allowance plus 5');
  assert.equal(rateLimitMaxRuns({ rate_limit_allowance: 100 }), 20, 'never above the default unless asked');
  assert.equal(rateLimitMaxRuns({ rate_limit_allowance: 100, rate_limit_max_runs: 250 }), 250);
  assert.throws(() => rateLimitMaxRuns({ rate_limit_max_runs: 'many' }), /rate_limit_max_runs must be a whole number/);
  const got = await outcomes(DECLARED, async () => {
    throw new SuiteCountBound(
      '15 rapid runs of a/b were never refused 429',
      15,
      'runs',
      `scenario input ${RATE_LIMIT_MAX_RUNS}`,
    );
  });
  assert.deepEqual(got.broken, []);
  assert.match(
    got.blocked[0],
    /15 rapid runs of a\/b were never refused 429 within the suite's bound of 15 runs \(scenario input rate_limit_max_runs raises it\)/,
  );
});
