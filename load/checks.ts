// A load profile's judged properties are result values of lib/results.ts, the one type
// every spec check yields too, so a load run's results fill the conformance matrix's LOAD.*
// cells (report/load-cells.ts) the way a spec's fill the others. A held load check keeps what
// it measured (`received`), which its report shows beside the check.
import type { CheckResult } from '../lib/results.ts';
import type { RuleId } from '../lib/rule-ids.ts';
import { ruleOrThrow } from '../lib/rules.ts';

/** One judged property of a load run under `rule`: held when `ok`, else broken, with expected and received. */
export function loadCheck(rule: RuleId, ok: boolean, what: string, expected: string, received: string): CheckResult {
  ruleOrThrow(rule); // a misspelt id fails whether the check holds or not
  return { rule, outcome: ok ? 'held' : 'broken', what, expected, received };
}

/** Whether a check held (every other outcome is no pass). */
export function held(c: Pick<CheckResult, 'outcome'>): boolean {
  return c.outcome === 'held';
}

/** The rules of the checks that did not hold, once each, sorted. */
export function brokenRules(checks: readonly CheckResult[]): string[] {
  return [...new Set(checks.filter((c) => c.outcome === 'broken').map((c) => c.rule))].sort();
}

/**
 * A check as a load report holds it. Reports written before load checks were result values
 * (load-report/2 of an earlier version: `{rule, name, ok, detail}`) are read as results, so
 * `load compare` and `load merge` still take them.
 */
export function checkOf(raw: unknown): CheckResult {
  const c = (raw ?? {}) as Partial<CheckResult> & { name?: string; ok?: boolean; detail?: string };
  if (c.outcome) return c as CheckResult;
  return {
    rule: c.rule ?? '(unknown)',
    outcome: c.ok ? 'held' : 'broken',
    what: c.name ?? '',
    received: c.detail ?? '',
  };
}

/** One line of a check for a console or a table: what was judged, then what was measured (and expected, when it broke). */
export function checkText(c: CheckResult): string {
  if (c.outcome === 'broken') return `${c.what}: expected ${c.expected ?? '?'}; received ${c.received ?? '?'}`;
  return c.received ? `${c.what}: ${c.received}` : c.what;
}
