// workflow-conformance load --profile <name> [target flags as for run] [--duration <seconds>] [--rate <req/s>] ...
// workflow-conformance load --list        (npm run load -- … in this repository)
// Exit status: 0 the profile passed, 1 a threshold or check failed or nothing was judged
// (the profile was skipped: the summary line and the report say why), 2 the run could not
// start (usage, target, safety refusal), 130 it was interrupted (Ctrl-C): the report is
// still written, with the verdict `interrupted`. With --conformance FILE the run's rule checks
// join that conformance.json (its LOAD.* cells and summary) and the exit status is its verdict.
import path from 'node:path';
import { parseArgs } from 'node:util';
import { resolveTarget, TargetConfigError } from '../lib/targets.ts';
import { didYouMean } from '../lib/nearest.ts';
import { LOAD as USAGE } from '../cli/help.ts';
import { TARGET_FLAGS, targetEnv } from '../cli/load.ts';
import { UsageError } from '../cli/args.ts';
import { ARRIVALS, type Arrival } from './drivers/schedule.ts';
import { MODELS, type Model } from './drivers/types.ts';
import { runProfile, type LoadReport } from './engine.ts';
import { checkText, held } from './checks.ts';
import { PROFILES, profileNamed } from './profiles/index.ts';
import { createProgress } from './progress.ts';
import { defaultReportDir, writeReports, type Written } from './report/write.ts';
import { ConformanceFileError, joinIntoFile } from '../report/load-cells.ts';
import { loadProfileRun } from './profile-run.ts';
import { parseShard, type Shard } from './shard.ts';
import { LoadSafetyError } from './target.ts';
import { failureSummary, limitText, thresholdOutcome, ThresholdError, withOverrides, withUnit } from './thresholds.ts';

const EXIT_INTERRUPTED = 130;

function positive(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new UsageError(`${flag} must be a positive number, got "${value}"`);
  return n;
}

function oneOf<T extends string>(value: string | undefined, allowed: readonly T[], flag: string): T | undefined {
  if (value === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(value))
    throw new UsageError(`${flag} must be one of ${allowed.join(', ')}, got "${value}"`);
  return value as T;
}

const OPTIONS = {
  profile: { type: 'string' },
  duration: { type: 'string' },
  rate: { type: 'string' },
  threshold: { type: 'string', multiple: true },
  shard: { type: 'string' },
  model: { type: 'string' },
  arrival: { type: 'string' },
  seed: { type: 'string' },
  fault: { type: 'string' },
  out: { type: 'string' },
  // A conformance.json to join this run's results into (its LOAD.* cells and verdict; report/load-cells.ts).
  conformance: { type: 'string' },
  list: { type: 'boolean' },
  quiet: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  // The target, as for run (cli/load.ts: targetEnv sets the same variables from them).
  target: { type: 'string' },
  'targets-file': { type: 'string' },
  surface: { type: 'string' },
  'base-url': { type: 'string' },
  'token-env': { type: 'string' },
} as const;

function parse(argv: string[]) {
  try {
    return parseArgs({
      args: argv,
      options: OPTIONS,
      allowPositionals: false,
    }).values;
  } catch (err) {
    // parseArgs' own errors (unknown option, missing value) read well once the code is dropped.
    const message = (err as Error).message;
    const unknown = /^Unknown option '--([^']+)'/.exec(message);
    if (unknown)
      throw new UsageError(
        `Unknown option '--${unknown[1]}'${didYouMean(unknown[1], Object.keys(OPTIONS), (f) => `--${f}`)}`,
      );
    throw new UsageError(message);
  }
}

