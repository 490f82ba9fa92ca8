// Seed W § States and transitions › v1 job status: clients poll until a terminal value
// appears and never match on in-flight names; a second vocabulary exists.
import { randomUUID } from 'node:crypto';
import { test, rules } from '../../fixtures/v1/test.ts';
import { check } from '../../lib/check.ts';
import { runPrompt } from '../../lib/v1/run.ts';
import { jobBound, JOB_DEADLINE_MS } from '../../lib/time.ts';
import { classifyStatus } from '../../lib/v1/status.ts';
import { saveWorkflow, slowWorkflow } from '../../lib/v1/workflows.ts';
import type { V1Client } from '../../lib/v1/client.ts';

const prefix = (what: string): string => `conformance-v1-${what}-${randomUUID().slice(0, 8)}`;

/** Submits a slow prompt, waits until the stream shows it past its first step, and reads the status then. */
async function statusWhileRunning(v1: V1Client, slow: string): Promise<{ promptId: string; status: string }> {
  const session = await v1.openStream();
  try {
    const promptId = await v1.accept(slowWorkflow(v1.classes, slow, 3, prefix('inflight')));
    // The slow node needs ~3 s; one progress of it means it runs with seconds to go.
    await session.waitFor(
      () => session.forPrompt(promptId).some((m) => m.type === 'progress' && m.data.node === '2'),
      JOB_DEADLINE_MS,
      () => jobBound(`no progress of the slow node of prompt ${promptId} arrived`),
    );
    const status = await v1.status(promptId);
    await session.streamOf(promptId);
    return { promptId, status };
  } finally {
    session.close();
  }
}

test.describe('v1 job status', () => {
  test('a finished job reports a terminal value, so polling that keys on terminal vs in flight ends', rules('V1.STATUS.TERMINAL'), async ({ v1 }) => {
    const run = await runPrompt(v1, saveWorkflow(v1.classes, prefix('terminal')), { expect: 'success', rule: 'V1.STATUS.TERMINAL' });
    check('V1.STATUS.TERMINAL', classifyStatus(run.polled.status) === 'success', 'the status of a finished EmptyImage -> SaveImage job', 'success (or completed)', run.polled.status);
  });

  test('a job still running reports a value other than the terminal ones (any in-flight name is accepted)', rules('V1.STATUS.IN_FLIGHT'), async ({ v1, requireScenario }) => {
    const slow = requireScenario('slow_node_class', 'a slow node class') as string;
    const { promptId, status } = await statusWhileRunning(v1, slow);
    check('V1.STATUS.IN_FLIGHT', classifyStatus(status) === 'in_flight', `the status of prompt ${promptId} while its slow node runs`, 'an in-flight value (anything but success, error, non_retryable_error, lost, cancelled)', status);
    const end = await v1.pollToTerminal(promptId);
    check('V1.STATUS.IN_FLIGHT', end.kind === 'success', `prompt ${promptId} after it ran`, 'a successful terminal value', end.status);
  });

  test('the second vocabulary (pending, in_progress, completed, failed, cancelled) is read by terminal vs in flight too', rules('V1.STATUS.TERMINAL', 'V1.STATUS.IN_FLIGHT'), async ({ v1, requireScenario }) => {
    const key = requireScenario('second_vocabulary_token', 'a key whose status answers use the second vocabulary') as string;
    const slow = requireScenario('slow_node_class', 'a slow node class') as string;
    const other = v1.withKey(key);
    const { promptId, status } = await statusWhileRunning(other, slow);
    check('V1.STATUS.IN_FLIGHT', classifyStatus(status) === 'in_flight', `the status of prompt ${promptId} while it runs`, 'an in-flight value', status);
    const end = await other.pollToTerminal(promptId);
    check('V1.STATUS.TERMINAL', end.kind === 'success', `prompt ${promptId} after it ran`, 'a successful terminal value (completed)', `${end.status} (seen ${end.seen.join(' → ')})`);
  });
});
