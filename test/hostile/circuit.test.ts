// The circuit breaker (lib/circuit.ts): a target that stops answering costs a few
// timeouts, then every further exchange with it ends at once, naming the path that hung.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { send } from '../../lib/http.ts';
import { circuitTimeouts, resetCircuit } from '../../lib/circuit.ts';
import { SuiteError } from '../../lib/violations.ts';
import { resetRunConfig } from '../../lib/config/index.ts';
import { startHostileServer, type HostileServer } from '../support/hostile-server.ts';

let hostile: HostileServer;
before(async () => {
  hostile = await startHostileServer();
});
after(() => hostile.close());

const get = (url: string, timeoutMs: number) =>
  send({ method: 'GET', url, headers: {}, timeoutMs, maxBodyBytes: 1024 });

test(`after ${circuitTimeouts()} timeouts in a row the origin's breaker opens: the next exchange ends at once, naming where the target stopped`, async () => {
  process.env.CONFORMANCE_CIRCUIT_DIR = mkdtempSync(path.join(os.tmpdir(), 'circuit-'));
  resetRunConfig();
  resetCircuit();
  for (let i = 0; i < circuitTimeouts(); i++)
    await assert.rejects(get(hostile.url('hang', `/api/v2/jobs/${i}`), 200), SuiteError);
  const hitsBefore = hostile.hits.get('hang') ?? 0;
  const started = Date.now();
  await assert.rejects(get(hostile.url('hang', '/api/v2/assets'), 5000), (e: Error) => {
    assert.ok(e instanceof SuiteError);
    assert.match(e.message, /target stopped answering at GET \/hang\/api\/v2\/jobs\/\{?2\}? /);
    assert.match(e.message, /not sent: GET \/hang\/api\/v2\/assets/);
    return true;
  });
  assert.ok(Date.now() - started < 200, 'refused without waiting');
  assert.equal(hostile.hits.get('hang') ?? 0, hitsBefore, 'nothing was sent');

  // Playwright restarts a worker after a failed test: a fresh process of the same run
  // (same CONFORMANCE_CIRCUIT_DIR) finds the breaker open too.
  resetCircuit();
  await assert.rejects(get(hostile.url('hang', '/x'), 5000), /target stopped answering/);
  delete process.env.CONFORMANCE_CIRCUIT_DIR;
  resetRunConfig();
  resetCircuit();
});

test('an answer between timeouts starts the count again: a slow endpoint here and there never opens the breaker', async () => {
  resetCircuit();
  for (let i = 0; i < circuitTimeouts() * 2; i++) {
    await assert.rejects(get(hostile.url('hang'), 100), /no response within 100 ms/);
    // Any status is an answer; the hostile server's unknown behaviour answers 404.
    assert.equal((await get(`${hostile.origin}/alive`, 2000)).status, 404);
  }
  resetCircuit();
});
