// Free loopback port ranges, so parallel reference servers never collide.
import net from 'node:net';

function free(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

const handedOut = new Set<number>();

/** A base port whose next `count` ports are free now (and not handed out by this process before). */
export async function freePortBase(count = 5): Promise<number> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const base = 20000 + Math.floor(Math.random() * 40000);
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
