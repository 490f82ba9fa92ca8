// Faults of the v1 WebSocket stream (seed W § Events): JSON messages and binary frames, each
// rewritten on its way to the sockets through the WebSocket hook.
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
      s.policy.v1.streamsTo = (client, job) => client.account === job.account && (job.clientId === undefined || client.clientId === job.clientId);
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
    description: "each node's closing progress tick is buffered and flushed on a timer once the run has ended, a few ms after its terminal message",
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
        if (message.type === 'execution_success' || message.type === 'execution_error' || message.type === 'execution_interrupted') {
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
    description: 'a prompt its user cancels while it runs ends its stream with execution_error (the interrupt raised inside the node), not execution_interrupted',
    install(s) {
      onMessage(s, (type, data, payload) => {
        if (type !== 'execution_interrupted') return [payload];
        const error = { prompt_id: data.prompt_id, node_id: data.node_id ?? null, node_type: data.node_type ?? null, executed: data.executed ?? [], exception_type: 'InterruptProcessingException', exception_message: 'processing interrupted', traceback: [], current_inputs: {}, current_outputs: {} };
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
        if (type === 'executing' && typeof data.node === 'string') executed.set(prompt, [...(executed.get(prompt) ?? []), data.node]);
        if (type !== 'execution_success') return [payload];
        const nodes = executed.get(prompt) ?? [];
        executed.delete(prompt);
        const error = { prompt_id: data.prompt_id, node_id: null, node_type: null, executed: nodes, exception_type: 'RuntimeError', exception_message: 'execution failed', traceback: [], current_inputs: {}, current_outputs: {} };
        return [JSON.stringify({ type: 'execution_error', data: error })];
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
        if (frame.readUInt32BE(0) === FRAME.PREVIEW_IMAGE_WITH_METADATA) frame.writeUInt32BE(frame.readUInt32BE(4) + 1, 4);
      });
    },
  },
] as const satisfies ReadonlyArray<FaultUnit>;
