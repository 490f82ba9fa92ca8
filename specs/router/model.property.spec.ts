// The router state machine (issue #24 § 2): fast-check draws sequences of client actions on
// queued requests and Idempotency-Keys (submits with and without a key, under a key a refusal
// released, synchronous runs under a key, one at a time and several at once, the same key
// again with the same or another request by the caller and by another member of the
// workspace, status reads, collects, cancels, time passing) and judges every answer against
// a model of what seed R fixes (lib/router/model/state.ts), each under the rule it belongs to
// (lib/router/model/commands.ts). A failure shrinks to the shortest sequence, printed as the
// curl of each exchange with FC_SEED / FC_PATH / FC_MAX_COMMANDS to replay it
// (lib/model-run.ts); sizes per profile in lib/profile.ts (ROUTER_MODEL_BUDGETS).
//
// The test declares the rules whose faults it is written to find (reference/faults/router/
// model.ts); the others it judges on the way are recorded too.
import { test, rules } from '../../fixtures/test.ts';
import { runModel } from '../../lib/model-run.ts';
import { modelBudgetFor, ROUTER_MODEL_BUDGETS } from '../../lib/profile.ts';
import { routerPhases, windDown } from '../../lib/router/model/commands.ts';
import { routerFacts } from '../../lib/router/model/facts.ts';
import { emptyModel, type RouterModel, type RouterReal } from '../../lib/router/model/state.ts';

test.describe('router state machine (model-based)', () => {
  test(
    'random sequences of queued submits, polls, collects, cancels and keyed calls by two members of a workspace keep the state the seed fixes',
    rules('ROUTER.QUEUE.STATUS_CLOSED', 'ROUTER.QUEUE.COLLECT_IDENTICAL', 'ROUTER.IDEM.REPLAY', 'ROUTER.IDEM.SCOPE'),
    async ({ api, evidence, requireScenario, profile, settings }, testInfo) => {
      const facts = routerFacts(api, requireScenario, { full: profile.name === 'full' });
      const budget = modelBudgetFor(settings, ROUTER_MODEL_BUDGETS);
      testInfo.setTimeout(testInfo.timeout + budget.timeLimitMs);
      const outcome = await runModel<RouterModel, RouterReal>({
        title: testInfo.titlePath.slice(1).join(' › '),
        budget,
        recorder: evidence.recorder,
        phases: routerPhases({ facts }),
        fresh: (run, trace) => ({ model: emptyModel(), real: { api, facts, trace, run, serial: 0 } }),
        finish: {
          label: '(after the last command) collect every request once more, then read its status',
          fn: windDown,
        },
      });
      if (outcome.failure)
        await testInfo.attach('shortest failing sequence (curl, credentials redacted)', {
          body: outcome.failure.text,
          contentType: 'text/plain',
        });
    },
  );
});
