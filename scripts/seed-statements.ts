// Lists the seed statements with their locators, read from the user's copy of the seeds
// (SEEDS_DIR or ../shared/seeds): the way to write a seed_refs entry or a trace line.
//   npx tsx scripts/seed-statements.ts [W|R] [--section TEXT] [--json]
import { defaultSeedsDir, isSeedLetter, loadSeeds } from '../lib/seeds/statements.ts';
import { runConfig } from '../lib/config/env.ts';

const args = process.argv.slice(2);
const dir = defaultSeedsDir(runConfig().seeds.dev);
const seeds = dir ? loadSeeds(dir) : undefined;
if (!seeds) {
  console.error('no seeds found: set SEEDS_DIR to the folder holding 000_*.txt and 001_*.txt');
  process.exit(2);
}
const only = args.find(isSeedLetter);
const sectionAt = args.indexOf('--section');
const section = sectionAt >= 0 ? args[sectionAt + 1]?.toLowerCase() : undefined;
const list = (only ? seeds[only] : [...seeds.W, ...seeds.R]).filter(
  (s) => !section || s.section.toLowerCase().includes(section),
);
if (args.includes('--json')) console.log(JSON.stringify(list, null, 1));
else for (const s of list) console.log(`${s.seed}:${s.line}:${s.sha}  [${s.section}]  ${s.text}`);
