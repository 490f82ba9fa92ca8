// What a self-test case's tests came to: its matrix and verdict, by the user's own code
// (report/matrix.ts, report/summary.ts), from the outcomes of the tests it ran. Also builds
// the matrix of any subset of those outcomes (a control's baseline: the plain reference on
// the same tests).
import { buildMatrix, type RuleRow, type TestOutcome } from '../../../report/matrix.ts';
import { summarize } from '../../../report/summary.ts';
import { loadRules } from '../../../lib/rules.ts';
import { familyOfRule, type Family } from '../../../lib/families.ts';

/** A test's outcome, named: `<project> › <file> › <titles>`. */
export interface KeyedOutcome extends TestOutcome {
  key: string;
  family: Family;
}

/** One case's outcome: the shape of the user report's parts the self-tests read. */
export interface CaseReport {
  id: string;
  summary: { verdict: 'pass' | 'fail' | 'error'; must_failed: string[]; should_failed: string[]; errors: string[] };
  unplaced: string[];
  rules: RuleRow[];
  /** Tests the case ran. */
  tests: number;
  /** First lines of the errors of its failing tests, for messages. */
  output: string;
  outcomes: KeyedOutcome[];
}

export function matrixOf(outcomes: KeyedOutcome[]): ReturnType<typeof buildMatrix> {
  const ran = new Set(outcomes.map((o) => `${o.family}\0${o.surface}`));
  return buildMatrix({
    rules: [...loadRules().values()],
    outcomes,
    surfacesRun: new Set(outcomes.map((o) => o.surface)),
    familyRun: (rule, surface) => ran.has(`${familyOfRule(rule)}\0${surface}`),
  });
}

export function caseReport(id: string, outcomes: KeyedOutcome[], output: string): CaseReport {
  const matrix = matrixOf(outcomes);
  // The user's verdict, by the user's code; a self-test case has no baseline and is never strict.
  const { summary } = summarize({ matrix, rules: [...loadRules().values()], strict: false });
  return {
    id,
    summary: {
      verdict: summary.verdict,
      must_failed: summary.must_failed,
      should_failed: summary.should_failed,
      errors: summary.errors,
    },
    unplaced: matrix.unplaced,
    rules: matrix.rows,
    tests: outcomes.length,
    output,
    outcomes,
  };
}

/** What a case that ran no test reports: an error, with the run's output to say why. */
export function unrunReport(id: string, output: string): CaseReport {
  return {
    id,
    summary: { verdict: 'error', must_failed: [], should_failed: [], errors: ['no test ran'] },
    unplaced: [],
    rules: [],
    tests: 0,
    output: `no test of this case ran (the run ended first, or its selection is empty):\n${output.slice(-3000)}`,
    outcomes: [],
  };
}
