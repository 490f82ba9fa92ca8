// Every distinct violation behind a failing cell, and the causes of red tests. A cell's
// reason names its first broken check; a server team also needs the others (another
// operation, another answer), each with what was expected, what came back and a curl.
// Distinct means another shape: the same break on another id is counted, not repeated.
import { describeRef } from '../lib/repro.ts';
import type { CheckResult } from '../lib/results.ts';

export interface CellViolation {
  /** The test that saw it first. */
  test: string;
  what: string;
  expected: string;
  received: string;
  /** The operation the exchange called, when the check cited one. */
  operation?: string;
  /** `METHOD path -> status code "message"`. */
  exchange?: string;
  curl?: string;
  /** How many broken checks of this cell had this shape. */
  count: number;
}

/** At most this many distinct violations are kept per cell; the rest are counted. */
export const VIOLATIONS_KEPT = 10;

const UUID = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi;

/** A text with its ids, hashes and numbers blanked: two breaks differing only there have one shape. */
export function shapeOf(text: string): string {
  return text
    .replace(UUID, '<id>')
    .replace(/\b(?=[0-9a-f]*[0-9])[0-9a-f]{12,}\b/gi, '<hex>')
    .replace(/\b\d+(\.\d+)?\b/g, '<n>')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * The shape of a broken check: its operation, what was looked at and what was expected,
 * with what came back when that is short (a status, a code); a long one (a whole body,
 * which carries the test's own names) would make every test's break look new.
 */
export function violationKey(r: Pick<CheckResult, 'what' | 'expected' | 'received' | 'exchange'>): string {
  const received = r.received ?? '';
  return shapeOf(
    `${r.exchange?.operationId ?? ''}\0${r.what}\0${r.expected ?? ''}\0${received.length <= 60 ? received : ''}`,
  );
}

const keyOf = violationKey;

/** The distinct violations of a cell's broken results, in the order first seen, with how many there are. */
export function distinctViolations(broken: ReadonlyArray<CheckResult & { title: string }>): {
  kept: CellViolation[];
  more: number;
} {
  const byKey = new Map<string, CellViolation>();
  for (const r of broken) {
    const key = keyOf(r);
    const known = byKey.get(key);
    if (known) {
      known.count++;
      continue;
    }
    byKey.set(key, {
      test: r.title,
      what: r.what,
      expected: r.expected ?? '?',
      received: r.received ?? '?',
      ...(r.exchange?.operationId ? { operation: r.exchange.operationId } : {}),
      ...(r.exchange ? { exchange: describeRef(r.exchange) } : {}),
      ...(r.exchange?.curl ? { curl: r.exchange.curl } : {}),
      count: 1,
    });
  }
  const all = [...byKey.values()];
  return { kept: all.slice(0, VIOLATIONS_KEPT), more: Math.max(0, all.length - VIOLATIONS_KEPT) };
}
