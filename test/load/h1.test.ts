// The open model's lean HTTP/1.1 client (load/drivers/h1.ts) reads every framing a server
// may answer with, split anywhere across packets, keeps connections alive only when the
// answer allows it, and ends every request it cannot complete as an error, in bounded time.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { H1Pool, type H1Handler } from '../../load/drivers/h1.ts';
import { driveOpen } from '../../load/drivers/open.ts';

interface Outcome {
  status?: number;
  head?: string;
  body: string;
  error?: string;
}

function collect(): { handler: H1Handler; done: Promise<Outcome> } {
  const out: Outcome = { body: '' };
  let settle: (o: Outcome) => void = () => {};
  const done = new Promise<Outcome>((r) => (settle = r));
  return {
    done,
    handler: {
      onHeaders: (status, head) => ((out.status = status), (out.head = head.toString('latin1')), true),
      onData: (chunk) => ((out.body += chunk.toString('utf8')), true),
      onComplete: () => settle(out),
      onError: (err) => settle({ ...out, error: err.message }),
    },
  };
}

/** A raw TCP server: `answer` gets each request's text and writes what it likes (in pieces, with pauses). */
async function rawServer(
  answer: (request: string, socket: net.Socket) => void | Promise<void>,
): Promise<{ origin: string; connections: () => number; requests: string[]; close: () => Promise<void> }> {
  let connections = 0;
  const requests: string[] = [];
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    connections++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    let text = '';
    socket.on('data', (d) => {
      text += d.toString('latin1');
      const end = text.indexOf('\r\n\r\n');
      if (end < 0) return;
      const length = Number(/\r\ncontent-length: (\d+)/i.exec(text.slice(0, end))?.[1] ?? 0);
      if (text.length < end + 4 + length) return;
      const request = text.slice(0, end + 4 + length);
      text = text.slice(end + 4 + length);
      requests.push(request);
      void answer(request, socket);
    });
    socket.on('error', () => {});
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as net.AddressInfo).port;
  return {
    origin: `http://127.0.0.1:${port}`,
    connections: () => connections,
    requests,
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}

const pools: H1Pool[] = [];
const poolFor = (origin: string, extra: Partial<ConstructorParameters<typeof H1Pool>[1]> = {}): H1Pool => {
  const p = new H1Pool(origin, {
    connections: 2,
    timeoutMs: 2_000,
    connectTimeoutMs: 1_000,
    method: 'GET',
    headers: { accept: 'application/json' },
    ...extra,
  });
  pools.push(p);
  return p;
};
after(async () => {
  for (const p of pools) await p.destroy();
});

/** Writes `text` one piece at a time with a pause between, so the client reads it across packets. */
async function inPieces(socket: net.Socket, text: string, cuts: number[]): Promise<void> {
  let from = 0;
  for (const at of [...cuts, text.length]) {
    socket.write(text.slice(from, at));
    from = at;
    await delay(5);
  }
}

test('a Content-Length body split across packets arrives whole, and the connection carries the next request', async () => {
  const answer = 'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 11\r\n\r\n{"ok":true}';
  const srv = await rawServer((_req, s) => inPieces(s, answer, [3, 20, answer.length - 4]));
  try {
    const pool = poolFor(srv.origin, { connections: 1 });
    for (let i = 0; i < 3; i++) {
      const c = collect();
      pool.dispatch(`/x/${i}`, undefined, c.handler);
      const o = await c.done;
      assert.equal(o.error, undefined);
      assert.equal(o.status, 200);
      assert.equal(o.body, '{"ok":true}');
      assert.match(o.head!, /content-type: application\/json/);
    }
    assert.equal(srv.connections(), 1, 'one kept-alive connection served all three');
    assert.match(
      srv.requests[2],
      /^GET \/x\/2 HTTP\/1\.1\r\nhost: 127\.0\.0\.1:\d+\r\naccept: application\/json\r\n\r\n$/,
    );
  } finally {
    await srv.close();
  }
});

