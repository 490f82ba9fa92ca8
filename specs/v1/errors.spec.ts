// Seed W § Errors (v1 errors): the statuses error, non_retryable_error, lost and
// cancelled all mean the job failed; on the WebSocket a failure arrives as execution_error.
import { test, rules } from '../../fixtures/v1/test.ts';
import { check } from '../../lib/check.ts';
import { runPrompt } from '../../lib/v1/run.ts';

test.describe('Errors', () => {
  test(
    'a job that fails ends with a failed status and the WebSocket reports execution_error',
    rules('V1.ERR.FAILED_JOB'),
    async ({ v1, requireScenario }) => {
      const failing = requireScenario('failing_node_class', 'a node class that fails at run time') as string;
      const run = await runPrompt(
        v1,
        { '1': { class_type: failing, inputs: { message: 'conformance: failing on purpose' } } },
        { expect: 'failure', rule: 'V1.ERR.FAILED_JOB' },
      );
      check('V1.ERR.FAILED_JOB', run.stream.terminal.type === 'execution_error', {
        what: `the stream of failed prompt ${run.promptId}`,
        expected: 'execution_error',
        received: run.stream.terminal.type,
      });
      const data = run.stream.terminal.data;
      check(
        'V1.ERR.FAILED_JOB',
        typeof data.exception_message === 'string' && typeof data.exception_type === 'string',
        { what: 'the execution_error message', expected: 'exception_type and exception_message', received: data },
      );
    },
  );
});
