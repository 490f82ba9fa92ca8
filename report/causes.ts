// The causes of red tests: one cause, many red tests (asset ids that are not UUIDs break
// every test that makes an asset) is said once, "N tests fail because …", with the rule
// it rests on, before the list of failures. A test's cause is its first broken check of a
// rule it declares (the check of the answer in hand), else its first broken check of any
// rule (an always-on rule every answer is judged by); a red test with no broken check
// could not judge its rules, and its cause is why. Causes are equal when their rule and
// shape are (ids, hashes and numbers blanked: report/violations-list.ts).
import { seedLocation, type Rule } from '../lib/rules.ts';
import { describeRef } from '../lib/repro.ts';
import type { CheckResult } from '../lib/results.ts';
import { firstLine } from '../lib/violations.ts';
import type { TestOutcome } from './matrix.ts';
import { shapeOf, violationKey } from './violations-list.ts';

export interface Cause {
  /** The broken rule; absent when the tests could not judge (their cause is then `what`). */
  rule?: string;
  level?: Rule['level'];
  /** Where the rule's requirement is in the seed ("W § Errors, line 217"). */
  seed?: string;
  what: string;
  expected?: string;
  received?: string;
  exchange?: string;
  curl?: string;
  /** How many red tests have this cause. */
  tests: number;
  /** The first few of them. */
  titles: string[];
}

const TITLES_KEPT = 5;

function rootOf(o: TestOutcome, catalog: ReadonlyMap<string, Rule>, strict: boolean): CheckResult | undefined {
  const failing = (o.results ?? []).filter(
    (r) => r.outcome === 'broken' && (strict || catalog.get(r.rule)?.level !== 'SHOULD'),
  );
  return failing.find((r) => o.rules.includes(r.rule)) ?? failing[0];
}

/** The causes of this run's red tests, the most frequent first. */
export function causesOf(
  outcomes: readonly TestOutcome[],
  catalog: ReadonlyMap<string, Rule>,
  strict = false,
): Cause[] {
  const groups = new Map<string, Cause>();
  for (const o of outcomes) {
    if (o.status === 'passed' || o.status === 'skipped') continue;
    const root = rootOf(o, catalog, strict);
    const title = `${o.title} [${o.surface}]`;
    let key: string;
    let cause: Omit<Cause, 'tests' | 'titles'>;
    if (root) {
      const rule = catalog.get(root.rule);
      key = `${root.rule}\0${violationKey(root)}`;
      cause = {
        rule: root.rule,
        ...(rule ? { level: rule.level, seed: seedLocation(rule) } : {}),
        what: root.what,
        expected: root.expected ?? '?',
        received: root.received ?? '?',
        ...(root.exchange ? { exchange: describeRef(root.exchange) } : {}),
        ...(root.exchange?.curl ? { curl: root.exchange.curl } : {}),
      };
    } else {
      const blocked = (o.results ?? []).find((r) => r.outcome === 'blocked');
      const why = blocked
        ? `could not judge: stopped at ${blocked.step ?? 'a step'}: ${blocked.what}`
        : `could not judge: ${firstLine(o.errors.join('\n')) || 'the test ended without results'}`;
      key = `\0${shapeOf(why)}`;
      cause = { what: why };
    }
    const known = groups.get(key);
    if (known) {
      known.tests++;
      if (known.titles.length < TITLES_KEPT) known.titles.push(title);
    } else groups.set(key, { ...cause, tests: 1, titles: [title] });
  }
  return [...groups.values()].sort((a, b) => b.tests - a.tests);
}

/** "21 tests fail because `V2.ASSET.FIELDS` (MUST, seed W § …) broke: …" — one line of Markdown. */
export function causeLine(c: Cause): string {
  const n = `${c.tests} test${c.tests === 1 ? '' : 's'} fail${c.tests === 1 ? 's' : ''} because`;
  if (!c.rule) return `${n} the suite ${c.what.replace(/^could not judge/, 'could not judge them')}`;
  const received = (c.received ?? '?').length > 160 ? `${c.received!.slice(0, 160)}…` : c.received;
  return (
    `${n} \`${c.rule}\` (${c.level ?? '?'}${c.seed ? `, seed: ${c.seed}` : ''}) broke: ${c.what} — ` +
    `expected ${c.expected}, received ${received}${c.exchange ? ` — ${c.exchange}` : ''}`
  );
}
