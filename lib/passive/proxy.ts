// The validating proxy: a loopback-only reverse proxy that passes every request and answer
// unchanged (bodies streamed as they arrive, event streams included; WebSocket upgrades and
// every frame both ways), keeps a copy of each exchange, and hands it to the passive judge
// once it has passed, so judging never delays traffic and a finding never fails a request.
// Only the Host header names the upstream, as any reverse proxy sends it.
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import https from 'node:https';
import type { Duplex } from 'node:stream';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { FrameReader } from './ws-frames.ts';
import { LatencyLog } from './latency.ts';
import { lowerHeaders, type Observed, type ObservedWsMessage } from './observed.ts';

export interface ProxyOptions {
  /** The server's base URL; requests keep their path, under its path. */
  upstream: string;
  /** Loopback port to listen on (0: any free one). */
  port: number;
  /** The most of each body kept for judging (the rest still passes; the exchange is judged as cut). */
  keepBytes?: number;
  /** An exchange has passed (a WebSocket: its upgrade, once accepted or refused). */
  onExchange(ex: Observed): void;
  /** A WebSocket message passed. */
  onWsMessage(ex: Observed, m: ObservedWsMessage): void;
  /** A WebSocket connection ended. */
  onWsClose(ex: Observed): void;
}

export interface RunningProxy {
  url: string;
  latency: LatencyLog;
  close(): Promise<void>;
}

const DEFAULT_KEEP = 16 * 1024 * 1024;
const LOOPBACK = '127.0.0.1';
const ms = (from: bigint, to: bigint): number => Number(to - from) / 1e6;

/** Keeps the first `limit` bytes of what passes. */
class Copy {
  private chunks: Buffer[] = [];
  private size = 0;
  truncated = false;
  constructor(private readonly limit: number) {}
  add(chunk: Buffer): void {
    if (this.size >= this.limit) {
      this.truncated = true;
      return;
    }
    const room = this.limit - this.size;
    const kept = chunk.length > room ? chunk.subarray(0, room) : chunk;
    if (kept !== chunk) this.truncated = true;
    this.chunks.push(kept);
    this.size += kept.length;
  }
  get buffer(): Buffer {
    return this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks);
  }
}

/**
 * The body as judged and recorded: decoded from its Content-Encoding (a HAR keeps decoded
 * bodies too; the client got the bytes as sent). Undefined when it cannot be decoded (an
 * encoding not known here, or a body cut short): then it is not judged by its body.
 */
function decoded(body: Buffer, encoding: string | undefined): Buffer | undefined {
  const coding = (encoding ?? '').trim().toLowerCase();
  if (coding === '' || coding === 'identity' || body.length === 0) return body;
  try {
    if (coding === 'gzip' || coding === 'x-gzip') return gunzipSync(body);
    if (coding === 'deflate') return inflateSync(body);
    if (coding === 'br') return brotliDecompressSync(body);
  } catch {
    return undefined;
  }
  return undefined;
}

/** Header names and values as the peer sent them, Host named for the upstream. */
function forwardHeaders(raw: string[], host: string): string[] {
  const out: string[] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) {
    if (raw[i].toLowerCase() === 'host') out.push(raw[i], host);
    else out.push(raw[i], raw[i + 1]);
  }
  if (!out.some((v, i) => i % 2 === 0 && v.toLowerCase() === 'host')) out.push('Host', host);
  return out;
}

function pairs(raw: string[]): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (let i = 0; i + 1 < raw.length; i += 2) out.push([raw[i], raw[i + 1]]);
  return out;
}

