// A node message sent right behind a prompt's terminal message is still part of the prompt's
// stream handed to the order check (read for STREAM_LATE_MS after the terminal message).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { WebSocketServer } from 'ws';
import { WsSession } from '../../lib/ws/session.ts';
import { streamLateMs } from '../../lib/time.ts';
import { runConfig } from '../../lib/config/env.ts';

test('a progress message 50 ms after execution_success is in the prompt stream', async () => {
  const { bounds } = runConfig();
  const lateMs = streamLateMs(bounds.streamGraceMs);
  assert.ok(lateMs > 50, `streamLateMs is ${lateMs}`);
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise((r) => wss.once('listening', r));
  const prompt_id = 'p-late';
  const send = (ws: import('ws').WebSocket, type: string, data: Record<string, unknown>): void =>
    ws.send(JSON.stringify({ type, data: { prompt_id, ...data } }));
  wss.on('connection', (ws) => {
    send(ws, 'execution_start', { timestamp: Date.now() });
    send(ws, 'executing', { node: '1', display_node: '1' });
    send(ws, 'executing', { node: null, display_node: null });
    send(ws, 'execution_success', { timestamp: Date.now() });
    setTimeout(() => send(ws, 'progress', { value: 1, max: 1, node: '1' }), 50);
  });
  const { port } = wss.address() as { port: number };
  const session = await WsSession.open(`ws://127.0.0.1:${port}/ws`, { announcePreviewMetadata: false, bounds }, 2_000);
  try {
    const stream = await session.streamOf(prompt_id, 2_000);
    assert.deepEqual(
      stream.messages.map((m) => m.type),
      ['execution_start', 'executing', 'executing', 'execution_success', 'progress'],
    );
  } finally {
    session.close();
    await new Promise((r) => wss.close(r));
  }
});
