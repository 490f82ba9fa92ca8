// Seed W § Events: the v1 WebSocket's text messages and binary frames, and § v1 rule 4
// (clientId ignored). Every message and frame is judged by the stream fixture as it
// arrives (envelope, prompt_id, fields, layout); these tests make each kind arrive
// and check what only a whole run shows.
import { randomUUID } from 'node:crypto';
import { test, rules } from '../../fixtures/v1/test.ts';
import { check, ensure, notJudged } from '../../lib/check.ts';
import { cancelWhileRunning } from '../../lib/v1/interrupt.ts';
import { outputsOf, runPrompt } from '../../lib/v1/run.ts';
import { outputOfImageWorkflow, savePreviewWorkflow, saveWorkflow, slowWorkflow } from '../../lib/v1/workflows.ts';
import type { DecodedFrame } from '../../lib/ws/frames.ts';
import { TERMINAL_TYPES, type TextMessage } from '../../lib/ws/schemas.ts';
import { jobBound } from '../../lib/time.ts';
import { RuleViolation, show } from '../../lib/violations.ts';

const prefix = (what: string): string => `conformance-v1-${what}-${randomUUID().slice(0, 8)}`;
const typesOf = (messages: Array<{ type: string }>): string[] => messages.map((m) => m.type);
/** The file names an executed message's output lists name. */
const outputNames = (m: TextMessage): string[] => {
  const out = m.data.output;
  if (typeof out !== 'object' || out === null) return [];
  return ['images', 'video', 'audio'].flatMap((list) => {
    const entries = (out as Record<string, unknown>)[list];
    return Array.isArray(entries)
      ? entries.flatMap((e) =>
          typeof e === 'object' && e !== null && typeof (e as { filename?: unknown }).filename === 'string'
            ? [(e as { filename: string }).filename]
            : [],
        )
      : [];
  });
};

