// Load results into the conformance matrix: each load profile's run is one outcome, like a
// test's, whose result values (load/checks.ts) judge its LOAD.* cells on the surface it
// loaded; the summary is then computed again by the one verdict function (report/summary.ts).
// Used by `run --load` (the conformance reporter joins the load profiles' runs before its one
// write, load/gate-reporter.ts) and by `load --conformance FILE` (a load run alone joins an
// existing report). Runs are kept in the report's `load.profiles`, so joining profiles one at
// a time adds up to the same cells. The runs come in as values (load/profile-run.ts builds
// them): nothing here imports load/.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { isSurface, type Surface } from '../lib/families.ts';
import { loadRules, type Rule } from '../lib/rules.ts';
import { Redactor } from '../lib/redact.ts';
import { runSeeds } from '../lib/seeds/runtime.ts';
import { loadTrace } from '../lib/seeds/trace.ts';
import { applyBaseline, loadBaseline, type BaselineOutcome } from './baseline.ts';
import { buildMatrix, isJudged, type Cell, type RuleRow, type TestOutcome } from './matrix.ts';
import { toHtml } from './html.ts';
import { toMarkdown } from './markdown.ts';
import type { ConformanceReport, LoadProfileRun } from './report.ts';
import { seedCoverage } from './seed-coverage.ts';
import { summarize } from './summary.ts';

const isLoadRule = (id: string): boolean => id.startsWith('LOAD.');

/** One profile's run as a test outcome of the matrix; undefined when it loaded no surface (the target has none of the profile's). */
function loadOutcome(run: LoadProfileRun): TestOutcome | undefined {
  if (!isSurface(run.surface)) return undefined;
  const title = `load profile ${run.profile}${run.fault ? ` (fault ${run.fault})` : ''}`;
  const status: TestOutcome['status'] =
    run.verdict === 'pass'
      ? 'passed'
      : run.verdict === 'skipped'
        ? 'skipped'
        : run.verdict === 'interrupted'
          ? 'interrupted'
          : 'failed';
  const interrupted = run.verdict === 'interrupted';
  return {
    title,
    surface: run.surface,
    status,
    rules: run.rules,
    // An interrupted run reached no verdict: its rules read error, whatever it measured.
    ...(interrupted ? {} : { results: run.checks }),
    errors: interrupted ? ['the load was interrupted before its end: no verdict'] : [],
    ...(run.skip_reason ? { skipReason: run.skip_reason } : {}),
  };
}

/** The LOAD.* rows (and any other rule a load run broke) judged from the runs. */
function loadMatrix(runs: readonly LoadProfileRun[], rules: readonly Rule[]) {
  const outcomes = runs.map(loadOutcome).filter((o): o is TestOutcome => o !== undefined);
  const loaded = new Set<Surface>(outcomes.map((o) => o.surface));
  return buildMatrix({
    rules: [...rules],
    outcomes,
    surfacesRun: loaded,
    familyRun: (id, surface) => isLoadRule(id) && loaded.has(surface),
  });
}

function judgedCells(rows: readonly RuleRow[]): number {
  return rows.reduce((n, r) => n + Object.values<Cell>(r.results).filter(isJudged).length, 0);
}

function reapplyBaseline(rows: RuleRow[], before: BaselineOutcome | undefined): BaselineOutcome | undefined {
  if (!before) return undefined;
  try {
    return applyBaseline(rows, loadBaseline(before.file));
  } catch (err) {
    return { file: before.file, expected_failures: [], stale: [], problems: [(err as Error).message] };
  }
}

/**
 * The report with `runs` joined in: a run replaces an earlier one of the same profile on the same surface; the
 * LOAD.* rows are judged again from every run the report holds; a non-LOAD rule a load run
 * broke (a contract check of its preparation) fails on that surface too. The summary is
 * computed again from the whole matrix, as the reporter computes it.
 */
