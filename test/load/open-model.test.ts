// The open-model runner measures what users feel: against a server that stalls, the
// corrected percentiles show the stall and the uncorrected ones (what a closed loop
// reports) hide it; and the spacing of arrivals is measured and stays near the schedule.
// Servers are in this process on loopback; each run lasts a few seconds.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { driveOpen } from '../../load/drivers/open.ts';
import { schedule } from '../../load/drivers/schedule.ts';
import { summarizeHdr } from '../../load/hdr.ts';

async function listen(server: http.Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const close = (server: http.Server): Promise<void> => {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
};

test('evenly spaced arrivals are exact; Poisson arrivals have the requested mean and replay from their seed', () => {
  const even = schedule('constant', 250);
  const times = Array.from({ length: 1000 }, () => even.next());
  assert.equal(times.filter((t) => t >= 1000 && t < 3000).length, 500, '2 s at 250/s is 500 arrivals');
  assert.equal(times[1] - times[0], 4);
  const a = schedule('poisson', 100, 7);
  const b = schedule('poisson', 100, 7);
  const pa = Array.from({ length: 5000 }, () => a.next());
  assert.deepEqual(
    pa.slice(0, 50),
    Array.from({ length: 50 }, () => b.next()),
    'same seed, same arrivals',
  );
  const meanGap = pa[pa.length - 1] / (pa.length - 1);
  assert.ok(Math.abs(meanGap - 10) < 0.6, `mean gap ${meanGap} ms, expected about 10`);
});

test('coordinated omission: against a server that stalls 1 s every 2.5 s, corrected p99 shows the stall and uncorrected p99 hides it', async () => {
  const started = performance.now();
  let releaseAt = 0;
  const held: Array<() => void> = [];
  const server = http.createServer((_req, res) => {
    const answer = (): void => void res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    const t = (performance.now() - started) % 2500;
    // Stalled from 1.0 s to 2.0 s of every 2.5 s: everything that arrives then waits for its end.
    if (t >= 1000 && t < 2000) {
      releaseAt = performance.now() + (2000 - t);
      held.push(answer);
    } else answer();
  });
  const release = setInterval(() => {
    if (held.length && performance.now() >= releaseAt) held.splice(0).forEach((f) => f());
  }, 5);
  const origin = await listen(server);
  try {
    const r = await driveOpen({
      origin,
      rate: 300,
      connections: 2,
      warmupS: 0.5,
      durationS: 5,
      arrival: 'constant',
      timeoutMs: 5000,
      method: 'GET',
      headers: {},
      next: () => ({ path: '/' }),
      keepBodies: false,
    });
    const corrected = summarizeHdr(r.corrected);
    const uncorrected = summarizeHdr(r.uncorrected);
    const c = r.counts;
    const figures =
      `corrected p50 ${corrected.p50} p99 ${corrected.p99}; uncorrected p50 ${uncorrected.p50} ` +
      `p99 ${uncorrected.p99} max ${uncorrected.max}; late ${c.late}/${c.scheduled}`;
    console.log(`# coordinated omission: ${figures}`);
    assert.equal(c.scheduled, 1500, 'every arrival of the schedule is counted');
    assert.equal(c.answered + c.failed + c.dropped + c.unfinished, c.scheduled, 'no arrival is skipped silently');
    assert.equal(c.dropped, 0);
    // The stall covers about 40 % of the time, so p99 of what users felt is most of a second.
    assert.ok(corrected.p99 > 500, `corrected p99 shows the stall: ${figures}`);
    // Only the few requests in flight when a stall began waited on their connection.
    assert.ok(uncorrected.p99 < 200, `uncorrected p99 hides it: ${figures}`);
    assert.ok(corrected.p99 > 5 * uncorrected.p99, figures);
    assert.ok(uncorrected.max > 500, `the stall is only in the uncorrected maximum: ${figures}`);
    assert.ok(c.late / c.scheduled > 0.1, `arrivals during the stall were late: ${figures}`);
  } finally {
    clearInterval(release);
    held.splice(0).forEach((f) => f());
    await close(server);
  }
});

test('arrival spacing at 1000 req/s against bare node:http is measured, and its p99 is small', async () => {
  const server = http.createServer((_req, res) =>
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"COMPLETED"}'),
  );
  const origin = await listen(server);
  // The driver cannot start requests more precisely than its event loop runs; on a shared
  // CI machine that loop may itself be held up, so the bound is read against its delay.
  const loop = monitorEventLoopDelay({ resolution: 1 });
  try {
    loop.enable();
    const cpu0 = process.cpuUsage();
    const wall0 = performance.now();
    const r = await driveOpen({
      origin,
      rate: 1000,
      connections: 16,
      warmupS: 0.5,
      durationS: 2,
      arrival: 'constant',
      timeoutMs: 5000,
      method: 'GET',
      headers: { accept: 'application/json' },
      next: () => ({ path: '/status' }),
      keepBodies: false,
    });
    loop.disable();
    const cpu = process.cpuUsage(cpu0);
    // At 1000 req/s the driver's loop spins between arrivals and would take a whole core
    // if it could; the share it got says whether the machine let it keep the schedule.
    const coreShare = (cpu.user + cpu.system) / 1000 / (performance.now() - wall0);
    const spacing = summarizeHdr(r.spacing);
    const loopP99 = loop.percentile(99) / 1e6;
    console.log(
      `# arrival spacing at 1000 req/s: p50 ${spacing.p50} ms, p99 ${spacing.p99} ms, max ` +
        `${spacing.max} ms; late ${r.counts.late}; event-loop delay p99 ${loopP99.toFixed(2)} ms; ` +
        `${(100 * coreShare).toFixed(0)} % of a core`,
    );
    assert.equal(r.counts.scheduled, 2000);
    assert.equal(spacing.count, r.counts.sent, 'every sent request has its deviation from the schedule');
    assert.ok(Number.isFinite(spacing.p99) && spacing.p99 >= 0);
    // Loose on purpose: the bench prints the quiet-machine figure. Half a second behind at
    // p99 means the schedule was lost, which on a machine shared with other test runs
    // happens when this process hardly gets a core (seen at load averages of 20-30 on two
    // cores, where it got a tenth of one): the bound is judged only when it got half a core.
    if (coreShare >= 0.5)
      assert.ok(
        spacing.p99 < 500 + 3 * loopP99,
        `spacing p99 ${spacing.p99} ms with the event loop delayed ${loopP99.toFixed(2)} ms at p99`,
      );
    else
      console.log(
        `# spacing bound not judged: the machine gave this process ${(100 * coreShare).toFixed(0)} % of a core`,
      );
  } finally {
    loop.disable();
    await close(server);
  }
});
