// The user's own copy of the seeds, read at run time, so a failure can show the statement
// its rule rests on. The project ships no seed text: the copy is looked for where the
// README lays it out (findSeedsDir), and without one a failure names the section and line.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { loadSeeds, resolveRef, seedFile, type SeedRef, type SeedStatements } from './statements.ts';
import { environment, type Env } from '../config/env.ts';

/** This checkout (or installed package): `../shared/seeds` beside it is the README's layout. */
const PACKAGE_ROOT = path.resolve(import.meta.dirname, '../..');

export interface SeedPlaces {
  cwd?: string;
  packageRoot?: string;
}

/** Whether `dir` holds both seed documents (000_*.txt and 001_*.txt). */
export const holdsSeeds = (dir: string): boolean => {
  try {
    return existsSync(dir) && seedFile(dir, 'W') !== undefined && seedFile(dir, 'R') !== undefined;
  } catch {
    return false;
  }
};

/**
 * The first folder holding both seed documents, in this order: --seeds (CONFORMANCE_SEEDS),
 * SEEDS_DIR, a seeds/ folder beside the targets file, one in the working folder, then
 * ../shared/seeds beside the working folder and beside this checkout. Undefined when none does.
 */
export function findSeedsDir(
  env: Env = environment(),
  { cwd = process.cwd(), packageRoot = PACKAGE_ROOT }: SeedPlaces = {},
): string | undefined {
  const candidates = [
    env.CONFORMANCE_SEEDS,
    env.SEEDS_DIR,
    env.TARGETS_FILE ? path.join(path.dirname(path.resolve(cwd, env.TARGETS_FILE)), 'seeds') : undefined,
    path.join(cwd, 'seeds'),
    path.resolve(cwd, '../shared/seeds'),
    path.resolve(packageRoot, '../shared/seeds'),
  ];
  return candidates
    .filter((d): d is string => !!d)
    .map((d) => path.resolve(cwd, d))
    .find(holdsSeeds);
}

let loaded: { dir: string | undefined; seeds: SeedStatements | undefined } | undefined;

export function runSeeds(dir: string | undefined = findSeedsDir()): SeedStatements | undefined {
  if (!loaded || loaded.dir !== dir) {
    let seeds: SeedStatements | undefined;
    try {
      seeds = dir ? loadSeeds(dir) : undefined;
    } catch {
      seeds = undefined;
    }
    loaded = { dir, seeds };
  }
  return loaded.seeds;
}

/** The statement a locator names, from the run's copy of the seeds; undefined without one or when it moved. */
export function statementText(ref: Pick<SeedRef, 'seed' | 'line' | 'sha'>, seeds = runSeeds()): string | undefined {
  if (!seeds) return undefined;
  const hit = resolveRef(seeds, ref);
  return typeof hit === 'string' ? undefined : hit.text;
}

/** The names a broken check speaks of: quoted or backticked words, snake_case names, path segments. */
function namesIn(text: string): Set<string> {
  const names = new Set<string>();
  for (const m of text.matchAll(/['"`]([A-Za-z_][\w.-]{0,60})['"`]/g)) names.add(m[1].toLowerCase());
  for (const m of text.matchAll(/\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b/gi)) names.add(m[0].toLowerCase());
  for (const m of text.matchAll(/\/([a-z_][\w]*)/gi)) names.add(m[1].toLowerCase());
  return names;
}

/** How many statements a failure quotes. */
export const QUOTED = 3;

/**
 * The statements of `rule` a failure quotes: the table row of a member the check names
 * first (a missing `url_expires_at` quotes that row, not the rows before it), then the
 * statements naming it, then the rule's first statements. At most QUOTED.
 */
export function quotedRefs<R extends Pick<SeedRef, 'seed' | 'line' | 'sha'>>(
  rule: { seed_refs: readonly R[] },
  result: { what: string; expected?: string; received?: string },
  seeds = runSeeds(),
): R[] {
  // What was looked at and expected name the member; what came back (a whole body) names
  // every member it has, so it is read only when the others name none.
  let names = namesIn(`${result.what}\n${result.expected ?? ''}`);
  if (names.size === 0) names = namesIn(result.received ?? '');
  if (!seeds || names.size === 0) return rule.seed_refs.slice(0, QUOTED);
  const score = (ref: R): number => {
    const text = statementText(ref, seeds);
    if (!text) return 0;
    const row = /^\|\s*`?([^|`]+?)`?\s*\|/.exec(text);
    if (row && names.has(row[1].trim().toLowerCase())) return 100;
    const lower = text.toLowerCase();
    return [...names].filter(
      (n) =>
        n.length > 2 &&
        new RegExp(`(^|[^a-z0-9_])${n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}([^a-z0-9_]|$)`).test(lower),
    ).length;
  };
  const scored = rule.seed_refs.map((ref, i) => ({ ref, i, s: score(ref) }));
  const named = scored.filter((x) => x.s > 0).sort((a, b) => b.s - a.s || a.i - b.i);
  if (named.length === 0) return rule.seed_refs.slice(0, QUOTED);
  return [...named.map((x) => x.ref), ...rule.seed_refs.filter((r) => !named.some((x) => x.ref === r))].slice(
    0,
    QUOTED,
  );
}
