// A target that does not speak the API at all (a web page to every request, as a
// misrouted proxy or the wrong port gives) is judged in seconds, not minutes: the first
// exchanges fail their body contract, then the run ends early with that one finding; the
// rest of the target's rules are "not judged" naming it, never one red test each.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { failedRules, runSuite } from '../support/run-suite.ts';
import { startHostileServer, type HostileServer } from '../support/hostile-server.ts';

let hostile: HostileServer;
before(async () => {
  hostile = await startHostileServer();
});
after(() => hostile.close());

test('a target answering HTML to everything ends early with one finding: it does not speak the API', async () => {
  const started = Date.now();
  hostile.hits.clear();
  // The whole v2-local project: 122 s and 45 red tests before the run learned to stop.
  const run = await runSuite({
    args: ['--project=v2-local'],
    env: { TARGET_SURFACE: 'local', TARGET_BASE_URL: hostile.url('html') },
    timeoutMs: 300_000,
  });
  const wallMs = Date.now() - started;
  assert.notEqual(run.exitCode, 0);
  const seen = JSON.stringify(
    { summary: run.report.summary, run_errors: run.report.run_errors, output: run.output.slice(-1500) },
    null,
    1,
  );
  assert.equal(run.report.summary.verdict, 'fail', seen);
  assert.match(run.report.summary.reason ?? '', /^the target does not speak the API: .*text\/html/, seen);
  assert.ok(failedRules(run.report).length > 0, 'the first answers are failures of their body contract');
  // The rest ended at once, as rules not judged for that reason, not as red tests.
  assert.ok(run.report.tests.failed <= 12, `${run.report.tests.failed} red tests`);
  const notJudged = run.report.rules.filter(
    (r) => r.results.local?.status === 'error' && /does not speak the API/.test(r.results.local.reason ?? ''),
  );
  assert.ok(notJudged.length > 10, `rules not judged for that reason: ${notJudged.length}`);
  // Early in requests, which a busy machine does not change: a few answers, not one run of every test.
  assert.ok((hostile.hits.get('html') ?? 0) < 60, `the target was asked ${hostile.hits.get('html')} times`);
  assert.ok(wallMs < 240_000, `took ${wallMs} ms`);
});
