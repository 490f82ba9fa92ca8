// contracts/seed-trace.yaml: every statement of both seeds, each with a paraphrase of our
// own and what becomes of it here: the rules that judge it, or why none does.
//
//   W:                                   # then R:, each in document order
//     "What the service does":           # the section path, as lib/seeds/statements.ts names it
//       - at: W:19:bd358774d6ec          # seed:line:fingerprint
//         says: one idempotency key never yields two jobs
//         rules: [V2.JOB.IDEMPOTENT]     # or exactly one of:
//       # untestable: <why a client cannot observe it>
//       # gap: <observable, but no rule judges it yet, and why>
//       # informative: <not a requirement: an introduction, a definition, a pointer>
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseYaml } from '../yaml.ts';
import { textOf } from '../values.ts';
import { isSeedLetter, type SeedLetter } from './statements.ts';

export type TraceKind = 'rules' | 'untestable' | 'gap' | 'informative';

export interface TraceEntry {
  seed: SeedLetter;
  /** The section path the file files it under. */
  section: string;
  line: number;
  sha: string;
  says: string;
  kind: TraceKind;
  rules: string[];
  /** For untestable, gap and informative: why. */
  why?: string;
}

const AT = /^([WR]):(\d+):([0-9a-f]{12})$/;
const KINDS = ['rules', 'untestable', 'gap', 'informative'] as const;
const KEYS = new Set(['at', 'says', ...KINDS]);

export function parseTrace(text: string, where = 'seed-trace.yaml'): TraceEntry[] {
  const doc = parseYaml(text) as Record<string, unknown> | null;
  if (!doc || typeof doc !== 'object') throw new Error(`${where}: expected W: and R: lists`);
  const out: TraceEntry[] = [];
  for (const [seed, sections] of Object.entries(doc)) {
    if (!isSeedLetter(seed) || !sections || typeof sections !== 'object' || Array.isArray(sections))
      throw new Error(`${where}: top-level keys are W and R, each a map of section to statements (got ${seed})`);
    for (const [section, list] of Object.entries(sections as Record<string, unknown>)) {
      if (!Array.isArray(list)) throw new Error(`${where}: ${seed} › ${section}: expected a list of statements`);
      list.forEach((raw: unknown, i) => {
        const e = raw as Record<string, unknown>;
        const at = `${where}: ${seed} › ${section}[${i}]`;
        const m = typeof e?.at === 'string' ? AT.exec(e.at) : null;
        if (!m || m[1] !== seed) throw new Error(`${at}: "at" must be ${seed}:<line>:<12 hex>`);
        const unknown = Object.keys(e).filter((k) => !KEYS.has(k));
        if (unknown.length) throw new Error(`${at} (${textOf(e.at)}): unknown key ${unknown.join(', ')}`);
        if (typeof e.says !== 'string' || !e.says.trim()) throw new Error(`${at} (${textOf(e.at)}): missing "says"`);
        const kinds = KINDS.filter((k) => e[k] !== undefined);
        if (kinds.length !== 1) throw new Error(`${at} (${textOf(e.at)}): give exactly one of ${KINDS.join(', ')}`);
        const kind = kinds[0];
        if (kind === 'rules') {
          if (!Array.isArray(e.rules) || e.rules.length === 0 || !e.rules.every((r) => typeof r === 'string'))
            throw new Error(`${at} (${textOf(e.at)}): rules must be a non-empty list of rule ids`);
        } else if (typeof e[kind] !== 'string' || !e[kind].trim())
          throw new Error(`${at} (${textOf(e.at)}): ${kind} must say why`);
        out.push({
          seed,
          section,
          line: Number(m[2]),
          sha: m[3],
          says: e.says,
          kind,
          rules: kind === 'rules' ? (e.rules as string[]) : [],
          ...(kind === 'rules' ? {} : { why: e[kind] as string }),
        });
      });
    }
  }
  return out;
}

const TRACE_FILE = path.resolve(import.meta.dirname, '../../contracts/seed-trace.yaml');
let cached: TraceEntry[] | undefined;
export function loadTrace(file = TRACE_FILE): TraceEntry[] {
  if (file !== TRACE_FILE) return parseTrace(readFileSync(file, 'utf8'), file);
  return (cached ??= parseTrace(readFileSync(file, 'utf8'), file));
}
