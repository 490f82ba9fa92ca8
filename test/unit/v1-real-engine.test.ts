// What a stock engine really sends on the v1 operations and their stream (issue #12),
// recorded, and judged as the suite judges a live target: each legal variant is
// accepted, and the broken sequence next to it is still caught under its rule.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkOrder } from '../../lib/ws/order.ts';
import type { TextMessage } from '../../lib/ws/schemas.ts';
import { judgeFrame } from '../../lib/ws/schemas.ts';
import { decodeFrame, encodeFrame } from '../../lib/ws/frames.ts';
import { ResultLog, setActiveLog, type CheckResult } from '../../lib/results.ts';
import { loadContract } from '../../lib/contracts/loader.ts';
import { validateResponse } from '../../lib/contracts/validate.ts';
import type { HttpResponse } from '../../lib/http.ts';
import { maxOverlap, overLimitMs, runningIntervals } from '../../lib/v1/parallel.ts';
import type { Received } from '../../lib/ws/session.ts';

const P = 'b8f1c3d2-0000-4000-8000-000000000001';
const msg = (type: string, data: Record<string, unknown> = {}): TextMessage => ({
  type,
  data: { prompt_id: P, ...data },
});

/** The WS.ORDER results of one recorded sequence. */
function order(messages: TextMessage[]): CheckResult[] {
  const log = new ResultLog();
  setActiveLog(log);
  try {
    const terminal =
      messages.find((m) => ['execution_success', 'execution_error', 'execution_interrupted'].includes(m.type)) ??
      msg('none');
    checkOrder({ promptId: P, messages, terminal });
  } finally {
    setActiveLog(undefined);
  }
  assert.ok(log.results.length > 0, 'the order was judged');
  return log.results;
}
const broken = (results: CheckResult[]): string[] =>
  results.filter((r) => r.outcome === 'broken').map((r) => r.expected ?? r.what);

// ComfyUI, a prompt whose SaveImage (3) and its input (1) ran before: both cached.
const CACHED_OUTPUT = [
  msg('execution_start'),
  msg('execution_cached', { nodes: ['1', '3'] }),
  msg('executing', { node: '2' }),
  msg('progress', { node: '2', value: 1, max: 1 }),
  msg('executed', { node: '3', output: { images: [{ filename: 'a.png', subfolder: '', type: 'output' }] } }),
  msg('execution_success'),
  msg('executing', { node: null }),
];

test('WS.ORDER: a cached output node gets executed with no executing before it', () => {
  assert.deepEqual(broken(order(CACHED_OUTPUT)), []);
});

test('WS.ORDER: executing with node null after execution_success is accepted, and before it too', () => {
  const before = [
    msg('execution_start'),
    msg('execution_cached', { nodes: [] }),
    msg('executing', { node: '1' }),
    msg('executed', { node: '1', output: {} }),
    msg('executing', { node: null }),
    msg('execution_success'),
  ];
  const after = [...before.slice(0, 4), msg('execution_success'), msg('executing', { node: null })];
  assert.deepEqual(broken(order(before)), []);
  assert.deepEqual(broken(order(after)), []);
});

test('WS.ORDER: progress_state (a snapshot of node states) may come after execution finished', () => {
  assert.deepEqual(
    broken(order([...CACHED_OUTPUT, msg('progress_state', { nodes: { '2': { state: 'finished' } } })])),
    [],
  );
});

test(
  'WS.ORDER still fails a node running after the end, a node before execution_start, and two ' +
    'terminal messages; a stream without the final node-less executing is accepted (the seed says ' +
    'what it means, not that it comes)',
  () => {
    assert.match(
      broken(
        order([
          ...CACHED_OUTPUT.slice(0, 5),
          msg('execution_success'),
          msg('executing', { node: '4' }),
          msg('executing', { node: null }),
        ]),
      ).join(' | '),
      /after it|once execution finished/,
    );
    assert.match(
      broken(
        order([
          msg('executing', { node: '1' }),
          msg('execution_start'),
          msg('executing', { node: null }),
          msg('execution_success'),
        ]),
      ).join(' | '),
      /before any node executes/,
    );
    assert.match(
      broken(
        order([
          ...CACHED_OUTPUT,
          msg('execution_error', { exception_type: 'E', exception_message: 'm', traceback: [] }),
        ]),
      ).join(' | '),
      /exactly one/,
    );
    assert.deepEqual(broken(order(CACHED_OUTPUT.filter((m) => !(m.type === 'executing' && m.data.node == null)))), []);
  },
);

