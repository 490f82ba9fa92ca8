// The run configuration and the target it names, once per process: the CLI writes its
// flags over the environment of the process it starts (flags.ts), env.ts reads that
// environment, and lib/targets.ts joins it with the targets file. Everything else takes
// these, or is handed them.
import { resolveTarget, type ResolvedTarget } from '../targets.ts';
import { environment, resetRunConfig as resetEnvironment } from './env.ts';

export * from './env.ts';
export * from './flags.ts';

const resolved = new Map<number | undefined, ResolvedTarget>();

/**
 * This process's target, resolved once (a TargetConfigError, when the configuration is
 * wrong, is thrown again at each call). `referencePort`: the embedded reference at another
 * port base (a harness may run several, fixtures/harness.ts), resolved once per base.
 */
export function resolvedTarget(referencePort?: number): ResolvedTarget {
  let r = resolved.get(referencePort);
  if (!r) {
    const env = environment();
    r = resolveTarget(referencePort !== undefined ? { ...env, REFERENCE_PORT: String(referencePort) } : env);
    resolved.set(referencePort, r);
  }
  return r;
}

/** Forgets the configuration and the targets read so far (for tests that change the environment). */
export function resetRunConfig(): void {
  resetEnvironment();
  resolved.clear();
}
