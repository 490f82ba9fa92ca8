// How much the suite spends provoking a router limit. The seed gives no allowance number
// (R:291:4b72597615e9), and every synchronous run may be paid for, so the burst that looks
// for a 429 is the suite's own bound: a scenario input with a modest default. A burst that
// ends without a 429 is that bound's error (SuiteCountBound), never a rule's failure.
import { SuiteError } from '../violations.ts';

/** Scenario input: the most synchronous runs spent looking for a 429 (ROUTER.ERR.RATE_LIMITED). */
export const RATE_LIMIT_MAX_RUNS = 'rate_limit_max_runs';
/** Its default when the target states no allowance, and its ceiling when it states one. */
const DEFAULT_RATE_LIMIT_MAX_RUNS = 20;

/**
 * The runs to spend: rate_limit_max_runs when the target sets it; else twice the stated
 * allowance (rate_limit_allowance) plus 5, at most 20; else 20.
 */
export function rateLimitMaxRuns(scenario: Record<string, unknown>): number {
  const set = scenario[RATE_LIMIT_MAX_RUNS];
  if (set !== undefined) {
    const n = Number(set);
    if (!Number.isInteger(n) || n < 1)
      throw new SuiteError(
        `scenario input ${RATE_LIMIT_MAX_RUNS} must be a whole number of runs of at least 1, got ${JSON.stringify(set)}`,
      );
    return n;
  }
  const allowance = Number(scenario.rate_limit_allowance);
  return Number.isInteger(allowance) && allowance > 0
    ? Math.min(DEFAULT_RATE_LIMIT_MAX_RUNS, allowance * 2 + 5)
    : DEFAULT_RATE_LIMIT_MAX_RUNS;
}
