// Every key of a targets file must be one the suite reads (lib/scenario-inputs.ts): an
// unknown key is refused with the nearest known one, at every level (the file, a target,
// a surface, its scenario and capabilities, the load opt-in, a scenario mapping of fixed
// shape). A misspelt key would otherwise be ignored and its checks skipped under a PASS.
import { nearest } from './nearest.ts';
import { SURFACES } from './families.ts';
import {
  CAPABILITIES,
  CREDENTIALS_FROM,
  ENTRY_KEYS,
  FILE_KEYS,
  LOAD_KEYS,
  SCENARIO_INPUTS,
  SURFACE_KEYS,
  type KeyInfo,
  type ScenarioInput,
} from './scenario-inputs.ts';

type Raw = Record<string, unknown>;

const isMapping = (v: unknown): v is Raw => v !== null && typeof v === 'object' && !Array.isArray(v);
const INPUTS = new Map<string, ScenarioInput>(SCENARIO_INPUTS.map((i) => [i.name, i]));

/** How a known key is written: a credential as `<name>_env`. */
const spelling = (k: KeyInfo): string =>
  k.type === 'credential' && !k.name.endsWith('_env') ? `${k.name}_env` : k.name;

/** "; did you mean `x`?": the nearest spelling, else the keys known there (or `listHint` when they are many). */
function tail(key: string, known: readonly KeyInfo[], listHint = 'see lib/scenario-inputs.ts'): string {
  // Both spellings of a credential are candidates; the suggestion is the one to write.
  const candidates = new Map<string, string>();
  for (const k of known) {
    candidates.set(k.name, spelling(k));
    candidates.set(`${k.name}_env`, spelling(k));
  }
  const n = nearest(key, candidates.keys());
  if (n) return `; did you mean \`${candidates.get(n)}\`?`;
  return known.length <= 12 ? `; the keys known there: ${known.map(spelling).join(', ')}` : `; ${listHint}`;
}

function scenarioKeyKnown(key: string): boolean {
  const base = key.endsWith('_env') ? key.slice(0, -4) : key;
  if (INPUTS.has(base)) return true;
  // A per-shard account of a load profile: `<name>_<shard>` for shards 2..n (load/shard.ts).
  const shard = /^(.+)_(\d+)$/.exec(base);
  return shard !== null && INPUTS.get(shard[1])?.perShard === true && Number(shard[2]) >= 2;
}

/** A level's keys: a known one, or the literal form of a known `*_env` key (refused as a literal secret by target-checks). */
function knownAt(key: string, known: readonly KeyInfo[]): boolean {
  return known.some((k) => k.name === key || `${key}_env` === k.name);
}

/**
 * Every unknown key of a parsed targets file, one line each:
 * "unknown key `scenaro` in target `x`; did you mean `scenario`?". Values are not judged
 * here (beyond `credentials_from`); shapes the resolver refuses (a list where a mapping
 * belongs) are left to it.
 */
export function unknownKeys(doc: unknown): string[] {
  const out: string[] = [];
  if (!isMapping(doc)) return out;
  for (const key of Object.keys(doc)) {
    if (!knownAt(key, FILE_KEYS)) out.push(`unknown key \`${key}\` at the top of the file${tail(key, FILE_KEYS)}`);
  }
  if (!isMapping(doc.targets)) return out;
  for (const [name, entry] of Object.entries(doc.targets)) if (isMapping(entry)) checkEntry(name, entry, out);
  return out;
}

function checkEntry(name: string, entry: Raw, out: string[]): void {
  const at = `in target \`${name}\``;
  const single = 'surface' in entry;
  const multi = 'surfaces' in entry;
  if (single && multi)
    out.push(
      `target \`${name}\` gives both \`surface\` and \`surfaces\`; give one (a surface and its keys, or a mapping of surfaces)`,
    );
  const entryKeys = ENTRY_KEYS.filter((k) =>
    single && !multi ? k.name !== 'surfaces' : multi && !single ? k.name !== 'surface' : true,
  );
  const known =
    multi && !single
      ? entryKeys
      : [...entryKeys, ...SURFACE_KEYS.filter((k) => !entryKeys.some((e) => e.name === k.name))];
  for (const key of Object.keys(entry)) {
    if (knownAt(key, known)) continue;
    if (multi && knownAt(key, SURFACE_KEYS))
      out.push(
        `key \`${key}\` ${at} is read per surface when the target has \`surfaces\`: move it under surfaces.<surface>`,
      );
    else out.push(`unknown key \`${key}\` ${at}${tail(key, known)}`);
  }
  const from = entry.credentials_from;
  if (from !== undefined && !(CREDENTIALS_FROM as readonly unknown[]).includes(from)) {
    out.push(
      `credentials_from ${at} is ${JSON.stringify(from)}; its one value is \`${CREDENTIALS_FROM.join('`, `')}\` (or leave the key out)`,
    );
  }
  if (isMapping(entry.load)) {
    for (const key of Object.keys(entry.load))
      if (!knownAt(key, LOAD_KEYS)) out.push(`unknown key \`${key}\` ${at} (load)${tail(key, LOAD_KEYS)}`);
  }
  if (single || !multi) checkSurface(name, '', entry, out);
  if (multi && !single && isMapping(entry.surfaces)) {
    for (const [surface, body] of Object.entries(entry.surfaces)) {
      if (!(SURFACES as readonly string[]).includes(surface)) {
        const n = nearest(surface, SURFACES);
        out.push(
          `unknown surface \`${surface}\` ${at} (surfaces)${n ? `; did you mean \`${n}\`?` : `; the surfaces are ${SURFACES.join(', ')}`}`,
        );
        continue;
      }
      if (!isMapping(body)) continue;
      for (const key of Object.keys(body)) {
        if (!knownAt(key, SURFACE_KEYS))
          out.push(`unknown key \`${key}\` ${at} (surfaces.${surface})${tail(key, SURFACE_KEYS)}`);
      }
      checkSurface(name, `surfaces.${surface}.`, body, out);
    }
  }
}

/** The scenario and capabilities of one surface (`prefix` locates it: '' or `surfaces.<s>.`). */
function checkSurface(name: string, prefix: string, body: Raw, out: string[]): void {
  const at = `in target \`${name}\``;
  if (isMapping(body.scenario)) {
    for (const [key, value] of Object.entries(body.scenario)) {
      if (!scenarioKeyKnown(key)) {
        out.push(
          `unknown key \`${key}\` ${at} (${prefix}scenario)` +
            tail(
              key,
              SCENARIO_INPUTS,
              'it is not a scenario input the suite reads (lib/scenario-inputs.ts lists them)',
            ),
        );
        continue;
      }
      const members = INPUTS.get(key)?.members;
      if (members && isMapping(value)) {
        const memberKeys = members.map((m): KeyInfo => ({ name: m, type: 'string', unlocks: '' }));
        for (const m of Object.keys(value))
          if (!members.includes(m))
            out.push(`unknown key \`${m}\` ${at} (${prefix}scenario.${key})${tail(m, memberKeys)}`);
      }
    }
  }
  if (isMapping(body.capabilities)) {
    for (const key of Object.keys(body.capabilities)) {
      if (!knownAt(key, CAPABILITIES))
        out.push(`unknown key \`${key}\` ${at} (${prefix}capabilities)${tail(key, CAPABILITIES)}`);
    }
  }
}
