// The passive judge on exchanges made up here (no server): WebSocket messages read out of
// the bytes that pass, the stateful rules judged only where the observer saw enough (a
// replay of a key whose first answer it saw; a queued request read finished, then not; an
// event stream read to its end against the polled job), nothing judged where it did not
// (a stream its reader left early), exchanges off the server listed, credentials in no
// report, and a HAR read back whatever recorded it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { FrameReader } from '../../lib/passive/ws-frames.ts';
import { PassiveJudge } from '../../lib/passive/judge.ts';
import { passiveReport, writePassiveReports } from '../../lib/passive/report.ts';
import { observedFromHar } from '../../lib/passive/har-input.ts';
import type { Observed } from '../../lib/passive/observed.ts';

const ROUTER = 'http://127.0.0.1:9';
const KEY = 'comfyui-unit-secret-7f3a9c2e5b1d4086';

function frame(opcode: number, payload: Buffer, opts: { fin?: boolean; mask?: boolean; rsv1?: boolean } = {}): Buffer {
  const head = [((opts.fin ?? true) ? 0x80 : 0) | (opts.rsv1 ? 0x40 : 0) | opcode];
  const len = payload.length < 126 ? [payload.length] : [126, payload.length >> 8, payload.length & 0xff];
  if (!opts.mask) return Buffer.concat([Buffer.from([...head, ...len]), payload]);
  const mask = Buffer.from([1, 2, 3, 4]);
  const masked = Buffer.from(payload.map((b, i) => b ^ mask[i & 3]));
  return Buffer.concat([Buffer.from([...head, len[0] | 0x80, ...len.slice(1)]), mask, masked]);
}

test('WebSocket messages are read out of the passing bytes: masked, fragmented, split anywhere, control frames skipped', () => {
  const big = Buffer.alloc(300, 7);
  const bytes = Buffer.concat([
    frame(0x9, Buffer.from('ping')),
    frame(0x1, Buffer.from('{"type":'), { fin: false, mask: true }),
    frame(0x0, Buffer.from('"status"}'), { mask: true }),
    frame(0x2, big),
  ]);
  const reader = new FrameReader();
  const got = [...bytes].flatMap((_, i) => reader.push(bytes.subarray(i, i + 1)));
  assert.deepEqual(
    got.map((m) => [m.binary, m.data.length]),
    [
      [false, 17],
      [true, 300],
    ],
  );
  assert.equal(got[0].data.toString(), '{"type":"status"}');
  const compressed = new FrameReader();
  assert.deepEqual(compressed.push(frame(0x1, Buffer.from('x'), { rsv1: true })), []);
  assert.match(compressed.unreadable ?? '', /compressed/);
});

let seq = 0;
function routerRun(key: string, replayedHeader: string | undefined, body: string): Observed {
  return {
    seq: ++seq,
    started: Date.now(),
    method: 'POST',
    url: `${ROUTER}/v2/models/pixelforge/pf-flux-lite`,
    requestHeaders: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json', 'idempotency-key': key },
    requestBody: Buffer.from('{"prompt":"a lighthouse at dusk"}'),
    response: {
      status: 200,
      headers: {
        'content-type': 'application/json',
        'x-comfy-request-id': `r-${seq}`,
        'x-content-type-options': 'nosniff',
        ...(replayedHeader ? { 'idempotent-replayed': replayedHeader } : {}),
      },
      body: Buffer.from(body),
      truncated: false,
      elapsedMs: 5,
    },
  };
}

const broken = (j: PassiveJudge, rule: string) => j.results.filter((r) => r.rule === rule && r.outcome === 'broken');
const heldCount = (j: PassiveJudge, rule: string) => j.tally.get(rule)?.held ?? 0;

