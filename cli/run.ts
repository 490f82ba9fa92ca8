// `run` and `replay`: Playwright with the suite's own config, from the user's folder.
import { spawn } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { stringify } from 'yaml';
import { REFERENCE_PORT_ORDER, resolveTarget, TargetConfigError, type ResolvedTarget } from '../lib/targets.ts';
import { toHar, type Har, type RecordingMeta } from '../lib/har.ts';
import { joinTape, placeholdersOf } from '../lib/cassette.ts';
import { DEFAULT_API_KEY_PREFIX } from '../lib/registry/requests.ts';
import { writeRunError } from '../report/run-error.ts';
import { PLAYWRIGHT_CLI, PLAYWRIGHT_CONFIG, installedAsDependency, packageVersion, tsxImport } from './paths.ts';
import { splitArgs, UsageError } from './args.ts';
import { didYouMean } from '../lib/nearest.ts';
import { findSeedsDir } from '../lib/seeds/runtime.ts';
import { loadRules } from '../lib/rules.ts';
import { createServer } from 'node:net';
import {
  ConfigError,
  environment,
  parseRunConfig,
  runConfig,
  runConfigOrDefaults,
  type Env,
} from '../lib/config/env.ts';
import { FLAG_ENV, withFlags } from '../lib/config/flags.ts';

/** Settings that change what the suite sends or how it judges: a replay needs the same. */
const REPLAYED_SETTINGS = [
  'CONFORMANCE_PROFILE',
  'CONFORMANCE_STRICT',
  'FC_SEED',
  'FC_PATH',
  'FC_NUM_RUNS',
  'CONFORMANCE_JOB_DEADLINE_MS',
  'CONFORMANCE_STREAM_GRACE_MS',
  'CONFORMANCE_LIST_WALK_MAX_PAGES',
  'CONFORMANCE_HTTP_TIMEOUT_MS',
  'CONFORMANCE_MAX_BODY_BYTES',
];

function playwright(args: string[], env: Env): Promise<number> {
  // Installed into a project, the suite's TypeScript sits in node_modules, where Playwright's
  // own transform does not reach: tsx loads it, and Playwright's workers inherit the flag.
  // From a checkout Playwright's transform loads it all, and its workers are spared tsx's
  // scan of every module they load, its own bundles included (the quick run, 2026-12-02,
  // 2 cores: 38 s -> 34.5 s under Node 22, 41-49 s -> 39 s under 20).
  const child = spawn(
    process.execPath,
    [...(installedAsDependency() ? tsxImport() : []), PLAYWRIGHT_CLI, 'test', '--config', PLAYWRIGHT_CONFIG, ...args],
    { stdio: 'inherit', env, cwd: process.cwd() },
  );
  const forward = (sig: NodeJS.Signals) => child.kill(sig);
  process.on('SIGINT', forward);
  process.on('SIGTERM', forward);
  return new Promise((resolve) => child.on('close', (code, signal) => resolve(code ?? (signal ? 1 : 0))));
}

// Each flag and the variable it sets (lib/config/flags.ts).
export { FLAG_ENV };

/**
 * The user's copy of the seeds, for failures to quote the statement their rule rests on:
 * --seeds DIR, else where the README lays them out (lib/seeds/runtime.ts findSeedsDir).
 */
function seedsDir(env: Env): string | undefined {
  if (env.CONFORMANCE_SEEDS && !existsSync(env.CONFORMANCE_SEEDS))
    throw new UsageError(`--seeds ${env.CONFORMANCE_SEEDS}: no such folder`);
  const dir = findSeedsDir(env);
  if (env.CONFORMANCE_SEEDS && dir !== path.resolve(env.CONFORMANCE_SEEDS))
    throw new UsageError(`--seeds ${env.CONFORMANCE_SEEDS}: no 000_*.txt and 001_*.txt there`);
  return dir;
}

