// The reference's request limiter (reference/ratelimit.ts): each algorithm answers as it
// would alone, and a control choosing another algorithm is asked only where it matters.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RateLimiter, type AlternativeKind, type LimiterKind, type LimitDecision } from '../../reference/ratelimit.ts';

const allowance = { requests: 3, windowSeconds: 2 };
// Requests at these times (ms): a burst, a gap, a burst across a clock boundary, a lull.
const times = [1_500, 1_600, 1_700, 1_800, 2_100, 2_200, 3_400, 3_500, 3_600, 3_700, 9_000, 9_100];

function decisions(kind: LimiterKind | ((a: AlternativeKind) => boolean)): LimitDecision[] {
  let now = 0;
  const limiter = new RateLimiter(
    () => allowance,
    () => now,
    kind,
  );
  return times.map((t) => ((now = t), limiter.take('a')));
}

test('each algorithm of the limiter answers a request sequence its own way', () => {
  const rolling = decisions('rolling-window');
  const clock = decisions('clock-window');
  const bucket = decisions('token-bucket');
  assert.equal(rolling.filter((d) => !d.allowed).length, 4, '1800 to 3400 wait for the window opened at 1500');
  assert.notDeepEqual(clock, rolling, 'the clock-aligned windows open at other times');
  assert.notDeepEqual(bucket, rolling, 'the bucket refills evenly');
});

test('a control choosing the algorithm is asked only where its answer differs, and then serves that answer', () => {
  for (const alternative of ['clock-window', 'token-bucket'] as const) {
    const asked: number[] = [];
    let i = 0;
    let now = 0;
    const limiter = new RateLimiter(
      () => allowance,
      () => now,
      (a) => (a === alternative ? (asked.push(i), true) : false),
    );
    const served = times.map((t, n) => ((now = t), (i = n), limiter.take('a')));
    assert.deepEqual(served, decisions(alternative), `${alternative} served as if alone`);
    const alone = decisions(alternative);
    const differs = decisions('rolling-window')
      .map((d, n) => (JSON.stringify(d) === JSON.stringify(alone[n]) ? -1 : n))
      .filter((n) => n >= 0);
    assert.ok(differs.length > 0);
    // Asked on each request where the answers differ (the other alternative may be asked too, and decline).
    assert.deepEqual([...new Set(asked)], differs);
  }
});

test('with no control on, the rolling window serves every request', () => {
  assert.deepEqual(
    decisions(() => false),
    decisions('rolling-window'),
  );
});
