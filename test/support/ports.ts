// Free loopback port ranges, so parallel reference servers never collide.
//
// A range found free is only free until someone binds it, and the project's tests run several
// files at once, each starting references (the self-test's host starts hundreds) and handing
// ranges to CLI runs that bind them later, often more than once. So a range is also claimed
// across processes: one file per port in a folder of the machine's temp dir, created
// exclusively and naming the claiming process; no other process hands out a claimed port while
// its claimer lives. A reference's claim ends when it closes; a range handed to a CLI run stays
// claimed until this process exits.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { startReference, type ReferenceOptions, type RunningReference } from '../../reference/server.ts';

const CLAIMS = path.join(os.tmpdir(), 'workflow-conformance-port-claims');
const mine = new Set<number>();

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Claims one port for this process: false when a live process holds it. */
function claimPort(port: number): boolean {
  const file = path.join(CLAIMS, String(port));
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(file, String(process.pid), { flag: 'wx' });
      mine.add(port);
      return true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const holder = Number(readFileSync(file, 'utf8').trim());
      // A claim left by a process that is gone (killed) is taken over.
      if (Number.isInteger(holder) && holder > 0 && alive(holder)) return false;
      rmSync(file, { force: true });
    }
  }
  return false;
}

function release(ports: readonly number[]): void {
  for (const port of ports) {
    if (!mine.delete(port)) continue;
    rmSync(path.join(CLAIMS, String(port)), { force: true });
  }
}

/** All of a range claimed, or none of it. */
export function claimRange(range: readonly number[]): boolean {
  mkdirSync(CLAIMS, { recursive: true });
  const got: number[] = [];
  for (const port of range) {
    if (!claimPort(port)) {
      release(got);
      return false;
    }
    got.push(port);
  }
  return true;
}

process.on('exit', () => release([...mine]));

function free(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

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

/** A base port whose next `count` ports are free now and claimed by this process (never handed out twice). */
export async function freePortBase(count = 5): Promise<number> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const base = LOW + Math.floor(Math.random() * (HIGH - LOW - count));
    const range = Array.from({ length: count }, (_, i) => base + i);
    if (range.some((p) => mine.has(p)) || !claimRange(range)) continue;
    const ok = await Promise.all(range.map(free));
    if (ok.every(Boolean)) return base;
    release(range);
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
      const ref = await startReference({ ...opts, portBase });
      const ports = Array.from({ length: 5 }, (_, i) => portBase + i);
      // Its range is free for others once it closed.
      return {
        ...ref,
        close: async () => {
          try {
            await ref.close();
          } finally {
            release(ports);
          }
        },
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE' || attempt >= attempts) throw err;
      release(Array.from({ length: 5 }, (_, i) => portBase + i));
      portBase = await freePortBase();
    }
  }
}
