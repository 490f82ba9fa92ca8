// A batch of self-test cases run by one Playwright invocation: each case is the suite
// against its own embedded reference (one fault, one control, or none), on the
// projects and spec files that can see it. One invocation amortises what every
// separate run paid again (config load, reference start-up, worker start-up), which
// was most of the fault matrix's time.
//
// Cases share projects: the cases of a batch are spread over rounds (rounds.ts) so
// that no test of a family x surface belongs to two cases of one round, and each round
// x family x surface is one project whose tests each reach their own case's reference
// (fixtures/reference-cases.ts). A worker then serves many cases instead of one.
import type { Family, Surface } from '../../../lib/families.ts';
import type { ReferenceCase } from '../../../fixtures/reference-cases.ts';

export interface BatchCase {
  /** Unique within a batch. */
  id: string;
  fault?: string;
  control?: string;
  projects: Array<{ family: Family; surface: Surface }>;
  /** Spec files (repo-relative); empty: every spec of each project's family. */
  files: string[];
  /** Only tests carrying this tag (`@<rule id>`), when the case's rule is declared by tests. */
  tag?: string;
  /** Scenario inputs this case's target gives over the reference entry's (fixtures/reference-cases.ts). */
  scenario?: Record<string, unknown>;
}

export interface PlannedCase extends BatchCase {
  portBase: number;
}

/** One Playwright project: a round's cases on one family and surface. */
export interface RoundProject {
  name: string;
  family: Family;
  surface: Surface;
  /** The cases, with absolute spec paths, as the fixtures and the reporter match tests to them. */
  cases: ReferenceCase[];
}

export interface Plan {
  cases: PlannedCase[];
  projects: RoundProject[];
  reportsDir: string;
  /** Workers one project may use at once (absent: as many as the run has). */
  projectWorkers?: number;
}

export const PLAN_ENV = 'BATCH_PLAN_FILE';
