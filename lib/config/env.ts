// The one module that reads the process environment (test/unit/config.test.ts keeps it
// so). Every variable the suite understands is read here once per process, checked, and
// turned into a typed field of RunConfig; the rest of the suite asks `runConfig()` (or is
// handed the config) and never looks at the environment itself.
//
// Precedence, as it always was: command-line flags (the CLI writes them into the
// environment of the Playwright or load process it starts) > the environment > the
// targets file (lib/targets.ts resolves it, `TARGET_BASE_URL`/`TARGET_TOKEN` override an
// entry) > the defaults below.
//
// Playwright runs its config in the main process and again in every worker; each reads
// its own copy once. What one process hands to the processes it starts (the circuit
// breaker's folder, a recording's folder) is written with `exportToChildren`, here too.
import path from 'node:path';

/** The run profiles (lib/profile.ts): `quick` for every push, `full` before a release. */
export type ProfileName = 'quick' | 'full';

export type Env = Record<string, string | undefined>;

export class ConfigError extends Error {
  override name = 'ConfigError';
  /** What could be read, each bad value at its default: enough to write the report that says so. */
  constructor(
    message: string,
    readonly partial: RunConfig,
  ) {
    super(message);
  }
}

/** The suite-chosen bounds (lib/time.ts, lib/http.ts, lib/circuit.ts): each a positive number a variable raises. */
export interface Bounds {
  /** CONFORMANCE_HTTP_TIMEOUT_MS: one exchange (default 15 000). */
  httpTimeoutMs: number;
  /** CONFORMANCE_MAX_BODY_BYTES: one response body (default 16 MiB). */
  maxBodyBytes: number;
  /** CONFORMANCE_JOB_DEADLINE_MS: a job, prompt or queued request to finish (default 30 000). */
  jobDeadlineMs: number;
  /** CONFORMANCE_STREAM_GRACE_MS: a v1 stream's end after the polled end (default 5 000). */
  streamGraceMs: number;
  /** CONFORMANCE_RETRY_AFTER_MAX_MS: the longest Retry-After waited out (default 60 000). */
  retryAfterMaxMs: number;
  /** CONFORMANCE_LIST_WALK_MAX_PAGES: pages of one unscoped job-list walk (default 1000). */
  listWalkMaxPages: number;
  /** CONFORMANCE_PROBE_TIMEOUT_MS: the preflight's wait per surface (default 10 000). */
  probeTimeoutMs: number;
  /** CONFORMANCE_CIRCUIT_TIMEOUTS: timeouts in a row that open an origin's breaker (default 3). */
  circuitTimeouts: number;
}

