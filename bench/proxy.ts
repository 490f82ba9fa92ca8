// The latency the validating proxy (workflow-conformance proxy) adds: one keep-alive
// connection sends requests one after another (so each figure is one request's own time,
// with nothing queued behind another), straight to the server and through the proxy, in
// interleaved blocks, and the proxy's figure is its percentile minus the direct one.
// Two servers, each in a child process, with the proxy in a child process of its own:
//   - the reference's router status poll (a small JSON answer the proxy judges: contract,
//     request id, queue status), the path real clients poll most;
//   - a bare node:http server answering 60 KiB (under the 64 KiB of the goal), which the
//     proxy passes and lists as off the contract (no judging: forwarding alone).
// The proxy's own measure of what it adds (its holding time per exchange) is read from its
// report. `tsx bench/proxy.ts` runs it alone; `npm run bench` runs it last.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { REPO_ROOT } from '../lib/targets.ts';

export interface ProxyFigure {
  label: string;
  bytes: number;
  direct: { p50: number; p99: number };
  proxied: { p50: number; p99: number };
  added: { p50: number; p99: number };
}

export interface ProxyBench {
  figures: ProxyFigure[];
  /** The proxy's own measure, from its conformance.json (passive.latency). */
  own?: { samples: number; p50_ms: number; p99_ms: number; max_ms: number };
}

function start(args: string[], ready: RegExp): Promise<{ child: ChildProcess; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', ...args], {
      cwd: REPO_ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const timer = setTimeout(() => reject(new Error(`${args[0]} did not start within 60 s: ${output}`)), 60_000);
    const seen = (d: Buffer): void => {
      output += d.toString();
      if (ready.test(output)) {
        clearTimeout(timer);
        resolve({ child, output });
      }
    };
    child.stdout.on('data', seen);
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${args[0]} exited ${code}: ${output}`));
    });
  });
}

function exited(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => (child.exitCode !== null ? resolve() : child.once('exit', () => resolve())));
}

/** `n` sequential GETs on one keep-alive connection: each one's time in ms. */
async function sequential(url: string, headers: Record<string, string>, n: number): Promise<number[]> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const times: number[] = [];
  try {
    for (let i = 0; i < n; i++) {
      const t = process.hrtime.bigint();
      await new Promise<void>((resolve, reject) => {
        http
          .get(url, { agent, headers }, (res) => {
            res.on('data', () => undefined);
            res.on('end', () => resolve());
            res.on('error', reject);
          })
          .on('error', reject);
      });
      times.push(Number(process.hrtime.bigint() - t) / 1e6);
    }
  } finally {
    agent.destroy();
  }
  return times;
}

const pct = (xs: number[], q: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)];
};
const r3 = (n: number): number => Math.round(n * 1000) / 1000;

async function measure(
  label: string,
  direct: string,
  proxied: string,
  headers: Record<string, string>,
  bytes: number,
  perBlock: number,
  blocks: number,
): Promise<ProxyFigure> {
  await sequential(direct, headers, 200);
  await sequential(proxied, headers, 200);
  const d: number[] = [];
  const p: number[] = [];
  for (let b = 0; b < blocks; b++) {
    d.push(...(await sequential(direct, headers, perBlock)));
    p.push(...(await sequential(proxied, headers, perBlock)));
  }
  const direct_ = { p50: r3(pct(d, 0.5)), p99: r3(pct(d, 0.99)) };
  const proxied_ = { p50: r3(pct(p, 0.5)), p99: r3(pct(p, 0.99)) };
  return {
    label,
    bytes,
    direct: direct_,
    proxied: proxied_,
    added: { p50: r3(proxied_.p50 - direct_.p50), p99: r3(proxied_.p99 - direct_.p99) },
  };
}

/** Runs the measurement; `base` is a free range of 8 loopback ports. */
export async function benchProxy(base: number, opts: { perBlock?: number; blocks?: number } = {}): Promise<ProxyBench> {
  const perBlock = opts.perBlock ?? 1000;
  const blocks = opts.blocks ?? 3;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-proxy-'));
  const children: ChildProcess[] = [];
  try {
    const ref = await start(['reference/main.ts', '--port', String(base)], /^router (http:\S+)/m);
    children.push(ref.child);
    const routerUrl = /^router (http:\S+)/m.exec(ref.output)![1];
    const key = /comfyui-router-alice-[0-9a-f]+/.exec(
      readFileSync(path.join(REPO_ROOT, 'reference/accounts.ts'), 'utf8'),
    )![0];
    const headers = { 'x-api-key': key, accept: 'application/json' };
    const submitted = await fetch(`${routerUrl}/v2/models/pixelforge/pf-flux-lite/requests`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ prompt: 'a lighthouse at dusk' }),
    });
    if (submitted.status !== 201)
      throw new Error(`queued submit answered ${submitted.status}: ${await submitted.text()}`);
    const statusPath = new URL(((await submitted.json()) as { status_url: string }).status_url).pathname;
    const bodyFile = path.join(dir, 'body.bin');
    const big = Buffer.alloc(60 * 1024, 'x');
    writeFileSync(bodyFile, big);
    const bare = await start(
      ['bench/bare-server.ts', String(base + 5), bodyFile, 'application/octet-stream'],
      /listening/,
    );
    children.push(bare.child);
    const reports = path.join(dir, 'reports');
    const proxy = await start(
      [
        'bin/workflow-conformance.mjs',
        'proxy',
        '--upstream',
        routerUrl,
        '--surface',
        'router',
        '--port',
        String(base + 6),
        '--quiet',
        '--reports',
        reports,
      ],
      /point your client at/,
    );
    children.push(proxy.child);
    const bareProxy = await start(
      [
        'bin/workflow-conformance.mjs',
        'proxy',
        '--upstream',
        `http://127.0.0.1:${base + 5}`,
        '--surface',
        'router',
        '--port',
        String(base + 7),
        '--quiet',
        '--reports',
        path.join(dir, 'reports-bare'),
      ],
      /point your client at/,
    );
    children.push(bareProxy.child);
    const poll = await measure(
      'reference router status poll (judged)',
      `${routerUrl}${statusPath}`,
      `http://127.0.0.1:${base + 6}${statusPath}`,
      headers,
      0,
      perBlock,
      blocks,
    );
    const sixty = await measure(
      'bare node:http, 60 KiB body (forwarded)',
      `http://127.0.0.1:${base + 5}/status`,
      `http://127.0.0.1:${base + 7}/status`,
      {},
      big.length,
      perBlock,
      blocks,
    );
    proxy.child.kill('SIGINT');
    await exited(proxy.child);
    const report = JSON.parse(readFileSync(path.join(reports, 'conformance.json'), 'utf8')) as {
      passive?: { latency?: ProxyBench['own']; rules?: Array<{ broken: number }> };
    };
    return { figures: [poll, sixty], ...(report.passive?.latency ? { own: report.passive.latency } : {}) };
  } finally {
    for (const c of children) if (c.exitCode === null) c.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  }
}

