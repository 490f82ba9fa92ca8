// Seed W § v1 cloud operations (deprecated): object_info, uploads, prompt submission,
// the flat namespace, parallel submissions, and /api/view's signed redirect.
import { randomUUID } from 'node:crypto';
import { test, rules } from '../../fixtures/v1/test.ts';
import { check, ensure, notJudged, precondition } from '../../lib/check.ts';
import { uniquePng } from '../../lib/data/png.ts';
import { imageKind } from '../../lib/ws/frames.ts';
import { maxOverlap, overLimitMs, PARALLEL_CROSSOVER_MS, runningIntervals } from '../../lib/v1/parallel.ts';
import { outputsOf, runPrompt } from '../../lib/v1/run.ts';
import {
  feedsSaveWorkflow,
  loadInvertWorkflow,
  savePreviewWorkflow,
  saveWorkflow,
  slowWorkflow,
} from '../../lib/v1/workflows.ts';
import { show } from '../../lib/violations.ts';
import { isPlainObject } from '../../lib/values.ts';

const prefix = (what: string): string => `conformance-v1-${what}-${randomUUID().slice(0, 8)}`;

test.describe('v1 cloud operations (deprecated)', () => {
  test(
    'every answer has a status, media type, body and headers the contract declares for its operation',
    rules('V1.CONTRACT.STATUS_DECLARED', 'V1.CONTRACT.BODY', 'V1.CONTRACT.HEADERS', 'V1.CONTRACT.ERROR_BODY'),
    async ({ v1 }) => {
      // Each call is validated by the api fixture; this test only touches every operation once,
      // and two refusals (a missing file, an upload without its image part) whose bodies, if any, are judged.
      await v1.objectInfo();
      const run = await runPrompt(v1, saveWorkflow(v1.classes, prefix('contract')), {
        expect: 'success',
        rule: 'V1.PROMPT.SUBMIT',
      });
      const [out] = outputsOf(run.stream);
      precondition('V1.CONTRACT.HEADERS', out !== undefined, {
        what: 'the executed messages of EmptyImage -> SaveImage',
        expected: 'an output entry to view (its 302 carries Location)',
        received: run.stream.messages.map((m) => m.type),
      });
      await v1.view({ filename: out.filename, type: out.type, subfolder: out.subfolder });
      await v1.view({ filename: `missing-${randomUUID()}.png`, type: 'output' });
      await v1.api.call('uploadImage', { form: [['type', 'input']] });
    },
  );

  test(
    'GET /api/object_info answers an object keyed by node class name, each value including input.required',
    rules('V1.OBJECT_INFO'),
    async ({ v1 }) => {
      const info = await v1.objectInfo();
      check('V1.OBJECT_INFO', Object.keys(info).length > 0, {
        what: 'the object_info body',
        expected: 'at least one node class',
        received: Object.keys(info).length,
      });
      // The seed names no class (W:131:1eb7d0e9e41a): which classes a target has is its own, and the
      // classes the suite's prompts use are scenario inputs. Every entry is judged as it is.
      const bad = Object.entries(info).filter(
        ([, node]) => !isPlainObject(node) || !isPlainObject(node.input) || !isPlainObject(node.input.required),
      );
      check('V1.OBJECT_INFO', bad.length === 0, {
        what: `the ${Object.keys(info).length} object_info entries`,
        expected: 'each a description whose input.required is an object of input names',
        received: bad.slice(0, 5).map(([cls, node]) => `${cls}: ${show(node, 120)}`),
      });
    },
  );

  test('POST /api/upload/image answers name and subfolder', rules('V1.UPLOAD.IMAGE'), async ({ v1 }) => {
    // The seed gives the answer's shape only (W:132:48a3d961e570); what a name is good for is
    // not stated there (the flat namespace check, V1.NAMESPACE.FLAT, runs a name as an input).
    const up = await v1.uploadImage(uniquePng(6, 6), { type: 'input', overwrite: 'true' });
    check('V1.UPLOAD.IMAGE', typeof up.name === 'string' && up.name.length > 0 && typeof up.subfolder === 'string', {
      what: 'the upload answer',
      expected: '{name: string, subfolder: string}',
      received: up,
    });
    // The form's type takes `temp` for temporary files too (W:132:48a3d961e570).
    const temp = await v1.upload(uniquePng(6, 6), { type: 'temp', overwrite: 'true' });
    check('V1.UPLOAD.IMAGE', temp.status >= 200 && temp.status < 300, {
      what: 'POST /api/upload/image with type=temp',
      expected: 'a success (200) with name and subfolder',
      received: `${temp.status} ${show(temp.body.toString('utf8'), 200)}`,
    });
    const t = temp.json<{ name?: unknown; subfolder?: unknown }>();
    check('V1.UPLOAD.IMAGE', typeof t.name === 'string' && t.name.length > 0 && typeof t.subfolder === 'string', {
      what: 'the answer of a type=temp upload',
      expected: '{name: string, subfolder: string}',
      received: t,
    });
  });

  test(
    'POST /api/upload/mask takes original_ref as a JSON-encoded string and answers name and subfolder',
    rules('V1.UPLOAD.MASK'),
    async ({ v1 }) => {
      const original = await v1.uploadImage(uniquePng(6, 6));
      const ref = JSON.stringify({ filename: original.name, subfolder: original.subfolder, type: 'input' });
      const res = await v1.upload(
        uniquePng(6, 6),
        { type: 'input', subfolder: 'clipspace', original_ref: ref },
        'uploadMask',
      );
      // The seed shows the answer's JSON, not its status: any success.
      check('V1.UPLOAD.MASK', res.status >= 200 && res.status < 300, {
        what: 'POST /api/upload/mask with original_ref as a JSON string',
        expected: 'a success (200) with name and subfolder',
        received: `${res.status} ${show(res.body.toString('utf8'), 200)}`,
      });
      const body = res.json<{ name?: unknown; subfolder?: unknown }>();
      ensure(
        'V1.UPLOAD.MASK',
        typeof body.name === 'string' && body.name.length > 0 && typeof body.subfolder === 'string',
        { what: 'the mask upload answer', expected: '{name: string, subfolder: string}', received: body },
      );
      // The subfolder is accepted and ignored (W:133:ac68dfd5ba49): the answered name alone finds
      // the mask, as a prompt loading it by that name shows.
      const run = await runPrompt(v1, loadInvertWorkflow(v1.classes, body.name, prefix('mask')), {
        expect: 'success',
        rule: 'V1.UPLOAD.MASK',
      });
      check('V1.UPLOAD.MASK', outputsOf(run.stream).length > 0, {
        what: `a prompt loading the mask by its answered name ${String(body.name)} (uploaded with subfolder clipspace)`,
        expected: 'runs through with an output (the subfolder plays no part in finding it)',
        received: run.stream.messages.map((m) => m.type),
      });
    },
  );

  test(
    'POST /api/prompt answers a prompt_id (string) for an API-format workflow',
    rules('V1.PROMPT.SUBMIT'),
    async ({ v1 }) => {
      const prompt = saveWorkflow(v1.classes, prefix('submit'));
      const { outcome, res } = await v1.submit(prompt);
      // A class or input name of the suite's choosing the engine lacks: the input is to change, not the rule broken.
      const refused = outcome.kind === 'accepted' ? undefined : v1.setupRefusal(res, prompt);
      if (refused) throw refused;
      check('V1.PROMPT.SUBMIT', outcome.kind === 'accepted', {
        what: 'POST /api/prompt of EmptyImage -> SaveImage',
        expected: '200 {prompt_id} without error',
        received: `${res.status} ${show(res.json<unknown>())}`,
      });
    },
  );

  test(
    'a 200 from /api/prompt may still carry error: a refused prompt carries error and clients check it before reading prompt_id',
    rules('V1.PROMPT.REFUSAL_ERROR'),
    async ({ v1 }) => {
      const unknownClass = `ConformanceNoSuchNode${randomUUID().slice(0, 8)}`;
      const { outcome, res } = await v1.submit({ '1': { class_type: unknownClass, inputs: {} } });
      // Refused either way (4xx, or 200 with error); what may not happen is a bare prompt_id for a job that is not there.
      check('V1.PROMPT.REFUSAL_ERROR', outcome.kind === 'refused', {
        what: `a prompt whose only node is of the unknown class ${unknownClass}`,
        expected: 'a refusal carrying error (on a 4xx or on a 200)',
        received: `${res.status} ${show(res.json<unknown>())}`,
      });
    },
  );

  test(
    "a graph with partner nodes runs with the caller's key in extra_data.api_key_svc_org, and does not succeed without it",
    rules('V1.PROMPT.PARTNER_KEY'),
    async ({ v1, requireScenario }) => {
      const cls = requireScenario('partner_node_class', 'a partner node class') as string;
      const inputs =
        (requireScenario('partner_node_inputs', 'the inputs of the partner node') as Record<string, unknown>) ?? {};
      const prompt = feedsSaveWorkflow(v1.classes, cls, inputs, prefix('partner'));
      const withKey = await runPrompt(v1, prompt, {
        expect: 'success',
        rule: 'V1.PROMPT.PARTNER_KEY',
        extraData: { [v1.partnerKeyField]: v1.key },
      });
      check('V1.PROMPT.PARTNER_KEY', withKey.polled.kind === 'success', {
        what: `the partner graph with extra_data.${v1.partnerKeyField}`,
        expected: 'a successful run',
        received: withKey.polled.status,
      });
      const { outcome, res } = await v1.submit(prompt);
      const refused = outcome.kind === 'accepted' ? undefined : v1.setupRefusal(res, prompt);
      if (refused) throw refused;
      // Refused at once, or accepted and then failed: either way it does not succeed.
      const ended = outcome.kind === 'accepted' ? await v1.pollToTerminal(outcome.promptId) : undefined;
      const received = ended
        ? `accepted, then ${ended.status} (seen ${ended.seen.join(' → ')})`
        : `${res.status} refused: ${show(res.json<unknown>())}`;
      check('V1.PROMPT.PARTNER_KEY', ended === undefined || ended.kind === 'failure', {
        what: `the partner graph submitted without extra_data.${v1.partnerKeyField}`,
        expected: 'refused, or a failed job',
        received,
      });
    },
  );

  test(
    'several workflows submitted without waiting run in parallel up to the tier limit and the rest queue, all finishing',
    rules('V1.PROMPT.PARALLEL_QUEUE'),
    async ({ v1, requireScenario }) => {
      const slow = requireScenario('slow_node_class', 'a slow node class') as string;
      // A key of its own, if the target gives one, keeps other checks from taking the tier's slots.
      const key = (v1.target.scenario.parallel_token as string | undefined) ?? v1.key;
      const limit = v1.target.scenario.parallel_limit as number | undefined;
      const client = v1.withKey(key);
      // Two more than the tier runs at once, so some must queue.
      const count = Math.min(8, Math.max(3, (limit ?? 1) + 2));
      const session = await client.openStream();
      try {
        // Each prompt is its own work (slowWorkflow: a colour of its own), so no engine finishes one from another's result.
        const prompts = Array.from({ length: count }, (_, i) =>
          slowWorkflow(client.classes, slow, 1, prefix(`parallel${i}`)),
        );
        const submitted = await Promise.all(prompts.map((p) => client.submit(p)));
        for (const [i, { outcome, res }] of submitted.entries()) {
          const refused = outcome.kind === 'accepted' ? undefined : client.setupRefusal(res, prompts[i]);
          if (refused) throw refused;
          check('V1.PROMPT.PARALLEL_QUEUE', outcome.kind === 'accepted', {
            what: `prompt ${i + 1} of ${count} submitted without waiting`,
            expected: 'accepted (200 {prompt_id}); extra jobs queue',
            received: `${res.status} ${show(res.json<unknown>())}`,
          });
        }
        const ids = submitted.flatMap((s) => (s.outcome.kind === 'accepted' ? [s.outcome.promptId] : []));
        precondition('V1.PROMPT.PARALLEL_QUEUE', ids.length === count, {
          what: `the ${count} prompts submitted without waiting`,
          expected: 'all accepted, to watch them run',
          received: `${ids.length} accepted`,
        });
        const ends = await Promise.all(ids.map((id) => client.pollToTerminal(id, 2 * client.api.bounds.jobDeadlineMs)));
        for (const [i, end] of ends.entries()) {
          check('V1.PROMPT.PARALLEL_QUEUE', end.kind === 'success', {
            what: `prompt ${ids[i]} (${i + 1} of ${count})`,
            expected: 'a successful terminal status once its turn came',
            received: `${end.status} (seen ${end.seen.join(' → ')})`,
          });
        }
        for (const id of ids) await session.streamOf(id);
        const intervals = runningIntervals(session.received, ids);
        precondition('V1.PROMPT.PARALLEL_QUEUE', intervals.length === ids.length, {
          what: `the stream of the ${count} prompts`,
          expected: "each prompt's execution_start and terminal message, to time it",
          received: `${intervals.length} of ${ids.length} timed`,
        });
        const together = maxOverlap(intervals);
        const shown = intervals
          .map((i) => `${i.promptId.slice(0, 8)} ${i.start - intervals[0].start}..${i.end - intervals[0].start} ms`)
          .join('; ');
        if (limit === undefined) {
          // Without the tier's limit nothing tells a server that ignores tiers (all at once) from a
          // large tier, nor a tier of one from a server that runs nothing in parallel: the part of
          // the rule about the cap is not judged; that every prompt was taken and ran is (above).
          notJudged(
            'V1.PROMPT.PARALLEL_QUEUE',
            `the target names no tier limit (scenario input parallel_limit), so how many of the ` +
              `${count} prompts may run at once is unknown (${together} ran at once: ${shown})`,
          );
        } else {
          check('V1.PROMPT.PARALLEL_QUEUE', together >= Math.min(limit, count), {
            what: `the ${count} prompts on the stream (execution_start to terminal message)`,
            expected: `${Math.min(limit, count)} running at once (the tier's limit is ${limit})`,
            received: `at most ${together} at once: ${shown}`,
          });
          // The other half: the ones past the limit queue, so no more than the limit run at once
          // (a short crossover of one prompt's end and the next one's start is not counted).
          const over = overLimitMs(intervals, limit);
          check('V1.PROMPT.PARALLEL_QUEUE', over <= PARALLEL_CROSSOVER_MS, {
            what: `the ${count} prompts on the stream (execution_start to terminal message)`,
            expected: `no more than the tier's limit of ${limit} running at once (past a ${PARALLEL_CROSSOVER_MS} ms crossover)`,
            received: `more than ${limit} at once for ${over} ms (at most ${together}): ${shown}`,
          });
        }
      } finally {
        session.close();
      }
    },
  );

  test(
    'running workflows requires an active subscription: a prompt of an account without one does not run',
    rules('V1.PROMPT.SUBSCRIPTION'),
    async ({ v1, requireScenario }) => {
      const key = requireScenario(
        'inactive_subscription_token',
        'a key of an account without an active subscription',
      ) as string;
      const client = v1.withKey(key);
      const prompt = saveWorkflow(v1.classes, prefix('subscription'));
      const { outcome, res } = await client.submit(prompt);
      // Refused for a class or input name of the suite's choosing: that refusal says nothing about the subscription.
      const refused = outcome.kind === 'accepted' ? undefined : client.setupRefusal(res, prompt);
      if (refused) throw refused;
      // The seed says running needs a subscription (W:127:032fbcb7b0a5), not where it is enforced:
      // refused at submit (the public documents: 402 or 429 with error), or accepted and then failed.
      const ended = outcome.kind === 'accepted' ? await client.pollToTerminal(outcome.promptId) : undefined;
      const received = ended
        ? `accepted, then ${ended.status} (seen ${ended.seen.join(' → ')})`
        : `${res.status} ${show(res.json<unknown>())}`;
      check('V1.PROMPT.SUBSCRIPTION', ended === undefined ? outcome.kind === 'refused' : ended.kind === 'failure', {
        what: 'a prompt from an account without an active subscription',
        expected: 'refused with error, or accepted and then failed: never run to success',
        received,
      });
    },
  );

  test(
    'cloud file storage has no folders, each file is addressed by its content: subfolder is ignored',
    rules('V1.NAMESPACE.FLAT'),
    async ({ v1 }) => {
      const bytes = uniquePng(5, 5);
      const a = await v1.uploadImage(bytes, { type: 'input', subfolder: `conformance/${randomUUID()}` });
      const b = await v1.uploadImage(bytes, { type: 'input', subfolder: `elsewhere/${randomUUID()}` });
      check('V1.NAMESPACE.FLAT', a.name === b.name, {
        what: 'the names of the same bytes uploaded under two subfolders',
        expected: 'the same name (content-addressed; subfolder ignored)',
        received: `${a.name} and ${b.name}`,
      });
      // The name alone finds the file: no subfolder travels with it.
      const run = await runPrompt(v1, loadInvertWorkflow(v1.classes, a.name, prefix('flat')), {
        expect: 'success',
        rule: 'V1.NAMESPACE.FLAT',
      });
      const [out] = outputsOf(run.stream);
      precondition('V1.NAMESPACE.FLAT', out !== undefined, {
        what: `the executed messages of prompt ${run.promptId}`,
        expected: 'an output entry to view',
        received: run.stream.messages.map((m) => m.type),
      });
      const res = await v1.view({ filename: out.filename, type: out.type, subfolder: `no/such/${randomUUID()}` });
      // Whether it redirects is V1.VIEW.REDIRECT's question; here only that the file is found.
      check('V1.NAMESPACE.FLAT', res.status < 400, {
        what: 'GET /api/view of an output with an unrelated subfolder',
        expected: 'the file (subfolder ignored)',
        received: res.status,
      });
    },
  );

  test('GET /api/view answers 302 whose Location is a signed URL', rules('V1.VIEW.REDIRECT'), async ({ v1 }) => {
    const run = await runPrompt(v1, saveWorkflow(v1.classes, prefix('view')), {
      expect: 'success',
      rule: 'V1.VIEW.REDIRECT',
    });
    const [out] = outputsOf(run.stream);
    ensure('V1.VIEW.REDIRECT', out !== undefined, {
      what: 'the executed messages of EmptyImage -> SaveImage',
      expected: 'an output entry to view',
      received: run.stream.messages.map((m) => m.type),
    });
    const res = await v1.view({ filename: out.filename, type: out.type, subfolder: out.subfolder });
    check('V1.VIEW.REDIRECT', res.status === 302 && typeof res.header('location') === 'string', {
      what: `GET /api/view?filename=${out.filename}&type=${out.type}`,
      expected: '302 with Location',
      received: `${res.status} ${res.header('content-type') ?? ''}`,
    });
  });

  test(
    'the Location of /api/view is fetched without the API key and serves the file',
    rules('V1.VIEW.SIGNED_OPENABLE'),
    async ({ v1 }) => {
      const run = await runPrompt(v1, saveWorkflow(v1.classes, prefix('signed')), {
        expect: 'success',
        rule: 'V1.VIEW.SIGNED_OPENABLE',
      });
      const [out] = outputsOf(run.stream);
      precondition('V1.VIEW.SIGNED_OPENABLE', out !== undefined, {
        what: `the executed messages of prompt ${run.promptId}`,
        expected: 'an output entry to view',
        received: run.stream.messages.map((m) => m.type),
      });
      const res = await v1.view({ filename: out.filename, type: out.type });
      const location = res.header('location');
      // Whether /api/view redirects is V1.VIEW.REDIRECT's question; without a redirect there is no signed URL to open.
      if (res.status !== 302 || !location)
        return notJudged(
          'V1.VIEW.SIGNED_OPENABLE',
          `GET /api/view answered ${res.status}${location ? '' : ' without Location'}, so there was ` +
            `no signed URL to open (V1.VIEW.REDIRECT judges the redirect)`,
        );
      const fetched = await v1.api.follow(location, { auth: 'none' });
      check('V1.VIEW.SIGNED_OPENABLE', fetched.status === 200 && imageKind(fetched.body) === 'png', {
        what: 'the Location fetched without X-API-Key',
        expected: '200 with the PNG output',
        received: `${fetched.status} ${fetched.header('content-type') ?? ''} ${fetched.body.subarray(0, 8).toString('hex')}`,
      });
    },
  );

  test(
    'type=output serves final outputs and type=temp serves previews, as the executed messages name them',
    rules('V1.VIEW.OUTPUT_TEMP'),
    async ({ v1 }) => {
      const run = await runPrompt(v1, savePreviewWorkflow(v1.classes, prefix('kinds')), {
        expect: 'success',
        rule: 'V1.VIEW.OUTPUT_TEMP',
      });
      const saved = outputsOf(run.stream, '2');
      const previews = outputsOf(run.stream, '3');
      check('V1.VIEW.OUTPUT_TEMP', saved.length > 0 && saved.every((o) => o.type === 'output'), {
        what: 'the SaveImage outputs named by executed',
        expected: 'entries of type output',
        received: saved,
      });
      check('V1.VIEW.OUTPUT_TEMP', previews.length > 0 && previews.every((o) => o.type === 'temp'), {
        what: 'the PreviewImage outputs named by executed',
        expected: 'entries of type temp',
        received: previews,
      });
      for (const o of [saved[0], previews[0]]) {
        const res = await v1.view({ filename: o.filename, type: o.type, subfolder: o.subfolder });
        // Found is this rule; how it is served (302 to a signed URL) is V1.VIEW.REDIRECT's.
        check('V1.VIEW.OUTPUT_TEMP', res.status < 400, {
          what: `GET /api/view?filename=${o.filename}&type=${o.type}`,
          expected: 'the file (302 to it)',
          received: res.status,
        });
      }
    },
  );
});
