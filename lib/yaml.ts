// YAML parsing with a cache: every Playwright worker reads the targets file and its family's
// contract (the rule catalog is a generated module, lib/rule-catalog.ts), and parsing YAML
// is a large part of a worker's start-up. A document parsed once is kept as JSON in the
// user's own folder under the temp folder, keyed by a hash of its text, and read back with
// JSON.parse by the next process.
// Only documents made of plain JSON values are kept; a parse error is never cached.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';

// Loaded on a miss only: a cached read needs no YAML parser.
const parse = (text: string): unknown => (createRequire(import.meta.url)('yaml') as typeof import('yaml')).parse(text);
// One folder per user, which only they may write: on a shared machine another user's
// planted file must not become this user's rule catalog or targets.
const uid = typeof process.getuid === 'function' ? process.getuid() : undefined;
const DIR = path.join(os.tmpdir(), `workflow-conformance-yaml-${uid ?? 'user'}`);

/** The cache folder, when it is this user's alone; undefined means parse without it. */
function ownFolder(): string | undefined {
  try {
    mkdirSync(DIR, { recursive: true, mode: 0o700 });
    const st = statSync(DIR);
    if (uid !== undefined && (st.uid !== uid || (st.mode & 0o022) !== 0)) return undefined;
    return DIR;
  } catch {
    return undefined;
  }
}
const memory = new Map<string, unknown>();

function plainJson(value: unknown): boolean {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value);
  if (Array.isArray(value)) return value.every(plainJson);
  if (typeof value === 'object')
    return Object.getPrototypeOf(value) === Object.prototype && Object.values(value).every(plainJson);
  return false;
}

/** The name of a text's entry in the cache folder. */
export function cacheEntryName(text: string): string {
  return `${createHash('sha256').update('yaml-cache-1\0').update(text).digest('hex').slice(0, 40)}.json`;
}

/** `parse(text)` of the yaml package, from the cache when this text was parsed before. */
export function parseYaml(text: string): unknown {
  const key = cacheEntryName(text);
  if (memory.has(key)) return structuredClone(memory.get(key));
  const dir = ownFolder();
  const file = dir ? path.join(dir, key) : undefined;
  let value: unknown;
  try {
    if (!file) throw new Error('no cache folder');
    value = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    value = parse(text);
    if (file && plainJson(value)) {
      try {
        const tmp = `${file}.${process.pid}.tmp`;
        writeFileSync(tmp, JSON.stringify(value));
        renameSync(tmp, file);
      } catch {
        // A read-only temp folder only costs the next process a parse.
      }
    }
  }
  memory.set(key, value);
  return structuredClone(value);
}
