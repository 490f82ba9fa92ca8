// Seed W § States and transitions › v1 job status: clients keep polling until the status is
// terminal and never match on in-flight names; a second vocabulary exists.
import { randomUUID } from 'node:crypto';
import { test, rules } from '../../fixtures/v1/test.ts';
import { check, notJudged } from '../../lib/check.ts';
import { untilRunning } from '../../lib/v1/run.ts';
import { cancelWhileRunning } from '../../lib/v1/interrupt.ts';
import { classifyStatus } from '../../lib/v1/status.ts';
import { saveWorkflow, slowWorkflow } from '../../lib/v1/workflows.ts';
import type { V1Client } from '../../lib/v1/client.ts';

const prefix = (what: string): string => `conformance-v1-${what}-${randomUUID().slice(0, 8)}`;

/** Submits a slow prompt, waits until the stream shows it past its first step, and reads the status then. */
async function statusWhileRunning(v1: V1Client, slow: string): Promise<{ promptId: string; status: string }> {
  const session = await v1.openStream();
  try {
    const promptId = await v1.accept(slowWorkflow(v1.classes, slow, 3, prefix('inflight')));
    // The slow node needs ~3 s: any sign on the stream that it runs (executing, progress, or at
    // least the prompt's start) means a status read now falls while the job is in flight.
    await untilRunning(session, promptId, '2');
    const status = await v1.status(promptId);
    await session.streamOf(promptId);
    return { promptId, status };
  } finally {
    session.close();
  }
}

test.describe('v1 job status', () => {
  test(
    'a finished job reports a terminal value, so polling that keys on terminal vs in flight ends',
    rules('V1.STATUS.TERMINAL'),
    async ({ v1 }) => {
      const session = await v1.openStream();
      try {
        const promptId = await v1.accept(saveWorkflow(v1.classes, prefix('terminal')), undefined, 'V1.STATUS.TERMINAL');
        const polled = await v1.pollToTerminal(promptId);
        const stream = await session.streamOf(promptId);
        // The stream says how the run ended; a run that ended well has the success value of its
        // vocabulary, not another terminal one (W:90:8ea32a2532dc).
        if (stream.terminal.type !== 'execution_success')
          return notJudged(
            'V1.STATUS.TERMINAL',
            `the stream ended prompt ${promptId} with ${stream.terminal.type}, so it was not seen to finish well`,
          );
        check('V1.STATUS.TERMINAL', classifyStatus(polled.status) === 'success', {
          what: `the status of prompt ${promptId}, which the stream saw end with execution_success`,
          expected: 'success (or completed)',
          received: `${polled.status} (seen ${polled.seen.join(' → ')})`,
        });
      } finally {
        session.close();
      }
    },
  );

  test(
    'a job still running reports a value other than the terminal ones (any in-flight name is accepted)',
    rules('V1.STATUS.IN_FLIGHT'),
    async ({ v1, requireScenario }) => {
      const slow = requireScenario('slow_node_class', 'a slow node class') as string;
      const { promptId, status } = await statusWhileRunning(v1, slow);
      check('V1.STATUS.IN_FLIGHT', classifyStatus(status) === 'in_flight', {
        what: `the status of prompt ${promptId} while its slow node runs`,
        expected: 'an in-flight value (anything but success, error, non_retryable_error, lost, cancelled)',
        received: status,
      });
      const end = await v1.pollToTerminal(promptId);
      check('V1.STATUS.IN_FLIGHT', end.kind === 'success', {
        what: `prompt ${promptId} after it ran`,
        expected: 'a successful terminal value',
        received: end.status,
      });
    },
  );

  test(
    'the second vocabulary (pending, in_progress, completed, failed, cancelled) is read by terminal vs in flight too',
    rules('V1.STATUS.TERMINAL', 'V1.STATUS.IN_FLIGHT'),
    async ({ v1, requireScenario }) => {
      const key = requireScenario(
        'second_vocabulary_token',
        'a key whose status answers use the second vocabulary',
      ) as string;
      const slow = requireScenario('slow_node_class', 'a slow node class') as string;
      const other = v1.withKey(key);
      const { promptId, status } = await statusWhileRunning(other, slow);
      check('V1.STATUS.IN_FLIGHT', classifyStatus(status) === 'in_flight', {
        what: `the status of prompt ${promptId} while it runs`,
        expected: 'an in-flight value',
        received: status,
      });
      const end = await other.pollToTerminal(promptId);
      check('V1.STATUS.TERMINAL', end.kind === 'success', {
        what: `prompt ${promptId} after it ran`,
        expected: 'a successful terminal value (completed)',
        received: `${end.status} (seen ${end.seen.join(' → ')})`,
      });
    },
  );

  test(
    'while a cancel is under way the job reads in flight: the terminal value polling stops at is final',
    rules('V1.STATUS.IN_FLIGHT'),
    async ({ v1, requireScenario }) => {
      const slow = requireScenario('slow_node_class', 'a slow node class') as string;
      const how = requireScenario('prompt_interrupt', 'how a user cancels a running v1 prompt: method, path, body') as {
        method: string | undefined;
        path: string | undefined;
        body: unknown;
      };
      const { promptId, asked, polled, stream, after } = await cancelWhileRunning(v1, slow, how, prefix('cancelling'));
      if (!polled || !stream)
        return notJudged(
          'V1.STATUS.IN_FLIGHT',
          `the cancel named by scenario input prompt_interrupt answered ${asked.status} for a running prompt, so no cancel was under way (check the input)`,
        );
      // cancel_requested is in flight (W:96:ef2fc60f9d42): a value read as terminal while the cancel
      // was still under way would show as a different value once the run ended.
      check('V1.STATUS.IN_FLIGHT', after === polled.status, {
        what:
          `the status of prompt ${promptId} once its stream ended (${stream.terminal.type}), after ` +
          `polling stopped at ${polled.status} following the cancel`,
        expected: `${polled.status} again: a terminal value is final, and a cancel still under way reads in flight (cancel_requested)`,
        received: `${after} (seen ${[...polled.seen, after].join(' → ')})`,
      });
    },
  );
});