const v1 = loadContract('cloud-v1.openapi.yaml', 'Comfy', 'V1');
const response = (status: number, body: string, contentType?: string): HttpResponse => ({
  status,
  headers: contentType ? { 'content-type': contentType } : {},
  body: Buffer.from(body),
  truncated: false,
  elapsedMs: 1,
});
const findings = (operationId: string, method: string, res: HttpResponse): string[] =>
  validateResponse(v1.operations.get(operationId)!, method, res).findings.map((f) => f.rule);

test('V1.OBJECT_INFO: display_name null (about 100 of 359 core classes on the real engine) is accepted; input.required is still required', () => {
  const entry = {
    input: { required: { width: ['INT', {}] } },
    display_name: null,
    description: '',
    category: 'image',
    output_node: false,
    name: 'EmptyImage',
  };
  assert.deepEqual(
    findings(
      'getObjectInfo',
      'GET',
      response(
        200,
        JSON.stringify({ EmptyImage: entry, SaveImage: { ...entry, display_name: 'Save Image' } }),
        'application/json',
      ),
    ),
    [],
  );
  const { input: _input, ...noInput } = entry;
  assert.deepEqual(
    findings('getObjectInfo', 'GET', response(200, JSON.stringify({ EmptyImage: noInput }), 'application/json')),
    ['V1.OBJECT_INFO'],
  );
});

test(
  'V1 error answers: an empty body (a missing file on /api/view, a bad upload) is accepted; a body ' +
    'sent is judged at SHOULD against the documented shape',
  () => {
    assert.deepEqual(findings('viewFile', 'GET', response(404, '')), []);
    assert.deepEqual(findings('uploadImage', 'POST', response(400, '')), []);
    assert.deepEqual(
      findings(
        'uploadImage',
        'POST',
        response(400, JSON.stringify({ code: 'invalid_request', message: 'no image' }), 'application/json'),
      ),
      [],
    );
    assert.deepEqual(findings('viewFile', 'GET', response(404, 'Not Found', 'text/plain')), ['V1.CONTRACT.ERROR_BODY']);
    assert.deepEqual(findings('uploadImage', 'POST', response(400, JSON.stringify({ code: 7 }), 'application/json')), [
      'V1.CONTRACT.ERROR_BODY',
    ]);
    // A status the public documents do not give is reported under the SHOULD status rule.
    assert.deepEqual(findings('viewFile', 'GET', response(418, '')), ['V1.CONTRACT.STATUS_DECLARED']);
  },
);

const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0]);

test(
  'previews: type 1 (a client without feature_flags) and type 4 with metadata including image_type ' +
    '(a client that announced it) both decode and pass',
  () => {
    const plain = decodeFrame(encodeFrame({ kind: 'preview', imageType: 2, image: PNG }));
    assert.ok(plain.frame_type === 1 && judgeFrame(plain) === undefined);
    const metadata = {
      node_id: '3',
      display_node_id: '3',
      real_node_id: '3',
      prompt_id: P,
      parent_node_id: null,
      image_type: 'image/png',
    };
    const rich = decodeFrame(encodeFrame({ kind: 'preview_with_metadata', metadata, image: PNG }));
    assert.ok(rich.frame_type === 4 && judgeFrame(rich) === undefined);
  },
);