test.describe('Events', () => {
  test('text frames are JSON objects {type, data}', rules('WS.MESSAGE.ENVELOPE'), async ({ v1 }) => {
    // Every frame of the run is judged as it arrives (lib/ws/session.ts): a text frame that is
    // no JSON {type, data}, or a JSON message sent as a binary frame, breaks the rule there and
    // stops this run with it. The run gives the stream every kind of message to send.
    await runPrompt(v1, savePreviewWorkflow(v1.classes, prefix('envelope')), {
      expect: 'success',
      rule: 'WS.MESSAGE.ENVELOPE',
    });
  });

  test(
    'every execution message carries data.prompt_id, the id POST /api/prompt answered, and clients filter on it',
    rules('WS.MESSAGE.PROMPT_ID'),
    async ({ v1 }) => {
      const tag = prefix('promptid');
      const session = await v1.openStream();
      try {
        const promptId = await v1.accept(saveWorkflow(v1.classes, tag), undefined, 'WS.MESSAGE.PROMPT_ID');
        await v1.pollToTerminal(promptId);
        // The run's output is known on the stream by its unique filename prefix, whatever prompt_id
        // its executed message carries; the prompt's own messages by the prompt_id it was answered.
        const ownOutput = (): TextMessage[] =>
          session.messages().filter((m) => m.type === 'executed' && outputNames(m).some((f) => f.startsWith(tag)));
        const ended = (): boolean => session.forPrompt(promptId).some((m) => TERMINAL_TYPES.has(m.type));
        await session.waitFor(
          () => ownOutput().length > 0 || ended(),
          v1.api.bounds.jobDeadlineMs,
          () =>
            jobBound(
              `no executed message naming an output ${tag}* and no terminal message of prompt ${promptId} arrived`,
              v1.api.bounds.jobDeadlineMs,
            ),
        );
        const named = ownOutput();
        if (named.length === 0) {
          notJudged(
            'WS.MESSAGE.PROMPT_ID',
            `no executed message named the output of prompt ${promptId} (seen for it: ` +
              `${session.typesFor(promptId).join(', ')}), so no message was seen to name its job`,
          );
        } else {
          check(
            'WS.MESSAGE.PROMPT_ID',
            named.every((m) => m.data.prompt_id === promptId),
            {
              what: `the executed message naming this prompt's output ${tag}*`,
              expected: `data.prompt_id ${promptId}, the id POST /api/prompt answered`,
              received: named.map((m) => m.data.prompt_id),
            },
          );
        }
        const types = new Set(session.typesFor(promptId));
        // Every message that arrives is judged as it comes (a message of an execution kind without
        // data.prompt_id breaks this rule there). The seed does not say which kinds a server sends,
        // so a kind that never came for this prompt is not judged, not broken.
        for (const t of ['execution_start', 'executing', 'executed']) {
          if (!types.has(t))
            notJudged(
              'WS.MESSAGE.PROMPT_ID',
              `no "${t}" message of prompt ${promptId} arrived (seen: ${[...types].join(', ')}), so its prompt_id was not seen`,
            );
        }
      } finally {
        session.close();
      }
    },
  );

  test(
    'each message type carries its data fields (status, executing, progress, progress_state, executed, execution_cached, ...)',
    rules('WS.MESSAGE.FIELDS'),
    async ({ v1, requireScenario }) => {
      const slow = requireScenario('slow_node_class', 'a slow node class') as string;
      // Every message is judged against its type's fields as it arrives; this run makes the
      // step-wise kinds arrive. The seed does not say which kinds a server must send, so a
      // kind that never came is reported as not judged, not as broken.
      const run = await runPrompt(v1, slowWorkflow(v1.classes, slow, 0.3, prefix('fields')), {
        expect: 'success',
        rule: 'WS.MESSAGE.FIELDS',
      });
      const seen = new Set(typesOf(run.session.messages()));
      // A run that fails gives execution_error's fields to judge, where the target names a node class that fails.
      const failing = v1.target.scenario.failing_node_class;
      if (typeof failing === 'string' && failing !== '') {
        const failed = await runPrompt(
          v1,
          { '1': { class_type: failing, inputs: { message: 'conformance: failing on purpose' } } },
          { expect: 'failure', rule: 'WS.MESSAGE.FIELDS' },
        );
        for (const t of typesOf(failed.session.messages())) seen.add(t);
      }
      for (const kind of [
        'status',
        'notification',
        'progress',
        'progress_state',
        'execution_cached',
        'executing',
        'executed',
        'execution_error',
      ]) {
        if (!seen.has(kind))
          notJudged(
            'WS.MESSAGE.FIELDS',
            `no "${kind}" message arrived during prompt ${run.promptId} (seen: ${[...seen].join(', ')}), so its fields were not judged`,
          );
      }
    },
  );

  test(
    'executed names its outputs in images / video / audio lists, each entry with filename, subfolder and type',
    rules('WS.EXECUTED.OUTPUT_LISTS'),
    async ({ v1 }) => {
      const run = await runPrompt(v1, saveWorkflow(v1.classes, prefix('lists')), {
        expect: 'success',
        rule: 'WS.EXECUTED.OUTPUT_LISTS',
      });
      // The seed says what an executed message holds, not that one is sent for every node.
      if (!run.stream.messages.some((m) => m.type === 'executed' && m.data.node === '2'))
        return notJudged(
          'WS.EXECUTED.OUTPUT_LISTS',
          `no executed message of SaveImage (node 2) arrived for prompt ${run.promptId}, so its output lists were not seen`,
        );
      const outs = outputsOf(run.stream, '2');
      check('WS.EXECUTED.OUTPUT_LISTS', outs.length === 1 && outs[0].filename.length > 0, {
        what: 'the executed message of SaveImage',
        expected: 'one images entry {filename, subfolder, type}',
        received: outs,
      });
    },
  );

  test(
    'for one prompt_id: no node executes before execution_start or after execution finished, and exactly one terminal message ends the run',
    rules('WS.ORDER'),
    async ({ v1 }) => {
      // runPrompt judges the order (lib/ws/order.ts); a two-output run gives it something to order.
      // The same prompt twice: an engine that caches nodes runs the second from its cache
      // (execution_cached, then executed without executing), which is judged the same way.
      const prompt = savePreviewWorkflow(v1.classes, prefix('order'));
      for (const pass of ['first', 'second']) {
        const run = await runPrompt(v1, prompt, { expect: 'success', rule: 'WS.ORDER' });
        // The seed does not say which messages a run sends: a run with no node message has only
        // its start and end to order, which runPrompt judged.
        if (!run.stream.messages.some((m) => m.type === 'executing' || m.type === 'progress' || m.type === 'executed'))
          notJudged(
            'WS.ORDER',
            `no node message (executing, progress, executed) arrived in the ${pass} run of the prompt (${run.promptId}), so no node was seen to order`,
          );
      }
    },
  );

  test(
    'a prompt its user cancels while it runs ends its stream with execution_interrupted and polls cancelled',
    rules('WS.INTERRUPTED'),
    async ({ v1, requireScenario }) => {
      const slow = requireScenario('slow_node_class', 'a slow node class') as string;
      // Seed W shows no operation that cancels a v1 prompt: the target names its own.
      const how = requireScenario('prompt_interrupt', 'how a user cancels a running v1 prompt: method, path, body') as {
        method: string | undefined;
        path: string | undefined;
        body: unknown;
      };
      const { promptId, asked, polled, stream, after } = await cancelWhileRunning(v1, slow, how, prefix('interrupt'));
      if (!polled || !stream)
        return notJudged(
          'WS.INTERRUPTED',
          `the cancel named by scenario input prompt_interrupt answered ${asked.status} for a running prompt, so no prompt was cancelled (check the input)`,
        );
      // A status that moved on from its terminal value is V1.STATUS.IN_FLIGHT's finding (specs/v1/status.spec.ts): polling then does not say how the run ended.
      if (after !== polled.status)
        return notJudged(
          'WS.INTERRUPTED',
          `the status of prompt ${promptId} went from ${polled.status} to ${after}, so polling does not say how the run ended`,
        );
      if (polled.kind === 'success')
        return notJudged(
          'WS.INTERRUPTED',
          `prompt ${promptId} ran to success although its cancel was accepted (${asked.status}): the ` +
            `cancel took no effect in time, so no interrupted run was seen`,
        );
      check('WS.INTERRUPTED', polled.status === 'cancelled', {
        what: `the polled status of prompt ${promptId}, cancelled by its user while running`,
        expected: 'cancelled',
        received: `${polled.status} (seen ${polled.seen.join(' → ')})`,
      });
      check('WS.INTERRUPTED', stream.terminal.type === 'execution_interrupted', {
        what: `the stream's terminal message for prompt ${promptId}, cancelled by its user`,
        expected: 'execution_interrupted ("cancelled by the user")',
        received: `${stream.terminal.type} ${show(stream.terminal.data)}`,
      });
    },
  );

  test('the stream agrees with polling, the source of truth', rules('WS.POLL_AGREEMENT'), async ({ v1 }) => {
    const run = await runPrompt(v1, saveWorkflow(v1.classes, prefix('agree')), {
      expect: 'success',
      rule: 'WS.POLL_AGREEMENT',
    });
    check('WS.POLL_AGREEMENT', run.stream.terminal.type === 'execution_success', {
      what: `the stream of prompt ${run.promptId}`,
      expected: `execution_success, as polling says ${run.polled.status}`,
      received: run.stream.terminal.type,
    });
  });

  test(
    'clientId is ignored: every connection of the user receives the same messages',
    rules('WS.CLIENT_ID_IGNORED'),
    async ({ v1 }) => {
      const a = randomUUID();
      const b = randomUUID();
      const first = await v1.openStream(a);
      const second = await v1.openStream(b);
      try {
        // The prompt even names the first connection, as the browser front end does.
        const run = await runPrompt(v1, saveWorkflow(v1.classes, prefix('clientid')), {
          expect: 'success',
          rule: 'WS.CLIENT_ID_IGNORED',
          session: first,
          extraData: { client_id: a },
        });
        // Waits for the prompt's terminal message on the second connection; that it may never
        // come is this rule's finding (below), not a stream out of order.
        const ended = (): boolean =>
          second
            .forPrompt(run.promptId)
            .some((m) => TERMINAL_TYPES.has(m.type) || (m.type === 'executing' && m.data.node == null));
        const settled = (): boolean => ended() && second.forPrompt(run.promptId).length >= run.stream.messages.length;
        await second
          .waitFor(settled, 10_000, () => new Error('not all messages arrived'))
          .catch((err: unknown) => {
            if (err instanceof RuleViolation) throw err;
          });
        const seen = typesOf(second.forPrompt(run.promptId));
        check('WS.CLIENT_ID_IGNORED', JSON.stringify(seen) === JSON.stringify(typesOf(run.stream.messages)), {
          what: `the messages of prompt ${run.promptId} on a second connection (clientId ${b})`,
          expected: typesOf(run.stream.messages).join(' '),
          received: seen.join(' ') || 'none',
        });
      } finally {
        first.close();
        second.close();
      }
    },
  );

  test(
    'PREVIEW_IMAGE frames: big-endian type 1, image_type 1 (JPEG) or 2 (PNG), then image bytes of that kind',
    rules('WS.BINARY.LAYOUT', 'WS.BINARY.PREVIEW_IMAGE'),
    async ({ v1, requireScenario }) => {
      const cls = requireScenario('preview_frame_node_class', 'a node class that sends PREVIEW_IMAGE frames') as string;
      // A client that does not announce supports_preview_metadata, to which engines send type 1.
      const session = await v1.openStream(undefined, { announcePreviewMetadata: false });
      try {
        const run = await runPrompt(v1, outputOfImageWorkflow(v1.classes, cls), {
          expect: 'success',
          rule: 'WS.BINARY.PREVIEW_IMAGE',
          session,
        });
        const frames = session
          .frames()
          .filter((f): f is Extract<DecodedFrame, { frame_type: 1 }> => f.frame_type === 1);
        // Every frame was judged on arrival; the seed does not say which preview type a server sends.
        if (frames.length === 0)
          notJudged(
            'WS.BINARY.PREVIEW_IMAGE',
            `no PREVIEW_IMAGE frame arrived during prompt ${run.promptId} on a connection that did not ` +
              `announce feature_flags (binary frame types seen: ${show(session.frames().map((f) => f.frame_type))})`,
          );
      } finally {
        session.close();
      }
    },
  );

  test(
    'TEXT frames: type 3, node_id_len in bytes, the UTF-8 node id, then the UTF-8 text',
    rules('WS.BINARY.TEXT'),
    async ({ v1, requireScenario }) => {
      const cls = requireScenario('text_node_class', 'a node class that sends TEXT frames') as string;
      const node = 'tëxt-7';
      const text = `conformance ${randomUUID()} — ünïcödé ✓`;
      const run = await runPrompt(
        v1,
        { [node]: { class_type: cls, inputs: { text } } },
        { expect: 'success', rule: 'WS.BINARY.TEXT' },
      );
      const frames = run.session
        .frames()
        .filter((f): f is Extract<DecodedFrame, { frame_type: 3 }> => f.frame_type === 3);
      check(
        'WS.BINARY.TEXT',
        frames.some((f) => f.node_id === node && f.text === text),
        {
          what: `TEXT frames during prompt ${run.promptId}`,
          expected: `one with node id ${show(node)} and text ${show(text)}`,
          received: frames.map((f) => ({ node_id: f.node_id, text: f.text.slice(0, 60) })),
        },
      );
    },
  );

  test(
    'PREVIEW_IMAGE_WITH_METADATA frames: type 4, metadata_len, JSON metadata naming node and prompt, then image bytes',
    rules('WS.BINARY.PREVIEW_METADATA'),
    async ({ v1, requireScenario }) => {
      const cls = requireScenario(
        'step_preview_node_class',
        'a node class that sends previews with metadata while it runs',
      ) as string;
      // The stream fixture announces supports_preview_metadata, as the browser front end does.
      const run = await runPrompt(v1, slowWorkflow(v1.classes, cls, 0.3, prefix('meta')), {
        expect: 'success',
        rule: 'WS.BINARY.PREVIEW_METADATA',
      });
      const frames = run.session
        .frames()
        .filter((f): f is Extract<DecodedFrame, { frame_type: 4 }> => f.frame_type === 4);
      if (frames.length === 0) {
        // Every frame was judged on arrival; the seed does not oblige a server to send type 4.
        notJudged(
          'WS.BINARY.PREVIEW_METADATA',
          `no PREVIEW_IMAGE_WITH_METADATA frame arrived during prompt ${run.promptId}, although the ` +
            `connection announced supports_preview_metadata (binary frame types seen: ${show(run.session.frames().map((f) => f.frame_type))})`,
        );
        return;
      }
      const mine = frames.filter((f) => (f.metadata as { prompt_id?: unknown }).prompt_id === run.promptId);
      ensure('WS.BINARY.PREVIEW_METADATA', mine.length > 0, {
        what: `PREVIEW_IMAGE_WITH_METADATA frames during prompt ${run.promptId}`,
        expected: 'one whose metadata names this prompt_id (its node previewed while running)',
        received: frames.map((f) => f.metadata),
      });
      const meta = mine[0].metadata as { node_id: string; real_node_id: string };
      check('WS.BINARY.PREVIEW_METADATA', meta.node_id === '2' || meta.real_node_id === '2', {
        what: 'the metadata node_id',
        expected: 'the previewing node (2)',
        received: meta,
      });
    },
  );
});
