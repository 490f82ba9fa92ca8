// Finds seed prose copied into the project. The project points at seed statements by
// locator and says everything else in its own words; this is the check that it does.
//
// Words are lower-cased runs of letters, digits, `_` and `-`. Headings are not read (the
// locators name sections by them) and a table-cell border ends a run. Text in backquotes
// (field names, codes, wire literals a server must send as they are) may sit inside a
// copied run but does not count: a copy is a run of consecutive words the seed holds in
// the same order with COPY_WORDS or more words of prose, FUNCTION_WORDS_MIN of them
// function words (a run with fewer is a list of names, codes or patterns, not a sentence).
//
// The seeds' 8-word shingles are indexed once; a file is then one map lookup per word.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { seedFile, type SeedLetter } from './statements.ts';

export const COPY_WORDS = 8;
export const FUNCTION_WORDS_MIN = 3;

const FUNCTION_WORDS = new Set(
  (
    'a an the this that these those it its they them their there here we our you your he she his her one ' +
    'of to in on at by for from with without within into onto over under through about after before until since ' +
    'during between against per via as than then so if when where while whether because though unless ' +
    'and or nor but not no yes ' +
    'is are was were be been being am has have had having do does did done ' +
    'can could may might must shall should will would ' +
    'which who whom whose what how why ' +
    'all any each every some only also same other own such both either neither more most less least ' +
    'up out off down once again still just even never always already yet'
  ).split(' '),
);

/** The words of a text, in order, with the (1-based) line each is on. */
export function wordsOf(text: string): { words: string[]; lines: number[] } {
  const words: string[] = [];
  const lines: number[] = [];
  text
    .toLowerCase()
    .split('\n')
    .forEach((raw, i) => {
      for (let word of raw.split(/[^a-z0-9_-]+/)) {
        if (word.startsWith('-') || word.endsWith('-')) word = word.replace(/^-+|-+$/g, '');
        if (!word) continue;
        words.push(word);
        lines.push(i + 1);
      }
    });
  return { words, lines };
}

const TABLE_RULE = /^\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$/;
const LIST_MARKER = /^\s*(?:\d+[.)]|[-*+])\s+/;

/**
 * The pieces of one seed line a copy can run through: table cells (a border ends a run),
 * each as alternating prose and backquoted text (even indexes prose, odd ones code).
 */
