// Which seed statements this run proved (contracts/seed-trace.yaml joined to the matrix and
// to lib/seeds/proofs.ts). Each testable statement of the run's seeds lands in exactly one
// place, so the line cannot say more than the checks do:
//   proven            judged here (a pass or fail cell) by a MUST rule, and broken by a
//                     fault the self-test catches under a rule judged here;
//   at SHOULD only    judged here, by SHOULD rules alone;
//   judged, unproven  judged here at MUST, but no fault proves that check can fail;
//   not judged here   its rules reached no verdict: a scenario input the target did not
//                     give (named, with how many statements it would add), another
//                     surface, an error, or not covered;
//   gap               observable, no rule judges it yet.
// Introductions, definitions and "not shown" lines (informative) and what a client alone
// can see (untestable) are not testable and are counted apart. Only the seeds of the run's
// surfaces count: a router-only run says nothing of the workflow document, and the other
// way round.
import type { Surface } from '../lib/families.ts';
import type { SeedLetter } from '../lib/seeds/statements.ts';
import { STATEMENT_PROOFS } from '../lib/seeds/proofs.ts';
import type { TraceEntry } from '../lib/seeds/trace.ts';
import { isJudged, type Cell, type RuleRow } from './matrix.ts';

const SEED_SURFACES: Record<SeedLetter, readonly Surface[]> = {
  W: ['local', 'cloud', 'serverless', 'registry'],
  R: ['router'],
};

export interface UnjudgedStatement {
  at: string;
  section: string;
  says: string;
  /** gap, or why its rules have no verdict here (no scenario input, not on this surface, not covered), or why a judged one is not proven. */
  why: string;
}

export interface SeedCoverage {
  /** The surfaces whose seeds are counted (the run's conformance surfaces; a load join keeps them). */
  surfaces?: Surface[];
  /** Statements of the run's seeds that state something (informative ones left out). */
  statements: number;
  /** statements - untestable: proven + should_only + unproven + not_judged_here + gaps. */
  testable?: number;
  /** Judged here (pass or fail) by any rule: proven + should_only + unproven. */
  judged: number;
  proven?: number;
  should_only?: number;
  /** Judged here at MUST with no fault that proves the check can fail. */
  unproven?: number;
  untestable: number;
  gaps: number;
  /** Statements with rules, none of which reached a verdict in this run. */
  not_judged_here: number;
  /** Of the statements not judged here, those a rule skipped for want of a scenario input. */
  need_inputs?: number;
  /** Scenario input -> how many of the statements not judged here a rule skipped for want of it would judge. */
  needs_inputs?: Record<string, number>;
  not_judged: UnjudgedStatement[];
  /** Judged, but at SHOULD only or with no fault proving the check (why says which). */
  not_proven?: UnjudgedStatement[];
}

/** The scenario inputs a cell's reason names (fixtures/test.ts and lib/check.ts write `scenario input "name"` / `scenario input name`). */
export function inputsNamed(reason: string | undefined): string[] {
  return [...new Set([...(reason ?? '').matchAll(/scenario input "?([a-z][a-z0-9_]*)"?/g)].map((m) => m[1]))];
}

const cellsOn = (r: RuleRow, surfaces: Set<Surface>): Cell[] =>
  (Object.entries(r.results) as Array<[Surface, Cell]>).filter(([s]) => surfaces.has(s)).map(([, c]) => c);

function whyUnjudged(rules: RuleRow[], surfaces: Set<Surface>): string {
  const reasons = rules.flatMap((r) =>
    cellsOn(r, surfaces)
      .filter((c) => !isJudged(c))
      .map((c) => `${r.id} ${c.status.replace('_', ' ')}${c.reason ? `: ${c.reason}` : ''}`),
  );
  if (reasons.length === 0)
    return `not on this run's surfaces (its rules apply to ${[...new Set(rules.flatMap((r) => Object.keys(r.results)))].join(', ') || 'none'})`;
  return [...new Set(reasons)].slice(0, 3).join('; ');
}

