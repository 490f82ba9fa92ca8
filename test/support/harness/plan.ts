// The self-test's harness: many cases (the suite against the embedded reference with one
// fault, one control, or neither), each on the tests that can see it, in ONE Playwright run.
//
// Where the time goes decides the shape. Starting a Playwright worker costs about a
// CPU-second (Playwright's own bundles, the fixtures, the specs), and a worker serves one
// project only (its hash is the project's, and the repeat index's), so worker starts grow
// with the number of projects. A test runs at most once per file of a project, so a test
// several cases select runs from as many copies of its spec file: each family x surface is
// ONE project, and round k of a test (its k-th case) runs from `r<k>/<family>/<file>` under
// the run's copy folder (copies.ts writes each copy, the same source but for import paths
// that reach the same modules, and the run's end removes them). Worker starts no longer grow
// with how many cases meet on one test; each case's cost is its own tests.
//
// A case's reference is started by the host (host.ts) when its first test asks for it and
// closed after its last, so a few hundred cases never hold a few hundred servers at once.
import path from 'node:path';
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
  /** The run's project: the suite's project it runs (`v2-local`). */
  name: string;
  /** The suite's project (the same name: what outcomes and consultations are keyed by). */
  base: string;
  family: Family;
  surface: Surface;
  /** The copies its tests run from (relative to the plan's copy folder). */
  files: string[];
  /** Its tests, each with the copy it runs from. */
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
  /** Run project → test key (with the copy it runs from) → the case it serves. */
  assignment: Record<string, Record<string, string>>;
  /** Where the copies are (copies.ts): `<workDir>/specs`. */
  copyDir: string;
  /** Copy (relative to copyDir) → the repo-relative spec file it copies. */
  copies: Record<string, string>;
  /** Where the reference host listens (host.ts), filled in once it does. */
  hostUrl: string;
  /** Reports, test results and scratch files of the run. */
  workDir: string;
}

/** How many tests one worker of a project is given before the project gets another one. */
const TESTS_PER_WORKER = 40;
/**
 * A project's workers at most. A family x surface holds every round of its tests (hundreds in
 * the fault matrix and the controls' runs); four per project took the controls test from 263 s
 * to 251 s alone, for 50 more CPU-seconds of worker starts and per-slot references, which a
 * full `npm test` (CPU-bound on two cores) pays in wall time.
 */
const MAX_WORKERS_PER_PROJECT = 2;

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
      // A project none of the case's tests is in gets no place in the run (Playwright refuses a project of no workers).
      if (tests.length === 0) continue;
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
  const copies: Plan['copies'] = {};
  for (const [base, byKey] of served) {
    const tests: PlannedProject['tests'] = [];
    const assigned: Record<string, string> = {};
    for (const { test, cases: ids } of byKey.values()) {
      ids.forEach((id, r) => {
        const file = roundCopy(test.file, r + 1);
        copies[file] = test.file;
        tests.push({ file, titles: test.titles });
        assigned[testKey(file, test.titles)] = id;
      });
    }
    assignment[base] = assigned;
    projects.push({
      name: base,
      base,
      ...projectOf.get(base)!,
      files: [...new Set(tests.map((t) => t.file))].sort(),
      tests,
      workers: Math.min(MAX_WORKERS_PER_PROJECT, Math.ceil(tests.length / TESTS_PER_WORKER)),
    });
  }
  // Playwright queues projects in config order: the largest first, so the small ones fill in around them.
  projects.sort((a, b) => b.tests.length - a.tests.length || a.name.localeCompare(b.name));
  return { cases: planned, projects, assignment, copyDir: path.join(workDir, 'specs'), copies, hostUrl: '', workDir };
}

/** The copy round `round` of a spec file's tests runs from: `r<round>/<family>/<file>`. */
export function roundCopy(file: string, round: number): string {
  if (!file.startsWith('specs/')) throw new Error(`self-test plan: ${file} is not under specs/`);
  return `r${round}/${file.slice('specs/'.length)}`;
}

/** The repo-relative spec file a copy copies. */
export function originalOf(plan: Pick<Plan, 'copies'>, copy: string): string {
  const file = plan.copies[copy];
  if (file === undefined) throw new Error(`self-test plan: ${copy} is no copy of this run`);
  return file;
}

function familySurfaceOf(project: string, map: SpecMap): { family: Family; surface: Surface } {
  const found = map.projects.get(project);
  if (!found) throw new Error(`self-test plan: no project ${project} in the listing`);
  return found;
}

export const PLAN_ENV = 'SELFTEST_PLAN_FILE';
