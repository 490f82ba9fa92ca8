// Which spec files can see a rule break, so the fault matrix runs each fault only
// against the specs of its rule's area instead of the whole family.
//
// A spec "names" a rule when the rule id appears in the spec itself, e.g.
// `rules('V2.JOB.CANCEL')` or `check('V2.JOB.CANCEL', ...)`. When no spec names it, the
// specs importing a helper module that names it (directly or through other helpers) are
// used instead: helpers such as downloadVia serve many specs, and the specs that annotate
// the rule are the ones written to provoke it. Modules every spec loads anyway (the closure of
// fixtures/test.ts: the api client, its always-on checks, the contract registry) and
// the contracts' `x-rule` marks judge every response of every spec; a rule seen only
// there has no area, so its faults fall back to the whole family project.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { FAMILIES, familyOfRule, projectName, type Family, type Surface } from '../../lib/families.ts';
import { loadRules } from '../../lib/rules.ts';

const RULE_TOKEN = /\b(?:V2|V1|WS|REGISTRY|ROUTER|LOAD)(?:\.[A-Z0-9_]+)+/g;
const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^;]*?\sfrom\s+['"](\.{1,2}\/[^'"]+)['"]/g;
const ALWAYS_LOADED = 'fixtures/test.ts';

export interface SpecSelection {
  /** `--project=...` arguments: the family's projects on the surfaces the rule applies to. */
  projects: string[];
  /** Spec files (repo-relative); empty means every spec of those projects. */
  files: string[];
  /** Why this selection, for messages. */
  why: string;
  /** The family and the surfaces of those projects. */
  family: Family;
  surfaces: Surface[];
  /** `@<rule id>` when the run can be narrowed to the tests that declare the rule (batched runs). */
  tag?: string;
}

/**
 * Faults whose rule is named in specs that cannot provoke them. Each entry widens
 * the selection with the spec files listed (or 'family' for the whole family), with
 * the reason. Keep it short: a needed entry usually means a spec should name the rule.
 */
export const OVERRIDES: Record<string, { files: string[] | 'family'; why: string }> = {
  // Always-on check: errors.spec.ts annotates it but provokes no 401; the 401s come from auth.spec.ts.
  'org-id-on-unauthorized': { files: ['specs/v2/auth.spec.ts'], why: 'the fault shows only on 401 answers, which auth.spec.ts provokes' },
  // Contract check: the test declaring ROUTER.CONTRACT.HEADERS provokes no 502; the provider-error test of the same file does.
  'router-upstream-status-text': { files: ['specs/router/errors.spec.ts'], why: 'the fault shows only on 502 answers, which the provider-error test of errors.spec.ts provokes' },
};

function walk(dir: string, root: string): string[] {
  let names: string[];
  try {
    names = readdirSync(path.join(root, dir));
  } catch {
    return [];
  }
  return names.flatMap((name) => {
    const rel = path.posix.join(dir, name);
    if (statSync(path.join(root, rel)).isDirectory()) return walk(rel, root);
    return /\.(ts|mts)$/.test(name) ? [rel] : [];
  });
}

/** The modules a file loads at run time (repo-relative paths). */
function localImports(file: string, source: string): string[] {
  const out: string[] = [];
  for (const m of source.matchAll(IMPORT)) {
    // `import type` loads nothing at run time (the generated rule catalog, imported for
    // its types everywhere, would otherwise make every rule look judged on every answer).
    if (/^\s*(?:import|export)\s+type\s/.test(m[0])) continue;
    out.push(path.posix.normalize(path.posix.join(path.posix.dirname(file), m[1]!)));
  }
  return out;
}

export interface SpecMap {
  /** rule id → spec files that name it in their own text. */
  named: Map<string, string[]>;
  /** rule id → spec files that import a helper naming it. */
  viaHelpers: Map<string, string[]>;
  /** Rules judged by modules or contracts every spec loads. */
  alwaysOn: Set<string>;
  /** Spec files per family. */
  specs: Map<Family, string[]>;
  /** rule id → spec files with a test that declares it (`rules(...)`, hence tagged `@<rule id>`). */
  declared: Map<string, string[]>;
  /** spec file → the rule list of each `rules(...)` in it: the rules declared together by one test. */
  declarations: Map<string, string[][]>;
}

