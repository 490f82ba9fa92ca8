// The command line's part of the run configuration: each flag of `run` (and of `explore`
// and `load`, which take the target flags too) sets one variable, and a flag wins over the
// variable. The CLI writes them into the environment of the process it starts, where
// lib/config/env.ts reads them with the rest.
import path from 'node:path';
import type { Env } from './env.ts';

/** Each flag and the variable it sets. */
export const FLAG_ENV: Readonly<Record<string, string>> = {
  target: 'TARGET',
  'targets-file': 'TARGETS_FILE',
  surface: 'TARGET_SURFACE',
  'base-url': 'TARGET_BASE_URL',
  reports: 'REPORTS_DIR',
  profile: 'CONFORMANCE_PROFILE',
  baseline: 'CONFORMANCE_BASELINE',
  fault: 'REFERENCE_FAULT',
  seeds: 'CONFORMANCE_SEEDS',
};

/** The flags that choose a target (the load runner takes these alone). */
export const TARGET_FLAGS = ['target', 'targets-file', 'surface', 'base-url'] as const;

/**
 * `base` with the given flags written over it (a flag wins over the variable), files made
 * absolute: the child runs in the same folder, but a path must mean what the user meant.
 */
export function withFlags(
  base: Env,
  flags: ReadonlyMap<string, string>,
  names: readonly string[] = Object.keys(FLAG_ENV),
): Env {
  const env: Env = { ...base };
  for (const flag of names) if (flags.has(flag) && FLAG_ENV[flag]) env[FLAG_ENV[flag]] = flags.get(flag);
  if (env.TARGETS_FILE) env.TARGETS_FILE = path.resolve(env.TARGETS_FILE);
  return env;
}
