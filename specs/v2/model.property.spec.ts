// The v2 state machine (issue #24 § 1): fast-check draws sequences of client actions
// (uploads of new bytes and of known bytes under the same or another path, create-from-hash,
// asset and content reads with and without Range, submits with and without a key, a reused
// key, labels, job reads, cancels, the live event stream, a job-list walk one page at a time)
// and judges every answer against a model of what the seed fixes (lib/v2/model/state.ts),
// each under the rule it belongs to (lib/v2/model/commands.ts). A failure shrinks to the
// shortest sequence, printed as the curl of each exchange with FC_SEED / FC_PATH (and the
// length bound FC_MAX_COMMANDS) to replay it (lib/model-run.ts); sizes per profile in
// lib/profile.ts (MODEL_BUDGETS).
//
// One test per surface, each declaring the rules whose faults it is written to find (the
// others it judges on the way are recorded too): the self-hosted proxy's adds ranged reads,
// the serverless one the job-list walk scoped by the run's label; the hosted cloud lists no
// jobs (V2.JOB.LIST_WALK does not apply there).
import type { TestInfo } from '@playwright/test';
import { test, rules } from '../../fixtures/test.ts';
import type { ApiClient } from '../../lib/api.ts';
import { runModel } from '../../lib/model-run.ts';
import { modelBudgetFor, type PropertySettings } from '../../lib/profile.ts';
import type { Recorder } from '../../lib/recorder.ts';
import { v2Phases, windDown } from '../../lib/v2/model/commands.ts';
import { probeSurface } from '../../lib/v2/model/facts.ts';
import { emptyModel, type V2Model, type V2Real } from '../../lib/v2/model/state.ts';

async function stateMachine(
  api: ApiClient,
  recorder: Recorder,
  settings: PropertySettings,
  testInfo: TestInfo,
): Promise<void> {
  const facts = await probeSurface(api);
  const budget = modelBudgetFor(settings);
  testInfo.setTimeout(testInfo.timeout + budget.timeLimitMs);
  const outcome = await runModel<V2Model, V2Real>({
    title: testInfo.titlePath.slice(1).join(' › '),
    budget,
    recorder,
    phases: v2Phases({ facts }),
    fresh: (run, trace) => ({
      model: emptyModel(),
      real: { api, facts, trace, runLabel: `${facts.nonce}-${run}`, serial: 0 },
    }),
    finish: {
      label: '(after the last command) walk the job list to its end and read every job to its end',
      fn: windDown,
    },
  });
  if (outcome.failure)
    await testInfo.attach('shortest failing sequence (curl, credentials redacted)', {
      body: outcome.failure.text,
      contentType: 'text/plain',
    });
}

test.describe('v2 state machine (model-based)', () => {
  test(
    'self-hosted proxy: random sequences of uploads, ranged and whole reads, submits, cancels and list walks keep the state the seed fixes',
    rules('V2.ASSET.DEDUP', 'V2.ASSET.HASH_BLAKE3', 'V2.JOB.IDEMPOTENT', 'V2.JOB.LIST_WALK', 'V2.ASSET.CONTENT_RANGE'),
    async ({ api, evidence, settings }, testInfo) => {
      await stateMachine(api, evidence.recorder, settings, testInfo);
    },
  );

  test(
    'serverless deployment: random sequences of uploads, reads through signed URLs, labelled submits, ' +
      'cancels and label-scoped list walks keep the state the seed fixes',
    rules('V2.ASSET.DEDUP', 'V2.ASSET.HASH_BLAKE3', 'V2.JOB.IDEMPOTENT', 'V2.JOB.LIST_WALK', 'V2.URL.SIGNED_OPENABLE'),
    async ({ api, evidence, settings }, testInfo) => {
      await stateMachine(api, evidence.recorder, settings, testInfo);
    },
  );

  test(
    'hosted cloud: random sequences of uploads, reads through signed URLs, labelled submits and cancels keep the state the seed fixes',
    rules('V2.ASSET.DEDUP', 'V2.ASSET.HASH_BLAKE3', 'V2.JOB.IDEMPOTENT', 'V2.URL.SIGNED_OPENABLE'),
    async ({ api, evidence, surface, settings }, testInfo) => {
      test.skip(
        surface === 'serverless',
        'the serverless surface runs the state machine in the test above, which also walks its job list',
      );
      await stateMachine(api, evidence.recorder, settings, testInfo);
    },
  );
});