// Playwright's own options, passed on untouched; any other --option is a slip.
const PLAYWRIGHT_FLAGS = [
  'add-reporter',
  'browser',
  'config',
  'debug',
  'fail-on-flaky-tests',
  'forbid-only',
  'fully-parallel',
  'grep',
  'grep-invert',
  'global-timeout',
  'headed',
  'ignore-snapshots',
  'workers',
  'last-failed',
  'last-failed-file',
  'list',
  'max-failures',
  'no-deps',
  'only-changed',
  'output',
  'pass-with-no-tests',
  'project',
  'quiet',
  'repeat-each',
  'reporter',
  'retries',
  'shard',
  'shuffle',
  'test-list',
  'test-list-invert',
  'timeout',
  'trace',
  'tsconfig',
  'update-snapshots',
  'update-source-method',
];
const SHORT_FLAGS = ['-c', '-g', '-G', '-j', '-u', '-x'];
const OWN_FLAGS = [...Object.keys(FLAG_ENV), 'token-env', 'record', 'strict', 'load', 'rule'];

/** The first argument that is neither one of ours nor Playwright's: a usage error naming the nearest flag. */
function unknownFlag(rest: string[]): string | undefined {
  for (const arg of rest) {
    if (arg === '--') return undefined;
    if (!arg.startsWith('-')) continue;
    if (arg.startsWith('--')) {
      const name = arg.slice(2).split('=')[0];
      if (!PLAYWRIGHT_FLAGS.includes(name))
        return `unknown option --${name}${didYouMean(name, [...OWN_FLAGS, ...PLAYWRIGHT_FLAGS], (s) => `--${s}`)}; run --help lists the options`;
    } else if (!SHORT_FLAGS.includes(arg.slice(0, 2))) return `unknown option ${arg}; run --help lists the options`;
  }
  return undefined;
}

/** Whether a loopback port can be bound now. */
function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** Refuses a run that cannot start, after replacing the last report with one saying why (exit 2). */
function refuse(reports: string, message: string): never {
  writeRunError(reports, `the run could not start, no test was run: ${message}`);
  throw new UsageError(
    `${message}\n(${path.join(path.relative(process.cwd(), reports) || '.', 'conformance.json')} says so too)`,
  );
}

/** Resolves the target before Playwright starts: a configuration mistake is one line, and the report says so. */
function resolveOrReport(env: Env, reports: string): ResolvedTarget {
  try {
    return resolveTarget(env);
  } catch (err) {
    if (!(err instanceof TargetConfigError)) throw err;
    writeRunError(reports, `configuration error, no test was run: ${err.message}`);
    throw new TargetConfigError(
      `configuration error, no test was run: ${err.message}\n(${path.join(path.relative(process.cwd(), reports) || '.', 'conformance.json')} says so too)`,
    );
  }
}