export interface RunConfig {
  /**
   * The target as the variables choose it; lib/targets.ts resolves it with the targets file
   * (`resolvedTarget()` in lib/config/index.ts, once per process).
   */
  target: {
    /** TARGET: an entry of the targets file. */
    name?: string;
    /** TARGETS_FILE, as given (lib/targets.ts resolves it against the working folder). */
    file?: string;
    /** TARGET_SURFACE. */
    surface?: string;
    /** TARGET_BASE_URL. */
    baseUrl?: string;
    /** TARGET_TOKEN (a secret: redacted wherever it could show). */
    token?: string;
    /** TARGET_TOKEN_SOURCE: the variable `--token-env` named, for messages. */
    tokenSource?: string;
    /** REFERENCE_PORT: the embedded reference's first port. */
    referencePort?: number;
  };
  /** REPORTS_DIR, absolute (default ./reports of the working folder). */
  reportsDir: string;
  /** CONFORMANCE_PROFILE: quick (default) or full. */
  profile: ProfileName;
  /** CONFORMANCE_STRICT: SHOULD failures fail the run too. */
  strict: boolean;
  /** CONFORMANCE_BASELINE: an expected-failures file. */
  baseline?: string;
  /** CONFORMANCE_QUIET: reports only, no console listing. */
  quiet: boolean;
  /** CONFORMANCE_SHARD: write a blob report for merge-reports. */
  shard: boolean;
  /** CONFORMANCE_EXPLORE: run the contract-driven explorer (set by `explore`). */
  explore: boolean;
  /** CI: any non-empty value (set by CI services, not by the suite). */
  ci: boolean;
  /** REFERENCE_FAULT / REFERENCE_CONTROL: a fault or control of the embedded reference. */
  fault?: string;
  control?: string;
  /** CONFORMANCE_SEEDS: the user's copy of the seeds (run --seeds); SEEDS_DIR: the project's own, for its tools. */
  seeds: { run?: string; dev?: string };
  /** FC_SEED, FC_PATH, FC_NUM_RUNS, FC_MAX_COMMANDS: replay or resize property checks; MODEL_TRACE: print state-machine runs. */
  property: { seed?: number; path?: string; numRuns?: number; maxCommands?: number; trace: boolean };
  bounds: Bounds;
  /** State one run shares between its processes, set by the suite itself. */
  run: {
    /** CONFORMANCE_CIRCUIT_DIR: the breaker's shared folder (cli/run-start.ts sets it). */
    circuitDir?: string;
    /** CONFORMANCE_REPLAY: the recording a replay answers from. */
    replay?: string;
    /** CONFORMANCE_RECORD_DIR: where a recorded run's workers write their exchanges. */
    recordDir?: string;
    /**
     * CONFORMANCE_LOAD: the load profiles `run --load` names (`all`, or names separated by commas), run after the
     * projects and joined into their report before it is written.
     */
    load?: string;
    /** TEST_WORKER_INDEX (Playwright's): this process is a test worker, not the main process. */
    worker: boolean;
  };
  /** BENCH_DURATION, BENCH_CONNECTIONS, BENCH_OPEN_STEP_S, BENCH_ROUNDS: bench/run.ts. */
  bench: { durationS: number; connections: number; openStepS: number; rounds: number };
}

/** Every variable RunConfig reads (test/unit/config.test.ts holds the table of docs/gating-your-server.md to it). */
export const CONFIG_VARIABLES = [
  'TARGET',
  'TARGETS_FILE',
  'TARGET_SURFACE',
  'TARGET_BASE_URL',
  'TARGET_TOKEN',
  'TARGET_TOKEN_SOURCE',
  'REFERENCE_PORT',
  'REPORTS_DIR',
  'CONFORMANCE_PROFILE',
  'CONFORMANCE_STRICT',
  'CONFORMANCE_BASELINE',
  'CONFORMANCE_QUIET',
  'CONFORMANCE_SHARD',
  'CONFORMANCE_EXPLORE',
  'CI',
  'REFERENCE_FAULT',
  'REFERENCE_CONTROL',
  'CONFORMANCE_SEEDS',
  'SEEDS_DIR',
  'FC_SEED',
  'FC_PATH',
  'FC_NUM_RUNS',
  'FC_MAX_COMMANDS',
  'MODEL_TRACE',
  'CONFORMANCE_HTTP_TIMEOUT_MS',
  'CONFORMANCE_MAX_BODY_BYTES',
  'CONFORMANCE_JOB_DEADLINE_MS',
  'CONFORMANCE_STREAM_GRACE_MS',
  'CONFORMANCE_RETRY_AFTER_MAX_MS',
  'CONFORMANCE_LIST_WALK_MAX_PAGES',
  'CONFORMANCE_PROBE_TIMEOUT_MS',
  'CONFORMANCE_CIRCUIT_TIMEOUTS',
  'CONFORMANCE_CIRCUIT_DIR',
  'CONFORMANCE_REPLAY',
  'CONFORMANCE_RECORD_DIR',
  'CONFORMANCE_LOAD',
  'TEST_WORKER_INDEX',
  'BENCH_DURATION',
  'BENCH_CONNECTIONS',
  'BENCH_OPEN_STEP_S',
  'BENCH_ROUNDS',
] as const;

export type ConfigVariable = (typeof CONFIG_VARIABLES)[number];

/** Reads typed values, collecting every bad one; an empty value counts as unset. */
class Reader {
  readonly problems: string[] = [];
  constructor(private readonly env: Env) {}

