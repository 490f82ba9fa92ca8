// The load runner's target, chosen exactly as the suite chooses it (lib/targets.ts:
// TARGET, TARGETS_FILE, TARGET_SURFACE, TARGET_BASE_URL, TARGET_TOKEN); when that is the
// embedded reference (nothing set, or TARGET_SURFACE alone) it is started in this process,
// on REFERENCE_PORT and the four ports after it when that is set, else on free ports. A
// non-loopback target is refused unless its targets.yaml entry opts in with its own ceilings.
import net from 'node:net';
import { startReference, type RunningReference } from '../reference/server.ts';
import {
  loadTargetsFile,
  REFERENCE_PORT_ORDER,
  resolveTarget,
  TargetConfigError,
  targetsFileFor,
  type ResolvedTarget,
  type SurfaceTarget,
} from '../lib/targets.ts';
import type { Surface } from '../lib/families.ts';
import { environment } from '../lib/config/env.ts';

/** Ceilings no profile, override or opt-in can exceed. */
const HARD_MAX_RATE = 2000;
const HARD_MAX_DURATION_S = 600;
export const HARD_MAX_CONNECTIONS = 200;

export interface LoadCeiling {
  maxRate: number;
  /** Warm-up plus measured seconds. */
  maxDurationS: number;
  /** Where the ceiling comes from, for the report. */
  source: string;
}

export interface OpenTarget {
  resolved: ResolvedTarget;
  /** The first of the profile's surfaces this target has, or undefined when it has none of them. */
  surface: SurfaceTarget | undefined;
  ceiling: LoadCeiling;
  embedded: boolean;
  close(): Promise<void>;
}

export class LoadSafetyError extends Error {
  override name = 'LoadSafetyError';
}

type Env = Record<string, string | undefined>;

export function isLoopback(url: string): boolean {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  if (host === 'localhost' || host === '::1') return true;
  return net.isIPv4(host) && host.startsWith('127.');
}

function freePort(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/**
 * Starts the embedded reference: on `portBase` and the ports after it when given (a busy
 * one is a configuration error naming REFERENCE_PORT), else on a free range of loopback ports.
 */
export async function startEmbedded(fault?: string, portBase?: number): Promise<RunningReference> {
  if (portBase !== undefined) {
    for (let i = 0; i < REFERENCE_PORT_ORDER.length; i++) {
      if (!(await freePort(portBase + i)))
        throw new TargetConfigError(
          `port ${portBase + i} on 127.0.0.1 is in use, so the embedded reference cannot start there ` +
            `(REFERENCE_PORT=${portBase} and the ${REFERENCE_PORT_ORDER.length - 1} ports after it); ` +
            `stop what holds it or set REFERENCE_PORT to another base`,
        );
    }
    return startReference({ portBase, ...(fault ? { fault } : {}) });
  }
  let last: Error | undefined;
  for (let attempt = 0; attempt < 30; attempt++) {
    const base = 20000 + Math.floor(Math.random() * 40000);
    const ok = await Promise.all([0, 1, 2, 3, 4].map((i) => freePort(base + i)));
    if (!ok.every(Boolean)) continue;
    try {
      return await startReference({ portBase: base, ...(fault ? { fault } : {}) });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw err;
      last = err as Error;
    }
  }
  throw last ?? new Error('no free loopback port range for the embedded reference');
}

/** The `load:` block of the TARGET's entry: `{allow: true, max_rate, max_duration_s}`. */
function optIn(env: Env): LoadCeiling | undefined {
  if (!env.TARGET) return undefined;
  const file = targetsFileFor(env);
  const entry = loadTargetsFile(file)[env.TARGET];
  const load = entry?.load;
  if (!load || typeof load !== 'object' || Array.isArray(load)) return undefined;
  const l = load as Record<string, unknown>;
  if (l.allow !== true) return undefined;
  const rate = l.max_rate;
  const duration = l.max_duration_s;
  if (typeof rate !== 'number' || !(rate > 0) || typeof duration !== 'number' || !(duration > 0)) {
    throw new LoadSafetyError(
      `target ${env.TARGET}: load.allow needs positive numbers load.max_rate (requests/s) and load.max_duration_s (seconds)`,
    );
  }
  return {
    maxRate: Math.min(rate, HARD_MAX_RATE),
    maxDurationS: Math.min(duration, HARD_MAX_DURATION_S),
    source: `targets.yaml ${env.TARGET}.load`,
  };
}

/** The first of `wanted` the target has. */
function pick(resolved: ResolvedTarget, wanted: readonly Surface[]): SurfaceTarget | undefined {
  for (const w of wanted) {
    const s = resolved.surfaces.find((x) => x.surface === w);
    if (s) return s;
  }
  return undefined;
}

/**
 * `surfaces`: the profile's, in order of preference. `shared`: a reference this process
 * already started (tests and shards side by side load one server); it is used as the
 * embedded one but left running at the end.
 */
export async function openTarget(
  surfaces: Surface | readonly Surface[],
  env: Env = environment(),
  fault?: string,
  shared?: RunningReference,
): Promise<OpenTarget> {
  const wanted: readonly Surface[] = typeof surfaces === 'string' ? [surfaces] : surfaces;
  // Resolved first, as the suite resolves it: a mistake in the target is said before anything starts.
  const chosen = resolveTarget(env);
  if (chosen.embedded) {
    if (shared && fault)
      throw new TargetConfigError(
        'a fault is switched on when the reference starts; a shared reference cannot take one',
      );
    const reference = shared ?? (await startEmbedded(fault, env.REFERENCE_PORT ? chosen.referencePort : undefined));
    try {
      const portBase = Number(new URL(reference.surfaces.local).port);
      const resolved = resolveTarget({ ...env, REFERENCE_PORT: String(portBase) });
      return {
        resolved,
        surface: pick(resolved, wanted),
        embedded: true,
        ceiling: {
          maxRate: HARD_MAX_RATE,
          maxDurationS: HARD_MAX_DURATION_S,
          source: 'built-in ceiling (embedded reference)',
        },
        close: () => (shared ? Promise.resolve() : reference.close()),
      };
    } catch (err) {
      if (!shared) await reference.close();
      throw err;
    }
  }
  if (fault)
    throw new TargetConfigError(
      '--fault switches a fault on in the embedded reference; it cannot be used with TARGET or TARGET_BASE_URL',
    );
  const resolved = chosen;
  const s = pick(resolved, wanted);
  let ceiling: LoadCeiling = {
    maxRate: HARD_MAX_RATE,
    maxDurationS: HARD_MAX_DURATION_S,
    source: 'built-in ceiling (loopback target)',
  };
  const remote = resolved.surfaces.filter((x) => !isLoopback(x.baseUrl));
  if (remote.length > 0) {
    const opted = optIn(env);
    if (!opted) {
      throw new LoadSafetyError(
        `refusing to load ${remote.map((x) => x.baseUrl).join(', ')}: not a loopback address. ` +
          "Opt in from the target's targets.yaml entry with " +
          '`load: {allow: true, max_rate: <requests/s>, max_duration_s: <seconds>}` and select it with TARGET=<name>.',
      );
    }
    ceiling = opted;
  }
  return { resolved, surface: s, embedded: false, ceiling, close: async () => {} };
}
