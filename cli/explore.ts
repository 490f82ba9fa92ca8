// `explore`: the contract-driven explorer alone (specs/*/explore.spec.ts), with the run's
// target flags and profile, then its per-operation report (reports/explore/explore.md).
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { splitArgs } from './args.ts';
import { FLAG_ENV, runSuite } from './run.ts';
import { exploreMarkdown, readExploreReports } from '../lib/explore/report.ts';
import { runConfig } from '../lib/config/env.ts';

export async function exploreCommand(args: string[]): Promise<number> {
  const { flags, rest } = splitArgs(args, [...Object.keys(FLAG_ENV), 'token-env', 'record'], ['strict']);
  const reports = path.resolve(flags.get('reports') ?? runConfig().reportsDir);
  const dir = path.join(reports, 'explore');
  rmSync(dir, { recursive: true, force: true });
  // Spec files the user named narrow the run; otherwise every family's explorer spec runs.
  const named = rest.some((a) => !a.startsWith('-') && /\.ts$|explore/.test(a));
  const code = await runSuite(named ? args : [...args, 'explore\\.spec\\.ts'], { CONFORMANCE_EXPLORE: '1' });
  const markdown = exploreMarkdown(readExploreReports(dir));
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'explore.md'), markdown);
  if (!runConfig().quiet)
    process.stdout.write(
      `\n${markdown}\n(${path.relative(process.cwd(), path.join(dir, 'explore.md')) || 'explore.md'})\n`,
    );
  return code;
}
