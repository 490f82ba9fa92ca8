// What a clean run against a correct server must show beyond "nothing failed": every pass
// stands on a check that held, and the rules that have checks were really judged. Shared
// by the reference run and the control runs, so neither can pass on a handful of tests.
import assert from 'node:assert/strict';
import { loadRules } from '../../lib/rules.ts';
import { familyOfRule, type Family } from '../../lib/families.ts';
import type { ConformanceReport } from '../../report/report.ts';

/**
 * `families`: the families the run covered (default: all); rules of the others are not expected to pass.
 * `departed`: SHOULD rules the run was meant to fail (a control's departsFrom), not expected to pass either.
 */
export function assertJudgedOnEvidence(report: Pick<ConformanceReport, 'rules'>, label: string, families?: readonly Family[], departed: readonly string[] = []): void {
  const catalog = loadRules();
  const unjudged: string[] = [];
  for (const rule of report.rules) {
    for (const [surface, cell] of Object.entries(rule.results)) {
      if (!cell) continue;
      if (cell.status === 'pass') assert.ok((cell.evidence?.held ?? 0) >= 1, `${label}: ${rule.id} on ${surface} passed without a check that held`);
      else assert.ok(cell.reason && cell.reason.length > 10, `${label}: ${rule.id} on ${surface} is ${cell.status} without a reason`);
      if (cell.status === 'not_covered' && !catalog.get(rule.id)?.not_covered) unjudged.push(`${rule.id} on ${surface}: ${cell.reason}`);
    }
  }
  assert.deepEqual(unjudged, [], `${label}: rules with a check that no check judged`);
  const passing = report.rules.filter((r) => Object.values(r.results).some((c) => c?.status === 'pass')).length;
  const judgeable = [...catalog.values()].filter((r) => !r.not_covered && !r.id.startsWith('LOAD.') && !departed.includes(r.id) && (!families || families.includes(familyOfRule(r.id)!))).length;
  // A few rules need a scenario input only some surfaces have; every other rule passes somewhere.
  assert.ok(passing >= judgeable - 2, `${label}: only ${passing} of ${judgeable} judgeable rules passed anywhere`);
}
