// The environment a test hands to a child it spawns (the CLI, Playwright, the load runner):
// the user's own, without the settings of theirs that would make the child test or report
// something other than what the test states.

/** The user's settings a spawned child must not inherit unless a test says so, and what each would change in it. */
export type UserSetting =
  | 'TARGET' // the server under test
  | 'TARGETS_FILE' // the server under test
  | 'TARGET_SURFACE' // the server under test
  | 'TARGET_BASE_URL' // the server under test
  | 'TARGET_TOKEN' // the credentials sent
  | 'REFERENCE_FAULT' // the embedded reference serves with a fault switched on
  | 'REFERENCE_CONTROL' // the embedded reference serves with a control switched on
  | 'REFERENCE_PORT' // the ports the embedded reference takes
  | 'REPORTS_DIR' // where the reports are written
  | 'CONFORMANCE_STRICT' // SHOULD failures fail the run
  | 'CONFORMANCE_BASELINE' // expected failures do not fail the run
  | 'CONFORMANCE_PROFILE' // which tests run, and how long
  | 'CONFORMANCE_SHARD' // a blob report is written for merge-reports
  | 'CONFORMANCE_SEEDS' // where the rule seeds are read
  | 'SEEDS_DIR' // where the rule seeds are read
  | 'FC_SEED' // property checks replay one seed
  | 'SCORE_FILE' // the child's tests append to the outer test run's score
  | 'NODE_TEST_CONTEXT'; // node:test in the child reports to the outer test runner, not to the child's output

/** Which server is under test: no child inherits the user's choice, unless its caller keeps a name of it. */
const TARGET_CHOICE: readonly UserSetting[] = [
  'TARGET',
  'TARGETS_FILE',
  'TARGET_SURFACE',
  'TARGET_BASE_URL',
  'TARGET_TOKEN',
];

/** The reference's fault and control. */
export const REFERENCE_SWITCHES: readonly UserSetting[] = ['REFERENCE_FAULT', 'REFERENCE_CONTROL'];

/** What turns the results into a verdict or a score. */
export const VERDICT_SETTINGS: readonly UserSetting[] = [
  'CONFORMANCE_STRICT',
  'CONFORMANCE_BASELINE',
  'CONFORMANCE_PROFILE',
  'SCORE_FILE',
];

export interface ChildEnvOptions {
  /** More of the user's settings the child must not inherit, beyond the choice of target. */
  drop?: readonly UserSetting[];
  /** Names of the target choice the child does inherit. */
  keep?: readonly UserSetting[];
  /** The caller's own values, set last: they win over what was dropped. */
  set?: Record<string, string>;
}

/** process.env without the user's choice of target and the settings in `drop` (but those in `keep`), then `set`. */
export function childEnv({ drop = [], keep = [], set = {} }: ChildEnvOptions = {}): Record<string, string> {
  const env = { ...(process.env as Record<string, string>) };
  for (const name of [...TARGET_CHOICE, ...drop]) if (!keep.includes(name)) delete env[name];
  return { ...env, ...set };
}
