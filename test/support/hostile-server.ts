// A deliberately broken HTTP server for the suite's own tests. The first path segment
// picks the behaviour and every path under it behaves the same, so
// `url('nonjson')` can serve as a whole target's base URL:
//
//   nonjson     200, Content-Type application/json, an HTML error page as the body
//   html        200 text/html to every request (a web site, not the API), like a misrouted proxy
//   badutf8     200, Content-Type application/json, invalid UTF-8 inside a JSON string
//   truncated   Content-Length 1000, 11 bytes sent, then the connection is closed
//   huge        200 JSON that never ends (until the client goes away)
//   hang        accepts the request and never sends the response headers
//   stall       sends headers and the start of the body, then nothing
//   reset       destroys the connection as soon as the request arrived (no headers)
//   midbody     chunked body, one chunk, then the connection is destroyed
//   loop        302 to itself (absolute URL), forever
//   apihang     answers its base path (so the reachability probe passes), hangs on every path below it
//
// Binds 127.0.0.1 on a free port. `hits` counts requests per behaviour.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export const BEHAVIOURS = [
  'nonjson',
  'html',
  'badutf8',
  'truncated',
  'huge',
  'hang',
  'stall',
  'reset',
  'midbody',
  'loop',
  'apihang',
] as const;
export type Behaviour = (typeof BEHAVIOURS)[number];

export interface HostileServer {
  origin: string;
  url(behaviour: Behaviour, rest?: string): string;
  hits: Map<string, number>;
  close(): Promise<void>;
}

const CHUNK = Buffer.alloc(64 * 1024, 0x20);

function handle(behaviour: string, req: http.IncomingMessage, res: http.ServerResponse): void {
  switch (behaviour) {
    case 'nonjson':
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('<html><body><h1>502 Bad Gateway</h1></body></html>');
      return;
    case 'html':
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end('<!doctype html><html><head><title>Welcome</title></head><body><h1>It works</h1></body></html>');
      return;
    case 'badutf8':
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(Buffer.concat([Buffer.from('{"id":"'), Buffer.from([0xc3, 0x28, 0xff, 0xfe]), Buffer.from('"}')]));
      return;
    case 'truncated':
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
      res.write('{"partial":');
      // A graceful close (FIN) with 989 promised bytes missing.
      setImmediate(() => res.socket?.end());
      return;
    case 'huge': {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"padding":"');
      let open = true;
      res.on('close', () => (open = false));
      const pump = (): void => {
        while (open && res.write(CHUNK));
        if (open) res.once('drain', pump);
      };
      pump();
      return;
    }
    case 'hang':
      return; // keep the socket open, answer nothing
    case 'stall':
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
      res.write('{"id":');
      return;
    case 'reset':
      req.socket.destroy();
      return;
    case 'midbody':
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"id":"');
      setImmediate(() => res.socket?.destroy());
      return;
    case 'apihang':
      if (/^\/apihang\/?(\?|$)/.test(req.url ?? '')) {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end('up');
      }
      return; // below the base: keep the socket open, answer nothing
    case 'loop':
      res.writeHead(302, { location: `http://${req.headers.host ?? '127.0.0.1'}${req.url ?? '/loop'}` });
      res.end();
      return;
    default:
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end(`unknown behaviour ${behaviour}; known: ${BEHAVIOURS.join(', ')}`);
  }
}

export async function startHostileServer(): Promise<HostileServer> {
  const hits = new Map<string, number>();
  const server = http.createServer((req, res) => {
    const behaviour = (req.url ?? '/').split(/[/?]/)[1] ?? '';
    hits.set(behaviour, (hits.get(behaviour) ?? 0) + 1);
    handle(behaviour, req, res);
  });
  // Broken clients are expected here; a reset socket must not take the server down.
  server.on('clientError', (_err, socket) => socket.destroy());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    url: (behaviour, rest = '') => `${origin}/${behaviour}${rest}`,
    hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
