// Bad server output gives a clear, bounded failure, never a hang or a crash.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { send } from '../../lib/http.ts';
import { SuiteError } from '../../lib/violations.ts';

const server = http.createServer((req, res) => {
  if (req.url === '/hang') return; // never answers
  if (req.url === '/huge') {
    res.writeHead(200, { 'content-type': 'application/json' });
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    let sent = 0;
    const pump = () => {
      while (sent < 64 * 1024 * 1024 && res.write(chunk)) sent += chunk.length;
      if (sent < 64 * 1024 * 1024) res.once('drain', pump);
      else res.end();
    };
    return pump();
  }
  if (req.url === '/cut') {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
    res.write('{"partial":');
    setImmediate(() => res.socket?.destroy());
    return;
  }
  res.writeHead(302, { location: '/elsewhere' });
  res.end();
});
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
after(() => {
  server.closeAllConnections();
  server.close();
});

const req = (p: string, timeoutMs = 500, maxBodyBytes = 1024 * 1024) =>
  send({ method: 'GET', url: base + p, headers: {}, timeoutMs, maxBodyBytes });

test('a server that never answers gives a suite error within the timeout', async () => {
  const started = Date.now();
  await assert.rejects(
    req('/hang', 300),
    (e: Error) => e instanceof SuiteError && /no response within 300 ms/.test(e.message),
  );
  assert.ok(Date.now() - started < 2000);
});

test('an enormous body is cut at the limit and marked truncated', async () => {
  const r = await req('/huge', 5000, 256 * 1024);
  assert.equal(r.truncated, true);
  assert.equal(r.body.length, 256 * 1024);
});

test('a connection closed mid-body gives a suite error naming it', async () => {
  await assert.rejects(
    req('/cut', 2000),
    (e: Error) => e instanceof SuiteError && /mid-body|not complete/.test(e.message),
  );
});

test('redirects are answers to judge, never followed silently', async () => {
  const r = await req('/redirect');
  assert.equal(r.status, 302);
  assert.equal(r.headers.location, '/elsewhere');
});

test('a target that is not listening is one clear message', async () => {
  const probe = http.createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
  const port = (probe.address() as AddressInfo).port;
  await new Promise<void>((r) => probe.close(() => r()));
  await assert.rejects(
    send({ method: 'GET', url: `http://127.0.0.1:${port}/x`, headers: {}, timeoutMs: 1000, maxBodyBytes: 10 }),
    new RegExp(`nothing listens at http://127\\.0\\.0\\.1:${port}`),
  );
});
