import { test } from 'node:test';
import assert from 'node:assert/strict';
import { evaluate, parseThreshold, ThresholdError } from '../../load/thresholds.ts';

test('thresholds read like k6: latency in ms (or s), percentages with %, counts bare', () => {
  assert.deepEqual(parseThreshold('p99<50'), { expr: 'p99<50', metric: 'p99', op: '<', limit: 50, unit: 'ms' });
  assert.equal(parseThreshold('p(99) < 0.2s').limit, 200);
  assert.equal(parseThreshold('p(99.9)<=80ms').metric, 'p99.9');
  assert.deepEqual(parseThreshold('errors<0.1%'), {
    expr: 'errors<0.1%',
    metric: 'errors',
    op: '<',
    limit: 0.1,
    unit: '%',
  });
  assert.equal(parseThreshold('rate_limit_accuracy<10%').unit, '%');
  assert.equal(parseThreshold('contract_violations==0').op, '==');
  assert.equal(parseThreshold('rate>=95').unit, 'rps');
});

test('a threshold that cannot be read unambiguously is refused, not guessed', () => {
  assert.throws(() => parseThreshold('errors<0.1'), ThresholdError, 'a percentage without %');
  assert.throws(() => parseThreshold('p99<5%'), ThresholdError, 'a latency in %');
  assert.throws(() => parseThreshold('contract_violations<1ms'), ThresholdError, 'a count with a unit');
  assert.throws(() => parseThreshold('latency<50'), /unknown metric/);
  assert.throws(() => parseThreshold('p99 50'), /not <metric><op><number>/);
});

test('evaluation compares the measured metric, and a metric nobody measured fails', () => {
  const ts = ['p99<50', 'errors<0.1%', 'rate_limit_accuracy<10%', 'jobs_completed>0'].map(parseThreshold);
  const results = evaluate(ts, { p99: 49.9, errors: 0.1, jobs_completed: 3 });
  assert.deepEqual(
    results.map((r) => [r.expr, r.ok]),
    [
      ['p99<50', true],
      ['errors<0.1%', false],
      ['rate_limit_accuracy<10%', false],
      ['jobs_completed>0', true],
    ],
  );
  assert.equal(results[2].actual, undefined);
  assert.equal(evaluate([parseThreshold('p99<50')], { p99: NaN })[0].ok, false);
});

test('a missed threshold reads as the team\'s limit ("over your threshold"), told apart from a broken rule check', async () => {
  const { thresholdOutcome, failureSummary } = await import('../../load/thresholds.ts');
  const [p99, done] = evaluate(['p99<250', 'jobs_completed>0'].map(parseThreshold), { p99: 300, jobs_completed: 0 });
  assert.equal(thresholdOutcome(p99), 'over your threshold');
  assert.equal(thresholdOutcome(done), 'at your threshold');
  assert.equal(thresholdOutcome(evaluate([parseThreshold('p99<250')], { p99: 10 })[0]), 'within your threshold');
  const onlyLatency = failureSummary({
    thresholds: [p99],
    checks: [{ rule: 'LOAD.POLL.RETRY_AFTER', outcome: 'held' }],
  });
  assert.match(
    onlyLatency!,
    /^no rule check broken; your thresholds missed: p99<250 \(over your threshold, measured 300 ms\)$/,
  );
  assert.match(
    failureSummary({ thresholds: [], checks: [{ rule: 'LOAD.POLL.RETRY_AFTER', outcome: 'broken' }] })!,
    /^rule checks broken: LOAD\.POLL\.RETRY_AFTER$/,
  );
  assert.equal(failureSummary({ thresholds: [], checks: [] }), undefined);
});

test("a team sets its own limits with --threshold: one on the same metric replaces the profile's, others are added; values print with their unit", async () => {
  const { withOverrides, withUnit, limitText } = await import('../../load/thresholds.ts');
  const profile = ['p99<250', 'errors<0.1%', 'contract_violations==0'];
  assert.deepEqual(withOverrides(profile, ['p(99)<0.5s', 'rate>=40']), [
    'errors<0.1%',
    'contract_violations==0',
    'p(99)<0.5s',
    'rate>=40',
  ]);
  assert.deepEqual(withOverrides(profile, []), profile);
  assert.throws(() => withOverrides(profile, ['errors<1']), /write the limit with %/);
  assert.equal(limitText(parseThreshold('p(99)<0.5s')), '< 500 ms');
  assert.equal(limitText(parseThreshold('errors<0.1%')), '< 0.1 %');
  assert.equal(withUnit(41.5, 'rps'), '41.5 req/s');
  assert.equal(withUnit(3, 'count'), '3');
  assert.equal(withUnit(undefined, 'ms'), 'not measured');
});

test(
  'budgets are opt-in: a latency or error budget the profile suggests is reported as a figure and ' +
    'decides nothing; set with --threshold it decides',
  async () => {
    const { failureSummary, thresholdOutcome } = await import('../../load/thresholds.ts');
    const { verdictOfRun } = await import('../../load/engine/judge.ts');
    const profile = ['p99<250', 'errors<0.1%', 'contract_violations==0', 'jobs_completed>0'].map(parseThreshold);
    const slow = { p99: 400, errors: 0.5, contract_violations: 0, jobs_completed: 3 };
    // Nobody set a budget: the p99 and error figures are reported, the run passes on its checks.
    const nobody = evaluate(profile, slow, new Set());
    assert.deepEqual(
      nobody.map((t) => [t.expr, t.ok, t.decides]),
      [
        ['p99<250', false, false],
        ['errors<0.1%', false, false],
        ['contract_violations==0', true, true],
        ['jobs_completed>0', true, true],
      ],
    );
    assert.equal(
      thresholdOutcome(nobody[0]),
      "over the profile's suggested budget (a figure: no budget was set; --threshold sets one)",
    );
    assert.equal(failureSummary({ thresholds: nobody, checks: [] }), undefined);
    assert.equal(verdictOfRun(false, profile, slow, [], new Set()).verdict, 'pass');
    // A budget the team set decides the exit code.
    const mine = evaluate(profile, slow, new Set(['p99<250']));
    assert.deepEqual(
      mine.map((t) => t.decides),
      [true, false, true, true],
    );
    assert.equal(thresholdOutcome(mine[0]), 'over your threshold');
    assert.equal(verdictOfRun(false, profile, slow, [], new Set(['p99<250'])).verdict, 'fail');
    assert.match(failureSummary({ thresholds: mine, checks: [] })!, /your thresholds missed: p99<250/);
    // A condition that is no budget (the run did work, nothing broke the contract) always decides.
    assert.equal(verdictOfRun(false, profile, { ...slow, jobs_completed: 0 }, [], new Set()).verdict, 'fail');
  },
);
