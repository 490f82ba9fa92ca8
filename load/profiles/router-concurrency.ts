// Router in-flight limit under parallel load (seed R § 409 and 429 rules, 3: "429
// concurrency_limit_exceeded: reduce in-flight calls ... carry the committed-spend
// headers"; § Limits: in-flight concurrency limits apply per caller). Synchronous calls
// of a slow model are sent faster than the limit lets them finish: admitted calls must
// never overlap beyond the limit, and each refusal must carry consistent spend headers.
import type { CheckResult, Observation, Profile } from '../types.ts';
import { loadCheck } from '../checks.ts';
import { basePath, bearer, missing, scenarioNumber, scenarioObject, scenarioString } from './common.ts';

const SPEND = ['x-committed-spend-limit', 'x-committed-spend-current', 'x-committed-spend-remaining'] as const;
/** The client's own timing noise (event loop, timers): the least an interval is shrunk by. */
const EDGE_FLOOR_MS = 50;

/**
 * How much of each end of an admitted call's client-side interval may be link, not run.
 * The interval from send to answer is wider than the call's run at the router by the
 * request's trip there and the answer's trip back. A fixed edge misjudges on a real link:
 * at 40 ms round trip, two calls the router ran back to back (one admitted the moment the
 * other ended) look overlapping by up to that round trip, and a correct limit would read as
 * broken. So the edge is measured on this run's own link: a 429 concurrency_limit_exceeded
 * is answered without running the model, so its send-to-answer time is one whole round
 * trip plus the router's quick path, and no single end of an admitted call (one leg of a
 * trip) is wider than that. The median refusal is taken (jitter), never less than the
 * floor. Intervals shrunk by it at both ends keep only time each call certainly ran at the
 * router, whatever the link's latency; an overlap shorter than a round trip is not counted.
 */
export function linkEdgeMs(refusalMs: readonly number[], floor = EDGE_FLOOR_MS): number {
  if (refusalMs.length === 0) return floor;
  const sorted = [...refusalMs].sort((a, b) => a - b);
  return Math.max(floor, sorted[Math.floor((sorted.length - 1) / 2)]);
}

/** The largest number of intervals open at once, each shrunk by `edge` ms at both ends. */
export function maxOverlap(intervals: ReadonlyArray<[number, number]>, edge = EDGE_FLOOR_MS): number {
  const events: Array<[number, number]> = [];
  for (const [start, end] of intervals) {
    if (end - start <= 2 * edge) continue;
    events.push([start + edge, 1], [end - edge, -1]);
  }
  events.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let open = 0;
  let max = 0;
  for (const [, d] of events) {
    open += d;
    max = Math.max(max, open);
  }
  return max;
}

/** Problem with the committed-spend headers of an answer, or undefined. */
export function spendProblem(headers: Record<string, string>): string | undefined {
  const values: number[] = [];
  for (const h of SPEND) {
    const v = headers[h];
    if (v === undefined || !/^\d+$/.test(v.trim())) return `${h} is ${v === undefined ? 'absent' : `"${v}"`}`;
    values.push(Number(v));
  }
  const [limit, current, remaining] = values as [number, number, number];
  if (remaining !== Math.max(0, limit - current))
    return `remaining ${remaining} is not max(0, limit ${limit} - current ${current})`;
  return undefined;
}