export function seedCoverage(
  trace: TraceEntry[],
  rows: RuleRow[],
  surfacesRun: Set<Surface>,
  proofs: Readonly<Record<string, ReadonlyArray<{ rule: string }>>> = STATEMENT_PROOFS,
): SeedCoverage {
  const byId = new Map(rows.map((r) => [r.id, r]));
  const inRun = trace.filter((e) => SEED_SURFACES[e.seed].some((s) => surfacesRun.has(s)) && e.kind !== 'informative');
  const cov: Required<SeedCoverage> = {
    surfaces: [...surfacesRun].sort(),
    statements: inRun.length,
    testable: 0,
    judged: 0,
    proven: 0,
    should_only: 0,
    unproven: 0,
    untestable: 0,
    gaps: 0,
    not_judged_here: 0,
    need_inputs: 0,
    needs_inputs: {},
    not_judged: [],
    not_proven: [],
  };
  for (const e of inRun) {
    const at = `${e.seed}:${e.line}:${e.sha}`;
    const entry = { at, section: e.section, says: e.says };
    if (e.kind === 'untestable') {
      cov.untestable++;
      continue;
    }
    cov.testable++;
    if (e.kind === 'gap') {
      cov.gaps++;
      cov.not_judged.push({ ...entry, why: `gap: ${e.why}` });
      continue;
    }
    const rules = e.rules.map((id) => byId.get(id)).filter((r): r is RuleRow => r !== undefined);
    const judgedBy = rules.filter((r) => cellsOn(r, surfacesRun).some(isJudged));
    if (judgedBy.length === 0) {
      cov.not_judged_here++;
      cov.not_judged.push({ ...entry, why: whyUnjudged(rules, surfacesRun) });
      const inputs = new Set(rules.flatMap((r) => cellsOn(r, surfacesRun).flatMap((c) => inputsNamed(c.reason))));
      if (inputs.size) cov.need_inputs++;
      for (const input of inputs) cov.needs_inputs[input] = (cov.needs_inputs[input] ?? 0) + 1;
      continue;
    }
    cov.judged++;
    const must = judgedBy.filter((r) => r.level === 'MUST');
    const judgedIds = new Set(must.map((r) => r.id));
    if (must.length === 0) {
      cov.should_only++;
      cov.not_proven.push({ ...entry, why: `judged at SHOULD only (${judgedBy.map((r) => r.id).join(', ')})` });
    } else if ((proofs[at] ?? []).some((p) => judgedIds.has(p.rule))) cov.proven++;
    else {
      cov.unproven++;
      cov.not_proven.push({
        ...entry,
        why: `judged by ${must.map((r) => r.id).join(', ')}, but no fault of the self-test breaks this statement under a rule judged here`,
      });
    }
  }
  return cov;
}

/** The one line a run prints. */
export function seedCoverageLine(c: SeedCoverage): string {
  // A report written before statements were proven has no testable/proven counts.
  if (c.proven === undefined || c.testable === undefined)
    return `seed statements judged ${c.judged} of ${c.statements - c.untestable} testable (${c.untestable} untestable, ${c.gaps} gaps)`;
  const inputs = Object.entries(c.needs_inputs ?? {}).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  const needing = c.need_inputs ?? 0;
  const parts = [
    `${c.should_only ?? 0} at SHOULD only`,
    ...(needing ? [`${needing} need inputs: ${inputs.map(([k, n]) => `${k} ${n}`).join(', ')}`] : []),
    ...(c.unproven ? [`${c.unproven} judged, unproven`] : []),
    ...(c.not_judged_here - needing > 0 ? [`${c.not_judged_here - needing} not judged here`] : []),
    `${c.gaps} gaps`,
    `${c.untestable} untestable`,
  ];
  return `seed statements proven ${c.proven} of ${c.testable} testable (${parts.join(', ')})`;
}