test('a retry under a key whose first answer passed is judged a replay: marked and byte for byte, or broken', () => {
  const j = new PassiveJudge({ surface: 'router', baseUrl: ROUTER });
  j.exchange(routerRun('k1', undefined, '{"images":[]}'));
  assert.equal(heldCount(j, 'ROUTER.IDEM.REPLAY'), 0, 'a first answer is no replay');
  const before = heldCount(j, 'ROUTER.IDEM.REPLAY');
  j.exchange(routerRun('k1', 'true', '{"images":[]}'));
  // The marked header's contract, the record's bytes, and the mark: each held.
  assert.equal(heldCount(j, 'ROUTER.IDEM.REPLAY') - before, 3);
  assert.equal(broken(j, 'ROUTER.IDEM.REPLAY').length, 0);
  j.exchange(routerRun('k1', undefined, '{"images":[]}'));
  assert.equal(broken(j, 'ROUTER.IDEM.REPLAY').length, 1, 'an unmarked replay');
  j.exchange(routerRun('k1', 'true', '{"images":[1]}'));
  assert.equal(broken(j, 'ROUTER.IDEM.REPLAY').length, 2, 'other bytes');
  // Another key: its first answer is never judged a replay, marked or not (it may predate the observer).
  j.exchange(routerRun('k2', 'true', '{"images":[]}'));
  assert.equal(broken(j, 'ROUTER.IDEM.REPLAY').length, 2);
  const failure = broken(j, 'ROUTER.IDEM.REPLAY')[0];
  assert.match(failure.exchange?.curl ?? '', /curl .*idempotency-key: k1/);
  assert.ok(!failure.exchange!.curl!.includes(KEY), 'the bearer key is redacted in the curl');
});

function statusRead(id: string, status: string, retryAfter?: string): Observed {
  return {
    seq: ++seq,
    started: Date.now(),
    method: 'GET',
    url: `${ROUTER}/v2/models/pixelforge/pf-flux-lite/requests/${id}/status`,
    requestHeaders: { 'x-api-key': KEY },
    response: {
      status: 200,
      headers: {
        'content-type': 'application/json',
        'x-comfy-request-id': `r-${seq}`,
        ...(retryAfter ? { 'retry-after': retryAfter } : {}),
      },
      body: Buffer.from(
        JSON.stringify({
          request_id: id,
          status,
          status_url: `${ROUTER}/v2/models/pixelforge/pf-flux-lite/requests/${id}/status`,
          response_url: `${ROUTER}/v2/models/pixelforge/pf-flux-lite/requests/${id}`,
          cancel_url: `${ROUTER}/v2/models/pixelforge/pf-flux-lite/requests/${id}/cancel`,
        }),
      ),
      truncated: false,
      elapsedMs: 1,
    },
  };
}

test('a queued request read COMPLETED and then unfinished again breaks the closed life cycle; an unfinished poll needs Retry-After', () => {
  const j = new PassiveJudge({ surface: 'router', baseUrl: ROUTER });
  const id = '3f0c4b8e-2d4a-4c1e-9b7a-5e6f7a8b9c0d';
  j.exchange(statusRead(id, 'IN_PROGRESS', '1'));
  assert.equal(broken(j, 'ROUTER.QUEUE.POLL_RETRY_AFTER').length, 0);
  j.exchange(statusRead(id, 'COMPLETED'));
  assert.equal(broken(j, 'ROUTER.QUEUE.STATUS_CLOSED').length, 0);
  j.exchange(statusRead(id, 'IN_QUEUE'));
  assert.equal(broken(j, 'ROUTER.QUEUE.STATUS_CLOSED').length, 1);
  assert.equal(broken(j, 'ROUTER.QUEUE.POLL_RETRY_AFTER').length, 1, 'the unfinished read without Retry-After');
});

function v2(
  method: string,
  pathname: string,
  status: number,
  body: string,
  type = 'application/json',
  cut?: Observed['cut'],
): Observed {
  return {
    seq: ++seq,
    started: Date.now(),
    method,
    url: `http://127.0.0.1:8/api/v2${pathname}`,
    requestHeaders: {},
    response: { status, headers: { 'content-type': type }, body: Buffer.from(body), truncated: false, elapsedMs: 1 },
    ...(cut ? { cut } : {}),
  };
}

test('an event stream is compared with polling only when it was read to a terminal status', () => {
  const job = '0b7c2d4e-6f80-4a1b-9c3d-5e7f9a1b3c5d';
  const j = new PassiveJudge({ surface: 'local', baseUrl: 'http://127.0.0.1:8' });
  // The reader left before the end: not judged, though polling later reads the job finished otherwise.
  j.exchange(
    v2(
      'GET',
      `/jobs/${job}/events`,
      200,
      'event: status\ndata: {"status":"running"}\n\n',
      'text/event-stream',
      'reader',
    ),
  );
  j.exchange(
    v2(
      'GET',
      `/jobs/${job}`,
      200,
      JSON.stringify({
        id: job,
        status: 'failed',
        created_at: '2026-01-01T00:00:00Z',
        expires_at: '2026-02-01T00:00:00Z',
        outputs: [],
        urls: { self: `http://127.0.0.1:8/api/v2/jobs/${job}` },
      }),
    ),
  );
  assert.equal(j.results.filter((r) => r.rule === 'V2.JOB.EVENTS_AGREE').length, 0);
  // Read to its end, naming another terminal status than polling: broken.
  j.exchange(
    v2(
      'GET',
      `/jobs/${job}/events`,
      200,
      'event: status\ndata: {"status":"running"}\n\nevent: status\ndata: {"status":"succeeded"}\n\n',
      'text/event-stream',
    ),
  );
  assert.equal(broken(j, 'V2.JOB.EVENTS_AGREE').length, 1);
});

