// Which tests can see a rule break, so the fault matrix runs each fault only on the tests
// that judge its rule instead of the whole family.
//
// Learnt from Playwright's own listing, not from the test source: `playwright test --list
// --reporter=json` with the project configuration (explorer specs included, as the batched
// runs include them) lists every test with its tags, and a test declares the rules it judges
// with `rules(...)` (fixtures/test.ts), which makes each one a tag `@<rule id>`. The listing
// runs once per process (a few seconds) and is cached.
//
// A rule no test declares is judged only on every answer (the always-on checks of the api
// client, the contracts' `x-rule` marks): it has no area, so its faults run on the whole
// family project. Where a fault shows only on answers that the declaring tests do not
// provoke, the fault itself says where it shows (`seenBy` in reference/faults/unit.ts).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FAMILIES, familyOfRule, projectName, type Family, type Surface } from '../../lib/families.ts';
import { loadRules } from '../../lib/rules.ts';
import type { RuleId } from '../../lib/rule-ids.ts';
import type { FaultInfo } from '../../reference/faults/unit.ts';
import { freePortBase } from './ports.ts';
import { childEnv, REFERENCE_SWITCHES } from './child-env.ts';

const PLAYWRIGHT_CLI = 'node_modules/@playwright/test/cli.js';

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
  /** `@<rule id>` when the run can be narrowed to the tests that declare the rule. */
  tag?: string;
}

export interface SpecMap {
  /** Spec files per family (repo-relative), as the listing has them. */
  specs: Map<Family, string[]>;
  /** rule id → spec files of the rule's family with a test tagged `@<rule id>`. */
  declared: Map<string, string[]>;
  /** spec file → the rule tags of each test in it: the rules one test declares together. */
  declarations: Map<string, string[][]>;
  /** project (`v2-local`, ...) → its tests, in listing order. */
  tests: Map<string, ListedTest[]>;
  /** project → its family and surface. */
  projects: Map<string, { family: Family; surface: Surface }>;
}

/** One test of the listing, as the self-test's harness selects and names it. */
export interface ListedTest {
  /** Spec file, repo-relative. */
  file: string;
  /** Titles from the outermost describe to the test's own. */
  titles: string[];
  /** The rule ids it declares. */
  rules: string[];
}

export { testKey } from './harness/keys.ts';

/** The parts of Playwright's JSON report (`--reporter=json`) the map reads. */
export interface ListingReport {
  config: { rootDir: string };
  suites?: ListingSuite[];
  errors?: Array<{ message?: string }>;
}
interface ListingSuite {
  title?: string;
  specs?: Array<{ file: string; title: string; tags: string[]; tests: Array<{ projectName: string }> }>;
  suites?: ListingSuite[];
}

const PROJECTS = new Map<string, { family: Family; surface: Surface }>(
  (Object.entries(FAMILIES) as Array<[Family, readonly Surface[]]>).flatMap(([family, surfaces]) =>
    surfaces.map((surface) => [projectName(family, surface), { family, surface }] as const),
  ),
);
const FAMILY_OF_PROJECT = new Map<string, Family>([...PROJECTS].map(([name, p]) => [name, p.family]));

/** The map from a listing: spec files per family, and the rule tags of each test. */
export function specMapFromListing(report: ListingReport, root: string): SpecMap {
  const known = new Set(loadRules().keys());
  const specs = new Map<Family, string[]>();
  const declared = new Map<string, string[]>();
  const declarations = new Map<string, string[][]>();
  const tests = new Map<string, ListedTest[]>();
  const addOnce = <K>(m: Map<K, string[]>, key: K, value: string) => {
    const list = m.get(key) ?? m.set(key, []).get(key)!;
    if (!list.includes(value)) list.push(value);
  };
  // Top-level suites are files; the ones below them are describes, whose titles the test's carries.
  const visit = (suite: ListingSuite, describes: string[]) => {
    for (const spec of suite.specs ?? []) {
      const file = path.relative(root, path.resolve(report.config.rootDir, spec.file)).split(path.sep).join('/');
      // The JSON reporter writes tags without their `@`.
      const ids = spec.tags.map((t) => t.replace(/^@/, '')).filter((t) => known.has(t));
      const families = new Set(
        spec.tests.map((t) => FAMILY_OF_PROJECT.get(t.projectName)).filter((f): f is Family => f !== undefined),
      );
      if (families.size === 0) continue;
      for (const t of spec.tests) {
        if (!FAMILY_OF_PROJECT.has(t.projectName)) continue;
        (tests.get(t.projectName) ?? tests.set(t.projectName, []).get(t.projectName)!).push({
          file,
          titles: [...describes, spec.title],
          rules: ids,
        });
      }
      (declarations.get(file) ?? declarations.set(file, []).get(file)!).push(ids);
      for (const family of families) {
        addOnce(specs, family, file);
        for (const id of ids) if (familyOfRule(id) === family) addOnce(declared, id, file);
      }
    }
    for (const child of suite.suites ?? []) visit(child, child.title ? [...describes, child.title] : describes);
  };
  for (const suite of report.suites ?? []) visit(suite, []);
  for (const list of [...specs.values(), ...declared.values()]) list.sort();
  return { specs, declared, declarations, tests, projects: PROJECTS };
}

