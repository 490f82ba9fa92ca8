// The reference's v1 operations and WebSocket, below the suite: the stream of one
// prompt, a refused token, and a shutdown that does not wait on open sockets.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import WebSocket from 'ws';
import { ALICE, startOnFreePorts } from './helpers.ts';

const wsUrl = (base: string, token: string): string =>
  `${base.replace(/^http/, 'ws')}/ws?clientId=reference-test&token=${token}`;

test('a prompt streams its messages to the socket, /api/view redirects, and close() ends open sockets', async () => {
  const ref = await startOnFreePorts();
  const base = ref.surfaces.cloud;
  const socket = new WebSocket(wsUrl(base, ALICE));
  const seen: string[] = [];
  const frames: Buffer[] = [];
  socket.on('message', (data: Buffer, isBinary: boolean) =>
    isBinary ? frames.push(data) : seen.push((JSON.parse(data.toString()) as { type: string }).type),
  );
  await new Promise((resolve) => socket.once('open', resolve));
  const res = await fetch(`${base}/api/prompt`, {
    method: 'POST',
    headers: { 'x-api-key': ALICE, 'content-type': 'application/json' },
    body: JSON.stringify({
      prompt: {
        '1': { class_type: 'EmptyImage', inputs: { width: 2, height: 2 } },
        '2': { class_type: 'SaveImage', inputs: { images: ['1', 0], filename_prefix: 'reftest' } },
        '3': { class_type: 'TextOutput', inputs: { text: 'hi' } },
      },
    }),
  });
  const { prompt_id } = (await res.json()) as { prompt_id: string };
  assert.equal(res.status, 200);
  for (let i = 0; i < 100 && !seen.includes('execution_success'); i++) await new Promise((r) => setTimeout(r, 50));
  assert.deepEqual(seen.slice(0, 1), ['status']);
  assert.ok(seen.indexOf('execution_start') < seen.indexOf('executing'));
  assert.ok(frames.some((f) => f.readUInt32BE(0) === 3));
  const status = (await (
    await fetch(`${base}/api/job/${prompt_id}/status`, { headers: { 'x-api-key': ALICE } })
  ).json()) as { status: string };
  assert.equal(status.status, 'success');
  const view = await fetch(`${base}/api/view?filename=reftest_00001_.png&type=output`, {
    headers: { 'x-api-key': ALICE },
    redirect: 'manual',
  });
  assert.equal(view.status, 302);
  assert.equal((await fetch(view.headers.get('location')!)).status, 200);
  const started = Date.now();
  await ref.close();
  assert.ok(Date.now() - started < 5_000, 'close() does not wait on the open socket');
});

test('an unknown token is refused 401 at the upgrade', async () => {
  const ref = await startOnFreePorts();
  try {
    const socket = new WebSocket(wsUrl(ref.surfaces.cloud, 'comfyui-not-a-key'));
    const status = await new Promise<number | undefined>((resolve) => {
      socket.once('unexpected-response', (_req, r) => resolve(r.statusCode));
      socket.once('open', () => resolve(101));
      socket.once('error', () => resolve(undefined));
    });
    socket.terminate();
    assert.equal(status, 401);
  } finally {
    await ref.close();
  }
});
