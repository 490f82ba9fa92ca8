// How many of a user's prompts ran at once, read from the v1 stream (seed W § v1 rule 3:
// as many prompts run at once as the subscription tier allows; the others queue). A
// prompt runs from its execution_start (or, failing that, its first message about a
// node) to its terminal message, by the time each arrived on one connection.
import type { Received } from '../ws/session.ts';
import { TERMINAL_TYPES } from '../ws/schemas.ts';

export interface Interval {
  promptId: string;
  start: number;
  end: number;
}

const NODE_TYPES = new Set(['executing', 'progress', 'executed', 'execution_cached']);

/** The running interval of each prompt whose start and end both arrived. */
export function runningIntervals(received: Received[], promptIds: string[]): Interval[] {
  return promptIds.flatMap((promptId) => {
    const mine = received.flatMap((r) =>
      r.kind === 'text' && r.message.data.prompt_id === promptId ? [{ at: r.at, type: r.message.type }] : [],
    );
    const start = mine.find((m) => m.type === 'execution_start') ?? mine.find((m) => NODE_TYPES.has(m.type));
    const end = mine.find((m) => TERMINAL_TYPES.has(m.type));
    return start && end ? [{ promptId, start: start.at, end: end.at }] : [];
  });
}

/**
 * The most intervals open at one moment. A prompt that ends in the same millisecond as
 * another starts is not counted as running beside it, so the count never overstates.
 */
export function maxOverlap(intervals: Interval[]): number {
  const points = intervals.flatMap((i) => [
    { at: i.start, delta: 1 },
    { at: i.end, delta: -1 },
  ]);
  points.sort((a, b) => a.at - b.at || a.delta - b.delta);
  let open = 0;
  let max = 0;
  for (const p of points) {
    open += p.delta;
    max = Math.max(max, open);
  }
  return max;
}

/**
 * How long (ms, summed) more than `limit` intervals were open at once. The seed gives no
 * order between one prompt's terminal message and the start of the prompt that takes its
 * slot, so a caller lets a short crossover pass (PARALLEL_CROSSOVER_MS) before it counts.
 */
export function overLimitMs(intervals: Interval[], limit: number): number {
  const points = intervals.flatMap((i) => [
    { at: i.start, delta: 1 },
    { at: i.end, delta: -1 },
  ]);
  points.sort((a, b) => a.at - b.at || a.delta - b.delta);
  let open = 0;
  let over = 0;
  for (const [k, p] of points.entries()) {
    open += p.delta;
    const next = points[k + 1];
    if (open > limit && next) over += next.at - p.at;
  }
  return over;
}

/** The crossover between a prompt's end and the next one's start that is not counted as both running (the suite's choice). */
export const PARALLEL_CROSSOVER_MS = 250;
