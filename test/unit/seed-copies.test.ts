// The project holds no seed text: every file says things in its own words and points at
// the statement by locator. This scans every tracked text file for a run of eight or more
// consecutive words of seed prose (lib/seeds/copies.ts says how words are counted); the
// seeds are read from beside this checkout (../shared/seeds, or SEEDS_DIR).
// A phrase that must stay goes in lib/seeds/allowed-phrases.ts with its reason.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import {
  describeCopy,
  findCopies,
  indexSeeds,
  indexSeedText,
  projectFiles,
  scanProject,
  type SeedIndex,
} from '../../lib/seeds/copies.ts';
import { ALLOWED_SEED_PHRASES } from '../../lib/seeds/allowed-phrases.ts';
import { defaultSeedsDir, loadSeeds, refKey, resolveRef } from '../../lib/seeds/statements.ts';
import { runConfig } from '../../lib/config/env.ts';
import { loadTrace } from '../../lib/seeds/trace.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const dir = defaultSeedsDir(runConfig().seeds.dev);
let cached: SeedIndex | undefined;
const seedIndex = (): SeedIndex => {
  assert.ok(
    dir,
    'the seeds are not beside this checkout (../shared/seeds): set SEEDS_DIR to the folder holding 000_*.txt and 001_*.txt to scan for copied seed text',
  );
  cached ??= indexSeeds(dir);
  assert.ok(cached, `${dir} lacks one of the two seed documents (000_*.txt, 001_*.txt)`);
  return cached;
};

test('no file of the project repeats eight or more consecutive words of seed prose', (t) => {
  const index = seedIndex();
  const started = performance.now();
  const cpu = process.cpuUsage();
  const { files, copies } = scanProject(index, ROOT, ALLOWED_SEED_PHRASES);
  const used = process.cpuUsage(cpu);
  t.diagnostic(
    `${files} files scanned in ${Math.round(performance.now() - started)} ms (${Math.round((used.user + used.system) / 1000)} ms CPU)`,
  );
  assert.ok(files > 100, `only ${files} files listed by git ls-files under ${ROOT}`);
  assert.deepEqual(
    copies.map(describeCopy),
    [],
    'say it in your own words and point at the statement by locator (npm run seed:statements); npm run seed:copies lists them',
  );
});

// The prose a reader meets first (the README and the pages of docs/) is where seed text would
// most easily creep back in, so the scan must list those pages.
test('the scan covers the README and every page of docs/', () => {
  const files = projectFiles(ROOT);
  const pages = files.filter((f) => f.startsWith('docs/') && f.endsWith('.md'));
  assert.ok(files.includes('README.md'), 'README.md is not scanned');
  assert.ok(pages.length >= 5, `only ${pages.length} docs pages scanned: ${pages.join(', ')}`);
});

// A made-up seed, so the counting rules are shown without quoting the real one.
const FAKE_SEED = [
  '# The title line of the document is a heading and never counted',
  '',
  '## A section heading that the locators use to name this part',
  '',
  'A client that sends the same key twice within the window gets the first answer back again.',
  'The error names the field, e.g. `the detail text that the server must send word for word here`, and nothing more.',
  'Codes: alpha beta gamma delta epsilon zeta eta theta iota kappa lambda.',
  '',
  '| Field | Notes |',
  '| - | - |',
  '| `size` | counted in bytes | the number is never negative and is rounded down to a whole |',
].join('\n');

test('counting: a copied sentence is found with its line and seed line; headings, backquoted text, lists and cell borders are not copies', () => {
  const index = indexSeedText({ W: FAKE_SEED });
  const scan = (text: string) => findCopies(index, 'x.ts', text);
  const copied = scan(
    'const a = 1;\n// Note: a client that sends the same key twice within\n// the window gets the first answer.\n',
  );
  assert.deepEqual(
    copied.map((c) => [c.line, c.endLine, c.seed, c.seedLine, c.length]),
    [[2, 3, 'W', 5, 15]],
  );
  assert.equal(copied[0].text, 'a client that sends the same key twice within the window gets the first answer');
  // Seven words are not a copy; eight are.
  assert.deepEqual(scan('a client that sends the same key'), []);
  assert.equal(scan('A client that sends the same key twice').length, 1);
  // Headings are what locators name a section by.
  assert.deepEqual(scan('A section heading that the locators use to name this part'), []);
  assert.deepEqual(scan('The title line of the document is a heading and never counted'), []);
  // A wire literal the seed puts in backquotes may be repeated as it is ...
  assert.deepEqual(scan("detail: 'the detail text that the server must send word for word here'"), []);
  // ... but the prose around it still counts when the run carries eight words of it.
  assert.equal(
    scan('the error names the field e g the detail text that the server must send word for word here and nothing more')
      .length,
    1,
  );
  // Fewer than three function words: a list of names, not a sentence.
  assert.deepEqual(scan('alpha beta gamma delta epsilon zeta eta theta iota kappa'), []);
  // A table-cell border ends a run.
  assert.deepEqual(scan('counted in bytes the number is never negative and'), []);
  assert.equal(scan('the number is never negative and is rounded down').length, 1);
  // The allow-list covers a run only as a whole.
  const allowed = [{ phrase: 'the number is never negative and is rounded down', why: 'test' }];
  assert.deepEqual(findCopies(index, 'x.ts', 'So: the number is never negative and is rounded down.', allowed), []);
  assert.equal(
    findCopies(index, 'x.ts', 'the number is never negative and is rounded down to a whole', allowed).length,
    1,
  );
});

test('the guard catches a real statement planted in a file and passes the same statement reworded (its trace paraphrase)', () => {
  const index = seedIndex();
  const seeds = loadSeeds(dir!)!;
  const file = (line: string) => `// A file of the project.\nexport const x = 1;\n// ${line}\n`;
  // The first statement of the trace long enough to count as a copy on its own.
  const pick = loadTrace()
    .map((e) => ({ e, hit: resolveRef(seeds, e) }))
    .find(({ hit }) => typeof hit !== 'string' && findCopies(index, 'p.ts', file(hit.text)).length > 0);
  assert.ok(pick && typeof pick.hit !== 'string', 'no trace statement is long enough to plant');
  const copied = findCopies(index, 'planted.ts', file(pick.hit.text));
  assert.equal(copied.length, 1, describeCopy(copied[0]));
  assert.match(
    describeCopy(copied[0]),
    new RegExp(`^planted\\.ts:3 repeats \\d+ words of ${pick.hit.seed}:${pick.hit.line}: `),
  );
  assert.deepEqual(
    findCopies(index, 'reworded.ts', file(pick.e.says)).map(describeCopy),
    [],
    `${refKey(pick.e)}'s paraphrase`,
  );
});

test('each allowed phrase says why it must stay, and is still a seed phrase (a stale entry goes)', () => {
  const index = seedIndex();
  for (const a of ALLOWED_SEED_PHRASES) {
    assert.ok(a.why.trim().length > 10, `${a.phrase}: give the reason`);
    assert.ok(
      findCopies(index, 'allowed', a.phrase).length > 0,
      `${a.phrase}: no longer a seed phrase; remove it from the list`,
    );
  }
});