export const routerConcurrency: Profile = {
  name: 'router-concurrency',
  title: 'Router in-flight limit and committed-spend headers under parallel load',
  description:
    'Synchronous runs of a slow model from a workspace with a small in-flight limit, sent faster than the limit lets them finish.',
  surfaces: ['router'],
  family: 'router',
  rate: 6,
  connections: 6,
  durationS: 15,
  warmupS: 2,
  minDurationS: 3,
  rules: ['LOAD.CONTRACT.UNDER_LOAD', 'LOAD.CONCURRENCY.LIMIT', 'LOAD.CONCURRENCY.SPEND_HEADERS'],
  quick: { rate: 5, durationS: 3, warmupS: 1 },
  // A call takes about a second: let the last measured ones finish.
  drainS: 2,
  // The in-flight limit is per workspace: shards sharing one would each see part of it.
  perShardScenario: ['concurrency_limited_token'],
  sampleEvery: 3,
  thresholds: ['errors<0.1%', 'contract_violations==0', 'concurrency_refusals>0'],
  async prepare({ target, settings }) {
    const absent = missing(target, {
      concurrency_limited_token: 'a key whose workspace has a small in-flight limit',
      concurrency_limit: 'that limit',
      slow_model: 'a model slow enough to keep calls in flight',
      image_body: 'a valid body for it',
    });
    if (absent) return absent;
    const limit = scenarioNumber(target, 'concurrency_limit')!;
    if (settings.connections <= limit)
      return { skip: `${settings.connections} connections cannot exceed the in-flight limit of ${limit}` };
    const token = scenarioString(target, 'concurrency_limited_token')!;
    const body = JSON.stringify(scenarioObject(target, 'image_body')!);
    const path = `${basePath(target)}/v2/models/${scenarioString(target, 'slow_model')!}`;
    const admitted: Array<[number, number]> = [];
    // Send-to-answer times of the refusals: the link's round trip (linkEdgeMs).
    const refusalMs: number[] = [];
    const otherStatuses = new Map<number, number>();
    const badRefusals: string[] = [];
    const badAdmitted: string[] = [];
    let refusals = 0;
    let invalidRefusals = 0;
    let wrongBucket = 0;
    const errorTypeHeader = `x-${target.brand.toLowerCase()}-error-type`;
    return {
      method: 'POST',
      headers: { accept: 'application/json', 'content-type': 'application/json', ...bearer(token) },
      next: () => ({ path, body }),
      expected: (status) => status === 200 || status === 429,
      judgesItself: (status) => status === 429,
      observe(o: Observation) {
        if (o.status === 200) {
          admitted.push([o.sentAt, o.at]);
          const problem = spendProblem(o.headers);
          if (problem && badAdmitted.length < 3) badAdmitted.push(problem);
          return;
        }
        if (o.status !== 429) {
          otherStatuses.set(o.status, (otherStatuses.get(o.status) ?? 0) + 1);
          return;
        }
        let bucket: unknown;
        try {
          bucket = (JSON.parse(o.body) as { error_type?: unknown }).error_type;
        } catch {
          bucket = undefined;
        }
        if (bucket !== 'concurrency_limit_exceeded') {
          wrongBucket += 1;
          return;
        }
        refusals += 1;
        refusalMs.push(o.at - o.sentAt);
        const problem =
          spendProblem(o.headers) ??
          (o.headers[errorTypeHeader] !== bucket
            ? `${errorTypeHeader} is ${o.headers[errorTypeHeader] ?? 'absent'}`
            : undefined);
        if (problem) {
          invalidRefusals += 1;
          if (badRefusals.length < 3) badRefusals.push(`${problem} (at ${(o.at / 1000).toFixed(1)} s)`);
        }
      },
      async finish() {
        const edge = linkEdgeMs(refusalMs);
        const peak = maxOverlap(admitted, edge);
        // The single-call baseline: the quickest admitted call. An edge of half of it or more
        // would leave nothing of any call to overlap, so the peak would say nothing.
        const baseline = admitted.length ? Math.min(...admitted.map(([a, b]) => b - a)) : 0;
        const measurable = admitted.length > 0 && 2 * edge < baseline;
        const checks: CheckResult[] = [
          loadCheck(
            'LOAD.CONCURRENCY.LIMIT',
            refusals > 0 && peak <= limit && admitted.length > 0,
            `admitted calls never exceed the in-flight limit (${limit}); the rest are refused 429 concurrency_limit_exceeded`,
            `at most ${limit} admitted calls in flight at once, calls beyond it refused 429 concurrency_limit_exceeded`,
            refusals === 0
              ? `no call was refused concurrency_limit_exceeded (${admitted.length} admitted, peak ${peak} ` +
                  `in flight): the limit was never reached or not enforced`
              : `${admitted.length} admitted with at most ${peak} in flight at once (limit ${limit}), ${refusals} refused` +
                  `${wrongBucket ? `, ${wrongBucket} 429s of another bucket` : ''}` +
                  (measurable
                    ? ''
                    : `; overlap not measurable: the link's round trip (${Math.round(edge)} ms) ` +
                      `is half the quickest call (${Math.round(baseline)} ms) or more`),
          ),
          loadCheck(
            'LOAD.CONCURRENCY.SPEND_HEADERS',
            refusals > 0 && invalidRefusals === 0,
            '429 concurrency_limit_exceeded carries consistent committed-spend headers',
            'refusals, each with integer Limit, Current and Remaining = max(0, Limit - Current)',
            refusals === 0
              ? 'no refusal to judge'
              : invalidRefusals === 0
                ? `${refusals} refusals, each with Limit, Current and Remaining = max(0, Limit - Current)`
                : `${invalidRefusals} of ${refusals} refusals: ${badRefusals.join('; ')}`,
          ),
        ];
        return {
          metrics: { concurrency_refusals: refusals, max_in_flight: peak, admitted_calls: admitted.length },
          checks,
          figures: {
            limit,
            other_statuses: Object.fromEntries(otherStatuses),
            admitted_spend_problems: badAdmitted,
            link_edge_ms: Math.round(edge),
            quickest_call_ms: Math.round(baseline),
          },
          notes: [
            `in-flight peak measured from client-side intervals shrunk by ${Math.round(edge)} ms at ` +
              `each end: the link's round trip, measured from this run's refusals (median, at least ` +
              `${EDGE_FLOOR_MS} ms), so the link's latency cannot make back-to-back calls look ` +
              `overlapping; quickest admitted call ${Math.round(baseline)} ms`,
          ],
        };
      },
    };
  },
};
