// Faults of the v1 WebSocket stream (seed W § Events): JSON messages and binary frames, each
// rewritten on its way to the sockets through the WebSocket hook.
import { randomUUID } from 'node:crypto';
import type { FaultUnit } from '../unit.ts';
import { accountForKey } from '../../v1/auth.ts';
import { FRAME, IMAGE_TYPE } from '../../v1/frames.ts';
import type { Seams, SocketPayload } from '../seams.ts';
import { isObj, type Obj } from '../v2/shared.ts';

/**
 * A WebSocket hook on the JSON messages `{type, data}`: it may edit `data` in place (the
 * message is sent re-encoded) or answer the messages to send instead.
 */
function onMessage(s: Seams, hook: (type: string, data: Obj, payload: SocketPayload) => SocketPayload[] | void): void {
  s.socket((payload) => {
    if (typeof payload !== 'string') return [payload];
    const message = JSON.parse(payload) as { type?: unknown; data?: unknown };
    if (typeof message.type !== 'string' || !isObj(message.data)) return [payload];
    const before = JSON.stringify(message.data);
    const replaced = hook(message.type, message.data, payload);
    if (replaced !== undefined) return replaced;
    return JSON.stringify(message.data) === before ? [payload] : [JSON.stringify(message)];
  });
}

/** A WebSocket hook on binary frames: edits a copy of the frame (8-byte header, then the body). */
function onFrame(s: Seams, edit: (frame: Buffer) => void): void {
  s.socket((payload) => {
    if (typeof payload === 'string' || payload.length < 8) return [payload];
    const frame = Buffer.from(payload);
    edit(frame);
    return [frame];
  });
}

