// A v1 stream that never ends its run (execution_success dropped) costs one grace after the
// polled end, not a job deadline per prompt, and ends error naming the variable.
import { test } from 'node:test';
import assert from 'node:assert/strict';

test('once polling reads terminal, a missing terminal message on the stream ends error within CONFORMANCE_STREAM_GRACE_MS', async () => {
  process.env.CONFORMANCE_STREAM_GRACE_MS = '200';
  const { runPrompt } = await import('../../lib/v1/run.ts');
  const { runConfig } = await import('../../lib/config/env.ts');
  const session = {
    streamOf: () => new Promise(() => undefined),
    typesFor: () => ['execution_start', 'executing', 'executed'],
    close: () => undefined,
    assertClean: () => undefined,
  };
  const v1 = {
    api: { bounds: runConfig().bounds },
    openStream: async () => session,
    accept: async () => 'p-1',
    pollToTerminal: async () => ({ kind: 'success', status: 'success', seen: ['pending', 'success'] }),
  };
  const started = Date.now();
  await assert.rejects(runPrompt(v1 as never, {}, { expect: 'success', rule: 'WS.ORDER' }), (err: Error) => {
    assert.equal(err.name, 'SuiteBound');
    // The server's finding first (its stream lacks the message the seed ends a run with),
    // then how to give a server that is only slow more time: never the other way round.
    const text = err.message.replace('[suite-error] ', '');
    assert.match(
      text,
      new RegExp(
        /^the server's stream sent no terminal message for prompt p-1 /.source +
          /\(execution_success, execution_error or execution_interrupted: /.source +
          /the seed ends every run on the stream with one\) though polling read it ended /.source +
          /\(status success; seen on the stream: execution_start, executing, executed\)/.source,
      ),
    );
    const finding = text.indexOf('sent no terminal message');
    const grace = text.indexOf('CONFORMANCE_STREAM_GRACE_MS');
    assert.ok(finding >= 0 && grace > finding, text);
    assert.match(text, /if your server is only slow to send it, CONFORMANCE_STREAM_GRACE_MS gives it more time/);
    assert.doesNotMatch(text, /raises it/);
    return true;
  });
  assert.ok(Date.now() - started < 2_000, `ended in ${Date.now() - started} ms`);
});
