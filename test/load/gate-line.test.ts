// `run --load` says how many load profiles judged the LOAD.* cells and how many were
// skipped or could not start, never "6 judged" when five of the six were skipped.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { profilesLine } from '../../load/gate.ts';
import type { LoadProfileRun } from '../../report/report.ts';

const run = (profile: string, verdict: string, extra: Partial<LoadProfileRun> = {}): LoadProfileRun => ({
  profile,
  surface: 'local',
  verdict,
  rules: [],
  checks: [],
  thresholds_missed: [],
  report: { json: 'a.json', markdown: 'a.md', html: 'a.html' },
  ...extra,
});

test('the load line counts the profiles that judged apart from those skipped or not run', () => {
  const runs = [
    run('v2-job-poll', 'pass'),
    ...['rate-limit', 'router-concurrency', 'router-queue-poll', 'v1-job-status', 'poll-pool'].map((p) =>
      run(p, 'skipped', { skip_reason: 'the target has none of its surfaces', surface: '(none)' }),
    ),
  ];
  assert.equal(
    profilesLine(runs),
    '1 load profile judged the LOAD.* cells; 5 skipped (the target has none of its surfaces)',
  );
  const { report: _, ...withoutReport } = run('rate-limit', 'fail', {
    checks: [{ rule: 'LOAD.X', outcome: 'blocked', what: 'refused' }],
  });
  assert.equal(
    profilesLine([run('a', 'pass'), run('b', 'fail'), withoutReport]),
    '2 load profiles judged the LOAD.* cells; 1 could not start (refused)',
  );
});
