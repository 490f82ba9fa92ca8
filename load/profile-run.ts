// A load report as a conformance report keeps it (`load.profiles`): the values its LOAD.*
// cells are judged from (report/load-cells.ts) and links to the load report's own files.
// It lives with the load runner so that the conformance report needs nothing of load/.
import path from 'node:path';
import type { LoadProfileRun } from '../report/report.ts';
import type { LoadReport } from './engine.ts';

/** `files` are the load report's paths, `from` the conformance report's folder. */
export function loadProfileRun(
  report: LoadReport,
  rules: readonly string[],
  files: { json: string; markdown: string; html: string },
  from: string,
): LoadProfileRun {
  const rel = (f: string): string => path.relative(from, f).split(path.sep).join('/');
  return {
    profile: report.profile.name,
    surface: report.target.surface,
    verdict: report.verdict,
    ...(report.skipReason ? { skip_reason: report.skipReason } : {}),
    ...(report.target.fault ? { fault: report.target.fault } : {}),
    rules: [...rules],
    checks: report.checks,
    thresholds_missed: report.thresholds
      .filter((t) => !t.ok && t.decides !== false)
      .map((t) => `${t.expr} (measured ${t.actual ?? 'nothing'})`),
    report: { json: rel(files.json), markdown: rel(files.markdown), html: rel(files.html) },
  };
}
