// `load` (with `load merge` and `load compare`) and `merge-reports`: the load runner and
// the report joiners, from the user's folder, with the same target flags as `run`.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { LOAD, LOAD_COMPARE, LOAD_MERGE, MERGE_REPORTS } from './help.ts';
import { MERGE_CONFIG, PACKAGE_ROOT, PLAYWRIGHT_CLI, tsxImport } from './paths.ts';
import { TARGET_FLAGS, withFlags } from '../lib/config/flags.ts';
import { splitArgs, UsageError } from './args.ts';
import { environment, runConfig, type Env } from '../lib/config/env.ts';

/**
 * Starts a script (relative to the package, or absolute) under tsx; resolves with its exit
 * code. The child leads its own process group, so a Ctrl-C reaches it once, forwarded from
 * here: the load runner reads a second Ctrl-C as "leave at once, without the report".
 */
export function spawnEntry(entry: string, args: string[], env: Env = environment()): Promise<number> {
  const child = spawn(process.execPath, [...tsxImport(), path.resolve(PACKAGE_ROOT, entry), ...args], {
    stdio: 'inherit',
    cwd: process.cwd(),
    env,
    detached: true,
  });
  const forward = (sig: NodeJS.Signals) => child.kill(sig);
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(sig, forward);
  return new Promise((resolve) =>
    child.on('close', (code, signal) => resolve(code ?? (signal === 'SIGINT' ? 130 : 1))),
  );
}

/** The flags that choose a target; each sets the variable `run` sets for it (lib/config/flags.ts). */
export { TARGET_FLAGS };

/** The environment a target's flags describe: the variables of FLAG_ENV, and TARGET_TOKEN from --token-env. */
export function targetEnv(flags: ReadonlyMap<string, string>, base: Env = environment()): Env {
  const env = withFlags(base, flags, TARGET_FLAGS);
  const tokenEnv = flags.get('token-env');
  if (tokenEnv !== undefined) {
    if (!base[tokenEnv])
      throw new UsageError(`--token-env ${tokenEnv}: $${tokenEnv} is not set; export the key under that name`);
    env.TARGET_TOKEN = base[tokenEnv];
    // As for run: a refused key is named as the user gave it ($NAME), not as $TARGET_TOKEN.
    env.TARGET_TOKEN_SOURCE = tokenEnv;
  }
  return env;
}

const wantsHelp = (args: readonly string[]) => args.includes('--help') || args.includes('-h');

export async function loadCommand(args: string[]): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === 'merge') {
    if (wantsHelp(rest)) return print(LOAD_MERGE);
    return spawnEntry('load/merge.ts', rest);
  }
  if (sub === 'compare') {
    if (wantsHelp(rest)) return print(LOAD_COMPARE);
    return spawnEntry('load/compare.ts', rest);
  }
  if (wantsHelp(args)) return print(LOAD);
  // The runner reads the target flags itself (targetEnv below), so `npm run load` takes them too.
  return spawnEntry('load/run.ts', args);
}

/** Playwright's merge-reports with the suite's merge config; the exit status follows the merged verdict. */
export async function mergeReportsCommand(args: string[]): Promise<number> {
  if (wantsHelp(args)) return print(MERGE_REPORTS);
  const { flags, rest } = splitArgs(args, ['reports']);
  const dirs = rest.filter((a) => !a.startsWith('-'));
  if (dirs.length !== 1)
    throw new UsageError(
      "merge-reports needs one folder holding the shards' blob reports: workflow-conformance merge-reports BLOB_DIR",
    );
  const blobs = path.resolve(dirs[0]);
  if (!existsSync(blobs)) throw new UsageError(`${dirs[0]}: no such folder`);
  const reports = path.resolve(flags.get('reports') ?? runConfig().reportsDir);
  const code = await spawnEntry(
    PLAYWRIGHT_CLI,
    ['merge-reports', '--config', MERGE_CONFIG, ...rest.map((a) => (a === dirs[0] ? blobs : a))],
    { ...environment(), REPORTS_DIR: reports },
  );
  if (code !== 0) return code;
  // Playwright's merge ends 0 whatever the verdict; a CI step gates on this command's status.
  try {
    const verdict = (
      JSON.parse(readFileSync(path.join(reports, 'conformance.json'), 'utf8')) as { summary?: { verdict?: string } }
    ).summary?.verdict;
    return verdict === 'pass' ? 0 : 1;
  } catch {
    process.stderr.write(`workflow-conformance: merge-reports wrote no ${path.join(reports, 'conformance.json')}\n`);
    return 1;
  }
}

function print(text: string): number {
  process.stdout.write(`${text}\n`);
  return 0;
}
