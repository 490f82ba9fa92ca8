// Cassettes: the HAR they are written as, and how a replay matches a request.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { recordedAnswerFor, templateOf, type TapeEntry } from '../../lib/cassette.ts';
import { fromHar, toHar, type Har } from '../../lib/har.ts';
import type { HttpRequest } from '../../lib/http-types.ts';

test('a request is matched by its path template: ids, hashes and numbers reduced, routes kept', () => {
  assert.equal(
    templateOf('get', 'http://h/api/v2/jobs/0b6a3f0e-8c1d-4d3e-9f5a-2b7c4e1d6a90?x=1'),
    'GET /api/v2/jobs/{}',
  );
  assert.equal(
    templateOf('GET', 'http://h/deployment/dep-ready/api/v2/assets/by-hash/blake3%3A' + 'ab'.repeat(32)),
    'GET /deployment/dep-ready/api/v2/assets/by-hash/{}',
  );
  assert.equal(
    templateOf('POST', 'http://h/v2/models/pixelforge/pf-flux-lite/requests'),
    'POST /v2/models/pixelforge/pf-flux-lite/requests',
  );
  assert.equal(templateOf('GET', 'http://h/api/view/12'), 'GET /api/view/{}');
});

test('HAR 1.2 round trip keeps what a replay needs: status, headers, bytes, errors, scope and order', () => {
  const entries: TapeEntry[] = [
    {
      scope: 's',
      key: 'GET /a',
      started: '2025-01-01T00:00:00.000Z',
      request: { method: 'GET', url: 'http://h/a', headers: {} },
      response: {
        status: 200,
        headers: { 'content-type': 'image/png' },
        body: Buffer.from([0, 1, 2]).toString('base64'),
        bodyEncoding: 'base64',
        truncated: false,
        elapsedMs: 3,
      },
    },
    {
      scope: 's',
      key: 'POST /b',
      started: '2025-01-01T00:00:01.000Z',
      request: {
        method: 'POST',
        url: 'http://h/b',
        headers: { 'content-type': 'application/json' },
        body: '{"a":1}',
        mimeType: 'application/json',
      },
      response: {
        status: 201,
        headers: { 'content-type': 'application/json' },
        body: '{"id":"x"}',
        truncated: false,
        elapsedMs: 4,
      },
    },
    {
      scope: 's',
      key: 'GET /c',
      started: '2025-01-01T00:00:02.000Z',
      request: { method: 'GET', url: 'http://h/c', headers: {} },
      error: 'no response within 10 ms',
    },
  ];
  const har = toHar(entries, { target: { name: 't', entry: {}, variables: [] }, args: [], env: {} }, '0.0.0');
  assert.equal(har.log.version, '1.2');
  assert.equal(har.log.entries[2].response.status, 0, 'a request without answer is status 0, as HAR viewers expect');
  assert.deepEqual(fromHar(JSON.parse(JSON.stringify(har)) as Har), entries);
});

const recorded = (url: string, body: string | undefined, id: string): TapeEntry => ({
  scope: 's',
  key: templateOf('GET', url),
  started: '2025-01-01T00:00:00.000Z',
  request: {
    method: body === undefined ? 'GET' : 'POST',
    url,
    headers: {},
    ...(body === undefined ? {} : { body, mimeType: 'application/json' }),
  },
  response: { status: 200, headers: {}, body: id, truncated: false, elapsedMs: 1 },
});

const ask = (method: string, url: string, json?: unknown): HttpRequest => ({
  method,
  url,
  headers: {},
  timeoutMs: 1000,
  maxBodyBytes: 1024,
  ...(json === undefined ? {} : { json }),
});

test('two concurrent reads of one path template are answered each from its own URL, whatever order they come in', () => {
  const a = recorded('http://h/v2/models/p/m/requests/0b6a3f0e-8c1d-4d3e-9f5a-2b7c4e1d6a90/status', undefined, 'a');
  const b = recorded('http://h/v2/models/p/m/requests/7f1e2d3c-4b5a-4968-8776-5a4b3c2d1e0f/status', undefined, 'b');
  assert.equal(recordedAnswerFor([a, b], ask('GET', b.request.url)), b);
  assert.equal(recordedAnswerFor([a, b], ask('GET', a.request.url)), a);
});

test('two submits to one URL are told apart by their bodies, even when the replayed one carries a fresh random value', () => {
  const url = 'http://h/v2/models/p/m/requests';
  const failing = recorded(url, '{"prompt":"[[fail]]"}', 'failing');
  const ok = recorded(url, '{"prompt":"conformance queue 0b6a3f0e-8c1d-4d3e-9f5a-2b7c4e1d6a90"}', 'ok');
  const replayedOk = ask('POST', url, { prompt: 'conformance queue 7f1e2d3c-4b5a-4968-8776-5a4b3c2d1e0f' });
  assert.equal(recordedAnswerFor([failing, ok], replayedOk), ok, 'the recorded submit most like it, not the first');
  assert.equal(
    recordedAnswerFor([failing, ok], ask('POST', url, { prompt: '[[fail]]' })),
    failing,
    'an equal body wins',
  );
  assert.equal(recordedAnswerFor([failing], replayedOk), failing, 'with one candidate left, it answers');
  assert.equal(recordedAnswerFor([], replayedOk), undefined);
});
