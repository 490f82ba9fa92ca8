import { test } from 'node:test';
import assert from 'node:assert/strict';
import { encodePng } from '../../reference/engine/png.ts';
import { executionOrder } from '../../reference/engine/executor.ts';
import type { ApiWorkflow, EngineEvent } from '../../reference/engine/types.ts';
import { harness, image, label, nextEvent, runJob, untilDone } from './helpers.ts';

const sleepJob = (seconds: number, steps = 10): ApiWorkflow => ({
  '1': { class_type: 'Sleep', inputs: { seconds, steps } },
});

test('success: LoadImage -> ImageInvert -> SaveImage emits the v1 sequence in order', async () => {
  const h = harness();
  h.host.addInput('alice', 'in.png', encodePng(image(4, 4, 3)));
  const submitted = h.executor.submit({
    id: 'ok',
    account: 'alice',
    workflow: {
      '1': { class_type: 'LoadImage', inputs: { image: 'in.png' } },
      '2': { class_type: 'ImageInvert', inputs: { image: ['1', 0] } },
      '3': { class_type: 'SaveImage', inputs: { images: ['2', 0] } },
    },
  });
  assert.equal(submitted.status, 'queued');
  assert.equal(submitted.queuePosition, 1);
  const events = await untilDone(h.executor, 'ok');
  // untilDone subscribes after the synchronous `status queued`; the harness log has everything.
  assert.deepEqual(h.events.map(label), [
    'status:queued',
    'status:running',
    'execution_start',
    'execution_cached',
    'executing:1',
    'progress:1',
    'executing:2',
    'progress:2',
    'executing:3',
    'progress:3',
    'executed:3',
    'executing:null',
    'execution_success',
    'status:succeeded',
  ]);
  assert.equal(events[events.length - 1]?.kind, 'status');
  const cached = h.events.find((e) => e.kind === 'execution_cached');
  assert.ok(cached?.kind === 'execution_cached' && cached.nodes.length === 0);
  const executed = h.events.find((e) => e.kind === 'executed');
  assert.ok(executed?.kind === 'executed');
  assert.deepEqual(
    executed.outputs.map((o) => [o.type, o.contentType]),
    [['output', 'image/png']],
  );
  const state = h.executor.get('ok')!;
  assert.equal(state.status, 'succeeded');
  assert.deepEqual(state.progress, {
    value: 1,
    nodes_done: 3,
    nodes_total: 3,
    current_node: null,
    current_node_class: null,
    step: null,
    steps: null,
  });
  assert.ok(state.startedAt !== null && state.completedAt !== null && state.completedAt >= state.startedAt);
  assert.equal(state.queuePosition, null);
  assert.equal(state.failure, null);
  const progress = h.events
    .filter((e): e is Extract<EngineEvent, { kind: 'progress' }> => e.kind === 'progress')
    .map((e) => e.progress.value);
  assert.deepEqual(progress, [1 / 3, 2 / 3, 1]);
});

test('get() in an event listener already sees the state the event describes; get() returns copies', async () => {
  const h = harness();
  const seen: string[] = [];
  h.executor.on('event', (e) => {
    if (e.jobId !== 'x') return;
    const s = h.executor.get('x')!;
    if (e.kind === 'status') seen.push(`${e.status}=${s.status}`);
    if (e.kind === 'executed') seen.push(`outputs=${s.outputs.length}`);
  });
  await runJob(h, 'x', {
    '1': { class_type: 'EmptyImage', inputs: { width: 1, height: 1 } },
    '2': { class_type: 'SaveImage', inputs: { images: ['1', 0] } },
  });
  assert.deepEqual(seen, ['queued=queued', 'running=running', 'outputs=1', 'succeeded=succeeded']);
  const a = h.executor.get('x')!;
  a.outputs.length = 0;
  a.status = 'failed';
  assert.equal(h.executor.get('x')!.outputs.length, 1);
  assert.equal(h.executor.get('x')!.status, 'succeeded');
});

