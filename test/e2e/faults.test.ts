// Every check can fail: for each fault in the reference's catalog, the suite run
// against that fault fails exactly the rule the fault breaks, and no other.
//
// Faults run in one Playwright invocation, each against its own reference
// (test/support/harness/), on the tests that declare its rule, as Playwright's listing
// shows them (test/support/spec-map.ts; where no test declares it, the whole family).
// FAULTS=name,name narrows the matrix for a local re-run.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { SUITE_FAULTS, type FaultInfo } from '../../reference/faults.ts';
import { CONTROLS, type ControlInfo } from '../../reference/controls.ts';
import { failedRules, ROOT } from '../support/run-suite.ts';
import { ruleOrThrow } from '../../lib/rules.ts';
import type { Surface } from '../../lib/families.ts';
import { resolveTarget } from '../../lib/targets.ts';
import { selectionFor, specMap, testsOf, type SpecSelection } from '../support/spec-map.ts';
import { recordScore } from '../support/score.ts';
import { MATRIX_WORKERS } from '../support/concurrency.ts';
import { runCases, type HarnessRun } from '../support/harness/run.ts';

const referenceSurfaces = new Set<Surface>(resolveTarget({}).surfaces.map((s) => s.surface));
const map = await specMap(ROOT);
const only = new Set((process.env.FAULTS ?? '').split(',').filter(Boolean));
const faults = SUITE_FAULTS.filter((f) => only.size === 0 || only.has(f.name));
const selections = new Map<string, SpecSelection>(
  faults.map((f) => [
    f.name,
    selectionFor(f.breaks, referenceSurfaces, { map, ...(f.seenBy ? { seenBy: f.seenBy } : {}) }),
  ]),
);

// Every fault in one run (test/support/harness/): each
// fault's tests reach its own reference; a fault's test awaits the run.
let matrixRun: Promise<HarnessRun> | undefined;
const matrix = () =>
  (matrixRun ??= runCases(
    faults.map((f) => ({
      id: f.name,
      fault: f.name,
      ...(f.under ? { controls: [f.under] } : {}),
      tests: testsOf(selections.get(f.name)!, map),
    })),
    { workers: MATRIX_WORKERS },
  ).then((r) => {
    console.log(
      `fault matrix: ${faults.length} faults, ${r.projects} Playwright projects, ${r.referenceStarts} references started`,
    );
    return r;
  }));

interface Judged {
  failed: string[];
  /** Whether the run as a whole would fail (a MUST failure or an error). */
  runFails: boolean;
  shouldFailed: string[];
  reason?: string;
  output: string;
}

async function judgedRun(fault: FaultInfo): Promise<Judged> {
  const r = await matrix();
  assert.deepEqual(r.runErrors, [], 'errors outside any test of the fault matrix');
  const report = r.reports.get(fault.name)!;
  const cell = Object.values(report.rules.find((r) => r.id === fault.breaks)?.results ?? {}).find(
    (c) => c?.status === 'fail',
  );
  return {
    failed: failedRules(report),
    runFails: report.summary.verdict !== 'pass',
    shouldFailed: report.summary.should_failed,
    ...(cell?.reason ? { reason: cell.reason } : {}),
    output: `${report.tests} tests; ${report.output.slice(-2000)}`,
  };
}

describe('each reference fault is caught by its rule, and only that rule', { concurrency: true }, () => {
  for (const fault of faults) {
    test(`${fault.name} → ${fault.breaks}`, async () => {
      let caught = false;
      try {
        const run = await judgedRun(fault);
        const sel = selections.get(fault.name)!;
        // A fault installed on a control: the SHOULD rules that control departs from fail too, as it means them to.
        const departed = new Set<string>(
          (CONTROLS as ReadonlyArray<ControlInfo>).find((c) => c.name === fault.under)?.departsFrom ?? [],
        );
        const proves = fault.statements?.length
          ? ` (it stands for seed statement${fault.statements.length > 1 ? 's' : ''} ${fault.statements.join(', ')}, left unproven when it is missed)`
          : '';
        assert.deepEqual(
          run.failed.filter((r) => !departed.has(r)),
          [fault.breaks],
          `fault ${fault.name} (${fault.description})${proves} made these rules fail: ${run.failed.join(', ') || 'none'} [specs: ${sel.why}]\n${run.output}`,
        );
        if (ruleOrThrow(fault.breaks).level === 'MUST') {
          assert.ok(run.runFails, 'a failing MUST rule fails the run');
        } else {
          // A SHOULD failure is reported without failing the run (CONFORMANCE_STRICT=1 would fail it).
          assert.ok(!run.runFails, `a SHOULD failure alone must not fail the run:\n${run.output}`);
          assert.deepEqual(run.shouldFailed, [fault.breaks]);
        }
        assert.ok(run.reason, 'the failure says what was expected and what came back');
        caught = true;
      } finally {
        recordScore({ kind: 'fault', name: fault.name, ok: caught });
      }
    });
  }
});
