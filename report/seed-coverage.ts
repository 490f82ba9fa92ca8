// Which seed statements this run judged (contracts/seed-trace.yaml joined to the matrix).
// A statement is judged when at least one of its rules has a pass or fail cell in this
// run. Only the seeds of the run's surfaces count: a router-only run says nothing of
// the workflow document, and the other way round.
import type { Surface } from '../lib/families.ts';
import type { SeedLetter } from '../lib/seeds/statements.ts';
import type { TraceEntry } from '../lib/seeds/trace.ts';
import { isJudged, type Cell, type RuleRow } from './matrix.ts';

const SEED_SURFACES: Record<SeedLetter, readonly Surface[]> = { W: ['local', 'cloud', 'serverless', 'registry'], R: ['router'] };

export interface UnjudgedStatement {
  at: string;
  section: string;
  says: string;
  /** gap, or why its rules have no verdict here (no scenario input, not on this surface, not covered). */
  why: string;
}

export interface SeedCoverage {
  /** Statements of the run's seeds that state something (informative ones left out). */
  statements: number;
  judged: number;
  untestable: number;
  gaps: number;
  /** Statements with rules, none of which reached a verdict in this run. */
  not_judged_here: number;
  not_judged: UnjudgedStatement[];
}

function whyUnjudged(rules: RuleRow[], surfaces: Set<Surface>): string {
  const reasons = rules.flatMap((r) =>
    Object.entries(r.results)
      .filter(([s]) => surfaces.has(s as Surface))
      .map(([, c]) => c as Cell)
      .filter((c) => c.status !== 'pass' && c.status !== 'fail')
      .map((c) => `${r.id} ${c.status.replace('_', ' ')}${c.reason ? `: ${c.reason}` : ''}`),
  );
  if (reasons.length === 0) return `not on this run's surfaces (its rules apply to ${[...new Set(rules.flatMap((r) => Object.keys(r.results)))].join(', ') || 'none'})`;
  return [...new Set(reasons)].slice(0, 3).join('; ');
}

export function seedCoverage(trace: TraceEntry[], rows: RuleRow[], surfacesRun: Set<Surface>): SeedCoverage {
  const byId = new Map(rows.map((r) => [r.id, r]));
  const inRun = trace.filter((e) => SEED_SURFACES[e.seed].some((s) => surfacesRun.has(s)) && e.kind !== 'informative');
  const cov: SeedCoverage = { statements: inRun.length, judged: 0, untestable: 0, gaps: 0, not_judged_here: 0, not_judged: [] };
  for (const e of inRun) {
    const at = `${e.seed}:${e.line}:${e.sha}`;
    if (e.kind === 'untestable') cov.untestable++;
    else if (e.kind === 'gap') {
      cov.gaps++;
      cov.not_judged.push({ at, section: e.section, says: e.says, why: `gap: ${e.why}` });
    } else {
      const rules = e.rules.map((id) => byId.get(id)).filter((r): r is RuleRow => r !== undefined);
      const judged = rules.some((r) => Object.entries(r.results).some(([s, c]) => surfacesRun.has(s as Surface) && isJudged(c)));
      if (judged) cov.judged++;
      else {
        cov.not_judged_here++;
        cov.not_judged.push({ at, section: e.section, says: e.says, why: whyUnjudged(rules, surfacesRun) });
      }
    }
  }
  return cov;
}

/** The one line `npm run conformance` prints. */
export const seedCoverageLine = (c: SeedCoverage): string =>
  `seed statements judged ${c.judged} of ${c.statements - c.untestable} testable (${c.untestable} untestable, ${c.gaps} gaps)`;