test('a chunked body (with an extension and trailers), cut inside sizes, data and CRLFs, is decoded', async () => {
  const answer =
    'HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n' +
    '5;ext=1\r\nhello\r\n1\r\n \r\nA\r\nworld12345\r\n0\r\nx-trailer: 1\r\n\r\n';
  for (const cuts of [[], [40, 41, 50], [46, 47, 48, 49, 55, 60, 61, 75], [answer.length - 1]]) {
    const srv = await rawServer((_req, s) => inPieces(s, answer, cuts));
    try {
      const c = collect();
      poolFor(srv.origin).dispatch('/', undefined, c.handler);
      const o = await c.done;
      assert.equal(o.error, undefined, `cut at ${cuts.join(',')}`);
      assert.equal(o.body, 'hello world12345', `cut at ${cuts.join(',')}`);
    } finally {
      await srv.close();
    }
  }
});

test('204, 304 and an interim 100 carry no body; the final answer after a 100 is the one given', async () => {
  const srv = await rawServer((req, s) => {
    if (req.startsWith('GET /204')) s.write('HTTP/1.1 204 No Content\r\nx-a: 1\r\n\r\n');
    else if (req.startsWith('GET /304')) s.write('HTTP/1.1 304 Not Modified\r\ncontent-length: 99\r\n\r\n');
    else s.write('HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 201 Created\r\ncontent-length: 2\r\n\r\nok');
  });
  try {
    const pool = poolFor(srv.origin, { connections: 1 });
    for (const [path, status, body] of [
      ['/204', 204, ''],
      ['/304', 304, ''],
      ['/100', 201, 'ok'],
      ['/204', 204, ''],
    ] as const) {
      const c = collect();
      pool.dispatch(path, undefined, c.handler);
      const o = await c.done;
      assert.deepEqual([o.error, o.status, o.body], [undefined, status, body], path);
    }
    assert.equal(srv.connections(), 1);
  } finally {
    await srv.close();
  }
});

test('an answer with Connection: close, or with no length (read to the close), is not reused', async () => {
  const srv = await rawServer((req, s) => {
    if (req.startsWith('GET /close')) s.end('HTTP/1.1 200 OK\r\nconnection: close\r\ncontent-length: 1\r\n\r\na');
    else s.end('HTTP/1.1 200 OK\r\n\r\nall of it');
  });
  try {
    const pool = poolFor(srv.origin, { connections: 1 });
    for (const [path, body] of [
      ['/close', 'a'],
      ['/eof', 'all of it'],
      ['/close', 'a'],
    ] as const) {
      const c = collect();
      pool.dispatch(path, undefined, c.handler);
      const o = await c.done;
      assert.deepEqual([o.error, o.body], [undefined, body], path);
    }
    assert.equal(srv.connections(), 3, 'each answer closed its connection; each request took a new one');
  } finally {
    await srv.close();
  }
});

test('a POST body is sent with its byte length, multi-byte characters included', async () => {
  const srv = await rawServer((_req, s) => void s.write('HTTP/1.1 201 Created\r\ncontent-length: 0\r\n\r\n'));
  try {
    const c = collect();
    poolFor(srv.origin, { method: 'POST' }).dispatch('/jobs', '{"prompt":"café"}', c.handler);
    assert.equal((await c.done).status, 201);
    // The server reads bytes as latin1: the body's bytes are the UTF-8 encoding, 18 of them.
    const sent = Buffer.from(srv.requests[0], 'latin1').toString('utf8');
    assert.match(sent, /^POST \/jobs HTTP\/1\.1\r\n[^]*content-length: 18\r\n\r\n\{"prompt":"café"\}$/);
  } finally {
    await srv.close();
  }
});

