// Every check can fail: for each fault in the reference's catalog, the suite run
// against that fault fails exactly the rule the fault breaks, and no other.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { SUITE_FAULTS } from '../../reference/faults.ts';
import { failedRules, runSuite } from '../support/run-suite.ts';
import { ruleOrThrow } from '../../fixtures/rules.ts';
import { familyOfRule, projectName, FAMILIES, type Surface } from '../../fixtures/families.ts';
import { resolveTarget } from '../../fixtures/targets.ts';

// A fault runs only against the projects of its rule's family (its area): the other
// families cannot see a fault in this one, and the matrix stays fast as it grows.
const referenceSurfaces = new Set<Surface>(resolveTarget({}).surfaces.map((s) => s.surface));
function projectsFor(rule: string): string[] {
  const family = familyOfRule(rule);
  if (!family) throw new Error(`rule ${rule} has no family`);
  return (FAMILIES[family] as readonly Surface[]).filter((s) => referenceSurfaces.has(s)).map((s) => `--project=${projectName(family, s)}`);
}

describe('each reference fault is caught by its rule, and only that rule', { concurrency: 2 }, () => {
  for (const fault of SUITE_FAULTS) {
    test(`${fault.name} → ${fault.rule}`, async () => {
      const run = await runSuite({ fault: fault.name, args: projectsFor(fault.rule) });
      const failed = failedRules(run.report);
      assert.deepEqual(failed, [fault.rule], `fault ${fault.name} (${fault.description}) made these rules fail: ${failed.join(', ') || 'none'}\n${run.output.slice(-2000)}`);
      if (ruleOrThrow(fault.rule).level === 'MUST') {
        assert.notEqual(run.exitCode, 0, 'a failing MUST rule fails the run');
      } else {
        // A SHOULD failure is reported without failing the run (CONFORMANCE_STRICT=1 would fail it).
        assert.equal(run.exitCode, 0, `a SHOULD failure alone must not fail the run:\n${run.output.slice(-1500)}`);
        assert.deepEqual(run.report.summary.should_failed, [fault.rule]);
      }
      const cell = Object.values(run.report.rules.find((r) => r.id === fault.rule)!.results).find((c) => c?.status === 'fail');
      assert.ok(cell?.reason, 'the failure says what was expected and what came back');
    });
  }
});
