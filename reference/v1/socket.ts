// WS /ws?clientId=&token= on the cloud surface (seed W § Events; § v1 rule 4;
// § Authentication rule 6). Every v1 prompt's engine events become the v1 message
// sequence, sent to every connection of the prompt's user: clientId is ignored.
// Previews go out as the real engine sends them: PREVIEW_IMAGE (type 1), unless the
// connection announced `{"type": "feature_flags", "data": {"supports_preview_metadata":
// true}}`, which then gets PREVIEW_IMAGE_WITH_METADATA (type 4).
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { WebSocketServer, WebSocket } from 'ws';
import type { ReferenceContext } from '../context.ts';
import type { EngineEvent } from '../engine/types.ts';
import { outwardClass } from './class-names.ts';
import { previewImageFrame, previewWithMetadataFrame, textFrame } from './frames.ts';
import type { V1Job, V1Jobs } from './jobs.ts';

interface Client {
  socket: WebSocket;
  account: string;
  clientId: string | undefined;
  /** The connection announced supports_preview_metadata. */
  previewMetadata: boolean;
}

/** What the server announces back, as the engine answers a client's feature_flags. */
const SERVER_FEATURES = { supports_preview_metadata: true };

/** Per prompt, what the stream needs to remember between events. */
interface Run {
  executed: string[];
  /** Only under the ws-cached-nodes control: the nodes reported cached. */
  cached: Set<string>;
  /** Only under the ws-final-executing-after-success control: the final executing, held for after the terminal message. */
  heldFinal?: string;
}

