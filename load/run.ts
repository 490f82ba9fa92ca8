// npm run load -- --profile <name> [--duration <seconds>] [--rate <req/s>] [--fault <name>] [--out <dir>]
// npm run load -- --list
// Exit status: 0 the profile passed (or was skipped with a reason), 1 a threshold or
// check failed, 2 the run could not start (usage, target, safety refusal).
import { parseArgs } from 'node:util';
import { TargetConfigError } from '../lib/targets.ts';
import { runProfile } from './engine.ts';
import { PROFILES, profileNamed } from './profiles/index.ts';
import { createProgress } from './progress.ts';
import { writeReports } from './report/write.ts';
import { LoadSafetyError } from './target.ts';
import { ThresholdError } from './thresholds.ts';

const USAGE = `usage: npm run load -- --profile <name> [--duration <seconds>] [--rate <req/s>] [--fault <name>] [--out <dir>] [--quiet]
       npm run load -- --list
Target: as for the suite (TARGET, TARGETS_FILE, TARGET_SURFACE, TARGET_BASE_URL, TARGET_TOKEN);
none set = the embedded reference, started in this process.`;

function positive(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new TargetConfigError(`${flag} must be a positive number, got "${value}"`);
  return n;
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      profile: { type: 'string' },
      duration: { type: 'string' },
      rate: { type: 'string' },
      fault: { type: 'string' },
      out: { type: 'string' },
      list: { type: 'boolean' },
      quiet: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
    allowPositionals: false,
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  if (values.list) {
    for (const p of PROFILES) console.log(p.name);
    return 0;
  }
  if (!values.profile) {
    console.error(USAGE);
    return 2;
  }
  const profile = profileNamed(values.profile);
  if (!profile) {
    console.error(`unknown profile "${values.profile}"; known: ${PROFILES.map((p) => p.name).join(', ')}`);
    return 2;
  }
  const durationS = positive(values.duration, '--duration');
  const rate = positive(values.rate, '--rate');
  const progress = createProgress(process.stderr, values.quiet === true);
  const report = await runProfile(profile, {
    ...(durationS !== undefined ? { durationS } : {}),
    ...(rate !== undefined ? { rate } : {}),
    ...(values.fault ? { fault: values.fault } : {}),
    progress,
  });
  const files = await writeReports(report, values.out);
  const m = report.metrics;
  console.log(`${profile.name}: ${report.verdict.toUpperCase()}${report.skipReason ? ` — ${report.skipReason}` : ''}`);
  if (report.verdict !== 'skipped') {
    console.log(`  ${m.requests} requests at ${m.rate}/s of ${m.requested_rate}/s; p50 ${m.p50} ms, p99 ${m.p99} ms, max ${m.max} ms; errors ${m.errors}%; contract ${m.contract_violations} violations in ${m.sampled} sampled`);
    for (const t of report.thresholds) console.log(`  ${t.ok ? 'pass' : 'FAIL'}  ${t.expr}  (measured ${t.actual ?? 'nothing'})`);
    for (const c of report.checks) console.log(`  ${c.ok ? 'pass' : 'FAIL'}  ${c.rule}: ${c.detail}`);
  }
  for (const n of report.notes) console.log(`  note: ${n}`);
  console.log(`  reports: ${files.json}\n           ${files.markdown}\n           ${files.html}`);
  return report.verdict === 'fail' ? 1 : 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    const known = err instanceof TargetConfigError || err instanceof LoadSafetyError || err instanceof ThresholdError;
    console.error(known ? `load: ${(err as Error).message}` : err);
    process.exitCode = 2;
  },
);