test('runtime failure: executing the failing node, executing null, execution_error, status failed', async () => {
  const h = harness();
  const { events, state } = await runJob(h, 'bad', {
    '1': { class_type: 'EmptyImage', inputs: { width: 2, height: 2 } },
    '2': { class_type: 'FailNode', inputs: { image: ['1', 0], message: 'no luck' } },
    '3': { class_type: 'SaveImage', inputs: { images: ['1', 0] } },
  });
  // Node 3 does not depend on 2, but runs after it in id order, so it never runs.
  assert.deepEqual(events.map(label), [
    'status:queued',
    'status:running',
    'execution_start',
    'execution_cached',
    'executing:1',
    'progress:1',
    'executing:2',
    'executing:null',
    'execution_error',
    'status:failed',
  ]);
  const err = events.find((e) => e.kind === 'execution_error');
  assert.ok(err?.kind === 'execution_error');
  assert.equal(err.failure.node_id, '2');
  assert.equal(err.failure.class_type, 'FailNode');
  assert.equal(err.failure.exception_type, 'RuntimeError');
  assert.equal(err.failure.exception_message, 'no luck');
  assert.ok(Array.isArray(err.failure.traceback) && err.failure.traceback.every((l) => typeof l === 'string'));
  assert.deepEqual(state.failure, err.failure);
  assert.equal(state.status, 'failed');
  assert.equal(h.host.stored.length, 0);
});

test('a graph the engine cannot run (not validated first) fails cleanly with a ValidationError', async () => {
  const h = harness();
  const cyc = await runJob(h, 'cyc', {
    '1': { class_type: 'ImageInvert', inputs: { image: ['2', 0] } },
    '2': { class_type: 'ImageInvert', inputs: { image: ['1', 0] } },
  });
  assert.equal(cyc.state.failure?.exception_type, 'ValidationError');
  assert.equal(cyc.state.failure?.node_id, null);
  assert.deepEqual(cyc.events.map(label).slice(-3), ['executing:null', 'execution_error', 'status:failed']);
  const unknown = await runJob(h, 'unk', { '1': { class_type: 'Nope', inputs: {} } });
  assert.equal(unknown.state.failure?.node_id, '1');
  const badInput = await runJob(h, 'inp', { '1': { class_type: 'EmptyImage', inputs: { width: 99999, height: 1 } } });
  assert.match(badInput.state.failure?.exception_message ?? '', /width/);
});

test('execution order follows links, ties broken by node id', () => {
  assert.deepEqual(
    executionOrder({
      '10': { class_type: 'SaveImage', inputs: { images: ['2', 0] } },
      '2': { class_type: 'ImageInvert', inputs: { image: ['b', 0] } },
      b: { class_type: 'EmptyImage', inputs: { width: 1, height: 1 } },
      '1': { class_type: 'TextOutput', inputs: { text: 'x' } },
    }),
    ['1', 'b', '2', '10'],
  );
});

test('cancel of a running Sleep: canceling at once, stops within a step, ends canceled', async () => {
  const h = harness();
  const done = untilDone(h.executor, 'sl');
  h.executor.submit({ id: 'sl', account: 'alice', workflow: sleepJob(10, 100) });
  await nextEvent(h.executor, 'sl', (e) => e.kind === 'progress');
  const t0 = Date.now();
  assert.equal(h.executor.cancel('sl'), 'canceling');
  assert.equal(h.executor.get('sl')!.status, 'canceling');
  assert.equal(h.executor.cancel('sl'), 'canceling', 'idempotent while canceling');
  const events = await done;
  assert.ok(Date.now() - t0 < 2000, 'the Sleep timer was cleared, not waited out');
  const labels = events.map(label);
  const tail = labels.slice(labels.indexOf('status:canceling'));
  assert.deepEqual(tail, ['status:canceling', 'executing:null', 'execution_interrupted:1', 'status:canceled']);
  assert.equal(labels.filter((l) => l === 'execution_interrupted:1').length, 1);
  assert.ok(!labels.includes('execution_success') && !labels.includes('execution_error'));
  const state = h.executor.get('sl')!;
  assert.equal(state.status, 'canceled');
  assert.ok(state.progress!.value > 0 && state.progress!.value < 1);
  assert.equal(h.executor.cancel('sl'), 'terminal');
  assert.equal(h.executor.cancel('nope'), 'unknown');
});