export function joinLoadRuns(
  report: ConformanceReport,
  runs: readonly LoadProfileRun[],
  rules: readonly Rule[] = [...loadRules().values()],
): ConformanceReport {
  const kept = (report.load?.profiles ?? []).filter(
    (p) => !runs.some((r) => r.profile === p.profile && r.surface === p.surface),
  );
  const all = [...kept, ...runs];
  const judged = loadMatrix(all, rules);
  const byId = new Map(judged.rows.map((r) => [r.id, r]));
  const loadedBy = all.filter((r) => isSurface(r.surface)).map((r) => `${r.profile} on ${r.surface}`);
  const rows = report.rules.map((row): RuleRow => {
    const fresh = byId.get(row.id);
    if (!fresh) return row;
    if (isLoadRule(row.id)) {
      const results: RuleRow['results'] = {};
      for (const [surface, cell] of Object.entries(fresh.results) as Array<[Surface, Cell]>) {
        // A surface no profile of the run loaded keeps its cell unjudged, saying which surfaces were loaded.
        const unjudged = cell.status === 'not_covered' && !cell.evidence && loadedBy.length > 0;
        const why = all.some((r) => r.surface === surface)
          ? `no load profile of this run judges it on ${surface} (run: ${loadedBy.join(', ')})`
          : `no load profile of this run loaded ${surface} (run: ${loadedBy.join(', ')})`;
        results[surface] = unjudged ? { status: 'not_covered', reason: why } : cell;
      }
      return { ...row, results };
    }
    const results = { ...row.results };
    for (const [surface, cell] of Object.entries(fresh.results) as Array<[Surface, Cell]>) {
      if (cell.status === 'fail' && results[surface]?.status !== 'fail') results[surface] = cell;
    }
    return { ...row, results };
  });
  const baseline = reapplyBaseline(rows, report.baseline);
  const runErrors = report.run_errors ?? [];
  const interrupted = report.interrupted === true;
  const matrix = { rows, unplaced: [...new Set([...report.unplaced, ...judged.unplaced])], judged: judgedCells(rows) };
  const { summary } = summarize({
    matrix,
    rules,
    strict: report.strict,
    ...(baseline ? { baseline } : {}),
    runErrors,
    interrupted,
    targetSurfaces: new Set(report.target.surfaces.map((s) => s.surface)),
  });
  const surfacesRun = new Set(
    rows.flatMap((r) =>
      (Object.entries(r.results) as Array<[Surface, Cell]>).filter(([, c]) => c.status !== 'not_run').map(([s]) => s),
    ),
  );
  return {
    ...report,
    generated_at: new Date().toISOString(),
    summary,
    unplaced: matrix.unplaced,
    ...(baseline ? { baseline } : {}),
    rules: rows,
    // The seeds counted are those of the conformance run's surfaces: a load cell on another
    // surface (not covered there) must not bring that surface's seed into the denominator.
    ...(report.seed_coverage
      ? { seed_coverage: seedCoverage(loadTrace(), rows, new Set(report.seed_coverage.surfaces ?? surfacesRun)) }
      : {}),
    load: { profiles: all },
  };
}

export class ConformanceFileError extends Error {
  override name = 'ConformanceFileError';
}

function readConformance(file: string): ConformanceReport {
  let parsed: Partial<ConformanceReport>;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8')) as Partial<ConformanceReport>;
  } catch (err) {
    throw new ConformanceFileError(`cannot read the conformance report ${file}: ${(err as Error).message}`);
  }
  if (!parsed.summary || !Array.isArray(parsed.rules) || !parsed.target)
    throw new ConformanceFileError(
      `${file} is not a conformance report (reports/conformance.json of workflow-conformance run)`,
    );
  return parsed as ConformanceReport;
}

/** Writes conformance.json, .md and .html beside each other in `dir` (redacting the given secrets and every credential pattern). */
function writeConformance(dir: string, report: ConformanceReport, secrets: readonly string[] = []): void {
  const redactor = new Redactor(secrets);
  writeFileSync(path.join(dir, 'conformance.json'), redactor.text(JSON.stringify(report, null, 2)) + '\n');
  writeFileSync(path.join(dir, 'conformance.md'), redactor.text(toMarkdown(report, runSeeds())));
  writeFileSync(path.join(dir, 'conformance.html'), redactor.text(toHtml(report, runSeeds())));
}

/** Joins load runs into the conformance report `file` (rewriting its three files); returns the joined report. */
export function joinIntoFile(
  file: string,
  runs: readonly LoadProfileRun[],
  secrets: readonly string[] = [],
): ConformanceReport {
  const joined = joinLoadRuns(readConformance(file), runs);
  writeConformance(path.dirname(file), joined, secrets);
  return joined;
}
