// A replay of a recorded WebSocket connection (lib/cassette.ts, lib/ws/session.ts): no
// socket is opened; the recorded frames arrive in order, each only once the test has
// completed as many HTTP exchanges as it had when the frame came, with its recorded
// arrival time; a connection or an exchange the recording lacks is an error naming it.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setImmediate as tick } from 'node:timers/promises';
import { placeholderFor, setCassetteScope, type TapeEntry } from '../../lib/cassette.ts';
import { fromHar, toHar, type Har } from '../../lib/har.ts';
import { send } from '../../lib/http.ts';
import { WsSession } from '../../lib/ws/session.ts';
import { resetRunConfig, runConfig } from '../../lib/config/index.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'cassette-ws-'));
let attempts = 0;
const listener = net.createServer((s) => {
  attempts++;
  s.destroy();
});
let port = 0;
const T0 = Date.parse('2025-01-01T00:00:00.000Z');
const status = (n: number) =>
  JSON.stringify({ type: 'status', data: { status: { exec_info: { queue_remaining: n } } } });

before(async () => {
  // The recorded addresses are held by a listener that counts every connection made to it.
  await new Promise<void>((r) => listener.listen(0, '127.0.0.1', () => r()));
  port = (listener.address() as net.AddressInfo).port;
  const base = `http://127.0.0.1:${port}`;
  const ws = `ws://127.0.0.1:${port}/ws?clientId=c&token=REDACTED`;
  const entries: TapeEntry[] = [
    {
      scope: 's',
      key: 'WS /ws',
      started: new Date(T0).toISOString(),
      request: { method: 'GET', url: ws, headers: {} },
      response: { status: 101, headers: {}, body: '', truncated: false, elapsedMs: 0 },
      ws: {
        id: '1-1',
        items: [
          { kind: 'send', at: T0, after: 0, opcode: 1, data: '{"type":"feature_flags"}' },
          { kind: 'receive', at: T0 + 5, after: 0, opcode: 1, data: status(0) },
          { kind: 'receive', at: T0 + 20, after: 1, opcode: 1, data: status(1) },
          { kind: 'close', at: T0 + 30, after: 1, code: 1000, reason: 'bye' },
        ],
      },
    },
    {
      scope: 's',
      key: 'GET /a',
      started: new Date(T0 + 10).toISOString(),
      request: { method: 'GET', url: `${base}/a`, headers: {} },
      response: { status: 200, headers: {}, body: 'a', truncated: false, elapsedMs: 1 },
    },
    {
      scope: 's',
      key: 'WS /ws',
      started: new Date(T0 + 40).toISOString(),
      request: { method: 'GET', url: ws, headers: {} },
      response: { status: 401, headers: {}, body: '', truncated: false, elapsedMs: 0 },
      error: 'the upgrade was answered 401 Unauthorized',
      ws: { id: '1-2', items: [] },
    },
    {
      scope: 'quiet',
      key: 'WS /ws',
      started: new Date(T0).toISOString(),
      request: { method: 'GET', url: ws, headers: {} },
      response: { status: 101, headers: {}, body: '', truncated: false, elapsedMs: 0 },
      ws: { id: '1-3', items: [{ kind: 'receive', at: T0 + 5, after: 3, opcode: 1, data: status(7) }] },
    },
  ];
  const har = toHar(entries, { target: { name: 't', entry: {}, variables: [] }, args: [], env: {} }, '0.0.0');
  assert.deepEqual(
    fromHar(JSON.parse(JSON.stringify(har)) as Har),
    [entries[0], entries[3], entries[1], entries[2]],
    'the HAR keeps each connection, its frames, close and order',
  );
  const file = path.join(dir, 'run.har');
  writeFileSync(file, JSON.stringify(har));
  process.env.CONFORMANCE_REPLAY = file;
  resetRunConfig();
});

after(() => {
  listener.close();
  rmSync(dir, { recursive: true, force: true });
});

test('frames wait for the exchanges before them, keep their recorded times, and nothing is sent', async () => {
  setCassetteScope('s');
  const o = await WsSession.connect(`ws://127.0.0.1:${port}/ws?clientId=x&token=t`, { bounds: runConfig().bounds });
  assert.ok(o.ok, JSON.stringify(o));
  const session = o.session;
  await tick();
  assert.deepEqual(
    session.messages().map((m) => m.data.status),
    [{ exec_info: { queue_remaining: 0 } }],
    'only the frame that came before any exchange',
  );
  const res = await send({
    method: 'GET',
    url: `http://127.0.0.1:${port}/a`,
    headers: {},
    timeoutMs: 1000,
    maxBodyBytes: 1000,
  });
  assert.equal(res.body.toString(), 'a');
  await session.waitFor(
    () => session.messages().length === 2,
    1000,
    () => new Error('the second frame never came'),
  );
  assert.deepEqual(
    session.received.map((r) => r.at),
    [T0 + 5, T0 + 20],
    'each frame carries its recorded arrival time',
  );
  await assert.rejects(
    session.waitFor(
      () => false,
      1000,
      () => new Error('not closed'),
    ),
    /closed before the awaited messages/,
    'the recorded close reaches the session',
  );

  const refused = await WsSession.connect(`ws://127.0.0.1:${port}/ws?clientId=y&token=bad`, {
    bounds: runConfig().bounds,
  });
  assert.deepEqual(refused, { ok: false, status: 401, reason: 'the upgrade was answered 401 Unauthorized' });
  await assert.rejects(
    WsSession.connect(`ws://127.0.0.1:${port}/ws?clientId=z&token=t`, { bounds: runConfig().bounds }),
    /not in the recording: GET ws:\/\/127\.0\.0\.1:\d+\/ws\?clientId=z&token=\S+ .*used up/,
  );
  await assert.rejects(
    send({ method: 'POST', url: `http://127.0.0.1:${port}/b`, headers: {}, timeoutMs: 1000, maxBodyBytes: 1000 }),
    /not in the recording: POST http:\/\/127\.0\.0\.1:\d+\/b/,
  );
  assert.equal(attempts, 0, 'the replay connected to the recorded address');
});

test('a test left waiting for a frame whose exchanges never come gets it after a quiet spell', async () => {
  setCassetteScope('quiet');
  const o = await WsSession.connect(`ws://127.0.0.1:${port}/ws?clientId=x&token=t`, { bounds: runConfig().bounds });
  assert.ok(o.ok);
  await o.session.waitFor(
    () => o.session.messages().length === 1,
    5000,
    () => new Error('the frame never came'),
  );
  setCassetteScope('other');
  await assert.rejects(
    WsSession.connect(`ws://127.0.0.1:${port}/ws`, { bounds: runConfig().bounds }),
    /not in the recording: GET ws:.*the recording holds no WebSocket connection of this test/,
  );
  assert.equal(attempts, 0);
});

test('a credential stand-in keeps only the form of the secret: a JWT stays a JWT, a declared prefix stays', () => {
  const jwt = placeholderFor('JWT_VAR', 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhIn0.c2lnbmF0dXJl', ['comfyui-']);
  assert.match(jwt, /^eyJ[\w-]+\.[\w-]+\.[\w-]+$/);
  assert.ok(!jwt.includes('c2lnbmF0dXJl') && !jwt.includes('eyJzdWIiOiJhIn0'));
  assert.equal(placeholderFor('KEY', 'comfyui-secret-123', ['comfyui-']), 'comfyui-replayed-placeholder-key');
  assert.equal(placeholderFor('TOKEN', 'abcdef-secret', ['comfyui-']), 'replayed-placeholder-token');
});