  text(name: ConfigVariable): string | undefined {
    const v = this.env[name];
    return v === undefined || v === '' ? undefined : v;
  }

  private bad(name: ConfigVariable, value: string, want: string): undefined {
    this.problems.push(`${name}="${value}" is not ${want}`);
    return undefined;
  }

  /** `1`/`true` on, `0`/`false` off. */
  flag(name: ConfigVariable): boolean {
    const v = this.text(name);
    if (v === undefined || v === '0' || v === 'false') return false;
    if (v === '1' || v === 'true') return true;
    this.bad(name, v, '1, true, 0 or false');
    return false;
  }

  positive(name: ConfigVariable, fallback: number, integer = false): number {
    const v = this.text(name);
    if (v === undefined) return fallback;
    const n = Number(v.trim());
    if (v.trim() === '' || !Number.isFinite(n) || n <= 0 || (integer && !Number.isInteger(n)))
      return this.bad(name, v, integer ? 'a positive whole number' : 'a positive number') ?? fallback;
    return n;
  }

  /** A positive whole number, or undefined when unset (or bad: then a problem is recorded). */
  optionalCount(name: ConfigVariable): number | undefined {
    if (this.text(name) === undefined) return undefined;
    const n = this.positive(name, Number.NaN, true);
    return Number.isNaN(n) ? undefined : n;
  }

  integer(name: ConfigVariable): number | undefined {
    const v = this.text(name);
    if (v === undefined) return undefined;
    const n = Number(v.trim());
    return Number.isSafeInteger(n) && v.trim() !== '' ? n : this.bad(name, v, 'a whole number');
  }

  oneOf<T extends string>(name: ConfigVariable, values: readonly T[], fallback: T): T {
    const v = this.text(name);
    if (v === undefined) return fallback;
    if ((values as readonly string[]).includes(v)) return v as T;
    return this.bad(name, v, `one of ${values.join(', ')}`) ?? fallback;
  }

  port(name: ConfigVariable): number | undefined {
    const v = this.text(name);
    if (v === undefined) return undefined;
    const n = Number(v);
    if (!Number.isInteger(n) || n < 1024 || n > 65000) return this.bad(name, v, 'a usable port (1024..65000)');
    return n;
  }
}

/**
 * The run configuration an environment describes, every value checked: a bad value is one
 * ConfigError naming each variable at fault. Pure (tests and the CLI call it on an
 * environment of their own); `runConfig()` is this process's.
 */
