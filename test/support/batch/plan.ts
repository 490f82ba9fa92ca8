// A batch of self-test cases run by one Playwright invocation: each case is the suite
// against its own embedded reference (one fault, one control, or none), on the
// projects and spec files that can see it. One invocation amortises what every
// separate run paid again (config load, reference start-up, worker start-up), which
// was most of the fault matrix's time.
import type { Family, Surface } from '../../../lib/families.ts';

export interface BatchCase {
  /** Unique within a batch; also the prefix of its projects' names. */
  id: string;
  fault?: string;
  control?: string;
  projects: Array<{ family: Family; surface: Surface }>;
  /** Spec files (repo-relative); empty: every spec of each project's family. */
  files: string[];
  /** Only tests carrying this tag (`@<rule id>`), when the case's rule is declared by tests. */
  tag?: string;
}

export interface PlannedCase extends BatchCase {
  portBase: number;
}

export interface Plan {
  cases: PlannedCase[];
  reportsDir: string;
}

export const PLAN_ENV = 'BATCH_PLAN_FILE';
export const projectName = (c: BatchCase, family: Family, surface: Surface) => `${c.id}~${family}-${surface}`;
