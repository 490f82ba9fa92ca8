// What a clean run against a correct server must show beyond "nothing failed": every pass
// stands on a check that held, and the rules that have checks were really judged. Shared
// by the reference run and the control runs, so neither can pass on a handful of tests.
import assert from 'node:assert/strict';
import { loadRules } from '../../lib/rules.ts';
import { familyOfRule, type Family, type Surface } from '../../lib/families.ts';
import type { ConformanceReport } from '../../report/report.ts';

type Rows = Pick<ConformanceReport, 'rules'>;

export interface JudgedScope {
  /** The families the run covered (default: all); rules of the others are not expected to pass. */
  families?: readonly Family[] | undefined;
  /** The surfaces the run covered (default: all); only these cells are compared. */
  surfaces?: readonly Surface[] | undefined;
  /** SHOULD rules the run was meant to fail (a control's departsFrom), not expected to pass either. */
  departed?: readonly string[];
  /** Rules the run is meant to leave unjudged (a control's leavesUnjudged): exactly these may be lost against the baseline. */
  leavesUnjudged?: readonly string[];
  /**
   * The plain reference's run: every rule of the scope's families it passes on the scope's
   * surfaces must pass here too. Without one, all but two judgeable rules must pass (a few
   * need a scenario input only some surfaces have).
   */
  baseline?: Rows;
  /**
   * The run left some projects out on purpose (the cassette's one project per surface): a
   * rule whose every cell reads not run is not counted among the judgeable. The plain
   * reference's run never sets it, so a project it failed to run still fails it.
   */
  onlyWhereRun?: boolean;
}

/** Rules passing on at least one of `surfaces` (all, when absent). */
function passingOn(report: Rows, surfaces: readonly Surface[] | undefined): Set<string> {
  const on = (s: string) => !surfaces || (surfaces as readonly string[]).includes(s);
  return new Set(
    report.rules
      .filter((r) => Object.entries(r.results).some(([s, c]) => on(s) && c?.status === 'pass'))
      .map((r) => r.id),
  );
}

const cellsOf = (report: Rows, id: string): string =>
  Object.entries(report.rules.find((x) => x.id === id)?.results ?? {})
    .filter(([, c]) => c?.status !== 'not_run')
    .map(([s, c]) => `${s}: ${c?.status} ${String(c?.reason ?? '').slice(0, 100)}`)
    .join('; ');

export function assertJudgedOnEvidence(report: Rows, label: string, scope: JudgedScope = {}): void {
  const { families, surfaces, departed = [], baseline, leavesUnjudged = [], onlyWhereRun = false } = scope;
  const catalog = loadRules();
  const unjudged: string[] = [];
  for (const rule of report.rules) {
    for (const [surface, cell] of Object.entries(rule.results)) {
      if (!cell) continue;
      if (cell.status === 'pass')
        assert.ok(
          (cell.evidence?.held ?? 0) >= 1,
          `${label}: ${rule.id} on ${surface} passed without a check that held`,
        );
      else
        assert.ok(
          cell.reason && cell.reason.length > 10,
          `${label}: ${rule.id} on ${surface} is ${cell.status} without a reason`,
        );
      if (cell.status === 'not_covered' && !catalog.get(rule.id)?.not_covered)
        unjudged.push(`${rule.id} on ${surface}: ${cell.reason}`);
    }
  }
  assert.deepEqual(unjudged, [], `${label}: rules with a check that no check judged`);
  const passed = passingOn(report, surfaces);
  if (baseline) {
    const lost = [...passingOn(baseline, surfaces)].filter(
      (id) => !passed.has(id) && !departed.includes(id) && (!families || families.includes(familyOfRule(id)!)),
    );
    const unexpected = lost.filter((id) => !leavesUnjudged.includes(id)).map((id) => `${id} (${cellsOf(report, id)})`);
    assert.deepEqual(
      unexpected,
      [],
      `${label}: rules the plain reference passes on ${surfaces?.join(', ') ?? 'every surface'} that did not pass here`,
    );
    assert.deepEqual(
      lost.filter((id) => leavesUnjudged.includes(id)).sort(),
      [...leavesUnjudged].sort(),
      `${label}: the rules it is said to leave unjudged, each left so`,
    );
    return;
  }
  const ran = (id: string) =>
    Object.values(report.rules.find((x) => x.id === id)?.results ?? {}).some((c) => c && c.status !== 'not_run');
  const judgeable = [...catalog.values()].filter(
    (r) =>
      (!onlyWhereRun || ran(r.id)) &&
      !r.not_covered &&
      !r.id.startsWith('LOAD.') &&
      !departed.includes(r.id) &&
      (!families || families.includes(familyOfRule(r.id)!)) &&
      (!surfaces || r.surfaces.some((s) => surfaces.includes(s))),
  );
  const notPassed = judgeable.filter((r) => !passed.has(r.id)).map((r) => `${r.id} (${cellsOf(report, r.id)})`);
  assert.ok(
    notPassed.length <= 2,
    `${label}: only ${judgeable.length - notPassed.length} of ${judgeable.length} judgeable rules passed anywhere; not passed:\n${notPassed.join('\n')}`,
  );
}