export function parseRunConfig(env: Env, cwd: string = process.cwd()): RunConfig {
  const r = new Reader(env);
  const opt = <K extends string, V>(key: K, value: V | undefined): { [k in K]?: V } =>
    value === undefined ? {} : ({ [key]: value } as { [k in K]: V });
  const config: RunConfig = {
    target: {
      ...opt('name', r.text('TARGET')),
      ...opt('file', r.text('TARGETS_FILE')),
      ...opt('surface', r.text('TARGET_SURFACE')),
      ...opt('baseUrl', r.text('TARGET_BASE_URL')),
      ...opt('token', r.text('TARGET_TOKEN')),
      ...opt('tokenSource', r.text('TARGET_TOKEN_SOURCE')),
      ...opt('referencePort', r.port('REFERENCE_PORT')),
    },
    reportsDir: path.resolve(cwd, r.text('REPORTS_DIR') ?? 'reports'),
    profile: r.oneOf('CONFORMANCE_PROFILE', ['quick', 'full'] as const, 'quick'),
    strict: r.flag('CONFORMANCE_STRICT'),
    ...opt('baseline', r.text('CONFORMANCE_BASELINE')),
    quiet: r.flag('CONFORMANCE_QUIET'),
    shard: r.flag('CONFORMANCE_SHARD'),
    explore: r.flag('CONFORMANCE_EXPLORE'),
    ci: r.text('CI') !== undefined,
    ...opt('fault', r.text('REFERENCE_FAULT')),
    ...opt('control', r.text('REFERENCE_CONTROL')),
    seeds: { ...opt('run', r.text('CONFORMANCE_SEEDS')), ...opt('dev', r.text('SEEDS_DIR')) },
    property: {
      ...opt('seed', r.integer('FC_SEED')),
      ...opt('path', r.text('FC_PATH')),
      ...opt('numRuns', r.optionalCount('FC_NUM_RUNS')),
      ...opt('maxCommands', r.optionalCount('FC_MAX_COMMANDS')),
      trace: r.flag('MODEL_TRACE'),
    },
    bounds: {
      httpTimeoutMs: r.positive('CONFORMANCE_HTTP_TIMEOUT_MS', 15_000),
      maxBodyBytes: r.positive('CONFORMANCE_MAX_BODY_BYTES', 16 * 1024 * 1024),
      jobDeadlineMs: r.positive('CONFORMANCE_JOB_DEADLINE_MS', 30_000),
      streamGraceMs: r.positive('CONFORMANCE_STREAM_GRACE_MS', 5_000),
      retryAfterMaxMs: r.positive('CONFORMANCE_RETRY_AFTER_MAX_MS', 60_000),
      listWalkMaxPages: Math.floor(r.positive('CONFORMANCE_LIST_WALK_MAX_PAGES', 1000)),
      probeTimeoutMs: r.positive('CONFORMANCE_PROBE_TIMEOUT_MS', 10_000),
      circuitTimeouts: r.positive('CONFORMANCE_CIRCUIT_TIMEOUTS', 3, true),
    },
    run: {
      ...opt('circuitDir', r.text('CONFORMANCE_CIRCUIT_DIR')),
      ...opt('replay', r.text('CONFORMANCE_REPLAY')),
      ...opt('recordDir', r.text('CONFORMANCE_RECORD_DIR')),
      ...opt('load', r.text('CONFORMANCE_LOAD')),
      worker: env.TEST_WORKER_INDEX !== undefined,
    },
    bench: {
      durationS: r.positive('BENCH_DURATION', 5),
      connections: r.positive('BENCH_CONNECTIONS', 32, true),
      openStepS: r.positive('BENCH_OPEN_STEP_S', 3),
      rounds: r.positive('BENCH_ROUNDS', 3, true),
    },
  };
  if (r.problems.length > 0) throw new ConfigError(r.problems.join('\n'), config);
  return config;
}

// --- this process's environment, read once ---------------------------------------------

let snapshot: Env | undefined;
let memo: { config: RunConfig } | { error: ConfigError } | undefined;

/**
 * A copy of this process's environment, taken at the first call: what lib/targets.ts
 * resolves `*_env` credentials from, and what a child process is started with.
 */
export function environment(): Env {
  snapshot ??= { ...process.env };
  return { ...snapshot };
}

/** This process's run configuration: read and checked once, the same object after. Throws ConfigError on a bad value. */
export function runConfig(): RunConfig {
  memo ??= (() => {
    try {
      return { config: parseRunConfig(environment()) };
    } catch (err) {
      if (err instanceof ConfigError) return { error: err };
      throw err;
    }
  })();
  if ('error' in memo) throw memo.error;
  return memo.config;
}

/** This process's run configuration, or, when a value is bad, what could be read (for a report saying so). */
export function runConfigOrDefaults(): RunConfig {
  try {
    return runConfig();
  } catch (err) {
    if (err instanceof ConfigError) return err.partial;
    throw err;
  }
}

/**
 * Hands variables to the processes this one starts (Playwright's workers inherit the main
 * process's environment); this process's configuration sees them too. `onlyIfUnset` keeps
 * a value already given.
 */
export function exportToChildren(vars: Env, onlyIfUnset = false): void {
  for (const [name, value] of Object.entries(vars)) {
    if (onlyIfUnset && process.env[name] !== undefined) continue;
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  resetRunConfig();
}

/** Forgets what was read, so the next call reads the environment again (for tests that change it). */
export function resetRunConfig(): void {
  snapshot = undefined;
  memo = undefined;
}