test('cancel between nodes stops before the next node runs', async () => {
  const h = harness();
  const done = untilDone(h.executor, 'two');
  h.executor.on('event', (e) => {
    if (e.jobId === 'two' && e.kind === 'progress' && e.node === '1') h.executor.cancel('two');
  });
  h.executor.submit({
    id: 'two',
    account: 'alice',
    workflow: {
      '1': { class_type: 'EmptyImage', inputs: { width: 1, height: 1 } },
      '2': { class_type: 'SaveImage', inputs: { images: ['1', 0] } },
    },
  });
  const labels = (await done).map(label);
  assert.ok(!labels.includes('executing:2'));
  assert.deepEqual(labels.slice(-3), ['executing:null', 'execution_interrupted:null', 'status:canceled']);
  assert.equal(h.host.stored.length, 0);
});

test('concurrency 1: the second job queues until the first ends; cancel of a queued job is immediate', async () => {
  const h = harness({ concurrency: 1 });
  const firstDone = untilDone(h.executor, 'a');
  const secondDone = untilDone(h.executor, 'b');
  h.executor.submit({ id: 'a', account: 'alice', workflow: sleepJob(0.15, 3) });
  const b = h.executor.submit({ id: 'b', account: 'alice', workflow: sleepJob(0, 1) });
  assert.equal(b.queuePosition, 2);
  await nextEvent(h.executor, 'a', (e) => e.kind === 'execution_start');
  assert.equal(h.executor.get('b')!.status, 'queued');
  assert.equal(h.executor.get('b')!.queuePosition, 1, 'moves up when the first job starts');
  assert.equal(h.executor.queueLength('alice'), 1);
  assert.equal(h.executor.activeCount('alice'), 2);
  // Another account is not held up by alice's limit.
  const other = await runJob(h, 'c', sleepJob(0, 1), undefined, 'bob');
  assert.equal(other.state.status, 'succeeded');
  assert.equal(h.executor.get('b')!.status, 'queued');
  await firstDone;
  await secondDone;
  const order = h.events.filter((e) => e.jobId !== 'c').map((e) => `${e.jobId}:${label(e)}`);
  assert.ok(order.indexOf('a:status:succeeded') < order.indexOf('b:execution_start'), 'b starts only after a ended');
  assert.deepEqual(
    h.events
      .filter((e) => e.jobId === 'b' && e.kind === 'status')
      .map((e) => (e.kind === 'status' ? `${e.status}@${e.queuePosition}` : '')),
    ['queued@2', 'queued@1', 'running@null', 'succeeded@null'],
  );

  // A queued job is canceled at once and never starts.
  const h2 = harness({ concurrency: 1 });
  const runningDone = untilDone(h2.executor, 'r');
  h2.executor.submit({ id: 'r', account: 'alice', workflow: sleepJob(5, 50) });
  h2.executor.submit({ id: 'q', account: 'alice', workflow: sleepJob(0, 1) });
  h2.executor.submit({ id: 'q2', account: 'alice', workflow: sleepJob(0, 1) });
  await nextEvent(h2.executor, 'r', (e) => e.kind === 'execution_start');
  assert.equal(h2.executor.cancel('q'), 'terminal');
  assert.equal(h2.executor.get('q')!.status, 'canceled');
  assert.equal(h2.executor.get('q2')!.queuePosition, 1);
  assert.deepEqual(h2.events.filter((e) => e.jobId === 'q').map(label), [
    'status:queued',
    'status:queued',
    'execution_interrupted:null',
    'status:canceled',
  ]);
  assert.equal(h2.executor.cancel('r'), 'canceling');
  await runningDone;
  await h2.executor.close();
  assert.equal(h2.executor.get('q2')!.status, 'canceled');
  assert.ok(!h2.events.some((e) => e.jobId === 'q' && e.kind === 'execution_start'));
});

test('concurrency 2 runs two jobs of one account in parallel; a third waits', async () => {
  const h = harness({ concurrency: (account) => (account === 'alice' ? 2 : 1) });
  const done = Promise.all(['p1', 'p2', 'p3'].map((id) => untilDone(h.executor, id)));
  for (const id of ['p1', 'p2', 'p3']) h.executor.submit({ id, account: 'alice', workflow: sleepJob(0.1, 2) });
  await done;
  const order = h.events.map((e) => `${e.jobId}:${label(e)}`);
  const at = (s: string): number => order.indexOf(s);
  assert.ok(at('p2:execution_start') < at('p1:status:succeeded'), 'p1 and p2 overlap');
  assert.ok(
    at('p3:execution_start') > Math.min(at('p1:status:succeeded'), at('p2:status:succeeded')),
    'p3 waits for a free slot',
  );
});

