// WS /ws?clientId=&token= on the cloud surface (seed W § Events; § v1 rule 4;
// § Authentication rule 6). Every v1 prompt's engine events become the v1 message
// sequence, sent to every connection of the prompt's user: clientId is ignored.
// Previews go out as the real engine sends them: PREVIEW_IMAGE (type 1), unless the
// connection announced `{"type": "feature_flags", "data": {"supports_preview_metadata":
// true}}`, which then gets PREVIEW_IMAGE_WITH_METADATA (type 4).
// The parts, in reference/v1/socket/: what they share (stream.ts), the engine's events as
// messages (events.ts), and the upgrade with each connection's own messages (connections.ts).
import type { FastifyInstance } from 'fastify';
import { WebSocketServer } from 'ws';
import type { ReferenceContext } from '../context.ts';
import type { V1Jobs } from './jobs.ts';
import { upgrades } from './socket/connections.ts';
import { engineEvents } from './socket/events.ts';
import { streamKit } from './socket/stream.ts';

export function attachV1Socket(app: FastifyInstance, ctx: ReferenceContext, jobs: V1Jobs): void {
  const { engine } = ctx;
  const wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 });
  const kit = streamKit(ctx, jobs);
  const onEvent = engineEvents(kit);
  engine.on('event', onEvent);
  app.server.on('upgrade', upgrades(kit, wss));

  // Upgraded sockets are no longer the HTTP server's to close: end them first, or close() waits on them.
  app.addHook('preClose', async () => {
    engine.off('event', onEvent);
    for (const c of kit.clients) c.socket.terminate();
    kit.clients.clear();
    wss.close();
  });
}
