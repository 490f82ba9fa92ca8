// The user's mistakes, caught in seconds and named as such (issue #15): a refused
// credential, an unset token_env, a busy reference port, a run that cannot start, and a
// target that stops answering mid-run. Each ends with verdict `error` and one message,
// never a rule failure, and never leaves the last run's pass behind.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { failedRules, runSuite } from '../support/run-suite.ts';
import { freePortBase } from '../support/ports.ts';
import { startHostileServer, type HostileServer } from '../support/hostile-server.ts';

let hostile: HostileServer;
before(async () => {
  hostile = await startHostileServer();
});
after(() => hostile.close());

const SMALL = ['--project=v2-cloud', 'specs/v2/errors.spec.ts'];

async function timed(opts: Parameters<typeof runSuite>[0]) {
  const started = Date.now();
  const run = await runSuite({ timeoutMs: 180_000, ...opts });
  return { ...run, wallMs: Date.now() - started };
}

test('a wrong key for the cloud surface: verdict error within 20 s, one message naming the surface and the variable, no rule failed', async () => {
  const run = await timed({
    args: SMALL,
    env: { TARGET_SURFACE: 'cloud', TARGET_TOKEN: 'comfyui-not-a-key-0000000000' },
  });
  assert.ok(run.wallMs < 20_000, `took ${run.wallMs} ms`);
  assert.notEqual(run.exitCode, 0);
  assert.equal(run.report.summary.verdict, 'error');
  assert.equal(run.report.run_errors?.length, 1, run.output.slice(-2000));
  assert.match(
    run.report.run_errors[0],
    /the cloud surface refused the configured credential \(\$TARGET_TOKEN\): GET \/api\/v2\/assets\/<random id> answered 401/,
  );
  assert.ok(!run.output.includes('comfyui-not-a-key-0000000000'), 'the key is not echoed');
  assert.deepEqual(failedRules(run.report), [], 'a refused credential is never V2.AUTH.BEARER_KEY failing');
  assert.equal(run.report.tests.passed + run.report.tests.failed, 0, 'no test ran');
});

test('token_env naming an unset variable: verdict error at once, saying which variable', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'preflight-'));
  const file = path.join(dir, 'targets.yaml');
  writeFileSync(
    file,
    `targets:\n  mine:\n    surface: cloud\n    base_url: ${hostile.url('nonjson')}\n    token_env: PREFLIGHT_UNSET_KEY\n`,
  );
  const run = await timed({ args: SMALL, env: { TARGETS_FILE: file, TARGET: 'mine' } });
  assert.ok(run.wallMs < 20_000, `took ${run.wallMs} ms`);
  assert.notEqual(run.exitCode, 0);
  assert.equal(run.report.summary.verdict, 'error');
  assert.match(
    run.report.summary.reason ?? '',
    /targets\.mine\.token_env names \$PREFLIGHT_UNSET_KEY, which is not set/,
  );
  assert.equal(hostile.hits.get('nonjson') ?? 0, 0, 'nothing was sent');
});

test('after a passing run, a run that cannot start (TARGET=nonexistent) leaves no "verdict": "pass" behind', async () => {
  const reportsDir = mkdtempSync(path.join(os.tmpdir(), 'preflight-stale-'));
  writeFileSync(path.join(reportsDir, 'conformance.json'), JSON.stringify({ summary: { verdict: 'pass' }, rules: [] }));
  const run = await timed({ args: SMALL, env: { TARGET: 'nonexistent' }, reportsDir });
  assert.notEqual(run.exitCode, 0);
  const text = readFileSync(path.join(reportsDir, 'conformance.json'), 'utf8');
  assert.ok(!/"verdict":\s*"pass"/.test(text), text);
  assert.equal(run.report.summary.verdict, 'error');
  assert.match(run.report.summary.reason ?? '', /TARGET="nonexistent" is not in/);
});

test('an unknown --project: the old report is replaced by one saying the run did not finish', async () => {
  const reportsDir = mkdtempSync(path.join(os.tmpdir(), 'preflight-project-'));
  writeFileSync(path.join(reportsDir, 'conformance.json'), JSON.stringify({ summary: { verdict: 'pass' }, rules: [] }));
  const run = await timed({ args: ['--project=v9-nowhere'], reportsDir });
  assert.notEqual(run.exitCode, 0);
  assert.equal(run.report.summary.verdict, 'error');
  assert.match(run.report.summary.reason ?? '', /did not finish/);
});

test('a busy reference port: "port N is in use; set REFERENCE_PORT", not Playwright\'s reuseExistingServer advice', async () => {
  const base = await freePortBase();
  const squatter = net.createServer();
  await new Promise<void>((r) => squatter.listen(base + 2, '127.0.0.1', r));
  try {
    const run = await timed({ args: SMALL, env: { REFERENCE_PORT: String(base) } });
    assert.notEqual(run.exitCode, 0);
    assert.match(run.output, new RegExp(`port ${base + 2} is in use; set REFERENCE_PORT`));
    assert.ok(!run.output.includes('reuseExistingServer'), run.output.slice(-1500));
    assert.equal(run.report.summary.verdict, 'error');
  } finally {
    await new Promise<void>((r) => squatter.close(() => r()));
  }
});

test(
  'a target that answers the probe, then stalls on every API path: verdict error within a minute, ' +
    'headed by the path that hung; the tests after the breaker opens end at once',
  async () => {
    const run = await timed({
      args: [
        '--project=v2-local',
        'specs/v2/errors.spec.ts',
        'specs/v2/assets.spec.ts',
        'specs/v2/asset-ids.property.spec.ts',
      ],
      env: { TARGET_SURFACE: 'local', TARGET_BASE_URL: hostile.url('apihang') },
    });
    assert.ok(run.wallMs < 60_000, `took ${run.wallMs} ms`);
    assert.notEqual(run.exitCode, 0);
    assert.equal(
      run.report.summary.verdict,
      'error',
      `only errors: the server broke no rule (${run.report.summary.reason})`,
    );
    assert.match(
      run.report.summary.reason ?? '',
      /^target stopped answering at (GET|POST|HEAD|DELETE) \/apihang\/api\/v2\/\S*; \d+ rules could not be judged$/,
    );
    assert.ok(
      run.report.tests.skipped > run.report.tests.failed,
      `the tests after the breaker opened end before a worker is spent: ${JSON.stringify(run.report.tests)}`,
    );
    assert.doesNotMatch(
      run.output,
      /Property falsified|Counterexample/,
      'a stall inside a property is no counterexample',
    );
    assert.deepEqual(failedRules(run.report), []);
    const reasons = run.report.rules
      .map((r) => r.results.local?.reason ?? '')
      .filter((r) => r.includes('target stopped answering at'));
    assert.ok(reasons.length > 0, run.output.slice(-2000));
    assert.match(reasons[0], /target stopped answering at (GET|POST|HEAD|DELETE) \/apihang\/api\/v2\//);
  },
);
