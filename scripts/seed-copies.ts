// Lists every run of eight or more consecutive words of seed prose in the tracked files
// (the scan test/unit/seed-copies.test.ts fails on), with counts by length.
//   npm run seed:copies [-- --all]    (--all: ignore the allow-list)
import path from 'node:path';
import { describeCopy, indexSeeds, scanProject } from '../lib/seeds/copies.ts';
import { ALLOWED_SEED_PHRASES } from '../lib/seeds/allowed-phrases.ts';
import { defaultSeedsDir } from '../lib/seeds/statements.ts';
import { runConfig } from '../lib/config/env.ts';

const dir = defaultSeedsDir(runConfig().seeds.dev);
const index = dir ? indexSeeds(dir) : undefined;
if (!index) {
  console.error('no seeds found: set SEEDS_DIR to the folder holding 000_*.txt and 001_*.txt');
  process.exit(2);
}
const started = performance.now();
const cpu = process.cpuUsage();
const { files, copies } = scanProject(
  index,
  path.resolve(import.meta.dirname, '..'),
  process.argv.includes('--all') ? [] : ALLOWED_SEED_PHRASES,
);
const used = process.cpuUsage(cpu);
const ms = `${Math.round(performance.now() - started)} ms (${Math.round((used.user + used.system) / 1000)} ms CPU)`;
for (const c of copies) console.log(describeCopy(c));
const short = copies.filter((c) => c.length < 10).length;
console.log(
  `${files} files in ${ms}: ${copies.length} runs of 8+ seed words (${short} of 8-9, ${copies.length - short} of 10+)`,
);
process.exitCode = copies.length ? 1 : 0;
