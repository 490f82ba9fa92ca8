// The stateful rules a passive observer holds, with teeth: plain clients (fetch, a
// WebSocket) whose traffic passes the proxy in front of the reference. On the reference
// they hold; with a fault that breaks one of them the passive report fails exactly that
// rule. v2: a job's event stream against polling (events-end-early), a used key sent with
// another workflow (idempotency-replay); v1: the stream's end against polling
// (ws-terminal-mismatch); router: a keyed retry (router-replay-unmarked), a queued request
// read again after its result was collected (router-status-reopened-after-collect). The
// event stream reaches the client as it is written, not once it ends.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import WebSocket from 'ws';
import { startReference, type RunningReference } from '../../reference/server.ts';
import { ROUTER_KEYS } from '../../reference/accounts.ts';
import type { SurfaceName } from '../../reference/context.ts';
import { startProxySession } from '../../lib/passive/session.ts';
import { classesFor, slowWorkflow } from '../../lib/data/workflows.ts';
import { saveWorkflow } from '../../lib/v1/workflows.ts';
import type { ConformanceReport } from '../../report/report.ts';
import { freePortBase } from '../support/ports.ts';

const MODEL = 'pixelforge/pf-flux-lite';
const TERMINAL = ['succeeded', 'failed', 'canceled', 'expired'];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The reference (with `fault`) behind an in-process proxy on `surface`; `client` drives traffic through it. */
async function through(
  surface: SurfaceName,
  fault: string | undefined,
  client: (proxy: string, ref: RunningReference) => Promise<void>,
): Promise<ConformanceReport> {
  const base = await freePortBase(6);
  const proxyUrl = `http://127.0.0.1:${base + 5}`;
  const ref = await startReference({
    portBase: base,
    ...(fault ? { fault } : {}),
    publicUrls: { [surface]: proxyUrl },
  });
  const session = await startProxySession({
    target: { name: 'reference', surface, baseUrl: ref.surfaces[surface] },
    port: base + 5,
    reportsDir: mkdtempSync(path.join(tmpdir(), 'passive-stateful-')),
    version: 'test',
  });
  try {
    await client(proxyUrl, ref);
    await sleep(50);
    return (await session.stop()).report;
  } finally {
    await session.stop().catch(() => undefined);
    await ref.close();
  }
}

async function json(res: Response): Promise<Record<string, unknown>> {
  return (await res.json()) as Record<string, unknown>;
}

/** When the last v2 client's stream gave its first bytes and its terminal status (ms). */
let streamTimes = { first: 0, terminal: 0 };

/** v2: a slow job submitted under a key (and again), its event stream read to its end, polled to its end, then another workflow under the same key. */
async function v2Client(proxy: string, ref: RunningReference): Promise<void> {
  const auth = { authorization: `Bearer ${ref.credentials.cloud.alice}`, 'content-type': 'application/json' };
  const key = randomUUID();
  const workflow = slowWorkflow('Sleep', 1);
  const job = await json(
    await fetch(`${proxy}/api/v2/jobs`, {
      method: 'POST',
      headers: { ...auth, 'idempotency-key': key },
      body: JSON.stringify({ workflow }),
    }),
  );
  await (
    await fetch(`${proxy}/api/v2/jobs`, {
      method: 'POST',
      headers: { ...auth, 'idempotency-key': key },
      body: JSON.stringify({ workflow }),
    })
  ).text();
  // Embedded URLs may be host-relative: resolved against the address the client used.
  const raw = job.urls as { self: string; events: string };
  const urls = { self: new URL(raw.self, proxy).href, events: new URL(raw.events, proxy).href };
  const stream = await fetch(urls.events, { headers: { ...auth, accept: 'text/event-stream' } });
  const reader = stream.body!.getReader();
  let text = '';
  const deadline = Date.now() + 15_000;
  streamTimes = { first: 0, terminal: 0 };
  while (Date.now() < deadline) {
    const { done, value } = await reader.read();
    if (done) break;
    streamTimes.first ||= Date.now();
    text += Buffer.from(value).toString();
    if (TERMINAL.some((s) => text.includes(`"status":"${s}"`))) {
      streamTimes.terminal = Date.now();
      break;
    }
  }
  await reader.cancel().catch(() => undefined);
  let status = '';
  while (Date.now() < deadline && !TERMINAL.includes(status)) {
    status = String((await json(await fetch(urls.self, { headers: auth }))).status);
    if (!TERMINAL.includes(status)) await sleep(100);
  }
  await (
    await fetch(`${proxy}/api/v2/jobs`, {
      method: 'POST',
      headers: { ...auth, 'idempotency-key': key },
      body: JSON.stringify({ workflow: saveWorkflow(classesFor({}), 'passive-other') }),
    })
  ).text();
}