test('exchanges off the server are listed, not judged; a report shows no credential, and a rule no exchange exercised reads not exercised', () => {
  const j = new PassiveJudge({ surface: 'router', baseUrl: ROUTER });
  j.exchange({
    seq: ++seq,
    started: Date.now(),
    method: 'GET',
    url: 'https://cdn.example/x.png',
    requestHeaders: {},
    response: { status: 200, headers: {}, body: Buffer.alloc(0), truncated: false, elapsedMs: 1 },
  });
  j.exchange({ ...routerRun('k9', undefined, '{}'), url: `${ROUTER}/v2/nothing-here` });
  j.exchange(routerRun('k3', undefined, '{"images":[]}'));
  j.exchange(routerRun('k3', undefined, '{"images":[]}'));
  assert.deepEqual(
    j.unplaced.map((u) => u.why.split(' ')[0]),
    ['another', 'no'],
  );
  const report = passiveReport(j, {
    source: 'har',
    from: 'unit.har',
    target: { name: 'unit', base_url: ROUTER },
    brand: 'Comfy',
  });
  assert.equal(report.mode, 'passive');
  assert.deepEqual(report.summary.must_failed, ['ROUTER.IDEM.REPLAY']);
  assert.equal(report.summary.verdict, 'fail');
  const row = report.passive!.rules.find((r) => r.id === 'ROUTER.HEADER.REQUEST_ID')!;
  assert.equal(row.exchanges, 2, 'per rule, the exchanges that exercised it');
  assert.match(report.rules.find((r) => r.id === 'ROUTER.QUEUE.CANCEL')!.results.router!.reason!, /^not exercised/);
  const dir = mkdtempSync(path.join(tmpdir(), 'passive-unit-'));
  const files = writePassiveReports(report, dir, (t) => j.redact.text(t));
  for (const f of Object.values(files)) assert.ok(!readFileSync(f, 'utf8').includes(KEY), `${f} shows the key`);
  assert.match(readFileSync(files.markdown, 'utf8'), /\| not exercised \|/);
});

test('a HAR from any recorder reads back: bodies in base64 or text, a body left out marks the answer cut, WebSocket messages kept', () => {
  const har = {
    log: {
      version: '1.2',
      entries: [
        {
          startedDateTime: '2026-01-01T00:00:01.000Z',
          request: {
            method: 'get',
            url: 'http://h/a',
            headers: [
              { name: 'Authorization', value: 'Bearer x' },
              { name: ':authority', value: 'h' },
            ],
          },
          response: {
            status: 200,
            headers: [{ name: 'Content-Type', value: 'application/json' }],
            content: { size: 2, text: 'e30=', encoding: 'base64' },
          },
        },
        {
          startedDateTime: '2026-01-01T00:00:00.000Z',
          request: { method: 'GET', url: 'http://h/b', headers: [] },
          response: { status: 200, headers: [], content: { size: 10 } },
        },
        {
          startedDateTime: '2026-01-01T00:00:02.000Z',
          request: { method: 'GET', url: 'ws://h/ws', headers: [] },
          response: { status: 101, headers: [], content: { size: 0 } },
          _webSocketMessages: [{ type: 'receive', time: 1767225602.5, opcode: 1, data: '{"type":"status","data":{}}' }],
        },
      ],
    },
  };
  const got = observedFromHar(har);
  assert.deepEqual(
    got.map((e) => e.url),
    ['http://h/b', 'http://h/a', 'ws://h/ws'],
  );
  assert.equal(got[1].response!.body.toString(), '{}');
  assert.equal(got[1].requestHeaders.authorization, 'Bearer x');
  assert.equal(got[1].requestHeaders[':authority'], undefined);
  assert.equal(got[0].cut, 'size');
  assert.equal(got[2].ws!.messages[0].data.toString(), '{"type":"status","data":{}}');
});
