// Free loopback port ranges, so parallel reference servers never collide.
import { readFileSync } from 'node:fs';
import net from 'node:net';
import { startReference, type ReferenceOptions, type RunningReference } from '../../reference/server.ts';

function free(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

const handedOut = new Set<number>();

/**
 * The first port the kernel hands out for outgoing connections (Linux: 32768 unless set
 * otherwise). Ranges are picked below it: a port found free there can be taken by any
 * concurrent test's outgoing connection before the reference listens on it.
 */
function ephemeralStart(): number {
  try {
    const low = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    if (Number.isInteger(low) && low > 22000) return low;
  } catch {
    // not Linux: the IANA dynamic range starts at 49152, and Linux's default at 32768
  }
  return 32768;
}
const LOW = 20000;
const HIGH = ephemeralStart();

/** A base port whose next `count` ports are free now (and not handed out by this process before). */
export async function freePortBase(count = 5): Promise<number> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const base = LOW + Math.floor(Math.random() * (HIGH - LOW - count));
    const range = Array.from({ length: count }, (_, i) => base + i);
    if (range.some((p) => handedOut.has(p))) continue;
    const ok = await Promise.all(range.map(free));
    if (ok.every(Boolean)) {
      range.forEach((p) => handedOut.add(p));
      return base;
    }
  }
  throw new Error('no free loopback port range found');
}

/**
 * Starts an embedded reference on a free port range, trying another range when one of
 * its ports was taken in between (another test file's reference, or an outgoing
 * connection): a range found free is only free until someone binds it.
 */
export async function startOnFreePorts(
  opts: Omit<ReferenceOptions, 'portBase'> & { portBase?: number },
  attempts = 8,
): Promise<RunningReference> {
  let portBase = opts.portBase ?? (await freePortBase());
  for (let attempt = 1; ; attempt++) {
    try {
      return await startReference({ ...opts, portBase });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE' || attempt >= attempts) throw err;
      portBase = await freePortBase();
    }
  }
}
