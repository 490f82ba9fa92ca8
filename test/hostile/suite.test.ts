// The real suite (npx playwright test) aimed at broken targets: it ends in bounded
// time with a non-zero exit, says clearly what went wrong, and the conformance report
// keeps the outcomes apart: a server's broken contract is a failure, an exchange the
// suite could not complete is an error, an unreachable target is a run error.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { failedRules, rulesWith, runSuite } from '../support/run-suite.ts';
import { startHostileServer, type HostileServer } from '../support/hostile-server.ts';

let hostile: HostileServer;
before(async () => {
  hostile = await startHostileServer();
});
after(() => hostile.close());

// One small spec on one project keeps each run to seconds.
const ARGS = ['--project=v2-local', 'specs/v2/errors.spec.ts', '--timeout=20000'];
const BOUND_MS = 60_000;

async function timed(env: Record<string, string>) {
  const started = Date.now();
  const run = await runSuite({ args: ARGS, env, timeoutMs: BOUND_MS + 30_000 });
  return { ...run, wallMs: Date.now() - started };
}

test('a target that is not listening: one message naming the target and URL, and the run is an error, not a verdict on conformance', async () => {
  const probe = http.createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(probe.address() as AddressInfo).port}`;
  await new Promise<void>((r) => probe.close(() => r()));

  const run = await timed({ TARGET_SURFACE: 'local', TARGET_BASE_URL: base });
  assert.ok(run.wallMs < BOUND_MS, `took ${run.wallMs} ms`);
  assert.notEqual(run.exitCode, 0);
  const message = `target "adhoc" is not reachable, so no test was run:\n  local at ${base}: nothing listens there (connection refused)`;
  assert.ok(run.output.includes(message), `the console shows the one message:\n${run.output.slice(-2000)}`);
  assert.equal(
    run.output.split('not reachable').length - 1,
    1,
    `exactly one message, not one per test:\n${run.output.slice(-2000)}`,
  );
  assert.equal(run.report.summary.verdict, 'error');
  assert.ok(run.report.run_errors?.some((e) => e.includes(message)));
  assert.deepEqual(failedRules(run.report), [], 'an unreachable target is never a conformance failure');
  assert.deepEqual(rulesWith(run.report, 'pass'), [], 'nor a pass');
  const local = run.report.rules.filter((r) => r.results.local && r.results.local.status !== 'not_covered');
  assert.ok(
    local.length > 0 && local.every((r) => r.results.local!.status === 'error'),
    'every judgeable cell of the target is an error, not skipped',
  );
});

test('non-JSON where JSON is declared: the run fails on the body contract, quickly', async () => {
  const run = await timed({ TARGET_SURFACE: 'local', TARGET_BASE_URL: hostile.url('nonjson') });
  assert.ok(run.wallMs < BOUND_MS, `took ${run.wallMs} ms`);
  assert.notEqual(run.exitCode, 0);
  assert.equal(run.report.summary.verdict, 'fail');
  // The rule is the body contract of the operation that answered (getAsset 200: its fields rule).
  // The same answers' 200 to a submit is also a status the public documents do not give that
  // operation: V2.CONTRACT.DOCUMENTED (SHOULD) may say that first, whichever test met it first.
  const failed = failedRules(run.report);
  assert.ok(failed.length > 0, run.output.slice(-2000));
  for (const id of failed)
    assert.match(
      run.report.rules.find((r) => r.id === id)!.results.local!.reason ?? '',
      id === 'V2.CONTRACT.DOCUMENTED' ? /body is not JSON|a status its contract does not declare/ : /body is not JSON/,
      id,
    );
  assert.ok(
    failed.some((id) => id !== 'V2.CONTRACT.DOCUMENTED'),
    `a MUST body contract fails too: ${failed.join(', ')}`,
  );
  assert.equal(run.report.run_errors, undefined);
});

test('headers then a stalled body: each exchange ends at CONFORMANCE_HTTP_TIMEOUT_MS and the rules are errors, not failures', async () => {
  const run = await timed({
    TARGET_SURFACE: 'local',
    TARGET_BASE_URL: hostile.url('stall'),
    CONFORMANCE_HTTP_TIMEOUT_MS: '1000',
  });
  assert.ok(run.wallMs < BOUND_MS, `took ${run.wallMs} ms`);
  assert.notEqual(run.exitCode, 0);
  assert.deepEqual(failedRules(run.report), [], 'a stalled exchange is not the rule failing');
  const errors = rulesWith(run.report, 'error');
  assert.ok(errors.includes('V2.ERR.ENVELOPE'), `rules in error: ${errors.join(', ')}`);
  const cell = run.report.rules.find((r) => r.id === 'V2.ERR.ENVELOPE')!.results.local!;
  assert.match(cell.reason ?? '', /body not complete within 1000 ms/);
});

test('a target that accepts connections but never answers: one message after the probe bound, and the run is an error', async () => {
  const run = await timed({
    TARGET_SURFACE: 'local',
    TARGET_BASE_URL: hostile.url('hang'),
    CONFORMANCE_PROBE_TIMEOUT_MS: '1000',
  });
  assert.ok(run.wallMs < BOUND_MS, `took ${run.wallMs} ms`);
  assert.notEqual(run.exitCode, 0);
  assert.ok(
    run.output.includes(`local at ${hostile.url('hang')}: no response headers within 1000 ms`),
    run.output.slice(-2000),
  );
  assert.equal(run.report.summary.verdict, 'error');
  assert.deepEqual(failedRules(run.report), []);
  assert.equal(run.report.tests.passed + run.report.tests.failed, 0, 'no test ran against it');
});
