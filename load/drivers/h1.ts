// A lean HTTP/1.1 client for the open model on plain-http origins. undici spends about twice
// wrk's CPU on each request (its request objects, header checks, parser and timers); on a
// two-core machine that CPU is taken from the server under test, and the open model then
// holds a lower rate than the server could answer. This client writes a request head built
// once per path, reads the answer's framing (Content-Length, chunked, or to the close) and
// hands the driver the status, the raw header block (parsed only for callers that read
// headers) and the body. One request at a time per connection, connections kept alive.
// https origins, and anything it does not speak, stay with undici (load/drivers/open.ts).
import net from 'node:net';

/** What the driver's exchange is told: the same steps undici's dispatch handlers get. */
export interface H1Handler {
  /** `head` is the header block: every line after the status line, CRLF-separated. */
  onHeaders(status: number, head: Buffer): boolean;
  onData(chunk: Buffer): boolean;
  onComplete(): void;
  onError(err: Error): void;
}

export interface H1Options {
  /** Connections at the most; one request at a time on each. */
  connections: number;
  /** A request's limit from its send to its complete answer, and a connection's to connect. */
  timeoutMs: number;
  connectTimeoutMs: number;
  method: string;
  headers: Record<string, string>;
}

const CRLFCRLF = Buffer.from('\r\n\r\n');
/** A head this long without its end is not an HTTP answer this client will wait for. */
const MAX_HEAD_BYTES = 64 * 1024;
/** A connection is not used again closer than this to the end of the server's keep-alive timeout. */
const IDLE_MARGIN_MS = 1000;
/** Request heads kept per path; past it a head is built for each send. */
const HEAD_CACHE = 1024;

type Framing = { kind: 'length'; left: number } | { kind: 'chunked' } | { kind: 'close' };

/** One connection: idle, or carrying one request from its write to its complete answer. */
class Connection {
  readonly socket: net.Socket;
  connected = false;
  handler: H1Handler | undefined;
  /** When the current request was written, or when the connection was opened (performance.now()). */
  since: number;
  private pending: Buffer | undefined;
  private framing: Framing | undefined;
  private keepAlive = true;
  /** How long the connection may sit idle after its last answer and still be used (the server's Keep-Alive hint). */
  idleFor = Infinity;
  /** When its last answer completed (performance.now()). */
  idleSince = 0;
  /** Where a chunked body stands: a size line, `chunkLeft` bytes of data, their CRLF, or the trailers. */
  private chunkState: 'size' | 'data' | 'end' | 'trailers' = 'size';
  private chunkLeft = 0;
  private dead = false;

  constructor(
    readonly pool: H1Pool,
    host: string,
    port: number,
  ) {
    this.since = performance.now();
    this.socket = net.connect({ host, port, noDelay: true });
    this.socket.on('connect', () => {
      this.connected = true;
      pool.ready(this);
    });
    this.socket.on('data', (d: Buffer) => this.read(d));
    this.socket.on('error', (err) => this.fail(err));
    this.socket.on('close', () => {
      if (this.framing?.kind === 'close' && this.handler) this.complete();
      else this.fail(new Error('the server closed the connection before the answer was complete'));
    });
  }

  send(data: Buffer | string): void {
    this.since = performance.now();
    this.pending = undefined;
    this.framing = undefined;
    this.keepAlive = true;
    this.chunkState = 'size';
    this.socket.write(data);
  }

  /** Ends the connection; the request on it, if any, fails with `err`. */
  fail(err: Error): void {
    if (this.dead) return;
    this.dead = true;
    const h = this.handler;
    this.handler = undefined;
    this.socket.destroy();
    this.pool.lost(this, h !== undefined, err);
    h?.onError(err);
  }

  private complete(): void {
    this.idleSince = performance.now();
    const h = this.handler!;
    this.handler = undefined;
    this.framing = undefined;
    if (this.keepAlive) this.pool.ready(this);
    else {
      this.dead = true;
      this.socket.destroy();
      this.pool.lost(this, false, undefined);
    }
    h.onComplete();
  }

  private read(d: Buffer): void {
    if (!this.handler) return; // nothing asked: bytes the server should not have sent
    let buf = this.pending ? Buffer.concat([this.pending, d]) : d;
    this.pending = undefined;
    while (this.handler) {
      if (!this.framing) {
        const end = buf.indexOf(CRLFCRLF);
        if (end < 0) {
          if (buf.length > MAX_HEAD_BYTES)
            return this.fail(new Error(`no end of the answer's head in ${MAX_HEAD_BYTES} bytes`));
          this.pending = buf;
          return;
        }
        if (!this.head(buf, end)) return;
        buf = buf.subarray(end + 4);
        continue;
      }
      const f = this.framing;
      if (f.kind === 'close') {
        if (buf.length > 0) this.handler.onData(buf);
        return;
      }
      if (f.kind === 'length') {
        const take = Math.min(f.left, buf.length);
        if (take > 0) this.handler.onData(buf.subarray(0, take));
        f.left -= take;
        // Bytes past the answer were not asked for (one request at a time): they are dropped.
        if (f.left === 0) this.complete();
        return;
      }
      const rest = this.chunk(buf);
      if (rest === undefined) return;
      buf = rest;
    }
  }

