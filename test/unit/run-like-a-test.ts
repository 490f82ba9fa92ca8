// Runs a test body the way the Playwright fixture does (an active result log, closeTest at
// the end), so unit tests can see the evidence the reporter would receive.
import type { TestInfo } from '@playwright/test';
import { RESULTS_ATTACHMENT, ResultLog, setActiveLog, type TestEvidence } from '../../lib/results.ts';
import { Recorder } from '../../lib/recorder.ts';
import { Redactor } from '../../lib/redact.ts';
import { closeTest } from '../../fixtures/evidence.ts';
import { runConfig } from '../../lib/config/env.ts';

/** Runs `body` the way the fixture does, and returns what the reporter would receive. */
export async function runLikeATest(
  declared: string[],
  body: (recorder: Recorder) => Promise<void>,
): Promise<{ evidence: TestEvidence; thrown?: Error; status: string }> {
  const log = new ResultLog();
  const recorder = new Recorder(new Redactor([]));
  const attachments: Array<{ name: string; body: string }> = [];
  const info = {
    annotations: declared.map((d) => ({ type: 'rule', description: d })),
    status: 'passed',
    timeout: 1000,
    errors: [] as Array<{ message?: string }>,
    error: undefined,
    attach: async (name: string, opts: { body: string }) => void attachments.push({ name, body: opts.body }),
  };
  setActiveLog(log);
  try {
    await body(recorder);
  } catch (err) {
    info.status = 'failed';
    info.errors.push({ message: (err as Error).message });
  } finally {
    setActiveLog(undefined);
  }
  let thrown: Error | undefined;
  try {
    // As the fixture does: the run's CONFORMANCE_STRICT decides whether a broken SHOULD fails the test.
    await closeTest(info as unknown as TestInfo, log, recorder, { strict: runConfig().strict });
  } catch (err) {
    thrown = err as Error;
  }
  const evidence = JSON.parse(attachments.find((a) => a.name === RESULTS_ATTACHMENT)!.body) as TestEvidence;
  return { evidence, ...(thrown ? { thrown } : {}), status: info.status };
}
