// Each fault only a load profile can see (reference/faults/load.ts) makes its profile
// fail, under exactly the fault's rule: answers a profile's own rule judges (its 429s)
// are not sampled again for LOAD.CONTRACT.UNDER_LOAD.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { LOAD_FAULTS } from '../../reference/faults/load.ts';
import { FAULTS, SUITE_FAULTS } from '../../reference/faults.ts';
import { recordScore } from '../support/score.ts';
import { failedRules, smoke } from './helpers.ts';

/** The profile that catches each load fault. */
const CAUGHT_BY: Record<(typeof LOAD_FAULTS)[number]['name'], string> = {
  'load-poll-no-retry-after': 'router-queue-poll',
  'load-poll-invalid-body': 'router-queue-poll',
  'load-limiter-double': 'router-rate-limit',
  'load-429-no-detail': 'router-rate-limit',
  'load-429-burst-bucket': 'router-rate-limit',
  'load-limit-spills-over': 'router-rate-limit',
  'load-retry-after-short': 'router-rate-limit',
  'load-concurrency-off-by-one': 'router-concurrency',
  'load-concurrency-no-spend': 'router-concurrency',
  'load-v2-429-queue-full': 'rate-limit',
  'load-v2-poll-no-expires-at': 'v2-job-poll',
};

test('load faults are in the catalog, marked caughtBy load, and left out of the suite\'s fault matrix', () => {
  for (const f of LOAD_FAULTS) {
    assert.ok(FAULTS.some((x) => x.name === f.name), f.name);
    assert.equal(f.caughtBy, 'load');
    assert.ok(!SUITE_FAULTS.some((x) => x.name === f.name), f.name);
    assert.ok(f.rule.startsWith('LOAD.'), f.rule);
  }
});

describe('each load fault fails its profile', { concurrency: false }, () => {
  for (const fault of LOAD_FAULTS) {
    const profile = CAUGHT_BY[fault.name];
    test(`${fault.name} makes ${profile} fail on ${fault.rule}`, async () => {
      const report = await smoke(profile, fault.name);
      const rules = failedRules(report);
      const caught = report.verdict === 'fail' && rules.includes(fault.rule);
      recordScore({ kind: 'fault', name: fault.name, ok: caught });
      assert.equal(report.verdict, 'fail', `${fault.name}: the profile passed`);
      assert.ok(rules.includes(fault.rule), `${fault.name}: failed ${rules.join(', ')}, not ${fault.rule}`);
      const unrelated = rules.filter((r) => r !== fault.rule);
      assert.deepEqual(unrelated, [], `${fault.name} broke other checks too`);
    });
  }
});
