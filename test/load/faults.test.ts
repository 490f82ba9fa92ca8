// Each fault only a load profile can see (reference/faults/load.ts) makes the profile it
// names (`caughtBy: { load }`) fail, under exactly the fault's rule: answers a profile's
// own rule judges (its 429s) are not sampled again for LOAD.CONTRACT.UNDER_LOAD.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { LOAD_FAULTS } from '../../reference/faults/load.ts';
import { FAULTS, SUITE_FAULTS } from '../../reference/faults.ts';
import { profileNamed } from '../../load/profiles/index.ts';
import { recordScore } from '../support/score.ts';
import { failedRules, smoke } from './helpers.ts';

test("load faults are in the catalog, name a profile that exists, and are left out of the suite's fault matrix", () => {
  for (const f of LOAD_FAULTS) {
    assert.ok(
      FAULTS.some((x) => x.name === f.name),
      f.name,
    );
    assert.ok(profileNamed(f.caughtBy.load), `${f.name}: no load profile ${f.caughtBy.load}`);
    assert.ok(!SUITE_FAULTS.some((x) => x.name === f.name), f.name);
    assert.ok(f.breaks.startsWith('LOAD.'), f.breaks);
  }
  // Every fault a profile catches is a load fault, and the other way round.
  assert.deepEqual(
    FAULTS.filter((f) => f.caughtBy)
      .map((f) => f.name)
      .sort(),
    LOAD_FAULTS.map((f) => f.name).sort(),
  );
});

describe('each load fault fails its profile', { concurrency: false }, () => {
  for (const fault of LOAD_FAULTS) {
    const profile = fault.caughtBy.load;
    test(`${fault.name} makes ${profile} fail on ${fault.breaks}`, async () => {
      const report = await smoke(profile, fault.name);
      const rules = failedRules(report);
      const caught = report.verdict === 'fail' && rules.includes(fault.breaks);
      recordScore({ kind: 'fault', name: fault.name, ok: caught });
      assert.equal(report.verdict, 'fail', `${fault.name}: the profile passed`);
      assert.ok(rules.includes(fault.breaks), `${fault.name}: failed ${rules.join(', ')}, not ${fault.breaks}`);
      const unrelated = rules.filter((r) => r !== fault.breaks);
      assert.deepEqual(unrelated, [], `${fault.name} broke other checks too`);
    });
  }
});