export function startProxy(opts: ProxyOptions): Promise<RunningProxy> {
  const upstream = new URL(opts.upstream);
  const basePath = upstream.pathname.replace(/\/+$/, '');
  const secure = upstream.protocol === 'https:';
  const transport = secure ? https : http;
  const agent = new transport.Agent({ keepAlive: true, maxSockets: 256 });
  const keep = opts.keepBytes ?? DEFAULT_KEEP;
  const latency = new LatencyLog();
  let seq = 0;
  const sockets = new Set<Duplex>();

  const target = (path: string): string => `${upstream.origin}${basePath}${path}`;
  const requestOptions = (req: IncomingMessage): http.RequestOptions => ({
    protocol: upstream.protocol,
    hostname: upstream.hostname,
    port: upstream.port || (secure ? 443 : 80),
    method: req.method,
    path: `${basePath}${req.url ?? '/'}`,
    headers: forwardHeaders(req.rawHeaders, upstream.host),
    ...(secure ? { servername: upstream.hostname } : {}),
  });

  const onRequest = (req: IncomingMessage, res: ServerResponse): void => {
    const t0 = process.hrtime.bigint();
    const ex: Observed = {
      seq: ++seq,
      started: Date.now(),
      method: req.method ?? 'GET',
      url: target(req.url ?? '/'),
      requestHeaders: lowerHeaders(pairs(req.rawHeaders)),
    };
    const requestCopy = new Copy(keep);
    const responseCopy = new Copy(keep);
    let finished = false;
    const done = (): void => {
      if (finished) return;
      finished = true;
      if (requestCopy.buffer.length > 0) ex.requestBody = requestCopy.buffer;
      if (ex.response) ex.response.elapsedMs = ms(t0, process.hrtime.bigint());
      // Decoded and judged after the answer passed: never on the path of the traffic.
      setImmediate(() => {
        if (ex.response) {
          const body = responseCopy.truncated
            ? undefined
            : decoded(responseCopy.buffer, ex.response.headers['content-encoding']);
          ex.response.body = body ?? responseCopy.buffer;
          ex.response.truncated = responseCopy.truncated || body === undefined;
          if (ex.response.truncated) ex.cut ??= 'size';
        }
        opts.onExchange(ex);
      });
    };
    const up = transport.request({ ...requestOptions(req), agent });
    const tSent = process.hrtime.bigint();
    up.on('response', (upRes) => {
      const tHead = process.hrtime.bigint();
      ex.response = {
        status: upRes.statusCode ?? 0,
        headers: lowerHeaders(pairs(upRes.rawHeaders)),
        body: Buffer.alloc(0),
        truncated: false,
        elapsedMs: 0,
      };
      res.writeHead(
        upRes.statusCode ?? 502,
        upRes.statusMessage,
        upRes.rawHeaders as unknown as http.OutgoingHttpHeaders,
      );
      res.flushHeaders();
      latency.add(ms(t0, tSent) + ms(tHead, process.hrtime.bigint()));
      upRes.on('data', (chunk: Buffer) => responseCopy.add(chunk));
      upRes.pipe(res);
      upRes.on('end', done);
      upRes.on('error', (err) => {
        ex.error = `the upstream's answer broke off: ${err.message}`;
        ex.cut ??= 'reader';
        res.destroy();
        done();
      });
    });
    up.on('error', (err) => {
      ex.error = `the upstream could not be reached: ${err.message}`;
      if (!res.headersSent) {
        res.writeHead(502, { 'content-type': 'text/plain; charset=utf-8' });
        res.end(`workflow-conformance proxy: ${ex.error}\n`);
      } else res.destroy();
      done();
    });
    // The client went away before the answer ended (a reader that had what it needed).
    res.on('close', () => {
      if (!res.writableFinished) {
        ex.cut ??= 'reader';
        up.destroy();
        done();
      }
    });
    req.on('data', (chunk: Buffer) => requestCopy.add(chunk));
    req.pipe(up);
  };

  const onUpgrade = (req: IncomingMessage, client: Duplex, head: Buffer): void => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    const ex: Observed = {
      seq: ++seq,
      started: Date.now(),
      method: req.method ?? 'GET',
      url: target(req.url ?? '/'),
      requestHeaders: lowerHeaders(pairs(req.rawHeaders)),
      ws: { messages: [] },
    };
    const up = transport.request({ ...requestOptions(req) });
    up.on('upgrade', (upRes, upSocket, upHead) => {
      sockets.add(upSocket);
      ex.response = {
        status: 101,
        headers: lowerHeaders(pairs(upRes.rawHeaders)),
        body: Buffer.alloc(0),
        truncated: false,
        elapsedMs: Date.now() - ex.started,
      };
      const lines = [
        `HTTP/1.1 101 ${upRes.statusMessage ?? 'Switching Protocols'}`,
        ...pairs(upRes.rawHeaders).map(([k, v]) => `${k}: ${v}`),
      ];
      client.write(`${lines.join('\r\n')}\r\n\r\n`);
      opts.onExchange(ex);
      const fromServer = new FrameReader();
      const fromClient = new FrameReader();
      const tap = (reader: FrameReader, dir: ObservedWsMessage['dir']) => (chunk: Buffer) => {
        for (const m of reader.push(chunk)) {
          const message: ObservedWsMessage = { dir, at: Date.now(), binary: m.binary, data: m.data };
          ex.ws!.messages.push(message);
          opts.onWsMessage(ex, message);
        }
        if (reader.unreadable && ex.ws && !ex.ws.note) ex.ws.note = `not judged: ${reader.unreadable}`;
      };
      if (upHead.length > 0) {
        client.write(upHead);
        tap(fromServer, 'receive')(upHead);
      }
      if (head.length > 0) {
        upSocket.write(head);
        tap(fromClient, 'send')(head);
      }
      upSocket.on('data', tap(fromServer, 'receive'));
      client.on('data', tap(fromClient, 'send'));
      upSocket.pipe(client);
      client.pipe(upSocket);
      let ended = false;
      const end = (): void => {
        if (ended) return;
        ended = true;
        ex.ws!.closedAt = Date.now();
        client.destroy();
        upSocket.destroy();
        setImmediate(() => opts.onWsClose(ex));
      };
      upSocket.on('close', end);
      client.on('close', end);
      upSocket.on('error', end);
      client.on('error', end);
    });
    // A refused upgrade: its answer passes as it came.
    up.on('response', (upRes) => {
      const lines = [
        `HTTP/1.1 ${upRes.statusCode} ${upRes.statusMessage ?? ''}`,
        ...pairs(upRes.rawHeaders).map(([k, v]) => `${k}: ${v}`),
      ];
      client.write(`${lines.join('\r\n')}\r\n\r\n`);
      const copy = new Copy(keep);
      upRes.on('data', (c: Buffer) => {
        copy.add(c);
        client.write(c);
      });
      upRes.on('end', () => {
        client.end();
        ex.response = {
          status: upRes.statusCode ?? 0,
          headers: lowerHeaders(pairs(upRes.rawHeaders)),
          body: copy.buffer,
          truncated: copy.truncated,
          elapsedMs: Date.now() - ex.started,
        };
        opts.onExchange(ex);
        opts.onWsClose(ex);
      });
    });
    up.on('error', (err) => {
      ex.error = `the upstream could not be reached: ${err.message}`;
      client.destroy();
      opts.onExchange(ex);
    });
    client.on('error', () => up.destroy());
    up.end();
  };

  const server = http.createServer({ noDelay: true, keepAliveTimeout: 65_000 }, onRequest);
  server.on('upgrade', onUpgrade);
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, LOOPBACK, () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : opts.port;
      resolve({
        url: `http://${LOOPBACK}:${port}`,
        latency,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            for (const s of sockets) s.destroy();
            agent.destroy();
          }),
      });
    });
  });
}
