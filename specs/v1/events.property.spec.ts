// Seed W § Events, over arbitrary node ids: an execution's messages (executing, progress,
// executed, or execution_cached for a node skipped because cached) name the prompt's own node ids,
// and a TEXT frame carries its node id (counted in UTF-8 bytes) intact.
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { test, rules } from '../../fixtures/v1/test.ts';
import { check, notJudged } from '../../lib/check.ts';
import { assertProperty } from '../../fixtures/property.ts';
import { nodeId } from '../../lib/ws/arbitraries.ts';
import { runPrompt } from '../../lib/v1/run.ts';
import { idsWorkflow } from '../../lib/v1/workflows.ts';
import type { DecodedFrame } from '../../lib/ws/frames.ts';
import { textOf } from '../../lib/values.ts';

test.describe('Events', () => {
  test(
    'any node id comes back intact: in executing messages, and in the TEXT frame of its node',
    rules('WS.MESSAGE.FIELDS', 'WS.BINARY.TEXT'),
    async ({ v1, requireScenario, profile }, testInfo) => {
      const textClass = requireScenario('text_node_class', 'a node class that sends TEXT frames') as string;
      const ids = fc.uniqueArray(nodeId, { minLength: 3, maxLength: 3, selector: (s) => s });
      // Each run is a whole job; the quick profile keeps it to a handful.
      await assertProperty(
        testInfo,
        { ...profile, numRuns: Math.min(profile.numRuns, profile.name === 'full' ? 40 : 6) },
        ids,
        async ([img, save, txt]) => {
          const text = `conformance ${randomUUID()}`;
          const prompt = {
            ...idsWorkflow(v1.classes, img, save, `conformance-v1-ids-${randomUUID().slice(0, 8)}`),
            [txt]: { class_type: textClass, inputs: { text } },
          };
          const run = await runPrompt(v1, prompt, { expect: 'success', rule: 'WS.MESSAGE.FIELDS' });
          // Every node id a message names (executing, progress, executed, or execution_cached for a
          // node skipped because cached) is one of the prompt's own, byte for byte. The seed does
          // not say which messages a run sends, so a node no message names is not a failure.
          const ours = [img, save, txt];
          const named = new Set(
            run.stream.messages.flatMap((m) =>
              m.type === 'execution_cached' && Array.isArray(m.data.nodes)
                ? m.data.nodes.map((v) => textOf(v))
                : ['executing', 'progress', 'executed'].includes(m.type) && m.data.node != null
                  ? [textOf(m.data.node)]
                  : [],
            ),
          );
          if (named.size === 0)
            notJudged(
              'WS.MESSAGE.FIELDS',
              `no message of prompt ${run.promptId} named a node, so no node id was seen come back`,
            );
          else
            check(
              'WS.MESSAGE.FIELDS',
              [...named].every((id) => ours.includes(id)),
              {
                what: 'the node ids the messages name',
                expected: `ids among ${JSON.stringify(ours)}, intact`,
                received: JSON.stringify([...named]),
              },
            );
          const frames = run.session
            .frames()
            .filter(
              (f): f is Extract<DecodedFrame, { frame_type: 3 }> =>
                f.frame_type === 3 && f.text.endsWith(text.slice(-36)),
            );
          check(
            'WS.BINARY.TEXT',
            frames.some((f) => f.node_id === txt && f.text === text),
            {
              what: 'the TEXT frame of the text node',
              expected: `node id ${JSON.stringify(txt)} and text ${JSON.stringify(text)}`,
              received: frames.map((f) => ({ node_id: f.node_id, text: f.text })),
            },
          );
        },
      );
    },
  );
});
