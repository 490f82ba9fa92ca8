// The suite against a correct reference: every rule it can judge passes on evidence (at
// least one check of it ran and held), nothing errors, and every rule it does not judge
// says why. Prints the self-test figures the user report no longer carries: the rules
// that no reference fault proves yet.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { failedRules, rulesWith, runSuite } from '../support/run-suite.ts';
import { assertJudgedOnEvidence } from '../support/judged.ts';
import { rulesWithoutFault } from '../support/fault-coverage.ts';

test('the suite passes the correct reference on evidence, with a reason for every rule it does not judge', async () => {
  const run = await runSuite();
  const { report } = run;
  assert.deepEqual(failedRules(report), [], `rules failed on the correct reference:\n${run.output.slice(-3000)}`);
  assert.deepEqual(rulesWith(report, 'error'), [], `rules the suite could not judge:\n${JSON.stringify(report.summary, null, 2)}`);
  assert.deepEqual(report.unplaced, []);
  assert.equal(report.summary.verdict, 'pass');
  assert.equal(run.exitCode, 0, run.output.slice(-3000));
  assertJudgedOnEvidence(report, 'the reference');
  const without = rulesWithoutFault(report.rules);
  console.log(`rules without a reference fault (${without.length}): ${without.map((r) => r.id).join(', ') || 'none'}`);
});
