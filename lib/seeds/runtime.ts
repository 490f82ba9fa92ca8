// The user's own copy of the seeds, read at run time when a run names it (`run --seeds
// DIR`, or a seeds/ folder beside the targets file; CONFORMANCE_SEEDS carries it to the
// workers), so a failure can show the statement its rule rests on. The project ships no
// seed text: without a copy, a failure names the section and line only.
import { loadSeeds, resolveRef, type SeedRef, type SeedStatements } from './statements.ts';
import { runConfig } from '../config/env.ts';

let loaded: { dir: string | undefined; seeds: SeedStatements | undefined } | undefined;

export function runSeeds(dir: string | undefined = runConfig().seeds.run): SeedStatements | undefined {
  if (!loaded || loaded.dir !== dir) {
    let seeds: SeedStatements | undefined;
    try {
      seeds = dir ? loadSeeds(dir) : undefined;
    } catch {
      seeds = undefined;
    }
    loaded = { dir, seeds };
  }
  return loaded!.seeds;
}

/** The statement a locator names, from the run's copy of the seeds; undefined without one or when it moved. */
export function statementText(ref: Pick<SeedRef, 'seed' | 'line' | 'sha'>, seeds = runSeeds()): string | undefined {
  if (!seeds) return undefined;
  const hit = resolveRef(seeds, ref);
  return typeof hit === 'string' ? undefined : hit.text;
}