export const V1_SOCKET_FAULTS = [
  {
    name: 'ws-bad-token-accepted',
    breaks: 'V1.AUTH.API_KEY_HEADER',
    statements: ['W:137:dc2a4bc158ba', 'W:161:7dc93e188fdb'],
    description: 'the WebSocket accepts an unknown token',
    install(s) {
      s.policy.v1.socketAccount = (token) => accountForKey(token) ?? 'alice';
    },
  },
  {
    name: 'ws-client-id-routing',
    breaks: 'WS.CLIENT_ID_IGNORED',
    statements: ['W:143:9572b4454656'],
    description: 'a prompt whose extra_data names a client_id is streamed only to the connection with that clientId',
    install(s) {
      // A prompt that names a client_id is streamed only to the connection with that clientId.
      s.policy.v1.streamsTo = (client, job) =>
        client.account === job.account && (job.clientId === undefined || client.clientId === job.clientId);
    },
  },
  {
    name: 'ws-status-not-enveloped',
    breaks: 'WS.MESSAGE.ENVELOPE',
    statements: ['W:166:d5b0ecdab26b'],
    description: 'the status message on connect is sent without the {type, data} envelope',
    install(s) {
      onMessage(s, (type, data, payload) => (type === 'status' && 'sid' in data ? [JSON.stringify(data)] : [payload]));
    },
  },
  {
    name: 'ws-executed-no-prompt-id',
    breaks: 'WS.MESSAGE.PROMPT_ID',
    statements: ['W:166:d5b0ecdab26b'],
    description: 'executed messages carry no data.prompt_id',
    install(s) {
      onMessage(s, (type, data) => {
        if (type === 'executed') delete data.prompt_id;
      });
    },
  },
  {
    name: 'ws-progress-no-max',
    breaks: 'WS.MESSAGE.FIELDS',
    statements: ['W:174:58e0aaecac3b'],
    description: 'progress messages carry no max',
    install(s) {
      onMessage(s, (type, data) => {
        if (type === 'progress') delete data.max;
      });
    },
  },
  {
    name: 'ws-output-entry-no-type',
    breaks: 'WS.EXECUTED.OUTPUT_LISTS',
    statements: ['W:182:d19219a4c2e9'],
    description: 'entries of executed output lists carry no type',
    install(s) {
      onMessage(s, (type, data) => {
        const images = type === 'executed' && isObj(data.output) ? data.output.images : undefined;
        if (Array.isArray(images)) for (const image of images) if (isObj(image)) delete image.type;
      });
    },
  },
  {
    name: 'ws-start-after-executing',
    breaks: 'WS.ORDER',
    statements: ['W:172:84e69680af18'],
    description: 'execution_start is sent after the first node executing message',
    install(s) {
      // execution_start is held back until the prompt's first executing message has gone out.
      const held = new Map<string, SocketPayload>();
      onMessage(s, (type, data, payload) => {
        const prompt = String(data.prompt_id);
        if (type === 'execution_start') {
          held.set(prompt, payload);
          return [];
        }
        const start = type === 'executing' ? held.get(prompt) : undefined;
        if (start === undefined) return [payload];
        held.delete(prompt);
        return [payload, start];
      });
    },
  },
  {
    name: 'ws-progress-flushed-late',
    breaks: 'WS.ORDER',
    statements: ['W:173:be118e66413f'],
    description:
      "each node's closing progress tick is buffered and flushed on a timer once the run has ended, a few ms after its terminal message",
    install(s) {
      // A throttled progress reporter: the tick that completes a node (value = max) waits in a
      // buffer; the buffer is flushed 50 ms after the prompt's terminal message went out.
      const buffered = new Map<string, SocketPayload[]>();
      s.socket((payload, later) => {
        if (typeof payload !== 'string') return [payload];
        const message = JSON.parse(payload) as { type?: unknown; data?: unknown };
        if (!isObj(message.data)) return [payload];
        const prompt = String(message.data.prompt_id);
        if (message.type === 'progress' && message.data.value === message.data.max) {
          buffered.set(prompt, [...(buffered.get(prompt) ?? []), payload]);
          return [];
        }
        if (
          message.type === 'execution_success' ||
          message.type === 'execution_error' ||
          message.type === 'execution_interrupted'
        ) {
          const flush = buffered.get(prompt);
          buffered.delete(prompt);
          if (flush) later(flush, 50);
        }
        return [payload];
      });
    },
  },
  {
    name: 'ws-interrupt-as-error',
    breaks: 'WS.INTERRUPTED',
    statements: ['W:180:de07e276fe86'],
    description:
      'a prompt its user cancels while it runs ends its stream with execution_error (the interrupt raised inside the node), not execution_interrupted',
    install(s) {
      onMessage(s, (type, data, payload) => {
        if (type !== 'execution_interrupted') return [payload];
        const error = {
          prompt_id: data.prompt_id,
          node_id: data.node_id ?? null,
          node_type: data.node_type ?? null,
          executed: data.executed ?? [],
          exception_type: 'InterruptProcessingException',
          exception_message: 'processing interrupted',
          traceback: [],
          current_inputs: {},
          current_outputs: {},
        };
        return [JSON.stringify({ type: 'execution_error', data: error })];
      });
    },
  },
  {
    name: 'ws-terminal-mismatch',
    breaks: 'WS.POLL_AGREEMENT',
    statements: ['W:178:0d1b3ff08fa1'],
    description: 'the stream reports execution_error for a job that succeeded',
    install(s) {
      const executed = new Map<string, string[]>();
      onMessage(s, (type, data, payload) => {
        const prompt = String(data.prompt_id);
        if (type === 'executing' && typeof data.node === 'string')
          executed.set(prompt, [...(executed.get(prompt) ?? []), data.node]);
        if (type !== 'execution_success') return [payload];
        const nodes = executed.get(prompt) ?? [];
        executed.delete(prompt);
        const error = {
          prompt_id: data.prompt_id,
          node_id: null,
          node_type: null,
          executed: nodes,
          exception_type: 'RuntimeError',
          exception_message: 'execution failed',
          traceback: [],
          current_inputs: {},
          current_outputs: {},
        };
        return [JSON.stringify({ type: 'execution_error', data: error })];
      });
    },
  },
  // Slice v1ws (issue #29 §1): a fault for each row of the event-type table and the frame table.
  {
    // W:170: queue_remaining is a count. A queue length read from a key-value store that keeps
    // numbers as strings goes out as "2" rather than 2.
    name: 'ws-queue-remaining-string',
    breaks: 'WS.MESSAGE.FIELDS',
    statements: ['W:170:a80b0ac04c33'],
    description: 'status messages carry queue_remaining as a string (the count read from a store that keeps strings)',
    install(s) {
      onMessage(s, (type, data) => {
        if (type !== 'status') return;
        const info = isObj(data.status) && isObj(data.status.exec_info) ? data.status.exec_info : data;
        if (typeof info.queue_remaining === 'number') info.queue_remaining = String(info.queue_remaining);
      });
    },
  },
  {
    // W:171: a notification's text is in value. A notifier shared with another channel writes
    // its text under message.
    name: 'ws-notification-text-in-message',
    breaks: 'WS.MESSAGE.FIELDS',
    statements: ['W:171:0a07abd63ffd'],
    description:
      'notification messages carry their text in message instead of value (a notifier shared with another channel)',
    install(s) {
      onMessage(s, (type, data) => {
        if (type !== 'notification' || typeof data.value !== 'string') return;
        data.message = data.value;
        delete data.value;
      });
    },
  },
  {
    // W:173: executing names the node by its id. A serializer that turns numeric-looking
    // strings into numbers sends node 2 rather than "2".
    name: 'ws-executing-node-number',
    breaks: 'WS.MESSAGE.FIELDS',
    statements: ['W:173:be118e66413f'],
    description: 'executing messages name a numeric-looking node id as a number (a serializer coercing "2" to 2)',
    install(s) {
      onMessage(s, (type, data) => {
        if (type === 'executing' && typeof data.node === 'string' && /^[0-9]+$/.test(data.node))
          data.node = Number(data.node);
      });
    },
  },
  {
    // W:175: progress_state nests its nodes in an object. A state reporter that serializes its
    // node map as the list of its values sends an array.
    name: 'ws-progress-state-nodes-list',
    breaks: 'WS.MESSAGE.FIELDS',
    statements: ['W:175:601812a82361'],
    description:
      "progress_state carries nodes as an array of node states instead of an object keyed by node id (the map's values serialized)",
    install(s) {
      onMessage(s, (type, data) => {
        if (type === 'progress_state' && isObj(data.nodes)) data.nodes = Object.values(data.nodes);
      });
    },
  },
  {
    // W:176: executed names the node that finished. A relay that only forwards the display id
    // (display_node) drops node.
    name: 'ws-executed-display-node-only',
    breaks: 'WS.MESSAGE.FIELDS',
    statements: ['W:176:34f786d384b3'],
    description: 'executed messages carry display_node but no node (a relay forwarding the display id only)',
    install(s) {
      onMessage(s, (type, data) => {
        if (type !== 'executed' || !('node' in data)) return;
        data.display_node ??= data.node;
        delete data.node;
      });
    },
  },
  {
    // W:177: execution_cached lists the skipped nodes. A serializer that omits empty arrays
    // sends the message without nodes when nothing was cached.
    name: 'ws-cached-empty-list-omitted',
    breaks: 'WS.MESSAGE.FIELDS',
    statements: ['W:177:636d1c794690'],
    description: 'execution_cached is sent without nodes when no node was cached (a serializer omitting empty arrays)',
    install(s) {
      onMessage(s, (type, data) => {
        if (type === 'execution_cached' && Array.isArray(data.nodes) && data.nodes.length === 0) delete data.nodes;
      });
    },
  },
  {
    // W:179: execution_error carries exception_type, exception_message and traceback. A gateway
    // that strips tracebacks from errors it forwards (so as not to leak server paths) drops the member.
    name: 'ws-error-traceback-stripped',
    breaks: 'WS.MESSAGE.FIELDS',
    statements: ['W:179:54d2feedd035'],
    description: 'execution_error messages come without traceback (stripped by a gateway that hides server paths)',
    install(s) {
      onMessage(s, (type, data) => {
        if (type === 'execution_error') delete data.traceback;
      });
    },
  },
  {
    // W:192: the preview metadata names real_node_id. An engine that names only the node and its
    // display id (no subgraphs, so it thought the third redundant) leaves it out.
    name: 'ws-metadata-no-real-node-id',
    breaks: 'WS.BINARY.PREVIEW_METADATA',
    statements: ['W:192:9593d2b75134'],
    description: 'the JSON metadata of PREVIEW_IMAGE_WITH_METADATA frames has no real_node_id',
    install(s) {
      s.socket((payload) => {
        if (
          typeof payload === 'string' ||
          payload.length < 8 ||
          payload.readUInt32BE(0) !== FRAME.PREVIEW_IMAGE_WITH_METADATA
        )
          return [payload];
        const n = payload.readUInt32BE(4);
        const meta = JSON.parse(payload.subarray(8, 8 + n).toString('utf8')) as Obj;
        delete meta.real_node_id;
        const json = Buffer.from(JSON.stringify(meta), 'utf8');
        const head = Buffer.alloc(8);
        head.writeUInt32BE(FRAME.PREVIEW_IMAGE_WITH_METADATA, 0);
        head.writeUInt32BE(json.length, 4);
        return [Buffer.concat([head, json, payload.subarray(8 + n)])];
      });
    },
  },
  {
    // W:166: text frames carry the JSON messages; binary frames carry previews. A WebSocket
    // layer handed the encoded message as a Buffer sends it with the binary opcode.
    name: 'ws-json-as-binary',
    breaks: 'WS.MESSAGE.ENVELOPE',
    statements: ['W:166:d5b0ecdab26b', 'W:166:7055d512ac6e'],
    description:
      'the JSON messages of a run go out as binary frames (the encoded message handed to the socket as a Buffer)',
    install(s) {
      onMessage(s, (type, _data, payload) =>
        type === 'status' ? [payload] : [Buffer.from(payload as string, 'utf8')],
      );
    },
  },
  {
    // W:166: data.prompt_id identifies the job. A cloud gateway that submits each prompt to a
    // backend engine under the backend's own id relays the backend's messages without mapping
    // that id back to the prompt_id it answered the client.
    name: 'ws-prompt-id-backend-id',
    breaks: 'WS.MESSAGE.PROMPT_ID',
    statements: ['W:166:d5b0ecdab26b'],
    description:
      "the stream names each prompt by the backend engine's own job id, not the prompt_id POST /api/prompt answered",
    install(s) {
      const backend = new Map<string, string>();
      onMessage(s, (_type, data) => {
        if (typeof data.prompt_id !== 'string') return;
        let id = backend.get(data.prompt_id);
        if (id === undefined) {
          id = randomUUID();
          backend.set(data.prompt_id, id);
        }
        data.prompt_id = id;
      });
    },
  },
  {
    name: 'ws-frame-little-endian',
    breaks: 'WS.BINARY.LAYOUT',
    statements: ['W:184:205e504f0f0a'],
    description: 'binary frame headers are written little-endian',
    install(s) {
      onFrame(s, (frame) => {
        const type = frame.readUInt32BE(0);
        const second = frame.readUInt32BE(4);
        frame.writeUInt32LE(type, 0);
        frame.writeUInt32LE(second, 4);
      });
    },
  },
  {
    name: 'ws-preview-type-mismatch',
    breaks: 'WS.BINARY.PREVIEW_IMAGE',
    statements: ['W:188:6315e9d70e3a'],
    description: 'PREVIEW_IMAGE frames declare JPEG (1) while carrying PNG bytes',
    install(s) {
      onFrame(s, (frame) => {
        if (frame.readUInt32BE(0) === FRAME.PREVIEW_IMAGE) frame.writeUInt32BE(IMAGE_TYPE.JPEG, 4);
      });
    },
  },
  {
    name: 'ws-text-node-length-off-by-one',
    breaks: 'WS.BINARY.TEXT',
    statements: ['W:189:36433ac84311'],
    description: 'TEXT frames count one byte more in node_id_len than the node id has',
    install(s) {
      onFrame(s, (frame) => {
        if (frame.readUInt32BE(0) === FRAME.TEXT) frame.writeUInt32BE(frame.readUInt32BE(4) + 1, 4);
      });
    },
  },
  {
    name: 'ws-metadata-length-off-by-one',
    breaks: 'WS.BINARY.PREVIEW_METADATA',
    statements: ['W:190:618eaac0b73b'],
    description: 'PREVIEW_IMAGE_WITH_METADATA frames count one byte more in metadata_len than the JSON has',
    install(s) {
      onFrame(s, (frame) => {
        if (frame.readUInt32BE(0) === FRAME.PREVIEW_IMAGE_WITH_METADATA)
          frame.writeUInt32BE(frame.readUInt32BE(4) + 1, 4);
      });
    },
  },
] as const satisfies ReadonlyArray<FaultUnit>;