/** Runs `playwright test --list --reporter=json` with the project configuration against the embedded reference. */
export async function listTests(root: string): Promise<ListingReport> {
  const reports = mkdtempSync(path.join(os.tmpdir(), 'conformance-list-'));
  // The caller's own target or settings would list another set of projects.
  const env = childEnv({
    drop: ['NODE_TEST_CONTEXT', ...REFERENCE_SWITCHES, 'CONFORMANCE_SHARD'],
    set: {
      REPORTS_DIR: reports,
      CONFORMANCE_QUIET: '1',
      CONFORMANCE_EXPLORE: '1',
      REFERENCE_PORT: String(await freePortBase()),
    },
  });
  try {
    const child = spawn(process.execPath, [path.join(root, PLAYWRIGHT_CLI), 'test', '--list', '--reporter=json'], {
      cwd: root,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    clearTimeout(timer);
    let report: ListingReport;
    try {
      report = JSON.parse(out) as ListingReport;
    } catch {
      throw new Error(`playwright test --list gave no JSON report (exit ${code}):\n${(err || out).slice(-3000)}`);
    }
    if (code !== 0 || report.errors?.length)
      throw new Error(
        `playwright test --list failed (exit ${code}): ${report.errors?.map((e) => e.message).join('\n') ?? ''}\n${err.slice(-3000)}`,
      );
    return report;
  } finally {
    rmSync(reports, { recursive: true, force: true });
  }
}

const cache = new Map<string, Promise<SpecMap>>();

/** The spec map of the project at `root`, listed once per process. */
export function specMap(root: string): Promise<SpecMap> {
  let map = cache.get(root);
  if (!map) {
    map = listTests(root).then((report) => specMapFromListing(report, root));
    cache.set(root, map);
    map.catch(() => cache.delete(root));
  }
  return map;
}

/** The tests a selection runs, per project. */
export function testsOf(sel: SpecSelection, map: SpecMap): Map<string, ListedTest[]> {
  const files = new Set(sel.files);
  const rule = sel.tag?.slice(1);
  return new Map(
    sel.surfaces.map((surface) => {
      const project = projectName(sel.family, surface);
      const tests = (map.tests.get(project) ?? []).filter(
        (t) => (files.size === 0 || files.has(t.file)) && (rule === undefined || t.rules.includes(rule)),
      );
      return [project, tests] as const;
    }),
  );
}

/** The projects and spec files that run a fault of `rule`, for a target serving `surfaces`. */
export function selectionFor(
  rule: RuleId,
  surfaces: ReadonlySet<Surface>,
  opts: { map: SpecMap; seenBy?: FaultInfo['seenBy'] },
): SpecSelection {
  const { map, seenBy } = opts;
  const family = familyOfRule(rule);
  if (!family) throw new Error(`rule ${rule} has no family`);
  const applies = loadRules().get(rule)?.surfaces ?? [];
  const on = (FAMILIES[family] as readonly Surface[]).filter((s) => surfaces.has(s) && applies.includes(s));
  const projects = on.map((s) => `--project=${projectName(family, s)}`);
  if (projects.length === 0) throw new Error(`rule ${rule} applies to no surface this target serves`);
  const base = { projects, family, surfaces: [...on] };
  if (seenBy?.files === 'family') return { ...base, files: [], why: `seen by the whole family: ${seenBy.why}` };
  // Tests that declare the rule are the ones written to provoke it: a batched run needs only
  // those, also for a rule judged on every answer (the contract's, the always-on checks'),
  // whose fault must show on the answers its own tests provoke. Where it shows only on an
  // answer another test provokes, the fault's `seenBy` widens the selection to whole files.
  const declared = map.declared.get(rule) ?? [];
  if (!seenBy) {
    if (declared.length === 0)
      return { ...base, files: [], why: 'declared by no test (judged on every answer only): whole family' };
    return { ...base, files: [...declared], tag: `@${rule}`, why: `declared by tests in ${declared.length} spec(s)` };
  }
  const files = [...new Set([...declared, ...seenBy.files])].sort();
  if (files.length >= (map.specs.get(family) ?? []).length)
    return { ...base, files: [], why: `every spec of the family: ${seenBy.why}` };
  return {
    ...base,
    files,
    why: `declared by tests in ${declared.length} spec(s), widened to whole files: ${seenBy.why}`,
  };
}
