// The self-test's harness: many cases (the suite against the embedded reference with one
// fault, one control, or neither), each on the tests that can see it, in ONE Playwright run.
//
// Where the time goes decides the shape. Starting a Playwright worker costs about two
// CPU-seconds on this kind of machine (loading Playwright's own bundles, the fixtures and
// the specs), and a worker serves one project only (its hash is the project's), so the
// number of projects is the number of worker starts. A test runs at most once per project,
// so a test several cases select must be in several projects: here each family x surface
// gets as many projects ("rounds") as the most cases any one of its tests serves, and round
// r holds exactly the tests that serve more than r cases, round r of a test being its r-th
// case. Worker starts then grow with how many cases meet on one test, not with the number
// of cases; each case's cost is its own tests.
//
// A case's reference is started by the host (host.ts) when its first test asks for it and
// closed after its last, so a few hundred cases never hold a few hundred servers at once.
import type { Family, Surface } from '../../../lib/families.ts';
import type { ListedTest, SpecMap } from '../spec-map.ts';
import { testKey } from './keys.ts';

export interface CaseSpec {
  /** Unique within a run: a fault's or control's name. */
  id: string;
  fault?: string;
  /** Controls in effect together (one, or a stack of controls that compose: controls.test.ts). */
  controls?: readonly string[];
  /** Project (`v2-local`, ...) → the tests (listing order) the case runs there. */
  tests: Map<string, ListedTest[]>;
  /**
   * One reference per worker slot instead of one for the case, so that what the reference
   * does during a test can be told apart from what it does for another (the plain
   * reference's run, whose consultations of each control are attributed per test).
   */
  perSlot?: boolean;
  /** Scenario inputs the case's target is given over the embedded reference's own (targets.yaml). */
  scenario?: Record<string, unknown>;
}

export interface PlannedProject {
  /** The run's project: `<project>~<round>`. */
  name: string;
  /** The suite's project it is a round of (`v2-local`). */
  base: string;
  family: Family;
  surface: Surface;
  /** Repo-relative spec files of its tests. */
  files: string[];
  /** Its tests. */
  tests: Array<{ file: string; titles: string[] }>;
  /** Workers it may use at once. */
  workers: number;
}

export interface PlannedCase {
  id: string;
  fault?: string;
  controls?: readonly string[];
  perSlot?: boolean;
  scenario?: Record<string, unknown>;
  /** How many tests the case runs in all: once that many ended, its reference is closed. */
  tests: number;
}

export interface Plan {
  cases: PlannedCase[];
  projects: PlannedProject[];
  /** Run project → test key → the case that test serves there. */
  assignment: Record<string, Record<string, string>>;
  /** Where the reference host listens (host.ts), filled in once it does. */
  hostUrl: string;
  /** Reports, test results and scratch files of the run. */
  workDir: string;
}

/** How many tests one worker of a project is given before the project gets a second one. */
const TESTS_PER_WORKER = 40;

export function planRun(cases: readonly CaseSpec[], map: SpecMap, workDir: string): Plan {
  const projectOf = new Map<string, { family: Family; surface: Surface }>();
  // Per suite project: each test's cases, in the order the cases were given.
  const served = new Map<string, Map<string, { test: ListedTest; cases: string[] }>>();
  const planned: PlannedCase[] = [];
  const ids = new Set<string>();
  for (const c of cases) {
    if (ids.has(c.id)) throw new Error(`self-test plan: case ${c.id} given twice`);
    ids.add(c.id);
    let count = 0;
    for (const [project, tests] of c.tests) {
      const byKey = served.get(project) ?? served.set(project, new Map()).get(project)!;
      for (const t of tests) {
        const key = testKey(t.file, t.titles);
        const entry = byKey.get(key) ?? byKey.set(key, { test: t, cases: [] }).get(key)!;
        if (entry.cases.includes(c.id)) continue;
        entry.cases.push(c.id);
        count++;
      }
      if (!projectOf.has(project)) projectOf.set(project, familySurfaceOf(project, map));
    }
    planned.push({
      id: c.id,
      ...(c.fault ? { fault: c.fault } : {}),
      ...(c.controls?.length ? { controls: c.controls } : {}),
      ...(c.perSlot ? { perSlot: true } : {}),
      ...(c.scenario ? { scenario: c.scenario } : {}),
      tests: count,
    });
  }
  const projects: PlannedProject[] = [];
  const assignment: Plan['assignment'] = {};
  for (const [base, byKey] of served) {
    const rounds = Math.max(0, ...[...byKey.values()].map((e) => e.cases.length));
    for (let r = 0; r < rounds; r++) {
      const name = `${base}~${r + 1}`;
      const entries = [...byKey.entries()].filter(([, e]) => e.cases.length > r);
      assignment[name] = Object.fromEntries(entries.map(([key, e]) => [key, e.cases[r]]));
      projects.push({
        name,
        base,
        ...projectOf.get(base)!,
        files: [...new Set(entries.map(([, e]) => e.test.file))].sort(),
        tests: entries.map(([, e]) => ({ file: e.test.file, titles: e.test.titles })),
        workers: Math.min(2, Math.ceil(entries.length / TESTS_PER_WORKER)),
      });
    }
  }
  // Playwright queues projects in config order: the largest first, so the small rounds fill in around them.
  projects.sort((a, b) => b.tests.length - a.tests.length || a.name.localeCompare(b.name));
  return { cases: planned, projects, assignment, hostUrl: '', workDir };
}

function familySurfaceOf(project: string, map: SpecMap): { family: Family; surface: Surface } {
  const found = map.projects.get(project);
  if (!found) throw new Error(`self-test plan: no project ${project} in the listing`);
  return found;
}

export const PLAN_ENV = 'SELFTEST_PLAN_FILE';
