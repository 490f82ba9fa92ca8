// The seed documents as statements: what a locator in contracts/rules.yaml or
// contracts/seed-trace.yaml points at. The project never holds seed text; it reads the
// user's copy at run time and names a statement by document, section path, line and a
// fingerprint (the first 12 hex digits of the sha256 of the statement with its
// whitespace collapsed), so a changed seed shows as a fingerprint that no longer matches.
//
// A statement is one table row (the header row and the rule row are not statements) or
// one sentence of a paragraph or list item (its marker stripped). Sentences end at
// . ! or ? followed by a space and a capital, a backtick, a quote or an opening bracket;
// "e.g." and "i.e." never end one.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** The two seeds by letter: W the workflow API (file 000_…), R the model router (001_…). */
const SEED_FILES = { W: '000_', R: '001_' } as const;
export type SeedLetter = keyof typeof SEED_FILES;
export const isSeedLetter = (s: unknown): s is SeedLetter => s === 'W' || s === 'R';

export interface SeedRef {
  seed: SeedLetter;
  /** Section path, headings joined by " › " (without the document title). */
  section: string;
  line: number;
  sha: string;
}

export interface Statement extends SeedRef {
  text: string;
}

const normalise = (text: string): string => text.replace(/\s+/g, ' ').trim();
export const fingerprint = (text: string): string =>
  createHash('sha256').update(normalise(text)).digest('hex').slice(0, 12);

const ABBREVIATION = /\b(?:e\.g|i\.e|etc|vs|cf)\.$/i;
const SENTENCE_END = /[.!?]["')`]?\s+(?=[A-Z`"'([{*_])/g;

export function sentences(text: string): string[] {
  const out: string[] = [];
  let start = 0;
  for (const m of text.matchAll(SENTENCE_END)) {
    const end = m.index + m[0].trimEnd().length;
    if (ABBREVIATION.test(text.slice(start, end))) continue;
    out.push(text.slice(start, end).trim());
    start = m.index + m[0].length;
  }
  const rest = text.slice(start).trim();
  if (rest) out.push(rest);
  return out;
}

const TABLE_RULE = /^\|?\s*:?-{1,}:?\s*(\|\s*:?-{1,}:?\s*)*\|?\s*$/;
const LIST_MARKER = /^\s*(?:\d+[.)]|[-*+])\s+/;

/** Every statement of one seed document, in document order. */
export function statementsOf(seed: SeedLetter, text: string): Statement[] {
  const lines = text.split(/\r?\n/);
  const headings: string[] = [];
  const out: Statement[] = [];
  lines.forEach((raw, i) => {
    const line = raw.trimEnd();
    const heading = /^(#+)\s+(.*)$/.exec(line);
    if (heading) {
      const depth = heading[1].length;
      headings.length = Math.max(0, depth - 1);
      headings[depth - 1] = heading[2].trim();
      return;
    }
    if (!line.trim() || TABLE_RULE.test(line)) return;
    const section = headings.slice(1).filter(Boolean).join(' › ') || headings[0] || '';
    const push = (s: string) => out.push({ seed, section, line: i + 1, sha: fingerprint(s), text: normalise(s) });
    if (line.trimStart().startsWith('|')) {
      // A table's header row is followed by its rule row: names of columns, not a statement.
      if (TABLE_RULE.test(lines[i + 1] ?? '')) return;
      push(line);
      return;
    }
    for (const s of sentences(line.replace(LIST_MARKER, ''))) push(s);
  });
  return out;
}

/**
 * Where the seeds are: `devDir` (SEEDS_DIR, the project's own copy, as the calling tool or
 * test read it: runConfig().seeds.dev), else the shared folder beside this checkout.
 */
export function defaultSeedsDir(devDir: string | undefined): string | undefined {
  const candidates = [devDir, path.resolve(import.meta.dirname, '../../../shared/seeds')];
  return candidates.find((d): d is string => !!d && existsSync(d));
}

export function seedFile(dir: string, seed: SeedLetter): string | undefined {
  const name = readdirSync(dir).find((f) => f.startsWith(SEED_FILES[seed]) && f.endsWith('.txt'));
  return name ? path.join(dir, name) : undefined;
}

export type SeedStatements = Record<SeedLetter, Statement[]>;

/** Both seeds' statements read from `dir`, or undefined when a document is missing. */
export function loadSeeds(dir: string): SeedStatements | undefined {
  const files = { W: seedFile(dir, 'W'), R: seedFile(dir, 'R') };
  if (!files.W || !files.R) return undefined;
  return { W: statementsOf('W', readFileSync(files.W, 'utf8')), R: statementsOf('R', readFileSync(files.R, 'utf8')) };
}

/** The statement a locator names, or why it does not resolve. */
export function resolveRef(seeds: SeedStatements, ref: Pick<SeedRef, 'seed' | 'line' | 'sha'>): Statement | string {
  const onLine = seeds[ref.seed].filter((s) => s.line === ref.line);
  const hit = onLine.find((s) => s.sha === ref.sha);
  if (hit) return hit;
  if (onLine.length === 0) return `${ref.seed}:${ref.line} holds no statement`;
  const moved = seeds[ref.seed].find((s) => s.sha === ref.sha);
  return moved
    ? `${ref.seed}:${ref.line} no longer holds ${ref.sha}; that statement is now at line ${moved.line}`
    : `${ref.seed}:${ref.line} has no statement with fingerprint ${ref.sha} (the seed changed under it; there now: ${onLine.map((s) => s.sha).join(', ')})`;
}

export const refKey = (ref: Pick<SeedRef, 'seed' | 'line' | 'sha'>): string => `${ref.seed}:${ref.line}:${ref.sha}`;