  /** Reads the status line and framing headers; false when the connection was failed or the answer is done. */
  private head(buf: Buffer, end: number): boolean {
    const lineEnd = buf.indexOf('\r\n');
    const statusLine = buf.toString('latin1', 0, lineEnd);
    const m = /^HTTP\/1\.[01] (\d{3})/.exec(statusLine);
    if (!m) {
      this.fail(new Error(`not an HTTP/1.1 answer: ${JSON.stringify(statusLine.slice(0, 80))}`));
      return false;
    }
    const status = Number(m[1]);
    const block = buf.subarray(lineEnd + 2, end + 2);
    if (status >= 100 && status < 200) return true; // an interim answer: the real one follows
    const lower = block.toString('latin1').toLowerCase();
    const value = (name: string): string | undefined => {
      const at = lower.startsWith(`${name}:`) ? 0 : lower.indexOf(`\r\n${name}:`);
      if (at < 0) return undefined;
      const from = at + (at === 0 ? 0 : 2) + name.length + 1;
      const to = lower.indexOf('\r\n', from);
      return lower.slice(from, to < 0 ? undefined : to).trim();
    };
    if (/(^|,)\s*close\s*(,|$)/.test(value('connection') ?? '') || statusLine.startsWith('HTTP/1.0'))
      this.keepAlive = false;
    // `Keep-Alive: timeout=N`: the server closes the connection after N idle seconds. It is not
    // used again within a second of that, so a request never races the server's close.
    const idleS = /(?:^|,)\s*timeout=(\d+)/.exec(value('keep-alive') ?? '')?.[1];
    this.idleFor = idleS === undefined ? Infinity : Number(idleS) * 1000 - IDLE_MARGIN_MS;
    this.handler!.onHeaders(status, block);
    const te = value('transfer-encoding');
    const cl = value('content-length');
    if (status === 204 || status === 304) this.framing = { kind: 'length', left: 0 };
    else if (te !== undefined && /chunked\s*$/.test(te)) this.framing = { kind: 'chunked' };
    else if (cl !== undefined && /^\d+$/.test(cl)) this.framing = { kind: 'length', left: Number(cl) };
    else if (cl !== undefined) {
      this.fail(new Error(`an unreadable Content-Length: ${JSON.stringify(cl)}`));
      return false;
    } else {
      this.framing = { kind: 'close' };
      this.keepAlive = false;
    }
    if (this.framing.kind === 'length' && this.framing.left === 0) {
      this.complete();
      return false;
    }
    return true;
  }

  /** Reads what it can of a chunked body; the rest of the buffer, or undefined when it waits for more or is done. */
  private chunk(buf: Buffer): Buffer | undefined {
    for (;;) {
      if (this.chunkState === 'size' || this.chunkState === 'trailers') {
        const eol = buf.indexOf('\r\n');
        if (eol < 0) return this.wait(buf);
        const line = buf.toString('latin1', 0, eol);
        buf = buf.subarray(eol + 2);
        if (this.chunkState === 'trailers') {
          // Trailer lines, if any, end with an empty one.
          if (eol === 0) return void this.complete();
          continue;
        }
        const size = line.split(';')[0].trim();
        if (!/^[0-9a-fA-F]{1,12}$/.test(size))
          return void this.fail(new Error(`an unreadable chunk size: ${JSON.stringify(line.slice(0, 40))}`));
        this.chunkLeft = parseInt(size, 16);
        this.chunkState = this.chunkLeft === 0 ? 'trailers' : 'data';
        continue;
      }
      if (this.chunkState === 'data') {
        const take = Math.min(this.chunkLeft, buf.length);
        if (take > 0) this.handler!.onData(buf.subarray(0, take));
        this.chunkLeft -= take;
        buf = buf.subarray(take);
        if (this.chunkLeft > 0) return undefined;
        this.chunkState = 'end';
        continue;
      }
      // The CRLF after a chunk's data.
      if (buf.length < 2) return this.wait(buf);
      if (buf[0] !== 13 || buf[1] !== 10) return void this.fail(new Error('a chunk not followed by CRLF'));
      buf = buf.subarray(2);
      this.chunkState = 'size';
    }
  }

  private wait(buf: Buffer): undefined {
    this.pending = buf.length > 0 ? buf : undefined;
    return undefined;
  }
}