export function printProxyBench(b: ProxyBench): void {
  for (const f of b.figures) {
    console.log(
      `  ${f.label}: direct p50 ${f.direct.p50} ms p99 ${f.direct.p99} ms; through the proxy p50 ` +
        `${f.proxied.p50} ms p99 ${f.proxied.p99} ms; added p50 ${f.added.p50} ms, p99 ` +
        `${f.added.p99} ms`,
    );
  }
  if (b.own)
    console.log(
      `  the proxy's own measure (holding time per exchange, ${b.own.samples} exchanges): p50 ` +
        `${b.own.p50_ms} ms, p99 ${b.own.p99_ms} ms, max ${b.own.max_ms} ms`,
    );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { default: net } = await import('node:net');
  const free = (port: number) =>
    new Promise<boolean>((resolve) => {
      const s = net.createServer();
      s.once('error', () => resolve(false));
      s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
    });
  let base = 0;
  for (let i = 0; i < 100 && base === 0; i++) {
    const b = 20000 + Math.floor(Math.random() * 40000);
    if ((await Promise.all(Array.from({ length: 8 }, (_, k) => free(b + k)))).every(Boolean)) base = b;
  }
  const result = await benchProxy(base);
  printProxyBench(result);
  console.log(`proxy-added-p99-ms=${result.figures[0].added.p99}`);
}
