// A v1 stream that never ends its run (execution_success dropped) costs one grace after the
// polled end, not a job deadline per prompt, and ends error naming the variable.
import { test } from 'node:test';
import assert from 'node:assert/strict';

test('once polling reads terminal, a missing terminal message on the stream ends error within CONFORMANCE_STREAM_GRACE_MS', async () => {
  process.env.CONFORMANCE_STREAM_GRACE_MS = '200';
  const { runPrompt } = await import('../../lib/v1/run.ts');
  const session = {
    streamOf: () => new Promise(() => undefined),
    typesFor: () => ['execution_start', 'executing', 'executed'],
    close: () => undefined,
    assertClean: () => undefined,
  };
  const v1 = {
    openStream: async () => session,
    accept: async () => 'p-1',
    pollToTerminal: async () => ({ kind: 'success', status: 'success', seen: ['pending', 'success'] }),
  };
  const started = Date.now();
  await assert.rejects(runPrompt(v1 as never, {} as never, { expect: 'success', rule: 'WS.ORDER' }), (err: Error) => {
    assert.equal(err.name, 'SuiteBound');
    assert.match(err.message, /prompt p-1 ended \(polled status success\), but no terminal message for it arrived on the stream \(seen: execution_start, executing, executed\)/);
    assert.match(err.message, /CONFORMANCE_STREAM_GRACE_MS raises it/);
    return true;
  });
  assert.ok(Date.now() - started < 2_000, `ended in ${Date.now() - started} ms`);
});