/** Up to `connections` kept-alive connections to one http origin, each carrying one request at a time. */
export class H1Pool {
  private readonly host: string;
  private readonly port: number;
  private readonly idle: Connection[] = [];
  private readonly connecting = new Set<Connection>();
  private readonly busy = new Set<Connection>();
  /** Requests that found no idle connection, oldest first. */
  private readonly queue: Array<{ data: Buffer | string; handler: H1Handler }> = [];
  private readonly heads = new Map<string, Buffer>();
  private readonly fixed: string;
  private readonly sweep: NodeJS.Timeout;
  private closed = false;

  constructor(
    origin: string,
    private readonly o: H1Options,
  ) {
    const u = new URL(origin);
    if (u.protocol !== 'http:') throw new Error(`H1Pool speaks plain http only, not ${u.protocol}`);
    this.host = u.hostname.replace(/^\[|\]$/g, '');
    this.port = Number(u.port || 80);
    const lines = Object.entries(o.headers)
      .filter(([k]) => !/^(host|content-length|connection|transfer-encoding)$/i.test(k))
      .map(([k, v]) => `${k}: ${v}\r\n`);
    this.fixed = `host: ${u.host}\r\n${lines.join('')}`;
    // One timer for every bound: a request past its limit, a connection that never connects.
    this.sweep = setInterval(() => this.expire(), Math.max(10, Math.min(250, o.timeoutMs / 4)));
    this.sweep.unref();
  }

  private encode(path: string, body: string | undefined): Buffer | string {
    if (body === undefined) {
      let head = this.heads.get(path);
      if (!head) {
        const length = this.o.method === 'POST' || this.o.method === 'PUT' ? 'content-length: 0\r\n' : '';
        head = Buffer.from(`${this.o.method} ${path} HTTP/1.1\r\n${this.fixed}${length}\r\n`, 'latin1');
        if (this.heads.size < HEAD_CACHE) this.heads.set(path, head);
      }
      return head;
    }
    return `${this.o.method} ${path} HTTP/1.1\r\n${this.fixed}content-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
  }

  dispatch(path: string, body: string | undefined, handler: H1Handler): void {
    if (this.closed) return handler.onError(new Error('the pool is closed'));
    const data = this.encode(path, body);
    let c = this.idle.pop();
    // One idle past the server's hint may be closed as it is sent on: it is closed here instead.
    while (c && performance.now() - c.idleSince > c.idleFor) {
      c.fail(new Error('idle past the server keep-alive timeout'));
      c = this.idle.pop();
    }
    if (c) return this.start(c, data, handler);
    this.queue.push({ data, handler });
    if (this.idle.length + this.connecting.size + this.busy.size < this.o.connections) this.open();
  }

  private open(): void {
    this.connecting.add(new Connection(this, this.host, this.port));
  }

  private start(c: Connection, data: Buffer | string, handler: H1Handler): void {
    c.handler = handler;
    this.busy.add(c);
    c.send(data);
  }

  /** A connection is free: it takes the oldest waiting request, or waits idle. */
  ready(c: Connection): void {
    this.connecting.delete(c);
    this.busy.delete(c);
    if (this.closed) return void c.socket.destroy();
    const next = this.queue.shift();
    if (next) this.start(c, next.data, next.handler);
    else this.idle.push(c);
  }

  /** A connection is gone. One that failed before connecting takes the oldest waiting request with it (its error is that request's). */
  lost(c: Connection, hadRequest: boolean, err: Error | undefined): void {
    const wasConnecting = this.connecting.delete(c);
    this.busy.delete(c);
    const i = this.idle.indexOf(c);
    if (i >= 0) this.idle.splice(i, 1);
    if (this.closed) return;
    if (wasConnecting && !hadRequest && !c.connected) {
      const first = this.queue.shift();
      const why = `could not connect to ${this.host}:${this.port}: ${err?.message ?? 'closed'}`;
      if (first) queueMicrotask(() => first.handler.onError(new Error(why)));
    }
    if (this.queue.length > this.connecting.size) this.open();
  }

  private expire(): void {
    const now = performance.now();
    for (const c of this.busy)
      if (now - c.since > this.o.timeoutMs) c.fail(new Error(`no complete answer within ${this.o.timeoutMs} ms`));
    for (const c of this.connecting)
      if (now - c.since > this.o.connectTimeoutMs)
        c.fail(new Error(`no connection within ${this.o.connectTimeoutMs} ms`));
  }

  async destroy(): Promise<void> {
    this.closed = true;
    clearInterval(this.sweep);
    for (const c of [...this.idle, ...this.connecting, ...this.busy]) c.fail(new Error('the pool is closed'));
    for (const q of this.queue.splice(0)) q.handler.onError(new Error('the pool is closed'));
  }
}
