// The load part of `workflow-conformance run --load <profiles|all>`: after the conformance
// projects, the named load profiles run one after another against the same target (the
// embedded reference with the same fault, when that is the target), each on every one of its
// surfaces the target has (where `load` takes the first), at its quick size under the quick
// profile (load/quick.ts) or at its own size under full. Each writes its own load report
// (reports/load/, as `load` writes it) and comes back as a value (load/profile-run.ts); the
// conformance reporter joins those into its report before its one write (load/gate-reporter.ts),
// so the run's one conformance.json judges the LOAD.* cells and the exit status follows it.
import path from 'node:path';
import { resolveTarget, TargetConfigError } from '../lib/targets.ts';
import { SuiteError } from '../lib/violations.ts';
import { LoadSafetyError } from './target.ts';
import { runProfile } from './engine.ts';
import { brokenRules, held } from './checks.ts';
import { createProgress } from './progress.ts';
import { quickOptions } from './quick.ts';
import { writeReports } from './report/write.ts';
import type { Profile } from './types.ts';
import { loadProfileRun } from './profile-run.ts';
import type { ConformanceReport, LoadProfileRun } from '../report/report.ts';

type Env = Record<string, string | undefined>;

/** A profile that could not start: its rules blocked by the start, on the surface it would have loaded. */
function refusedRun(profile: Profile, has: ReadonlySet<string> | undefined, why: string): LoadProfileRun {
  const surface = profile.surfaces.find((s) => has?.has(s)) ?? '(none)';
  return {
    profile: profile.name,
    surface,
    verdict: 'fail',
    rules: [...profile.rules],
    checks: profile.rules.map((rule) => ({ rule, outcome: 'blocked', what: why, step: `${profile.name}: start` })),
    thresholds_missed: [],
  };
}

/** The profile once per surface of it the target has, so each of its cells is judged (one run when it has one or none). */
function perSurface(profile: Profile, has: ReadonlySet<string> | undefined): Profile[] {
  const surfaces = has ? profile.surfaces.filter((s) => has.has(s)) : [];
  return surfaces.length > 1 ? surfaces.map((s) => ({ ...profile, surfaces: [s] })) : [profile];
}

export interface GateOptions {
  profiles: readonly Profile[];
  /** The environment the conformance run had (target, fault, reports): the load runs against the same. */
  env: Env;
  /** The run's reports folder: conformance.json there, load reports in its load/. */
  reports: string;
  /** Full: each profile's own size; quick: its quick size (the default). */
  full: boolean;
  fault?: string;
  quiet: boolean;
  /** Where lines go (stdout). */
  out?: (line: string) => void;
}

/** How many profiles judged the LOAD.* cells, and how many were skipped or could not start, with why. */
export function profilesLine(runs: readonly LoadProfileRun[]): string {
  const notStarted = runs.filter((r) => !r.report);
  const skipped = runs.filter((r) => r.report && r.verdict === 'skipped');
  const judged = runs.length - notStarted.length - skipped.length;
  const why = (rs: readonly LoadProfileRun[], of: (r: LoadProfileRun) => string | undefined) =>
    [...new Set(rs.map(of).filter((x): x is string => !!x))].join('; ');
  return [
    `${judged} load profile${judged === 1 ? '' : 's'} judged the LOAD.* cells`,
    ...(skipped.length ? [`${skipped.length} skipped (${why(skipped, (r) => r.skip_reason)})`] : []),
    ...(notStarted.length
      ? [`${notStarted.length} could not start (${why(notStarted, (r) => r.checks[0]?.what)})`]
      : []),
  ].join('; ');
}

/** Runs the profiles, each writing its own load report; returns their runs, the values that judge the LOAD.* cells. */
export async function runLoadProfiles(opts: GateOptions): Promise<LoadProfileRun[]> {
  const out = opts.out ?? ((line: string) => process.stdout.write(`${line}\n`));
  const progress = createProgress(process.stderr, opts.quiet);
  const loadDir = path.join(opts.reports, 'load');
  const runs: LoadProfileRun[] = [];
  let has: Set<string> | undefined;
  try {
    has = new Set(resolveTarget(opts.env).surfaces.map((s) => s.surface));
  } catch {
    // The run already said what is wrong with the target; each profile says it again.
  }
  for (const profile of opts.profiles.flatMap((p) => perSurface(p, has))) {
    let report;
    try {
      report = await runProfile(profile, {
        env: opts.env,
        ...(opts.full ? {} : quickOptions(profile)),
        ...(opts.fault ? { fault: opts.fault } : {}),
        progress,
        notice: (line) => progress.line(`load: note: ${line}`),
      });
    } catch (err) {
      // A load the target refuses (a remote target without its load opt-in) leaves the profile's rules unjudged: errors, said why.
      if (!(err instanceof LoadSafetyError || err instanceof TargetConfigError || err instanceof SuiteError)) throw err;
      runs.push(refusedRun(profile, has, err.message));
      out(`load ${profile.name}: NOT RUN — ${err.message}`);
      continue;
    }
    const files = await writeReports(report, loadDir);
    runs.push(loadProfileRun(report, profile.rules, files, opts.reports));
    const broken = brokenRules(report.checks);
    const notHeld = report.checks.filter((c) => !held(c)).length;
    if (!opts.quiet)
      out(
        `load ${profile.name}${report.target.surface !== '(none)' ? ` on ${report.target.surface}` : ''}: ` +
          `${report.verdict.toUpperCase()}${report.skipReason ? ` — ${report.skipReason}` : ''}` +
          `${broken.length ? ` — broken: ${broken.join(', ')}` : notHeld ? ` — ${notHeld} check(s) not judged` : ''}` +
          ` (${path.relative(process.cwd(), files.markdown)})`,
      );
  }
  return runs;
}

/** The run's verdict line once the load runs are joined into `report`, and the line naming its reports (in `reports`). */
export function gateLines(
  report: ConformanceReport,
  runs: readonly LoadProfileRun[],
  reports: string,
): { verdictLine: string; reportsLine: string } {
  const s = report.summary;
  return {
    verdictLine:
      `Conformance with load ${s.verdict.toUpperCase()}${s.reason ? ` (${s.reason})` : ''}: ${profilesLine(runs)}` +
      `${s.must_failed.length ? `; MUST failed: ${s.must_failed.join(', ')}` : ''}` +
      `${s.should_failed.length ? `; SHOULD failed: ${s.should_failed.join(', ')}` : ''}` +
      `${s.errors.length ? `; could not judge: ${s.errors.join(', ')}` : ''}`,
    reportsLine:
      `reports: ${path.relative(process.cwd(), path.join(reports, 'conformance.json'))} (one ` +
      `verdict), load reports in ${path.relative(process.cwd(), path.join(reports, 'load')) || '.'}`,
  };
}
