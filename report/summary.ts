// The one verdict: from the rule x surface matrix (report/matrix.ts) to conformance.json's
// `summary`. Pure, so every producer of a verdict calls it: the conformance reporter, the
// load results merged into a report (report/load-cells.ts, `run --load`), and the
// self-test harness (test/support/harness/reporter.ts), which thus prove the verdict
// users get rather than one of their own.
import { CIRCUIT_OPEN, NOT_THE_API } from '../lib/circuit.ts';
import type { Rule } from '../lib/rules.ts';
import type { Surface } from '../lib/families.ts';
import { verdictOf, type Cell, type Matrix } from './matrix.ts';
import { verdictWithBaseline, type BaselineOutcome } from './baseline.ts';
import type { ConformanceReport } from './report.ts';

export interface SummaryInput {
  matrix: Matrix;
  /** The catalog (for the rules whose not-covered reason it states). */
  rules: readonly Rule[];
  strict: boolean;
  baseline?: BaselineOutcome;
  /** Errors outside any test (the target unreachable, an interrupted run). */
  runErrors?: readonly string[];
  /** The run stopped before its end (a signal, the global timeout). */
  interrupted?: boolean;
  /** The target's surfaces: with run errors, their unjudged cells read error. */
  targetSurfaces?: ReadonlySet<string>;
}

export type Summary = ConformanceReport['summary'];

export interface Summarized {
  summary: Summary;
  verdict: ReturnType<typeof verdictWithBaseline>;
}

/** A rule's overall status: its worst cell among the surfaces this run had. */
function overallStatus(cells: readonly Cell[]): Cell['status'] {
  return (
    (['fail', 'error', 'pass', 'skipped', 'not_covered', 'not_run'] as const).find((s) =>
      cells.some((c) => c.status === s),
    ) ?? 'not_covered'
  );
}

/**
 * The summary and verdict of a matrix. With run errors, cells of the target's surfaces that
 * no check reached are turned into errors first (in `matrix.rows`): whatever they say, the
 * run did not judge them.
 */
export function summarize({
  matrix,
  rules,
  strict,
  baseline,
  runErrors = [],
  interrupted = false,
  targetSurfaces = new Set(),
}: SummaryInput): Summarized {
  const rows = matrix.rows;
  const verdict = verdictWithBaseline(rows, verdictOf(matrix, strict), strict, baseline);
  if (runErrors.length > 0) {
    const notCoveredByCatalog = new Set(rules.filter((r) => r.not_covered).map((r) => r.id));
    for (const row of rows) {
      for (const [surface, cell] of Object.entries(row.results) as Array<[Surface, Cell]>) {
        const unjudged =
          (cell.status === 'skipped' && cell.reason?.startsWith('not exercised')) ||
          cell.status === 'not_run' ||
          (cell.status === 'not_covered' && !notCoveredByCatalog.has(row.id));
        if (targetSurfaces.has(surface) && unjudged) {
          row.results[surface] = {
            status: 'error',
            reason: `not judged: ${interrupted ? 'the run was interrupted before a check of it ran' : 'the run stopped before any test'} (see run_errors)`,
          };
        }
      }
    }
  }
  // A rule none of whose surfaces were part of the run is counted apart, never as skipped.
  const counts = { pass: 0, fail: 0, error: 0, skipped: 0, not_covered: 0, not_run: 0 };
  for (const row of rows) counts[overallStatus(Object.values<Cell>(row.results))]++;
  // `fail` means the server broke a rule; a run whose only trouble is rules it could not
  // judge (a target that stopped answering, setup refused) is `error`, never `fail`.
  const serverFailed =
    verdict.unexpectedMust.length > 0 ||
    (strict && verdict.unexpectedShould.length > 0) ||
    (baseline !== undefined && (baseline.stale.length > 0 || baseline.problems.length > 0));
  const verdictName =
    runErrors.length > 0 || verdict.nothingJudged ? 'error' : verdict.passed ? 'pass' : serverFailed ? 'fail' : 'error';
  const cells = rows.flatMap((r) => Object.values<Cell>(r.results));
  // A target that stopped answering is the headline, not what it left unjudged.
  const stoppedAt = cells
    .map((c) => c.reason?.match(new RegExp(`${CIRCUIT_OPEN}[A-Z]+ \\S+`))?.[0])
    .find((x) => x !== undefined);
  // A target that does not speak the API at all: that one finding is the headline, whatever
  // the verdict (its first answers failed their body contract; the rest was not judged).
  const notApi = cells
    .map((c) => c.reason?.slice(c.reason.indexOf(NOT_THE_API)))
    .find((r) => r?.startsWith(NOT_THE_API))
    ?.split('; the run ended early')[0];
  // A bound the suite chose that was hit (a stream that never ended its run, a slow job):
  // named once in the headline, since it is usually why the rest could not be judged.
  const boundHit = cells
    .find((c) => c.status === 'error' && c.reason?.includes("the suite's bound of"))
    ?.reason?.split(/SuiteBound: |\[suite-error\] /)
    .pop()
    ?.slice(0, 400);
  const reason =
    notApi && runErrors.length === 0
      ? `${notApi}; the run ended early, ${counts.error} rule${counts.error === 1 ? '' : 's'} not judged`
      : runErrors.length > 0
        ? interrupted
          ? runErrors[runErrors.length - 1]
          : 'the suite could not judge the target (see run_errors)'
        : stoppedAt && verdictName === 'error'
          ? `${stoppedAt}; ${counts.error} rule${counts.error === 1 ? '' : 's'} could not be judged`
          : verdict.nothingJudged
            ? 'no rule was judged: no check ran in this run'
            : verdictName === 'error'
              ? `no rule failed, but ${verdict.unexpectedErrors.length} could not be judged (errors)${boundHit ? `; the first: ${boundHit}` : ''}`
              : undefined;
  return {
    summary: {
      verdict: verdictName,
      ...(reason ? { reason } : {}),
      rules: rows.length,
      ...counts,
      must_failed: verdict.mustFailed,
      should_failed: verdict.shouldFailed,
      errors: verdict.errors,
    },
    verdict,
  };
}
