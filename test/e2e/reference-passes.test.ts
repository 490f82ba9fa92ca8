// The suite against a correct reference: every rule it can judge passes, nothing
// errors, and every rule it cannot judge says why.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { failedRules, rulesWith, runSuite } from '../support/run-suite.ts';

test('the suite passes the correct reference, with a reason for every rule it does not judge', async () => {
  const run = await runSuite();
  const { report } = run;
  assert.deepEqual(failedRules(report), [], `rules failed on the correct reference:\n${run.output.slice(-3000)}`);
  assert.deepEqual(rulesWith(report, 'error'), [], `rules the suite could not judge:\n${JSON.stringify(report.summary, null, 2)}`);
  assert.deepEqual(report.unplaced, []);
  assert.equal(report.summary.verdict, 'pass');
  assert.equal(run.exitCode, 0, run.output.slice(-3000));
  for (const rule of report.rules) {
    for (const [surface, cell] of Object.entries(rule.results)) {
      if (cell && cell.status !== 'pass') assert.ok(cell.reason && cell.reason.length > 10, `${rule.id} on ${surface} is ${cell.status} without a reason`);
    }
  }
  assert.ok(report.coverage.operations.exercised >= 6, `operations exercised: ${report.coverage.operations.exercised}`);
  assert.ok(report.tests.passed > 30, `tests passed: ${report.tests.passed}`);
});