test('partner node through the executor: without the key execution_error, with it success', async () => {
  const h = harness();
  const wf = {
    '1': { class_type: 'PartnerImageNode', inputs: { prompt: 'x' } },
    '2': { class_type: 'PreviewImage', inputs: { images: ['1', 0] } },
  };
  const no = await runJob(h, 'n', wf);
  assert.deepEqual(no.events.map(label).slice(-3), ['executing:null', 'execution_error', 'status:failed']);
  const yes = await runJob(h, 'y', wf, { api_key_comfy_org: 'comfyui-k' });
  assert.deepEqual(yes.events.map(label).slice(-3), ['executing:null', 'execution_success', 'status:succeeded']);
});

test('close() cancels queued and running jobs, clears timers and refuses new jobs', async () => {
  const h = harness({ concurrency: 1 });
  h.executor.submit({ id: 'run', account: 'alice', workflow: sleepJob(20, 20) });
  h.executor.submit({ id: 'wait', account: 'alice', workflow: sleepJob(20, 20) });
  await nextEvent(h.executor, 'run', (e) => e.kind === 'executing');
  const t0 = Date.now();
  await h.executor.close();
  assert.ok(Date.now() - t0 < 2000, 'close() does not wait out the Sleep');
  assert.equal(h.executor.get('run')!.status, 'canceled');
  assert.equal(h.executor.get('wait')!.status, 'canceled');
  assert.throws(() => h.executor.submit({ id: 'late', account: 'alice', workflow: sleepJob(0) }), /closed/);
  // A job submitted and closed before it started never starts.
  const h2 = harness();
  h2.executor.submit({ id: 'never', account: 'alice', workflow: sleepJob(0) });
  await h2.executor.close();
  // Starts are scheduled with setImmediate: after two such turns any start queued before close would have run.
  for (let turn = 0; turn < 2; turn++) await new Promise<void>((r) => setImmediate(r));
  assert.deepEqual(h2.events.map(label), ['status:queued', 'execution_interrupted:null', 'status:canceled']);
});

test('duplicate job ids are refused; forget() drops only finished jobs', async () => {
  const h = harness();
  await runJob(h, 'd', sleepJob(0, 1));
  assert.throws(() => h.executor.submit({ id: 'd', account: 'alice', workflow: sleepJob(0) }), /already exists/);
  assert.equal(h.executor.forget('d'), true);
  assert.equal(h.executor.get('d'), undefined);
  assert.equal(h.executor.forget('d'), false);
});

test('a throwing listener does not break the run', async () => {
  const h = harness();
  const original = console.error;
  console.error = () => {};
  try {
    h.executor.on('event', () => {
      throw new Error('listener bug');
    });
    const { state } = await runJob(h, 'l', sleepJob(0, 1));
    assert.equal(state.status, 'succeeded');
  } finally {
    console.error = original;
  }
});

test('executor.validate checks assets and input files of the given account through the host', () => {
  const h = harness();
  const id = '9f8a1c0d-2b3e-4f56-8a7b-1c2d3e4f5a6b';
  h.host.addAsset('alice', id, encodePng(image(1, 1, 3)));
  h.host.addInput('alice', 'a.png', encodePng(image(1, 1, 3)));
  const byAsset = { '1': { class_type: 'LoadImage', inputs: { image: { __type: 'core/ASSET', info: { id } } } } };
  const byName = { '1': { class_type: 'LoadImage', inputs: { image: 'a.png' } } };
  assert.equal(h.executor.validate(byAsset, 'alice'), undefined);
  assert.equal(h.executor.validate(byAsset, 'bob')?.code, 'missing_asset');
  assert.equal(h.executor.validate(byName, 'alice'), undefined);
  assert.equal(h.executor.validate(byName, 'bob')?.details?.node_errors?.['1']?.errors[0]?.type, 'invalid_inputs');
});

test('the job runs on its own copy of the workflow and extra_data', async () => {
  const h = harness();
  const wf: ApiWorkflow = {
    '1': { class_type: 'EmptyImage', inputs: { width: 2, height: 2 } },
    '2': { class_type: 'SaveImage', inputs: { images: ['1', 0] } },
  };
  const done = untilDone(h.executor, 'copy');
  h.executor.submit({ id: 'copy', account: 'alice', workflow: wf });
  wf['1'].inputs.width = 0;
  await done;
  assert.equal(h.executor.get('copy')!.status, 'succeeded');
});
