// Every check can fail: for each fault in the reference's catalog, the suite run
// against that fault fails exactly the rule the fault breaks, and no other.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { SUITE_FAULTS } from '../../reference/faults.ts';
import { failedRules, ROOT, runSuite } from '../support/run-suite.ts';
import { ruleOrThrow } from '../../lib/rules.ts';
import type { Surface } from '../../lib/families.ts';
import { resolveTarget } from '../../lib/targets.ts';
import { buildSpecMap, selectionFor } from '../support/spec-map.ts';
import { recordScore } from '../support/score.ts';
import { MATRIX_CONCURRENCY, MATRIX_WORKERS } from '../support/concurrency.ts';

// A fault runs only against the specs of its rule's area (the spec files that name
// the rule, on the surfaces the rule applies to): the rest of the suite cannot see it,
// and the matrix stays fast as the catalog grows. FAULTS=name,name narrows the matrix
// further for a local re-run.
const referenceSurfaces = new Set<Surface>(resolveTarget({}).surfaces.map((s) => s.surface));
const map = buildSpecMap(ROOT);
const only = new Set((process.env.FAULTS ?? '').split(',').filter(Boolean));
const faults = SUITE_FAULTS.filter((f) => only.size === 0 || only.has(f.name));
// A fault that keeps jobs from ever finishing makes every poll wait out its deadline;
// no job can be seen to finish under it, so its run gives up after 2 s.
const RUN_ENV: Record<string, Record<string, string>> = { 'job-read-cached': { CONFORMANCE_JOB_DEADLINE_MS: '2000' } };

describe('each reference fault is caught by its rule, and only that rule', { concurrency: MATRIX_CONCURRENCY }, () => {
  for (const fault of faults) {
    test(`${fault.name} → ${fault.rule}`, async () => {
      const selection = selectionFor(fault.rule, referenceSurfaces, { root: ROOT, fault: fault.name, map });
      let caught = false;
      try {
        const run = await runSuite({ fault: fault.name, args: [...selection.projects, ...selection.files], workers: MATRIX_WORKERS, ...(RUN_ENV[fault.name] ? { env: RUN_ENV[fault.name] } : {}) });
        const failed = failedRules(run.report);
        assert.deepEqual(failed, [fault.rule], `fault ${fault.name} (${fault.description}) made these rules fail: ${failed.join(', ') || 'none'} [specs: ${selection.why}]\n${run.output.slice(-2000)}`);
        if (ruleOrThrow(fault.rule).level === 'MUST') {
          assert.notEqual(run.exitCode, 0, 'a failing MUST rule fails the run');
        } else {
          // A SHOULD failure is reported without failing the run (CONFORMANCE_STRICT=1 would fail it).
          assert.equal(run.exitCode, 0, `a SHOULD failure alone must not fail the run:\n${run.output.slice(-1500)}`);
          assert.deepEqual(run.report.summary.should_failed, [fault.rule]);
        }
        const cell = Object.values(run.report.rules.find((r) => r.id === fault.rule)!.results).find((c) => c?.status === 'fail');
        assert.ok(cell?.reason, 'the failure says what was expected and what came back');
        caught = true;
      } finally {
        recordScore({ kind: 'fault', name: fault.name, ok: caught });
      }
    });
  }
});