/** `extra`: variables a command built on run sets for Playwright (explore sets CONFORMANCE_EXPLORE). */
export async function runSuite(args: string[], extra: Env = {}): Promise<number> {
  const { flags, rest } = splitArgs(
    args,
    [...Object.keys(FLAG_ENV), 'token-env', 'record', 'load', 'rule'],
    ['strict'],
  );
  const reportsAsked = path.resolve(flags.get('reports') ?? runConfigOrDefaults().reportsDir);
  const slip = unknownFlag(rest);
  if (slip) refuse(reportsAsked, slip);
  // --rule: the tests tagged with these rule ids, each matched whole (BY_HASH is not BY_HASH_SCOPE).
  const ruleIds = flags
    .get('rule')
    ?.split(',')
    .map((x) => x.trim())
    .filter(Boolean);
  if (ruleIds) {
    const known = [...loadRules().keys()];
    const bad = ruleIds.find((id) => !known.includes(id));
    if (bad)
      refuse(reportsAsked, `--rule ${bad}: no such rule${didYouMean(bad, known)}; contracts/rules.yaml lists them`);
    rest.push('--grep', ruleIds.map((id) => `@${id.replace(/\./g, '\\.')}(\\s|$)`).join('|'));
  }
  // Flags win over the environment: each is written into the environment Playwright gets.
  const env: Env = withFlags({ ...environment(), ...extra }, flags);
  if (flags.has('strict')) env.CONFORMANCE_STRICT = '1';
  if (env.CONFORMANCE_BASELINE) env.CONFORMANCE_BASELINE = path.resolve(env.CONFORMANCE_BASELINE);
  const seeds = seedsDir(env);
  if (seeds) env.CONFORMANCE_SEEDS = seeds;
  const tokenEnv = flags.get('token-env');
  if (tokenEnv !== undefined) {
    const key = environment()[tokenEnv];
    if (!key) throw new UsageError(`--token-env ${tokenEnv}: $${tokenEnv} is not set; export the key under that name`);
    env.TARGET_TOKEN = key;
    // A refused key is then named as the user gave it ($BADKEY), not as $TARGET_TOKEN.
    env.TARGET_TOKEN_SOURCE = tokenEnv;
  }
  const reports = path.resolve(env.REPORTS_DIR ?? 'reports');
  env.REPORTS_DIR = reports;
  // Every variable checked before Playwright starts: a bad value is one message naming it.
  try {
    parseRunConfig(env);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    refuse(reports, err.message.split('\n').join('; '));
  }
  const target = resolveOrReport(env, reports);
  if (env.REFERENCE_FAULT) {
    const { FAULTS } = await import('../reference/faults.ts');
    const names = FAULTS.map((f) => f.name);
    if (!names.includes(env.REFERENCE_FAULT))
      refuse(
        reports,
        `unknown fault "${env.REFERENCE_FAULT}"${didYouMean(env.REFERENCE_FAULT, names)}; the faults are listed in reference/faults/ (${names.length} of them)`,
      );
  }
  if (target.embedded && target.referencePort !== undefined) {
    // The reference binds one port per surface it serves, whichever the run tests.
    for (let i = 0; i < REFERENCE_PORT_ORDER.length; i++) {
      const port = target.referencePort + i;
      if (!(await portFree(port)))
        refuse(
          reports,
          `port ${port} on 127.0.0.1 is in use, so the embedded reference cannot start there; stop what holds it or set REFERENCE_PORT to another base`,
        );
    }
  }

  const record = flags.get('record');
  // --load: the conformance projects, then the named load profiles, whose runs the reporter
  // joins into the one conformance.json it writes (load/gate-reporter.ts); only --load sets it.
  const load = flags.get('load');
  delete env.CONFORMANCE_LOAD;
  if (load !== undefined) {
    if (record !== undefined)
      throw new UsageError('--load and --record cannot be combined: a recording replays the conformance projects only');
    if (rest.some((a) => a.startsWith('--shard')))
      throw new UsageError(
        '--load and --shard cannot be combined: load the target once, after merge-reports, with load --profile NAME --conformance reports/conformance.json',
      );
    env.CONFORMANCE_LOAD = await loadProfilesFlag(load);
  }
  if (record === undefined) return playwright(rest, env);

  // One seed for every property, so the replay draws the same inputs.
  env.FC_SEED ??= String(randomInt(1, 2 ** 31 - 1));
  const dir = mkdtempSync(path.join(os.tmpdir(), 'conformance-record-'));
  env.CONFORMANCE_RECORD_DIR = dir;
  try {
    const code = await playwright(rest, env);
    const entries = joinTape(
      readdirSync(dir)
        .filter((f) => f.endsWith('.jsonl'))
        .flatMap((f) => readFileSync(path.join(dir, f), 'utf8').split('\n').filter(Boolean)),
    );
    const meta: RecordingMeta = {
      target: { name: target.name, entry: target.recipe.entry, variables: target.recipe.variables },
      args: rest,
      env: Object.fromEntries(REPLAYED_SETTINGS.filter((k) => env[k] !== undefined).map((k) => [k, env[k]!])),
      // What stands in for each credential on replay: no secret, only its form (lib/cassette.ts).
      placeholders: placeholdersOf(target, [DEFAULT_API_KEY_PREFIX]),
      ...(verdictIn(reports) ? { verdict: verdictIn(reports)! } : {}),
    };
    writeFileSync(path.resolve(record), JSON.stringify(toHar(entries, meta, packageVersion()), null, 1) + '\n');
    process.stdout.write(
      `recorded ${entries.length} exchanges to ${record} (HAR 1.2, credentials redacted); judge it again with: workflow-conformance replay ${record}\n`,
    );
    return code;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** --load's value, checked before Playwright starts: `all`, or names of load profiles separated by commas. */
async function loadProfilesFlag(value: string): Promise<string> {
  const { PROFILES, loadProfilesNamed } = await import('../load/profiles/index.ts');
  const known = PROFILES.map((p) => p.name);
  const { profiles, unknown } = loadProfilesNamed(value);
  if (unknown !== undefined)
    throw new UsageError(
      `--load: unknown profile "${unknown}"${didYouMean(unknown, known)}; known: ${known.join(', ')}, or all`,
    );
  if (profiles.length === 0)
    throw new UsageError(`--load needs profile names separated by commas, or all; known: ${known.join(', ')}`);
  return value;
}

function verdictIn(reports: string): string | undefined {
  try {
    return (
      JSON.parse(readFileSync(path.join(reports, 'conformance.json'), 'utf8')) as { summary?: { verdict?: string } }
    ).summary?.verdict;
  } catch {
    return undefined;
  }
}

export async function replaySuite(args: string[]): Promise<number> {
  const { flags, rest } = splitArgs(args, ['reports']);
  const file = rest.shift();
  if (!file) throw new UsageError('replay needs the recording: workflow-conformance replay FILE');
  if (!existsSync(file)) throw new UsageError(`${file}: no such file`);
  let har: Har;
  try {
    har = JSON.parse(readFileSync(file, 'utf8')) as Har;
  } catch (err) {
    throw new UsageError(`${file} is not JSON: ${(err as Error).message}`);
  }
  const meta = har.log?._conformance;
  if (!meta)
    throw new UsageError(
      `${file} is a HAR file, but not one recorded by workflow-conformance run --record (no log._conformance)`,
    );
  // Traffic the proxy kept (proxy --record) has no specs to run again: it is judged again as check-har judges it.
  if (meta.passive) {
    const { checkHarCommand } = await import('./passive.ts');
    return checkHarCommand([
      file,
      '--surface',
      meta.passive.surface,
      '--base-url',
      meta.passive.base_url,
      ...(flags.has('reports') ? ['--reports', flags.get('reports')!] : []),
    ]);
  }

  // The recorded target, rebuilt from its entry as written: every credential variable
  // it used gets a placeholder (nothing is sent, and the recording holds no secret).
  const dir = mkdtempSync(path.join(os.tmpdir(), 'conformance-replay-'));
  const targets = path.join(dir, 'targets.yaml');
  writeFileSync(targets, stringify({ targets: { [meta.target.name]: meta.target.entry } }));
  const env: Env = environment();
  for (const k of [
    'TARGET_SURFACE',
    'TARGET_BASE_URL',
    'TARGET_TOKEN',
    'TARGET_TOKEN_SOURCE',
    'REFERENCE_PORT',
    'REFERENCE_FAULT',
    'REFERENCE_CONTROL',
    'CONFORMANCE_RECORD_DIR',
    ...REPLAYED_SETTINGS,
  ])
    delete env[k];
  for (const v of meta.target.variables) env[v] = meta.placeholders?.[v] ?? `replayed-placeholder-${v.toLowerCase()}`;
  Object.assign(env, meta.env, {
    TARGETS_FILE: targets,
    TARGET: meta.target.name,
    CONFORMANCE_REPLAY: path.resolve(file),
  });
  env.REPORTS_DIR = path.resolve(flags.get('reports') ?? env.REPORTS_DIR ?? 'reports');
  if (!runConfig().quiet) {
    process.stdout.write(
      `replaying ${file}: ${har.log.entries.length} exchanges of target "${meta.target.name}"` +
        `${meta.verdict ? ` (recorded verdict: ${meta.verdict})` : ''}; nothing is sent\n`,
    );
  }
  try {
    return await playwright([...meta.args, ...rest], env);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
