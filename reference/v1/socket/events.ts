// The engine's events of a v1 prompt as the v1 message sequence, sent to every connection
// of the prompt's user.
import type { EngineEvent } from '../../engine/types.ts';
import { outwardClass } from '../class-names.ts';
import { textFrame, previewImageFrame, previewWithMetadataFrame } from '../frames.ts';
import type { V1Job } from '../jobs.ts';
import type { StreamKit } from './stream.ts';

/** The engine-event listener of the stream. */
export function engineEvents(kit: StreamKit): (e: EngineEvent) => void {
  const { ctx, jobs, runs, queueRemaining, recipients, sendTo, message } = kit;
  const cache = jobs.cache;
  const now = (): number => Date.now();

  const classOf = (job: V1Job, node: string | null): string | null =>
    node === null ? null : (job.workflow[node]?.class_type ?? null);

  return function onEvent(e: EngineEvent): void {
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
    if (
      (e.kind === 'executing' || e.kind === 'progress' || e.kind === 'preview' || e.kind === 'text') &&
      e.node !== null &&
      run.cached.has(e.node)
    )
      return;
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
          sendTo(
            to,
            message('notification', {
              value: waits
                ? `Prompt ${prompt_id} is waiting in the queue (position ${e.queuePosition}); it starts when a slot of your subscription tier frees up.`
                : `Prompt ${prompt_id} is queued.`,
              id: 'queue',
            }),
          );
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
        // Under either caching control the stream reports the nodes the cache skipped (asked
        // only when the account ran some of this work before).
        const skipped = cache.cachedNodes(job.account, job.workflow);
        const caching =
          skipped.length > 0 && (ctx.isControl('ws-cached-nodes') || ctx.isControl('engine-cached-work-instant'));
        const nodes = caching ? skipped : e.nodes;
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
              [e.node]: {
                value: e.value,
                max: e.max,
                state: e.value >= e.max ? 'finished' : 'running',
                node_id: e.node,
                prompt_id,
                display_node_id: e.node,
                parent_node_id: null,
                real_node_id: e.node,
                class_type: classOf(job, e.node),
              },
            },
          }),
        );
        return;
      }
      case 'preview': {
        const plain = previewImageFrame(e.png);
        const withMeta = previewWithMetadataFrame(
          {
            node_id: e.node,
            display_node_id: e.node,
            real_node_id: e.node,
            prompt_id,
            parent_node_id: null,
            image_type: 'image/png',
          },
          e.png,
        );
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
            node_type:
              ctx.isControl('v1-renamed-classes') && f.class_type !== null ? outwardClass(f.class_type) : f.class_type,
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
        terminal(
          message('execution_interrupted', {
            prompt_id,
            node_id: e.node,
            node_type: classOf(job, e.node),
            executed: run.executed.filter((n) => n !== e.node),
          }),
        );
        return;
    }
  };
}