test('a reset mid-body, a garbage answer, a bad length, a stall and a refused connection each end as an error', async () => {
  const srv = await rawServer((req, s) => {
    if (req.startsWith('GET /reset')) {
      s.write('HTTP/1.1 200 OK\r\ncontent-length: 100\r\n\r\npartial');
      setTimeout(() => s.resetAndDestroy(), 10);
    } else if (req.startsWith('GET /garbage')) s.write('SSH-2.0-OpenSSH\r\n\r\n');
    else if (req.startsWith('GET /length')) s.write('HTTP/1.1 200 OK\r\ncontent-length: ten\r\n\r\n');
    // /stall: nothing, ever
  });
  try {
    const pool = poolFor(srv.origin, { connections: 4, timeoutMs: 300 });
    const cases = ['/reset', '/garbage', '/length', '/stall'].map((path) => {
      const c = collect();
      pool.dispatch(path, undefined, c.handler);
      return c.done.then((o) => [path, o] as const);
    });
    const started = performance.now();
    const outcomes = Object.fromEntries(await Promise.all(cases));
    assert.ok(performance.now() - started < 2_000, 'every request ended within its bound');
    assert.match(outcomes['/reset'].error ?? '', /closed the connection before the answer was complete|ECONNRESET/);
    assert.match(outcomes['/garbage'].error ?? '', /not an HTTP\/1\.1 answer/);
    assert.match(outcomes['/length'].error ?? '', /unreadable Content-Length/);
    assert.match(outcomes['/stall'].error ?? '', /no complete answer within 300 ms/);
  } finally {
    await srv.close();
  }
  // The server is gone now: its port refuses.
  const refused = collect();
  poolFor(srv.origin).dispatch('/', undefined, refused.handler);
  assert.match((await refused.done).error ?? '', /ECONNREFUSED|could not connect/);
});

test('requests beyond the connections wait their turn, and a closed pool fails what it still holds', async () => {
  const srv = await rawServer(async (_req, s) => {
    await delay(30);
    s.write('HTTP/1.1 200 OK\r\ncontent-length: 1\r\n\r\n.');
  });
  try {
    const pool = poolFor(srv.origin, { connections: 2 });
    const all = Array.from({ length: 6 }, (_, i) => {
      const c = collect();
      pool.dispatch(`/${i}`, undefined, c.handler);
      return c.done;
    });
    const outcomes = await Promise.all(all);
    assert.deepEqual(
      outcomes.map((o) => o.error ?? o.status),
      [200, 200, 200, 200, 200, 200],
    );
    assert.equal(srv.connections(), 2);
    const held = collect();
    pool.dispatch('/late', undefined, held.handler);
    await pool.destroy();
    assert.match((await held.done).error ?? '', /closed/);
  } finally {
    await srv.close();
  }
});

test('the open model hands onAnswer the headers of a lean-client answer, names lower-cased, repeats joined', async () => {
  const srv = await rawServer(
    (_req, s) =>
      void s.write('HTTP/1.1 200 OK\r\nX-Seen: a\r\nRetry-After: 3\r\nx-seen: b\r\ncontent-length: 2\r\n\r\nhi'),
  );
  try {
    const answers: Array<{ headers: Record<string, string>; body: string }> = [];
    await driveOpen({
      origin: srv.origin,
      rate: 20,
      connections: 2,
      warmupS: 0,
      durationS: 0.2,
      arrival: 'constant',
      timeoutMs: 2_000,
      method: 'GET',
      headers: {},
      next: () => ({ path: '/' }),
      keepBodies: true,
      onAnswer: (a) => answers.push({ headers: a.headers, body: a.body }),
    });
    assert.ok(answers.length > 0, 'answers arrived');
    assert.deepEqual(answers[0], {
      headers: { 'x-seen': 'a, b', 'retry-after': '3', 'content-length': '2' },
      body: 'hi',
    });
  } finally {
    await srv.close();
  }
});

test("a connection idle to within a second of the server's Keep-Alive timeout is not sent on again; one well inside it is", async () => {
  for (const [hint, idleMs, connections] of [
    [2, 1_100, 2],
    [5, 300, 1],
  ] as const) {
    const srv = await rawServer(
      (_req, s) => void s.write(`HTTP/1.1 200 OK\r\nkeep-alive: timeout=${hint}\r\ncontent-length: 1\r\n\r\n.`),
    );
    try {
      const pool = poolFor(srv.origin, { connections: 1 });
      for (let i = 0; i < 2; i++) {
        const c = collect();
        pool.dispatch('/', undefined, c.handler);
        const o = await c.done;
        assert.deepEqual([o.error, o.status], [undefined, 200], `request ${i + 1} with timeout=${hint}`);
        if (i === 0) await delay(idleMs);
      }
      assert.equal(srv.connections(), connections, `timeout=${hint}, idle ${idleMs} ms`);
    } finally {
      await srv.close();
    }
  }
});
