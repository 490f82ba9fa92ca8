// The upgrade to WS /ws?clientId=&token=: the token's account, or the refusal; then each
// connection's feature_flags and its opening status message.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { WebSocketServer } from 'ws';
import type { Client, StreamKit } from './stream.ts';

/** What the server announces back, as the engine answers a client's feature_flags. */
const SERVER_FEATURES = { supports_preview_metadata: true };

function refuse(socket: Duplex, status: number, reason: string, message: string): void {
  const body = JSON.stringify({ code: status === 401 ? 'unauthorized' : 'not_found', message });
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/** The HTTP server's upgrade listener for the stream. */
export function upgrades(
  kit: StreamKit,
  wss: WebSocketServer,
): (request: IncomingMessage, socket: Duplex, head: Buffer) => void {
  const { ctx, policy, clients, queueRemaining, message } = kit;
  return (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = new URL(request.url ?? '/', 'http://reference.invalid');
    if (url.pathname !== '/ws') {
      refuse(socket, 404, 'Not Found', `no WebSocket endpoint at ${url.pathname}`);
      return;
    }
    const token = url.searchParams.get('token');
    const account = policy.socketAccount(token);
    if (account === undefined) {
      refuse(
        socket,
        401,
        'Unauthorized',
        token === null ? 'missing token query parameter' : 'unknown API key in token',
      );
      return;
    }
    const owner = account;
    wss.handleUpgrade(request, socket, head, (ws) => {
      const clientId = url.searchParams.get('clientId') ?? undefined;
      const client: Client = { socket: ws, account: owner, clientId, previewMetadata: false };
      clients.add(client);
      ws.on('message', (data, isBinary) => {
        if (isBinary) return;
        let msg: unknown;
        try {
          msg = JSON.parse((data as Buffer).toString()); // a Buffer under ws's default binaryType
        } catch {
          return;
        }
        const m = msg as { type?: unknown; data?: { supports_preview_metadata?: unknown } };
        if (m.type !== 'feature_flags') return;
        // An engine that predates the flag (the ws-previews-without-metadata control) neither reads nor answers it.
        if (ctx.isControl('ws-previews-without-metadata')) return;
        client.previewMetadata = m.data?.supports_preview_metadata === true;
        for (const out of ctx.socketOut(message('feature_flags', SERVER_FEATURES))) ws.send(out);
      });
      ws.on('close', () => clients.delete(client));
      ws.on('error', () => clients.delete(client));
      // The engine names the session after the clientId; the ws-sid-own control, ignoring clientId
      // as the cloud does (W:143), names it with an id of its own.
      const status = {
        status: { exec_info: { queue_remaining: queueRemaining(owner) } },
        sid: clientId !== undefined && !ctx.isControl('ws-sid-own') ? clientId : randomUUID(),
      };
      for (const out of ctx.socketOut(message('status', status))) ws.send(out);
    });
  };
}