function refuse(socket: Duplex, status: number, reason: string, message: string): void {
  const body = JSON.stringify({ code: status === 401 ? 'unauthorized' : 'not_found', message });
  socket.end(`HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
}

export function attachV1Socket(app: FastifyInstance, ctx: ReferenceContext, jobs: V1Jobs): void {
  const { engine } = ctx;
  const policy = ctx.policy.v1;
  const wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 });
  const clients = new Set<Client>();
  const runs = new Map<string, Run>();
  const cache = jobs.cache;
  // Under either caching control the stream reports the nodes the cache skipped.
  const caching = ctx.isControl('ws-cached-nodes') || ctx.isControl('engine-cached-work-instant');

  const queueRemaining = (account: string): number => engine.activeCount(account);
  const now = (): number => Date.now();

  const recipients = (job: V1Job): Client[] => [...clients].filter((c) => policy.streamsTo(c, job));

  // A payload may differ per connection (previews, by what the connection announced); the
  // seams see each distinct payload once, whatever the number of connections it goes to.
  const sendTo = (targets: Client[], payload: string | Buffer | ((c: Client) => string | Buffer)): void => {
    const byPayload = new Map<string | Buffer, Client[]>();
    for (const c of targets) {
      if (c.socket.readyState !== WebSocket.OPEN) continue;
      const one = typeof payload === 'function' ? payload(c) : payload;
      byPayload.set(one, [...(byPayload.get(one) ?? []), c]);
    }
    const send = (to: Client[], out: string | Buffer): void => {
      for (const c of to) if (c.socket.readyState === WebSocket.OPEN) c.socket.send(out, { binary: typeof out !== 'string' });
    };
    for (const [one, to] of byPayload) {
      // Only a fault's hook sends anything later (reference/faults/seams.ts).
      const later = (outs: Array<string | Buffer>, ms: number): void => void setTimeout(() => outs.forEach((out) => send(to, out)), ms).unref();
      for (const out of ctx.socketOut(one, later)) send(to, out);
    }
  };
  const message = (type: string, data: Record<string, unknown>): string => JSON.stringify({ type, data });

  const classOf = (job: V1Job, node: string | null): string | null => (node === null ? null : job.workflow[node]?.class_type ?? null);

  function onEvent(e: EngineEvent): void {
    const job = jobs.get(e.jobId);
    if (!job) return;
    const to = recipients(job);
    const prompt_id = job.id;
    let run = runs.get(prompt_id);
    if (!run) {
      run = { executed: [], cached: new Set() };
      runs.set(prompt_id, run);
    }
    // A node skipped as cached sends nothing while the prompt runs, but `executed` (its kept UI output).
    if ((e.kind === 'executing' || e.kind === 'progress' || e.kind === 'preview' || e.kind === 'text') && e.node !== null && run.cached.has(e.node)) return;
    const terminal = (payload: string): void => {
      sendTo(to, payload);
      if (run.heldFinal !== undefined) sendTo(to, run.heldFinal);
      delete run.heldFinal;
    };
    switch (e.kind) {
      case 'status': {
        sendTo(to, message('status', { status: { exec_info: { queue_remaining: queueRemaining(job.account) } } }));
        // A note for people as each prompt is queued (the engine's toast), naming its place when it waits behind others.
        if (e.status === 'queued') {
          const waits = e.queuePosition !== null && e.queuePosition > 1;
          sendTo(to, message('notification', { value: waits ? `Prompt ${prompt_id} is waiting in the queue (position ${e.queuePosition}); it starts when a slot of your subscription tier frees up.` : `Prompt ${prompt_id} is queued.`, id: 'queue' }));
        }
        if (e.status === 'succeeded' || e.status === 'failed' || e.status === 'canceled') runs.delete(prompt_id);
        return;
      }
      case 'execution_start': {
        // A control: a stream that never says the run started (its node messages and its end tell it).
        if (ctx.isControl('ws-no-execution-start')) return;
        sendTo(to, message('execution_start', { prompt_id, timestamp: now() }));
        // A control: a TEXT frame tied to no node (node_id_len 0) beside the run's own frames.
        if (ctx.isControl('ws-text-without-node')) sendTo(to, textFrame('', `prompt ${prompt_id} started`));
        return;
      }
      case 'execution_cached': {
        const nodes = caching ? cache.cachedNodes(job.account, job.workflow) : e.nodes;
        for (const n of nodes) run.cached.add(n);
        sendTo(to, message('execution_cached', { nodes, prompt_id, timestamp: now() }));
        return;
      }
      case 'executing': {
        const msg = message('executing', { node: e.node, display_node: e.node, prompt_id });
        if (e.node !== null) run.executed.push(e.node);
        // Controls leave the final executing out, or every executing (the seed gives what the
        // message means, not that it is sent).
        if (ctx.isControl('ws-no-executing')) return;
        if (e.node === null && ctx.isControl('ws-no-final-executing')) return;
        // The engine sends its final executing after execution_success; the reference sends it before by default.
        if (e.node === null && ctx.isControl('ws-final-executing-after-success')) run.heldFinal = msg;
        else sendTo(to, msg);
        return;
      }
      case 'progress': {
        // A control: a stream that sends no step progress at all (the seed obliges no message kind).
        if (ctx.isControl('ws-no-progress')) return;
        sendTo(to, message('progress', { value: e.value, max: e.max, prompt_id, node: e.node }));
        sendTo(
          to,
          message('progress_state', {
            prompt_id,
            nodes: {
              [e.node]: { value: e.value, max: e.max, state: e.value >= e.max ? 'finished' : 'running', node_id: e.node, prompt_id, display_node_id: e.node, parent_node_id: null, real_node_id: e.node, class_type: classOf(job, e.node) },
            },
          }),
        );
        return;
      }
      case 'preview': {
        const plain = previewImageFrame(e.png);
        const withMeta = previewWithMetadataFrame({ node_id: e.node, display_node_id: e.node, real_node_id: e.node, prompt_id, parent_node_id: null, image_type: 'image/png' }, e.png);
        sendTo(to, (c) => (c.previewMetadata ? withMeta : plain));
        return;
      }
      case 'text':
        sendTo(to, textFrame(e.node, e.text));
        return;
      case 'executed': {
        const images = e.outputs.map((o) => ({ filename: o.filename, subfolder: o.subfolder, type: o.type }));
        sendTo(to, message('executed', { node: e.node, display_node: e.node, output: { images }, prompt_id }));
        return;
      }
      case 'execution_success':
        cache.remember(job.account, job.workflow);
        terminal(message('execution_success', { prompt_id, timestamp: now() }));
        return;
      case 'execution_error': {
        const f = e.failure;
        terminal(
          message('execution_error', {
            prompt_id,
            node_id: f.node_id,
            node_type: ctx.isControl('v1-renamed-classes') && f.class_type !== null ? outwardClass(f.class_type) : f.class_type,
            executed: run.executed.filter((n) => n !== f.node_id),
            exception_type: f.exception_type,
            exception_message: f.exception_message,
            traceback: f.traceback,
            current_inputs: {},
            current_outputs: {},
          }),
        );
        return;
      }
      case 'execution_interrupted':
        terminal(message('execution_interrupted', { prompt_id, node_id: e.node, node_type: classOf(job, e.node), executed: run.executed.filter((n) => n !== e.node) }));
        return;
    }
  }

  engine.on('event', onEvent);

  app.server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = new URL(request.url ?? '/', 'http://reference.invalid');
    if (url.pathname !== '/ws') {
      refuse(socket, 404, 'Not Found', `no WebSocket endpoint at ${url.pathname}`);
      return;
    }
    const token = url.searchParams.get('token');
    const account = policy.socketAccount(token);
    if (account === undefined) {
      refuse(socket, 401, 'Unauthorized', token === null ? 'missing token query parameter' : 'unknown API key in token');
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
      const status = { status: { exec_info: { queue_remaining: queueRemaining(owner) } }, sid: clientId !== undefined && !ctx.isControl('ws-sid-own') ? clientId : randomUUID() };
      for (const out of ctx.socketOut(message('status', status))) ws.send(out);
    });
  });

  // Upgraded sockets are no longer the HTTP server's to close: end them first, or close() waits on them.
  app.addHook('preClose', async () => {
    engine.off('event', onEvent);
    for (const c of clients) c.socket.terminate();
    clients.clear();
    wss.close();
  });
}