async function main(): Promise<number> {
  const values = parse(process.argv.slice(2));
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  if (values.list) {
    // A profile runs on the first of its surfaces the target has (--surface picks another).
    const width = Math.max(...PROFILES.map((p) => p.name.length)) + 2;
    const needs = (p: (typeof PROFILES)[number]): string =>
      `needs ${p.surfaces.length > 1 ? `one of ${p.surfaces.join(', ')}` : p.surfaces[0]}`;
    const needWidth = Math.max(...PROFILES.map((p) => needs(p).length)) + 2;
    for (const p of PROFILES) console.log(`${p.name.padEnd(width)}${needs(p).padEnd(needWidth)}${p.title}`);
    return 0;
  }
  if (!values.profile) throw new UsageError('--profile <name> or --list is needed');
  const profile = profileNamed(values.profile);
  if (!profile)
    throw new UsageError(`unknown profile "${values.profile}"; known: ${PROFILES.map((p) => p.name).join(', ')}`);
  const durationS = positive(values.duration, '--duration');
  const rate = positive(values.rate, '--rate');
  const seed = positive(values.seed, '--seed');
  const model = oneOf<Model>(values.model, MODELS, '--model');
  const arrival = oneOf<Arrival>(values.arrival, ARRIVALS, '--arrival');
  if (model === 'closed' && arrival) throw new UsageError('--arrival applies to the open model only');
  let shard: Shard | undefined;
  if (values.shard !== undefined) {
    try {
      shard = parseShard(values.shard);
    } catch (err) {
      throw new UsageError((err as Error).message);
    }
  }
  // The team's own limits replace the profile's on the same metric (a mistake stops here, exit 2).
  const thresholds = values.threshold?.length ? withOverrides(profile.thresholds, values.threshold) : undefined;
  const flags = new Map<string, string>();
  for (const f of [...TARGET_FLAGS, 'token-env'] as const) if (values[f] !== undefined) flags.set(f, values[f]);
  const env = targetEnv(flags);
  const progress = createProgress(process.stderr, values.quiet === true);

  // First Ctrl-C: stop the load and write what was measured, marked interrupted.
  // A second one leaves at once.
  const interrupt = new AbortController();
  const onSigint = (): void => {
    if (interrupt.signal.aborted) process.exit(EXIT_INTERRUPTED);
    console.error('\nload: interrupted; stopping the load and writing the report (Ctrl-C again to leave at once)');
    interrupt.abort();
  };
  process.on('SIGINT', onSigint);
  try {
    const report = await runProfile(profile, {
      ...(durationS !== undefined ? { durationS } : {}),
      ...(rate !== undefined ? { rate } : {}),
      ...(values.fault ? { fault: values.fault } : {}),
      ...(model ? { model } : {}),
      ...(arrival ? { arrival } : {}),
      ...(seed !== undefined ? { seed: Math.round(seed) } : {}),
      ...(shard ? { shard } : {}),
      ...(thresholds ? { thresholds, yourThresholds: values.threshold ?? [] } : {}),
      env,
      signal: interrupt.signal,
      // Caps are said before the load starts, not only in the report.
      notice: (line) => console.error(`load: note: ${line}`),
      progress,
    });
    const files = await writeReports(report, values.out ?? defaultReportDir(env));
    const m = report.metrics;
    const shardText = report.shard ? ` (shard ${report.shard.index}/${report.shard.count})` : '';
    console.log(
      `${profile.name}${shardText}: ${report.verdict.toUpperCase()}${report.skipReason ? ` — ${report.skipReason}` : ''}` +
        `${report.verdict === 'fail' ? ` — ${failureSummary(report) ?? ''}` : ''}`,
    );
    if (report.verdict !== 'skipped' && m.requests !== undefined) {
      console.log(`  ${report.model.summary}`);
      console.log(
        `  ${m.requests} requests at ${m.rate}/s of ${m.requested_rate}/s over ${m.measured_s} s ` +
          `measured; errors ${m.errors}%; contract ${m.contract_violations} violations in ` +
          `${m.sampled} sampled`,
      );
      console.log(`  latency (corrected)   p50 ${m.p50} ms, p99 ${m.p99} ms, max ${m.max} ms`);
      console.log(
        `  latency (uncorrected) p50 ${m.uncorrected_p50} ms, p99 ${m.uncorrected_p99} ms, max ${m.uncorrected_max} ms`,
      );
      if (report.model.name === 'open')
        console.log(
          `  late ${m.late_requests} (${m.late}%), dropped ${m.dropped}, arrival spacing p99 ${m.spacing_p99} ms`,
        );
      for (const t of report.thresholds)
        console.log(
          `  ${t.decides === false ? 'note' : t.ok ? 'pass' : 'FAIL'}  ${t.metric} ${limitText(t)}  ` +
            `${thresholdOutcome(t)} (measured ${withUnit(t.actual, t.unit)})`,
        );
      for (const c of report.checks) console.log(`  ${held(c) ? 'pass' : 'FAIL'}  ${c.rule}: ${checkText(c)}`);
    }
    for (const n of report.notes) console.log(`  note: ${n}`);
    console.log(`  reports: ${files.json}\n           ${files.markdown}\n           ${files.html}`);
    if (report.verdict === 'interrupted') return EXIT_INTERRUPTED;
    if (values.conformance !== undefined) return joinConformance(values.conformance, report, profile.rules, files, env);
    if (report.verdict === 'skipped') {
      // Nothing was judged: never a pass (a CI gate must not go green on it).
      console.error(`load: nothing was judged: ${profile.name} was skipped: ${report.skipReason ?? 'no reason given'}`);
      return 1;
    }
    return report.verdict === 'fail' ? 1 : 0;
  } finally {
    process.off('SIGINT', onSigint);
  }
}

/** Joins the run into an existing conformance.json (its LOAD.* cells, its one verdict); the exit status follows that verdict. */
function joinConformance(
  file: string,
  report: LoadReport,
  rules: readonly string[],
  files: Written,
  env: Record<string, string | undefined>,
): number {
  const target = path.resolve(file);
  let secrets: string[] = [];
  try {
    secrets = resolveTarget(env).secrets;
  } catch {
    // Pattern redaction still applies.
  }
  try {
    const joined = joinIntoFile(target, [loadProfileRun(report, rules, files, path.dirname(target))], secrets);
    const s = joined.summary;
    console.log(
      `joined into ${file}: conformance ${s.verdict.toUpperCase()}${s.reason ? ` (${s.reason})` : ''}` +
        `${s.must_failed.length ? `; MUST failed: ${s.must_failed.join(', ')}` : ''}` +
        `${s.errors.length ? `; could not judge: ${s.errors.join(', ')}` : ''}`,
    );
    return s.verdict === 'pass' ? 0 : 1;
  } catch (err) {
    if (err instanceof ConformanceFileError) throw new UsageError(`--conformance: ${err.message}`);
    throw err;
  }
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    if (err instanceof UsageError) {
      console.error(`load: ${err.message}\n${USAGE}`);
    } else {
      const known = err instanceof TargetConfigError || err instanceof LoadSafetyError || err instanceof ThresholdError;
      console.error(known ? `load: ${err.message}` : err);
    }
    process.exitCode = 2;
  },
);