export function buildSpecMap(root: string): SpecMap {
  const files = [...walk('fixtures', root), ...walk('lib', root), ...walk('specs', root)];
  const source = new Map(files.map((f) => [f, readFileSync(path.join(root, f), 'utf8')]));
  const imports = new Map(files.map((f) => [f, localImports(f, source.get(f)!).filter((i) => source.has(i))]));
  const closure = (start: string): Set<string> => {
    const seen = new Set<string>();
    const stack = [start];
    while (stack.length) {
      const f = stack.pop()!;
      if (seen.has(f)) continue;
      seen.add(f);
      stack.push(...(imports.get(f) ?? []));
    }
    return seen;
  };
  const known = new Set(loadRules().keys());
  const rulesIn = (text: string): string[] => [...new Set(text.match(RULE_TOKEN) ?? [])].filter((id) => known.has(id));

  const always = closure(ALWAYS_LOADED);
  const alwaysOn = new Set<string>();
  for (const f of always) for (const id of rulesIn(source.get(f)!)) alwaysOn.add(id);
  for (const name of readdirSync(path.join(root, 'contracts')).filter((n) => n.endsWith('.openapi.yaml'))) {
    const text = readFileSync(path.join(root, 'contracts', name), 'utf8');
    for (const m of text.matchAll(/x-rule:\s*([A-Z0-9_.]+)/g)) if (known.has(m[1]!)) alwaysOn.add(m[1]!);
  }

  const specs = new Map<Family, string[]>();
  const named = new Map<string, string[]>();
  const viaHelpers = new Map<string, string[]>();
  const declared = new Map<string, string[]>();
  const declarations = new Map<string, string[][]>();
  const add = (m: Map<string, string[]>, id: string, spec: string) => (m.get(id) ?? m.set(id, []).get(id)!).push(spec);
  for (const family of Object.keys(FAMILIES) as Family[]) {
    const list = files.filter((f) => f.startsWith(`specs/${family}/`) && f.endsWith('.spec.ts')).sort();
    specs.set(family, list);
    for (const spec of list) {
      const own = new Set(rulesIn(source.get(spec)!));
      const helpers = new Set<string>();
      for (const mod of closure(spec)) if (mod !== spec && !always.has(mod)) for (const id of rulesIn(source.get(mod)!)) helpers.add(id);
      for (const id of own) if (familyOfRule(id) === family) add(named, id, spec);
      for (const m of source.get(spec)!.matchAll(/\brules\(([^)]*)\)/g)) {
        const ids = rulesIn(m[1]!);
        (declarations.get(spec) ?? declarations.set(spec, []).get(spec)!).push(ids);
        for (const id of ids) if (!(declared.get(id) ?? []).includes(spec)) add(declared, id, spec);
      }
      for (const id of helpers) if (familyOfRule(id) === family && !own.has(id)) add(viaHelpers, id, spec);
    }
  }
  return { named, viaHelpers, alwaysOn, specs, declared, declarations };
}

let cached: { root: string; map: SpecMap } | undefined;

/** The projects and spec files that run a fault of `rule`, for a target serving `surfaces`. */
export function selectionFor(rule: string, surfaces: ReadonlySet<Surface>, opts: { root: string; fault?: string; map?: SpecMap }): SpecSelection {
  const family = familyOfRule(rule);
  if (!family) throw new Error(`rule ${rule} has no family`);
  const applies = loadRules().get(rule)?.surfaces ?? [];
  const on = (FAMILIES[family] as readonly Surface[]).filter((s) => surfaces.has(s) && applies.includes(s));
  const projects = on.map((s) => `--project=${projectName(family, s)}`);
  if (projects.length === 0) throw new Error(`rule ${rule} applies to no surface this target serves`);
  const base = { projects, family, surfaces: [...on] };
  let map = opts.map;
  if (!map) {
    if (cached?.root !== opts.root) cached = { root: opts.root, map: buildSpecMap(opts.root) };
    map = cached.map;
  }
  const all = map.specs.get(family) ?? [];
  const override = opts.fault ? OVERRIDES[opts.fault] : undefined;
  if (override?.files === 'family') return { ...base, files: [], why: `override: ${override.why}` };
  // Tests that declare the rule are the ones written to provoke it: a batched run needs only
  // those, also for a rule judged on every answer (the contract's, the always-on checks'),
  // whose fault must show on the answers its own tests provoke. Where it shows only on an
  // answer another test provokes, OVERRIDES widens the selection and says why.
  const declared = override ? undefined : map.declared.get(rule);
  if (declared?.length) return { ...base, files: [...declared].sort(), tag: `@${rule}`, why: `declared by tests in ${declared.length} spec(s)` };
  const named = map.named.get(rule) ?? map.viaHelpers.get(rule) ?? [];
  const files = [...new Set([...named, ...(override?.files ?? [])])].sort();
  if (files.length === 0) {
    return { ...base, files: [], why: map.alwaysOn.has(rule) ? 'judged by the always-on checks only: whole family' : 'named by no spec: whole family' };
  }
  if (files.length >= all.length) return { ...base, files: [], why: 'named by every spec of the family' };
  const how = map.named.has(rule) ? 'named in' : 'named through a helper in';
  return { ...base, files, why: override ? `${how} ${named.length} spec(s), widened: ${override.why}` : `${how} ${files.length} spec(s)` };
}
