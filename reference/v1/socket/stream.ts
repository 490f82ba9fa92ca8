// What the v1 stream's parts share: the open connections, each prompt's run memory, and
// sending a message to the connections a prompt streams to, through the fault seams.
import { WebSocket } from 'ws';
import type { ReferenceContext } from '../../context.ts';
import type { V1Job, V1Jobs } from '../jobs.ts';
import type { V1Policy } from '../policy.ts';

export interface Client {
  socket: WebSocket;
  account: string;
  clientId: string | undefined;
  /** The connection announced supports_preview_metadata. */
  previewMetadata: boolean;
}

/** Per prompt, what the stream needs to remember between events. */
export interface Run {
  executed: string[];
  /** Only under the ws-cached-nodes control: the nodes reported cached. */
  cached: Set<string>;
  /** Only under the ws-final-executing-after-success control: the final executing, held for after the terminal message. */
  heldFinal?: string;
}

export interface StreamKit {
  readonly ctx: ReferenceContext;
  readonly jobs: V1Jobs;
  /** ctx.policy.v1 as it was when the stream was attached. */
  readonly policy: V1Policy;
  readonly clients: Set<Client>;
  readonly runs: Map<string, Run>;
  queueRemaining(account: string): number;
  /** The connections a prompt's messages go to. */
  recipients(job: V1Job): Client[];
  /** Sends one payload (or one per connection) to each open connection, through ctx.socketOut. */
  sendTo(targets: Client[], payload: string | Buffer | ((c: Client) => string | Buffer)): void;
  message(type: string, data: Record<string, unknown>): string;
}

export function streamKit(ctx: ReferenceContext, jobs: V1Jobs): StreamKit {
  const { engine } = ctx;
  const policy = ctx.policy.v1;
  const clients = new Set<Client>();
  const runs = new Map<string, Run>();

  const queueRemaining = (account: string): number => engine.activeCount(account);

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
      for (const c of to)
        if (c.socket.readyState === WebSocket.OPEN) c.socket.send(out, { binary: typeof out !== 'string' });
    };
    for (const [one, to] of byPayload) {
      // Only a fault's hook sends anything later (reference/faults/seams.ts).
      const later = (outs: Array<string | Buffer>, ms: number): void =>
        void setTimeout(() => outs.forEach((out) => send(to, out)), ms).unref();
      for (const out of ctx.socketOut(one, later)) send(to, out);
    }
  };
  const message = (type: string, data: Record<string, unknown>): string => JSON.stringify({ type, data });

  return { ctx, jobs, policy, clients, runs, queueRemaining, recipients, sendTo, message };
}
