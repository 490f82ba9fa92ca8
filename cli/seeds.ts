// `seeds`: the seed statements with their locators (W:217:ae18d5395772), read from the
// user's copy of the seeds found where the README lays it out (lib/seeds/runtime.ts): the
// way to find the statement a report names, or to write a baseline's reason. The
// repository's `npm run seed:statements` prints the same.
import { isSeedLetter, loadSeeds } from '../lib/seeds/statements.ts';
import path from 'node:path';
import { findSeedsDir, holdsSeeds } from '../lib/seeds/runtime.ts';
import { environment } from '../lib/config/env.ts';
import { splitArgs, UsageError } from './args.ts';

export function seedsCommand(args: string[]): number {
  const { flags, rest } = splitArgs(args, ['seeds', 'section'], ['json']);
  const unknown = rest.find((a) => !isSeedLetter(a));
  if (unknown !== undefined)
    throw new UsageError(`seeds: unknown argument "${unknown}"; seeds [W|R] [--section TEXT] [--json] [--seeds DIR]`);
  // A folder given is the only one looked at; without one, the README's places in order.
  const given = flags.get('seeds');
  const dir =
    given !== undefined
      ? holdsSeeds(path.resolve(given))
        ? path.resolve(given)
        : undefined
      : findSeedsDir(environment());
  const seeds = dir ? loadSeeds(dir) : undefined;
  if (!seeds) {
    throw new UsageError(
      flags.has('seeds')
        ? `--seeds ${flags.get('seeds')}: no 000_*.txt and 001_*.txt there`
        : 'no copy of the seeds found: give --seeds DIR (the folder holding 000_*.txt and 001_*.txt), set ' +
            'SEEDS_DIR, or put them in seeds/ beside your targets file or in ../shared/seeds',
    );
  }
  const only = rest.find(isSeedLetter);
  const section = flags.get('section')?.toLowerCase();
  const list = (only ? seeds[only] : [...seeds.W, ...seeds.R]).filter(
    (s) => !section || s.section.toLowerCase().includes(section),
  );
  if (flags.has('json')) process.stdout.write(`${JSON.stringify(list, null, 1)}\n`);
  else for (const s of list) process.stdout.write(`${s.seed}:${s.line}:${s.sha}  [${s.section}]  ${s.text}\n`);
  return 0;
}