test('V1.PROMPT.PARALLEL_QUEUE: prompts timed on the stream; strictly one at a time reads 1, three at once reads 3', () => {
  const ids = ['a', 'b', 'c', 'd'];
  const at = (t: number, id: string, type: string): Received => ({
    at: t,
    kind: 'text',
    message: { type, data: { prompt_id: id } },
  });
  const serial = ids.flatMap((id, i) => [
    at(i * 1000, id, 'execution_start'),
    at(i * 1000 + 1000, id, 'execution_success'),
  ]);
  assert.equal(maxOverlap(runningIntervals(serial, ids)), 1);
  const tier3 = [
    ...ids.slice(0, 3).flatMap((id) => [at(0, id, 'execution_start'), at(1000, id, 'execution_success')]),
    at(1000, 'd', 'execution_start'),
    at(2000, 'd', 'execution_success'),
  ];
  assert.equal(maxOverlap(runningIntervals(tier3, ids)), 3);
  // Past a tier of 3: none over it, a crossover of 40 ms, then all four at once for a second.
  assert.equal(overLimitMs(runningIntervals(tier3, ids), 3), 0);
  const crossover = [...tier3.slice(0, 6), at(960, 'd', 'execution_start'), at(1960, 'd', 'execution_success')];
  assert.equal(overLimitMs(runningIntervals(crossover, ids), 3), 40);
  const allAtOnce = ids.flatMap((id) => [at(0, id, 'execution_start'), at(1000, id, 'execution_success')]);
  assert.equal(overLimitMs(runningIntervals(allAtOnce, ids), 3), 1000);
  // A prompt with no start on the stream (only a cached node's executed) is timed from that.
  assert.deepEqual(runningIntervals([at(5, 'e', 'executed'), at(9, 'e', 'execution_success')], ['e']), [
    { promptId: 'e', start: 5, end: 9 },
  ]);
});

test('the stream fixture announces supports_preview_metadata right after connecting (unless told not to), and judges type 1 and type 4 alike', async () => {
  const { WebSocketServer } = await import('ws');
  const { WsSession } = await import('../../lib/ws/session.ts');
  const { runConfig } = await import('../../lib/config/env.ts');
  // A recorded engine: type 4 to a connection that announced the flag, type 1 to one that did not.
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  const announced: boolean[] = [];
  wss.on('connection', (ws) => {
    let flag = false;
    let sent = false;
    ws.on('message', (data) => {
      const m = JSON.parse((data as Buffer).toString()) as {
        type: string;
        data: { supports_preview_metadata?: boolean };
      };
      if (m.type === 'feature_flags') flag = m.data.supports_preview_metadata === true;
    });
    // The first preview goes out once the client had its chance to announce (after its ping).
    ws.on('ping', () => setTimeout(() => send(), 10));
    const send = (): void => {
      if (sent) return;
      sent = true;
      announced.push(flag);
      const metadata = {
        node_id: '3',
        display_node_id: '3',
        real_node_id: '3',
        prompt_id: P,
        parent_node_id: null,
        image_type: 'image/png',
      };
      ws.send(
        flag
          ? encodeFrame({ kind: 'preview_with_metadata', metadata, image: PNG })
          : encodeFrame({ kind: 'preview', imageType: 2, image: PNG }),
      );
    };
    setTimeout(send, 300);
  });
  await new Promise((r) => wss.once('listening', r));
  const url = `ws://127.0.0.1:${(wss.address() as { port: number }).port}/ws`;
  try {
    for (const announce of [true, false]) {
      const session = await WsSession.open(
        url,
        { announcePreviewMetadata: announce, bounds: runConfig().bounds },
        2_000,
      );
      try {
        await session.waitFor(
          () => session.frames().length > 0,
          2_000,
          () => new Error('no preview frame'),
        );
        assert.deepEqual(
          session.frames().map((f) => f.frame_type),
          [announce ? 4 : 1],
        );
        assert.equal(session.failure, undefined);
      } finally {
        session.close();
      }
    }
    assert.deepEqual(announced, [true, false]);
  } finally {
    for (const c of wss.clients) c.terminate();
    wss.close();
  }
});
