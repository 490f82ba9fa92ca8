// The load runner's target, chosen exactly as the suite chooses it (fixtures/targets.ts:
// TARGET, TARGETS_FILE, TARGET_SURFACE, TARGET_BASE_URL, TARGET_TOKEN); with none set the
// embedded reference is started in this process on free ports. A non-loopback target
// is refused unless its targets.yaml entry opts in with its own ceilings.
import net from 'node:net';
import path from 'node:path';
import { startReference, type RunningReference } from '../reference/server.ts';
import { loadTargetsFile, REPO_ROOT, resolveTarget, TargetConfigError, type ResolvedTarget, type SurfaceTarget } from '../lib/targets.ts';
import type { Surface } from '../lib/families.ts';

/** Ceilings no profile, override or opt-in can exceed. */
export const HARD_MAX_RATE = 2000;
export const HARD_MAX_DURATION_S = 600;
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
  /** The profile's surface on this target, or undefined when the target has none. */
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

/** Starts the embedded reference on a free range of five loopback ports. */
export async function startEmbedded(fault?: string): Promise<RunningReference> {
  let last: unknown;
  for (let attempt = 0; attempt < 30; attempt++) {
    const base = 20000 + Math.floor(Math.random() * 40000);
    const ok = await Promise.all([0, 1, 2, 3, 4].map((i) => freePort(base + i)));
    if (!ok.every(Boolean)) continue;
    try {
      return await startReference({ portBase: base, ...(fault ? { fault } : {}) });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw err;
      last = err;
    }
  }
  throw last ?? new Error('no free loopback port range for the embedded reference');
}

/** The `load:` block of the TARGET's entry: `{allow: true, max_rate, max_duration_s}`. */
function optIn(env: Env): LoadCeiling | undefined {
  if (!env.TARGET) return undefined;
  const file = env.TARGETS_FILE ? path.resolve(env.TARGETS_FILE) : path.join(REPO_ROOT, 'targets.yaml');
  const entry = loadTargetsFile(file)[env.TARGET];
  const load = entry?.load;
  if (!load || typeof load !== 'object' || Array.isArray(load)) return undefined;
  const l = load as Record<string, unknown>;
  if (l.allow !== true) return undefined;
  const rate = l.max_rate;
  const duration = l.max_duration_s;
  if (typeof rate !== 'number' || !(rate > 0) || typeof duration !== 'number' || !(duration > 0)) {
    throw new LoadSafetyError(`target ${env.TARGET}: load.allow needs positive numbers load.max_rate (requests/s) and load.max_duration_s (seconds)`);
  }
  return { maxRate: Math.min(rate, HARD_MAX_RATE), maxDurationS: Math.min(duration, HARD_MAX_DURATION_S), source: `targets.yaml ${env.TARGET}.load` };
}

/**
 * `shared`: a reference this process already started (tests and shards side by side
 * load one server); it is used as the embedded one but left running at the end.
 */
export async function openTarget(surface: Surface, env: Env = process.env, fault?: string, shared?: RunningReference): Promise<OpenTarget> {
  const adHoc = Boolean(env.TARGET || env.TARGET_SURFACE || env.TARGET_BASE_URL);
  if (!adHoc) {
    if (shared && fault) throw new TargetConfigError('a fault is switched on when the reference starts; a shared reference cannot take one');
    const reference = shared ?? (await startEmbedded(fault));
    try {
      const portBase = Number(new URL(reference.surfaces.local).port);
      const resolved = resolveTarget({ ...env, REFERENCE_PORT: String(portBase) });
      const s = resolved.surfaces.find((x) => x.surface === surface);
      return {
        resolved,
        surface: s,
        embedded: true,
        ceiling: { maxRate: HARD_MAX_RATE, maxDurationS: HARD_MAX_DURATION_S, source: 'built-in ceiling (embedded reference)' },
        close: () => (shared ? Promise.resolve() : reference.close()),
      };
    } catch (err) {
      if (!shared) await reference.close();
      throw err;
    }
  }
  if (fault) throw new TargetConfigError('--fault switches a fault on in the embedded reference; it cannot be used with TARGET or TARGET_BASE_URL');
  const resolved = resolveTarget(env);
  const s = resolved.surfaces.find((x) => x.surface === surface);
  let ceiling: LoadCeiling = { maxRate: HARD_MAX_RATE, maxDurationS: HARD_MAX_DURATION_S, source: 'built-in ceiling (loopback target)' };
  const remote = resolved.surfaces.filter((x) => !isLoopback(x.baseUrl));
  if (remote.length > 0) {
    const opted = optIn(env);
    if (!opted) {
      throw new LoadSafetyError(
        `refusing to load ${remote.map((x) => x.baseUrl).join(', ')}: not a loopback address. ` +
          'Opt in from the target\'s targets.yaml entry with `load: {allow: true, max_rate: <requests/s>, max_duration_s: <seconds>}` and select it with TARGET=<name>.',
      );
    }
    ceiling = opted;
  }
  return { resolved, surface: s, embedded: false, ceiling, close: async () => {} };
}
