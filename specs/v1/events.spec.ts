// Seed W § Events: the v1 WebSocket's text messages and binary frames, and § v1 rule 4
// (clientId ignored). Every message and frame is judged by the stream fixture as it
// arrives (envelope, prompt_id, fields, layout); these tests make each kind arrive
// and check what only a whole run shows.
import { randomUUID } from 'node:crypto';
import { test, rules } from '../../fixtures/v1/test.ts';
import { check } from '../../lib/check.ts';
import { outputsOf, runPrompt } from '../../lib/v1/run.ts';
import { savePreviewWorkflow, saveWorkflow, slowWorkflow } from '../../lib/v1/workflows.ts';
import type { DecodedFrame } from '../../lib/ws/frames.ts';
import { show } from '../../lib/violations.ts';

const prefix = (what: string): string => `conformance-v1-${what}-${randomUUID().slice(0, 8)}`;
const typesOf = (messages: Array<{ type: string }>): string[] => messages.map((m) => m.type);

test.describe('Events', () => {
  test('text frames are JSON objects {type, data}', rules('WS.MESSAGE.ENVELOPE'), async ({ v1 }) => {
    const run = await runPrompt(v1, saveWorkflow(prefix('envelope')), { expect: 'success', rule: 'WS.MESSAGE.ENVELOPE' });
    check('WS.MESSAGE.ENVELOPE', run.session.messages().length > 0, 'the text frames of one run', 'JSON {type, data} messages', 'none');
  });

  test('every execution message carries data.prompt_id, and clients filter on it', rules('WS.MESSAGE.PROMPT_ID'), async ({ v1 }) => {
    const run = await runPrompt(v1, saveWorkflow(prefix('promptid')), { expect: 'success', rule: 'WS.MESSAGE.PROMPT_ID' });
    const types = new Set(typesOf(run.stream.messages));
    for (const t of ['execution_start', 'executing', 'executed', 'execution_success']) {
      check('WS.MESSAGE.PROMPT_ID', types.has(t), `messages of prompt ${run.promptId}`, `a "${t}" message carrying this prompt_id`, [...types]);
    }
  });

  test('each message type carries its data fields (status, executing, progress, progress_state, executed, execution_cached, ...)', rules('WS.MESSAGE.FIELDS'), async ({ v1, requireScenario }) => {
    const slow = requireScenario('slow_node_class', 'a slow node class') as string;
    const run = await runPrompt(v1, slowWorkflow(slow, 0.3, prefix('fields')), { expect: 'success', rule: 'WS.MESSAGE.FIELDS' });
    const progress = run.stream.messages.filter((m) => m.type === 'progress');
    check('WS.MESSAGE.FIELDS', progress.length > 0, `messages of prompt ${run.promptId} (a node that steps)`, 'progress messages with value and max', typesOf(run.stream.messages));
    check('WS.MESSAGE.FIELDS', progress.every((m) => (m.data.value as number) <= (m.data.max as number)), 'progress value/max', 'value never above max', progress.map((m) => `${String(m.data.value)}/${String(m.data.max)}`));
    check('WS.MESSAGE.FIELDS', run.session.messages().some((m) => m.type === 'status'), 'the messages of the connection', 'a status message (queue status)', typesOf(run.session.messages()));
  });

  test('executed names its outputs in images / video / audio lists, each entry with filename, subfolder and type', rules('WS.EXECUTED.OUTPUT_LISTS'), async ({ v1 }) => {
    const run = await runPrompt(v1, saveWorkflow(prefix('lists')), { expect: 'success', rule: 'WS.EXECUTED.OUTPUT_LISTS' });
    const outs = outputsOf(run.stream, '2');
    check('WS.EXECUTED.OUTPUT_LISTS', outs.length === 1 && outs[0]!.filename.length > 0, 'the executed message of SaveImage', 'one images entry {filename, subfolder, type}', outs);
  });

  test('for one prompt_id: execution_start before node execution, a final executing without node, exactly one terminal message', rules('WS.ORDER'), async ({ v1 }) => {
    // runPrompt judges the order (fixtures/ws/order.ts); a two-output run gives it something to order.
    const run = await runPrompt(v1, savePreviewWorkflow(prefix('order')), { expect: 'success', rule: 'WS.ORDER' });
    check('WS.ORDER', run.stream.messages.filter((m) => m.type === 'executing').length >= 3, `messages of prompt ${run.promptId}`, 'an executing per node and a final one', typesOf(run.stream.messages));
  });

  test('the stream agrees with polling, the source of truth', rules('WS.POLL_AGREEMENT'), async ({ v1 }) => {
    const run = await runPrompt(v1, saveWorkflow(prefix('agree')), { expect: 'success', rule: 'WS.POLL_AGREEMENT' });
    check('WS.POLL_AGREEMENT', run.stream.terminal.type === 'execution_success', `the stream of prompt ${run.promptId}`, `execution_success, as polling says ${run.polled.status}`, run.stream.terminal.type);
  });

  test('clientId is ignored: every connection of the user receives the same messages', rules('WS.CLIENT_ID_IGNORED'), async ({ v1 }) => {
    const a = randomUUID();
    const b = randomUUID();
    const first = await v1.openStream(a);
    const second = await v1.openStream(b);
    try {
      // The prompt even names the first connection, as the browser front end does.
      const run = await runPrompt(v1, saveWorkflow(prefix('clientid')), { expect: 'success', rule: 'WS.CLIENT_ID_IGNORED', session: first, extraData: { client_id: a } });
      const other = await second.streamOf(run.promptId, 10_000).catch(() => undefined);
      const seen = other ? typesOf(other.messages) : typesOf(second.forPrompt(run.promptId));
      check('WS.CLIENT_ID_IGNORED', JSON.stringify(seen) === JSON.stringify(typesOf(run.stream.messages)), `the messages of prompt ${run.promptId} on a second connection (clientId ${b})`, typesOf(run.stream.messages).join(' '), seen.join(' ') || 'none');
    } finally {
      first.close();
      second.close();
    }
  });

  test('PREVIEW_IMAGE frames: big-endian type 1, image_type 1 (JPEG) or 2 (PNG), then image bytes of that kind', rules('WS.BINARY.LAYOUT', 'WS.BINARY.PREVIEW_IMAGE'), async ({ v1, requireScenario }) => {
    const cls = requireScenario('preview_frame_node_class', 'a node class that sends PREVIEW_IMAGE frames') as string;
    const run = await runPrompt(
      v1,
      { '1': { class_type: 'EmptyImage', inputs: { width: 6, height: 6, batch_size: 1, color: 0x55aa11 } }, '2': { class_type: cls, inputs: { images: ['1', 0] } } },
      { expect: 'success', rule: 'WS.BINARY.PREVIEW_IMAGE' },
    );
    const frames = run.session.frames().filter((f): f is Extract<DecodedFrame, { frame_type: 1 }> => f.frame_type === 1);
    check('WS.BINARY.PREVIEW_IMAGE', frames.length > 0, `binary frames during prompt ${run.promptId}`, 'a PREVIEW_IMAGE frame', run.session.frames().map((f) => f.frame_type));
  });

  test('TEXT frames: type 3, node_id_len in bytes, the UTF-8 node id, then the UTF-8 text', rules('WS.BINARY.TEXT'), async ({ v1, requireScenario }) => {
    const cls = requireScenario('text_node_class', 'a node class that sends TEXT frames') as string;
    const node = 'tëxt-7';
    const text = `conformance ${randomUUID()} — ünïcödé ✓`;
    const run = await runPrompt(v1, { [node]: { class_type: cls, inputs: { text } } }, { expect: 'success', rule: 'WS.BINARY.TEXT' });
    const frames = run.session.frames().filter((f): f is Extract<DecodedFrame, { frame_type: 3 }> => f.frame_type === 3);
    check('WS.BINARY.TEXT', frames.some((f) => f.node_id === node && f.text === text), `TEXT frames during prompt ${run.promptId}`, `one with node id ${show(node)} and text ${show(text)}`, frames.map((f) => ({ node_id: f.node_id, text: f.text.slice(0, 60) })));
  });

  test('PREVIEW_IMAGE_WITH_METADATA frames: type 4, metadata_len, JSON metadata naming node and prompt, then image bytes', rules('WS.BINARY.PREVIEW_METADATA'), async ({ v1, requireScenario }) => {
    const cls = requireScenario('step_preview_node_class', 'a node class that sends previews with metadata while it runs') as string;
    const run = await runPrompt(v1, slowWorkflow(cls, 0.3, prefix('meta')), { expect: 'success', rule: 'WS.BINARY.PREVIEW_METADATA' });
    const frames = run.session.frames().filter((f): f is Extract<DecodedFrame, { frame_type: 4 }> => f.frame_type === 4);
    const mine = frames.filter((f) => (f.metadata as { prompt_id?: unknown }).prompt_id === run.promptId);
    check('WS.BINARY.PREVIEW_METADATA', mine.length > 0, `PREVIEW_IMAGE_WITH_METADATA frames during prompt ${run.promptId}`, 'one whose metadata names this prompt_id', frames.map((f) => f.metadata));
    const meta = mine[0]!.metadata as { node_id: string; real_node_id: string };
    check('WS.BINARY.PREVIEW_METADATA', meta.node_id === '2' || meta.real_node_id === '2', 'the metadata node_id', 'the previewing node (2)', meta);
  });
});