/** v1: the stream opened first, a prompt, its messages to the end, its status polled to the end. */
async function v1Client(proxy: string, ref: RunningReference): Promise<void> {
  const key = ref.credentials.cloud.alice;
  const clientId = randomUUID();
  const ws = new WebSocket(`${proxy.replace('http', 'ws')}/ws?clientId=${clientId}&token=${key}`);
  const types: Array<{ type?: string; data?: { prompt_id?: string } }> = [];
  ws.on('message', (d, binary) => {
    if (!binary) types.push(JSON.parse((d as Buffer).toString()) as { type?: string });
  });
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  const { prompt_id: id } = (await json(
    await fetch(`${proxy}/api/prompt`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify({ prompt: saveWorkflow(classesFor({}), `passive-${clientId}`), client_id: clientId }),
    }),
  )) as { prompt_id: string };
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    const status = String(
      (await json(await fetch(`${proxy}/api/job/${id}/status`, { headers: { 'x-api-key': key } }))).status,
    );
    const ended = types.some(
      (m) => m.data?.prompt_id === id && /^execution_(success|error|interrupted)$/.test(m.type ?? ''),
    );
    if (ended && ['success', 'completed', 'error', 'failed', 'cancelled'].includes(status)) break;
    await sleep(100);
  }
  await sleep(300);
  ws.close();
  await new Promise((r) => ws.once('close', r));
}

/** router: one keyed run sent twice; a queued request polled to its end, collected, and read once more. */
async function routerClient(proxy: string): Promise<void> {
  const headers = { 'x-api-key': ROUTER_KEYS.alice, 'content-type': 'application/json' };
  const body = JSON.stringify({ prompt: 'a lighthouse at dusk' });
  const key = randomUUID();
  for (let i = 0; i < 2; i++)
    await (
      await fetch(`${proxy}/v2/models/${MODEL}`, {
        method: 'POST',
        headers: { ...headers, 'idempotency-key': key },
        body,
      })
    ).arrayBuffer();
  const handle = await json(await fetch(`${proxy}/v2/models/${MODEL}/requests`, { method: 'POST', headers, body }));
  const deadline = Date.now() + 15_000;
  let status = String(handle.status);
  while (status !== 'COMPLETED' && Date.now() < deadline) {
    const res = await fetch(String(handle.status_url), { headers });
    status = String((await json(res)).status);
    if (status !== 'COMPLETED') await sleep(Math.min(1000, 1000 * Number(res.headers.get('retry-after') ?? 1)));
  }
  await (await fetch(String(handle.response_url), { headers })).arrayBuffer();
  await (await fetch(String(handle.status_url), { headers })).arrayBuffer();
}

const tally = (report: ConformanceReport, id: string) => report.passive!.rules.find((r) => r.id === id);
const broken = (report: ConformanceReport) => report.passive!.rules.filter((r) => r.broken > 0).map((r) => r.id);

test(
  'v2 through the proxy: a stream read to its end agrees with polling, submits under one key make ' +
    'one job, another workflow under it is refused',
  async () => {
    const report = await through('cloud', undefined, v2Client);
    assert.deepEqual(broken(report), []);
    for (const rule of ['V2.JOB.EVENTS_AGREE', 'V2.JOB.EVENTS_FORMAT', 'V2.JOB.IDEMPOTENT'])
      assert.ok((tally(report, rule)?.held ?? 0) > 0, `${rule} held (${JSON.stringify(report.passive!.rules)})`);
    // Streamed as it arrives: the stream's first bytes reached the client while the job (a one-second Sleep) still ran.
    assert.ok(
      streamTimes.terminal - streamTimes.first >= 500,
      `first bytes ${streamTimes.terminal - streamTimes.first} ms before the terminal status`,
    );
  },
);

test('v2 through the proxy: a stream that ends before the job does breaks V2.JOB.EVENTS_AGREE (events-end-early)', async () => {
  const report = await through('cloud', 'events-end-early', v2Client);
  assert.deepEqual(report.summary.must_failed, ['V2.JOB.EVENTS_AGREE']);
});

test('v2 through the proxy: another workflow answered with the job of a used key breaks V2.JOB.IDEMPOTENT (idempotency-replay)', async () => {
  const report = await through('cloud', 'idempotency-replay', v2Client);
  assert.deepEqual(report.summary.must_failed, ['V2.JOB.IDEMPOTENT']);
});

test(
  'v1 through the proxy: a stream whose end says otherwise than polling breaks WS.POLL_AGREEMENT ' +
    '(ws-terminal-mismatch), on the reference it holds',
  async () => {
    const clean = await through('cloud', undefined, v1Client);
    assert.deepEqual(broken(clean), []);
    assert.ok((tally(clean, 'WS.POLL_AGREEMENT')?.held ?? 0) > 0);
    assert.ok((tally(clean, 'WS.ORDER')?.held ?? 0) > 0);
    const report = await through('cloud', 'ws-terminal-mismatch', v1Client);
    assert.deepEqual(report.summary.should_failed, ['WS.POLL_AGREEMENT']);
    assert.deepEqual(report.summary.must_failed, []);
    assert.equal(report.summary.verdict, 'pass', 'a SHOULD finding is reported and does not fail a passive run');
  },
);

test('router through the proxy: a keyed retry is a marked replay and a collected request stays COMPLETED; each fault breaks its rule', async () => {
  const clean = await through('router', undefined, routerClient);
  assert.deepEqual(broken(clean), []);
  for (const rule of ['ROUTER.IDEM.REPLAY', 'ROUTER.QUEUE.STATUS_CLOSED'])
    assert.ok((tally(clean, rule)?.held ?? 0) > 0, `${rule} held`);
  assert.deepEqual((await through('router', 'router-replay-unmarked', routerClient)).summary.must_failed, [
    'ROUTER.IDEM.REPLAY',
  ]);
  assert.deepEqual(
    (await through('router', 'router-status-reopened-after-collect', routerClient)).summary.must_failed,
    ['ROUTER.QUEUE.STATUS_CLOSED'],
  );
});