function pieces(line: string): string[][] {
  if (/^#/.test(line) || !line.trim() || TABLE_RULE.test(line)) return [];
  return line
    .replace(LIST_MARKER, '')
    .split('|')
    .map((cell) => cell.split('`'));
}

interface SeedWord {
  seed: SeedLetter;
  line: number;
  word: string;
  /** False for words in backquotes: they may sit inside a copied run but do not count. */
  prose: boolean;
}

export interface SeedIndex {
  words: SeedWord[];
  /** An 8-word shingle → the positions in `words` where it starts. */
  shingles: Map<string, number[]>;
  /** First word → second words of the shingles it starts: a cheap test before building a key. */
  pairs: Map<string, Set<string>>;
}

const shingleKey = (words: readonly string[], at: number): string => {
  let key = words[at];
  for (let k = 1; k < COPY_WORDS; k++) key += ' ' + words[at + k];
  return key;
};

/** Index the prose of seed documents given as text (by letter). */
export function indexSeedText(docs: Partial<Record<SeedLetter, string>>): SeedIndex {
  const words: SeedWord[] = [];
  const shingles = new Map<string, number[]>();
  const pairs = new Map<string, Set<string>>();
  for (const [seed, text] of Object.entries(docs) as [SeedLetter, string][]) {
    text.split(/\r?\n/).forEach((line, i) => {
      for (const cell of pieces(line)) {
        const start = words.length;
        cell.forEach((part, k) => {
          for (const word of wordsOf(part).words) words.push({ seed, line: i + 1, word, prose: k % 2 === 0 });
        });
        const plain = words.slice(start).map((w) => w.word);
        for (let j = 0; j + COPY_WORDS <= plain.length; j++) {
          const key = shingleKey(plain, j);
          const at = shingles.get(key);
          if (at) at.push(start + j);
          else shingles.set(key, [start + j]);
          const second = pairs.get(plain[j]) ?? new Set<string>();
          pairs.set(plain[j], second.add(plain[j + 1]));
        }
        // A cell ends a run: a word no text can hold keeps cells apart.
        words.push({ seed, line: i + 1, word: ' ', prose: false });
      }
    });
  }
  return { words, shingles, pairs };
}

/** Index the two seeds in `dir` (000_*.txt as W, 001_*.txt as R); undefined when one is missing. */
export function indexSeeds(dir: string): SeedIndex | undefined {
  const w = seedFile(dir, 'W');
  const r = seedFile(dir, 'R');
  if (!w || !r) return undefined;
  return indexSeedText({ W: readFileSync(w, 'utf8'), R: readFileSync(r, 'utf8') });
}

export interface Copy {
  file: string;
  line: number;
  endLine: number;
  seed: SeedLetter;
  seedLine: number;
  /** How many words of seed prose the run repeats (backquoted seed text not counted). */
  length: number;
  /** The run as the file has it, lower-cased, punctuation dropped. */
  text: string;
}

export interface AllowedPhrase {
  /** Words (any case and punctuation) covering the whole run that may stay. */
  phrase: string;
  why: string;
}

/**
 * Every run of consecutive words `text` shares with the seed that holds COPY_WORDS or more
 * words of prose and FUNCTION_WORDS_MIN function words among them; the longest per place.
 */
export function findCopies(
  index: SeedIndex,
  file: string,
  text: string,
  allowed: readonly AllowedPhrase[] = [],
): Copy[] {
  const { words, lines } = wordsOf(text);
  const runs: { start: number; end: number; seedStart: number }[] = [];
  // Seed position the run continues at → where in the file that run began.
  let active = new Map<number, number>();
  for (let i = 0; i <= words.length; i++) {
    let hits: number[] = [];
    if (i + COPY_WORDS <= words.length && index.pairs.get(words[i])?.has(words[i + 1])) {
      hits = index.shingles.get(shingleKey(words, i)) ?? [];
    }
    if (hits.length === 0 && active.size === 0) continue;
    const next = new Map<number, number>();
    for (const p of hits) next.set(p, active.get(p - 1) ?? i);
    for (const [p, start] of active) {
      if (!next.has(p + 1)) runs.push({ start, end: i - 1 + COPY_WORDS, seedStart: p - (i - 1 - start) });
    }
    active = next;
  }
  runs.sort((a, b) => b.end - b.start - (a.end - a.start) || a.start - b.start);
  const kept: typeof runs = [];
  for (const r of runs) if (!kept.some((k) => k.start <= r.start && r.end <= k.end)) kept.push(r);
  const allowedWords = allowed.map((a) => ` ${wordsOf(a.phrase).words.join(' ')} `);
  return kept
    .map((r) => ({
      r,
      prose: index.words
        .slice(r.seedStart, r.seedStart + r.end - r.start)
        .filter((w) => w.prose)
        .map((w) => w.word),
    }))
    .filter(
      ({ prose }) =>
        prose.length >= COPY_WORDS && prose.filter((w) => FUNCTION_WORDS.has(w)).length >= FUNCTION_WORDS_MIN,
    )
    .map(({ r, prose }) => ({ r, prose, run: words.slice(r.start, r.end).join(' ') }))
    .filter(({ run }) => !allowedWords.some((a) => a.includes(` ${run} `)))
    .map(({ r, prose, run }) => {
      const seedWord = index.words[r.seedStart];
      return {
        file,
        line: lines[r.start],
        endLine: lines[r.end - 1],
        seed: seedWord.seed,
        seedLine: seedWord.line,
        length: prose.length,
        text: run,
      };
    })
    .sort((a, b) => a.line - b.line);
}

/**
 * The files the scan reads: the tracked ones (as the working tree has them), without the
 * lock file. Untracked files are left out so that what a run writes (reports may quote the
 * user's seeds) never fails the scan; `git add` a new file to have it scanned.
 */
export function projectFiles(root: string): string[] {
  const out = execFileSync('git', ['ls-files', '--cached', '-z'], { cwd: root, encoding: 'utf8', maxBuffer: 64 << 20 });
  return out.split('\0').filter((f) => f && path.basename(f) !== 'package-lock.json');
}

/** Copies across the project's text files (a file holding a NUL byte is not text). */
export function scanProject(
  index: SeedIndex,
  root: string,
  allowed: readonly AllowedPhrase[] = [],
): { files: number; copies: Copy[] } {
  let files = 0;
  const copies: Copy[] = [];
  for (const file of projectFiles(root)) {
    let body: Buffer;
    try {
      body = readFileSync(path.join(root, file));
    } catch {
      continue; // listed but deleted in the working tree
    }
    if (body.includes(0)) continue;
    files++;
    copies.push(...findCopies(index, file, body.toString('utf8'), allowed));
  }
  return { files, copies };
}

/** "README.md:384 repeats 12 words of W:45: …" */
export const describeCopy = (c: Copy): string =>
  `${c.file}:${c.line}${c.endLine !== c.line ? `-${c.endLine}` : ''} repeats ${c.length} words of ${c.seed}:${c.seedLine}: ${c.text}`;
