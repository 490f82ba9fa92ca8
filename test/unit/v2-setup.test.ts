// The suite's own inputs a server may refuse (issue #12): which refusals are "the server
// refused our input" (setup refused, naming the scenario input) and which are judged.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ApiResponse } from '../../lib/api.ts';
import { classRefusal, uploadPathRefusal } from '../../lib/v2/setup.ts';
import { emptyImageWorkflow, invertWorkflow, slowWorkflow, classesFor, inputNaming } from '../../lib/data/workflows.ts';
import { lastTerminalRead, parseSse, statusesOf } from '../../lib/v2/events.ts';
import { SetupRefused } from '../../lib/violations.ts';

function answer(status: number, body: unknown): ApiResponse {
  const raw = {
    status,
    headers: { 'content-type': 'application/json' },
    body: Buffer.from(JSON.stringify(body)),
    truncated: false,
    elapsedMs: 1,
  };
  return new ApiResponse('postX', 'POST', 'http://127.0.0.1:1/x', raw, body);
}
const envelope = (code: string, message: string, details?: unknown) => ({
  error: { code, message, ...(details ? { details } : {}) },
});

test('a refused placement path is a setup refusal naming upload_file_path; other refusals are judged', () => {
  const refused = uploadPathRefusal(
    answer(
      422,
      envelope('invalid_request', "'conformance' is not an allowlisted placement root (allowed: ['checkpoints'])"),
    ),
    'conformance/x.png',
  );
  assert.ok(refused instanceof SetupRefused);
  assert.match(
    refused.message,
    /setup refused: .*422 invalid_request: 'conformance' is not an allowlisted placement root.*set scenario input upload_file_path/,
  );
  assert.equal(
    uploadPathRefusal(answer(422, envelope('invalid_request', 'a file part is required')), 'x.png'),
    undefined,
  );
  assert.equal(
    uploadPathRefusal(answer(500, envelope('upstream_error', 'bad path')), 'x.png'),
    undefined,
    'a 5xx is the server, not our input',
  );
  assert.equal(uploadPathRefusal(answer(409, envelope('hash_mismatch', 'path')), 'x.png'), undefined);
});

test("a submit refused for a class the suite chose names that class's scenario input", () => {
  const scenario = { slow_node_class: 'Sleep', save_image_class: 'SaveImageV2' };
  const wf = slowWorkflow('Sleep', 1, classesFor(scenario));
  const byNodeErrors = classRefusal(
    answer(
      422,
      envelope('invalid_workflow', 'invalid', {
        node_errors: {
          '2': { class_type: 'Sleep', errors: [{ type: 'unknown_node_class', message: 'no such class' }] },
        },
      }),
    ),
    wf,
    scenario,
  );
  assert.match(String(byNodeErrors?.message), /Sleep.*set scenario input slow_node_class/);
  const byMessage = classRefusal(
    answer(400, envelope('invalid_workflow', 'Cannot execute because node SaveImageV2 does not exist.')),
    wf,
    scenario,
  );
  assert.match(String(byMessage?.message), /set scenario input save_image_class/);
  assert.equal(inputNaming('LoadImage', {}), 'load_image_class');
  // A workflow the engine refuses for its inputs, or for a missing asset, is judged.
  const inputs = answer(
    422,
    envelope('invalid_workflow', 'Required input is missing: images', {
      node_errors: {
        '2': { class_type: 'SaveImage', errors: [{ type: 'required_input_missing', message: 'missing' }] },
      },
    }),
  );
  assert.equal(classRefusal(inputs, emptyImageWorkflow(), {}), undefined);
  assert.equal(
    classRefusal(answer(422, envelope('missing_asset', 'LoadImage: unknown asset')), invertWorkflow({}), {}),
    undefined,
  );
});

test('the event stream parser reads status frames and names the malformed ones', () => {
  const frames = parseSse(
    'event: status\ndata: {"status":"queued"}\n\n: comment\nevent: progress\ndata: ' +
      '{"value":0.5}\n\nevent: status\ndata: {"state":"running"}\n\nevent: status\r\ndata: ' +
      '{"status":"succeeded"}\r\n\r\n',
  );
  const { statuses, malformed } = statusesOf(frames);
  assert.deepEqual(statuses, ['queued', 'succeeded']);
  assert.equal(malformed.length, 1);
});

test('a stream in another format still tells its last terminal state, wherever a frame or line names one', () => {
  const terminal = new Set(['succeeded', 'failed']);
  assert.deepEqual(
    lastTerminalRead(
      'event: update\ndata: {"state":"running"}\n\nevent: update\ndata: {"state":"failed"}\n\n',
      terminal,
    ),
    { state: 'failed', member: 'state' },
  );
  assert.deepEqual(lastTerminalRead('{"phase":"running"}\n{"phase":"succeeded"}\n', terminal), {
    state: 'succeeded',
    member: 'phase',
  });
  assert.equal(lastTerminalRead('event: status\ndata: {"state":"running"}\n\n', terminal), undefined);
});

test('headOnTheWire sees the bytes a server writes after the headers of a HEAD answer, which fetch drops', async () => {
  const { createServer } = await import('node:net');
  const { headOnTheWire } = await import('../../lib/http.ts');
  const { runConfig } = await import('../../lib/config/env.ts');
  for (const [body, want] of [
    ['{"found":true}', 14],
    ['', 0],
  ] as const) {
    const server = createServer((sock) =>
      sock.once('data', () =>
        sock.end(`HTTP/1.1 200 OK\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`),
      ),
    );
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as { port: number }).port;
    const url = `http://127.0.0.1:${port}/api/v2/assets/by-hash/blake3:00`;
    const wire = await headOnTheWire(url, {}, runConfig().bounds.httpTimeoutMs);
    assert.equal(wire.status, 200);
    assert.equal(wire.trailing.length, want);
    const fetched = await fetch(url, { method: 'HEAD' });
    assert.equal((await fetched.arrayBuffer()).byteLength, 0, 'fetch never hands a HEAD body over');
    await new Promise((r) => server.close(r));
  }
});
