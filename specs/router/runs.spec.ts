// Seed R § What the service does; Endpoints › POST /v2/models/{provider}/{model}
// (synchronous run): native output, nosniff, bytes models, credits and spend headers,
// reject_unknown_fields, the model named by the body, and how the video family bills.
import { test, rules } from '../../fixtures/test.ts';
import { check, ensure, notJudged } from '../../lib/check.ts';
import { formatScaled, parseDecimal } from '../../lib/router/decimal.ts';
import { creditsFigures, type Quote } from '../../lib/router/estimate.ts';
import {
  asRecord,
  describe,
  errorTypeOf,
  hdr,
  jsonOf,
  modelRef,
  path,
  type ModelRef,
} from '../../lib/router/models.ts';
import type { ApiClient, ApiResponse } from '../../lib/api.ts';
import { setTimeout as delay } from 'node:timers/promises';
import { imageBody, modelNamingBody } from '../../lib/router/bodies.ts';
import { minimalBody, modelDocument, validatorFor } from '../../lib/router/schema-doc.ts';
import { formatAjvErrors, isJsonMedia } from '../../lib/contracts/validate.ts';
import { SuiteError } from '../../lib/violations.ts';
import { textOf } from '../../lib/values.ts';

/**
 * A scenario model with a body whose authored input schema allows undeclared top-level
 * fields (read from its own document), if the target names one.
 */
async function openSchemaModel(
  api: ApiClient,
  scenario: Record<string, unknown>,
): Promise<{ m: ModelRef; body: Record<string, unknown> } | undefined> {
  for (const [model, body] of [
    ['video_model', 'video_body'],
    ['text_model', 'text_body'],
  ] as const) {
    const id = scenario[model];
    const b = asRecord(scenario[body]);
    if (typeof id !== 'string' || b === undefined) continue;
    const m = modelRef(id);
    // A document this check cannot read leaves the model out (the schema rules judge the route).
    const doc = await modelDocument(api, m).catch((err: unknown) => {
      if (err instanceof SuiteError) return undefined;
      throw err;
    });
    if (doc?.input !== undefined && doc.authored !== false && doc.input.additionalProperties !== false)
      return { m, body: structuredClone(b) };
  }
  return undefined;
}

test.describe('Synchronous run', () => {
  test(
    'a valid native body to a JSON model answers 200 with a native JSON object',
    rules('ROUTER.RUN.NATIVE'),
    async ({ api, requireScenario }) => {
      const m = modelRef(requireScenario('image_model', 'JSON model') as string);
      const res = await api.call('runModel', { path: path(m), json: imageBody(requireScenario) });
      check('ROUTER.RUN.NATIVE', res.status === 200, {
        what: `a run of ${m.id}`,
        expected: '200',
        received: describe(api, res),
      });
      check('ROUTER.RUN.NATIVE', isJsonMedia(res.header('content-type')) && jsonOf(res) !== undefined, {
        what: `the output of ${m.id}`,
        expected: 'a JSON object under a JSON media type',
        received: res.header('content-type'),
      });
    },
  );

  test(
    "a run's JSON output matches the output schema its document authors",
    rules('ROUTER.RUN.OUTPUT_SCHEMA'),
    async ({ api, requireScenario }) => {
      const m = modelRef(requireScenario('image_model', 'JSON model') as string);
      const doc = await modelDocument(api, m);
      const authored = doc.output.find((o) => isJsonMedia(o.mediaType) && o.schema !== undefined);
      if (authored === undefined) {
        notJudged(
          'ROUTER.RUN.OUTPUT_SCHEMA',
          `the document of ${m.id} authors no JSON output schema (output schemas are optional)`,
        );
        return;
      }
      const res = await api.call('runModel', { path: path(m), json: minimalBody(doc.input) });
      ensure('ROUTER.RUN.SCHEMA_BODIES', res.status === 200, {
        what: `a run of ${m.id} with the least body its input schema allows`,
        expected: '200',
        received: describe(api, res),
        on: res,
      });
      const validate = validatorFor(authored.schema!);
      check('ROUTER.RUN.OUTPUT_SCHEMA', validate(res.json<unknown>()), {
        what: `the output of ${m.id} against its authored output schema`,
        expected: 'valid',
        received: formatAjvErrors(validate.errors),
      });
    },
  );

  test(
    'every successful run carries X-Content-Type-Options nosniff',
    rules('ROUTER.RUN.NOSNIFF'),
    async ({ api, requireScenario }) => {
      const image = modelRef(requireScenario('image_model', 'JSON model') as string);
      const bytes = modelRef(requireScenario('bytes_model', 'model whose partner answers with bytes') as string);
      const runs = [
        ['ROUTER.RUN.NATIVE', await api.call('runModel', { path: path(image), json: imageBody(requireScenario) })],
        [
          'ROUTER.RUN.BYTES',
          await api.call('runModel', {
            path: path(bytes),
            json: requireScenario('bytes_body', 'body for the bytes model') as Record<string, unknown>,
          }),
        ],
      ] as const;
      for (const [rule, res] of runs) {
        // nosniff is judged on successful runs; a valid run that fails breaks its own rule.
        ensure(rule, res.status === 200, {
          what: `a run of ${res.url}`,
          expected: '200',
          received: describe(api, res),
          on: res,
        });
        check('ROUTER.RUN.NOSNIFF', res.header('x-content-type-options') === 'nosniff', {
          what: 'X-Content-Type-Options of a successful run',
          expected: 'nosniff',
          received: res.header('x-content-type-options') ?? 'absent',
        });
      }
    },
  );

  test(
    "a bytes-returning model answers 200 with the bytes under the partner's own non-JSON media type",
    rules('ROUTER.RUN.BYTES'),
    async ({ api, requireScenario }) => {
      const m = modelRef(requireScenario('bytes_model', 'model whose partner answers with bytes') as string);
      const res = await api.call('runModel', {
        path: path(m),
        json: requireScenario('bytes_body', 'body for the bytes model') as Record<string, unknown>,
      });
      check('ROUTER.RUN.BYTES', res.status === 200, {
        what: `a run of ${m.id}`,
        expected: '200',
        received: describe(api, res),
      });
      const type = res.header('content-type') ?? '';
      check('ROUTER.RUN.BYTES', type !== '' && !isJsonMedia(type) && res.body.length > 0, {
        what: `the answer of ${m.id}`,
        expected: "bytes under the partner's own media type (not JSON)",
        received: `${res.body.length} bytes of ${type || 'no type'}`,
      });
    },
  );

  test(
    "a run whose quote is exact carries X-Svc-Credits-Used equal to the quote's credits",
    rules('ROUTER.RUN.CREDITS_USED'),
    async ({ api, requireScenario }) => {
      const m = modelRef(requireScenario('image_model', 'JSON model') as string);
      // One call: a run of several billed calls is ROUTER.RUN.CREDITS_SUM's to judge.
      const body = imageBody(requireScenario);
      const quote = (await api.call('estimateModel', { path: path(m), json: body })).json<Quote>();
      if (quote.source !== 'exact') {
        // The seed ties the header to a figure only for an exact quote (R:51:ad9a5652bd3b); another source leaves nothing to compare.
        notJudged(
          'ROUTER.RUN.CREDITS_USED',
          `the quote of ${m.id} is ${textOf(quote.source)}${quote.reason ? ` (${textOf(quote.reason)})` : ''}, not exact, so there is no figure to compare`,
        );
        return;
      }
      const run = await api.call('runModel', { path: path(m), json: body });
      ensure('ROUTER.RUN.NATIVE', run.status === 200, {
        what: `a run of ${m.id}`,
        expected: '200',
        received: describe(api, run),
        on: run,
      });
      const header = run.header(hdr(api, 'credits-used'));
      const got = header === undefined ? undefined : parseDecimal(header.trim());
      // The quote's credits, or, when it carries none, its amount in credits (the figure the header carries).
      const want = creditsFigures(quote);
      check('ROUTER.RUN.CREDITS_USED', got !== undefined && want !== undefined && want.figures.includes(got), {
        what: `${hdr(api, 'credits-used')} of the run`,
        expected: `${want?.shown ?? 'the credits of the exact quote'} (the exact quote's credits)`,
        received: header ?? 'absent',
      });
    },
  );

  test(
    'X-Svc-Credits-Used adds up every billed provider call behind the request',
    rules('ROUTER.RUN.CREDITS_SUM'),
    async ({ api, requireScenario }) => {
      const m = modelRef(requireScenario('image_model', 'JSON model') as string);
      const multi = requireScenario(
        'multi_call_body',
        'a body the provider serves with several billed calls, each like one call of image_body',
      ) as Record<string, unknown>;
      const n = Number(requireScenario('multi_call_count', 'how many billed calls multi_call_body makes'));
      if (!Number.isInteger(n) || n < 2)
        throw new SuiteError(`scenario input multi_call_count must be an integer of at least 2, got ${String(n)}`);
      const one = await api.call('runModel', { path: path(m), json: imageBody(requireScenario) });
      ensure('ROUTER.RUN.NATIVE', one.status === 200, {
        what: `a run of ${m.id} with image_body`,
        expected: '200',
        received: describe(api, one),
        on: one,
      });
      const many = await api.call('runModel', { path: path(m), json: multi });
      ensure('ROUTER.RUN.NATIVE', many.status === 200, {
        what: `a run of ${m.id} with multi_call_body`,
        expected: '200',
        received: describe(api, many),
        on: many,
      });
      const name = hdr(api, 'credits-used');
      const single = parseDecimal(one.header(name)?.trim() ?? '');
      if (single === undefined || single === 0n) {
        notJudged(
          'ROUTER.RUN.CREDITS_SUM',
          `one call's ${name} is ${one.header(name) ?? 'absent'}, so the calls of a longer run cannot ` +
            `be counted in the header (ROUTER.RUN.CREDITS_USED judges the header of an exact quote)`,
        );
        return;
      }
      const raw = many.header(name);
      const total = parseDecimal(raw?.trim() ?? '');
      // Rounding to 2 decimals, per call or of the total, moves the sum by far less than half a
      // call: the header is the sum when it is nearer n calls' credits than n-1 or n+1.
      const sum = single * BigInt(n);
      const off = total === undefined ? undefined : total > sum ? total - sum : sum - total;
      check('ROUTER.RUN.CREDITS_SUM', off !== undefined && off * 2n < single, {
        what: `${name} of a run of ${m.id} making ${n} billed calls`,
        expected: `the sum of ${n} calls, about ${n} × ${one.header(name) ?? ''}`,
        received: raw ?? 'absent',
        on: many,
      });
    },
  );

  test(
    'the committed-spend headers a run carries are integer cents, and remaining is the limit minus the current commitment',
    rules('ROUTER.RUN.SPEND_HEADERS'),
    async ({ api, requireScenario }) => {
      const m = modelRef(requireScenario('image_model', 'JSON model') as string);
      const res = await api.call('runModel', { path: path(m), json: { ...imageBody(requireScenario), num_images: 2 } });
      ensure('ROUTER.RUN.NATIVE', res.status === 200, {
        what: `a run of ${m.id}`,
        expected: '200',
        received: describe(api, res),
        on: res,
      });
      // The 200 lists the headers a run may carry (a fallback or replay header only when it applies);
      // the seed says the 429s carry the spend headers, not that every 200 does.
      const sent = (['limit', 'current', 'remaining'] as const)
        .map((k) => [k, res.header(`x-committed-spend-${k}`)] as const)
        .filter((e): e is readonly [(typeof e)[0], string] => e[1] !== undefined);
      if (sent.length === 0) {
        notJudged(
          'ROUTER.RUN.SPEND_HEADERS',
          `the run of ${m.id} carries no committed-spend headers (the seed does not say every 200 does)`,
        );
        return;
      }
      for (const [k, v] of sent)
        check('ROUTER.RUN.SPEND_HEADERS', /^\d+$/.test(v.trim()), {
          what: `X-Committed-Spend-${k[0].toUpperCase()}${k.slice(1)} of the run`,
          expected: 'integer US cents, at least 0',
          received: v,
        });
      const got = Object.fromEntries(sent) as Partial<Record<'limit' | 'current' | 'remaining', string>>;
      if (got.limit === undefined || got.current === undefined || got.remaining === undefined) {
        notJudged(
          'ROUTER.RUN.SPEND_HEADERS',
          `the run carries only ${sent.map(([k]) => k).join(', ')} of the three, so remaining cannot be set against limit and current`,
        );
        return;
      }
      const expected = Math.max(0, Number(got.limit) - Number(got.current));
      check('ROUTER.RUN.SPEND_HEADERS', Number(got.remaining) === expected, {
        what: 'X-Committed-Spend-Remaining',
        expected: `${expected} (limit ${got.limit} − current ${got.current}, at least 0)`,
        received: got.remaining,
      });
    },
  );

  test(
    'committed spend is held from admission to the end of a call: X-Committed-Spend-Current counts the calls in flight and does not grow once they ended',
    rules('ROUTER.RUN.SPEND_RESERVED'),
    async ({ api, requireScenario }) => {
      // The in-flight-limited caller: no other check runs with it, and its 429s carry the spend headers (R:166).
      const crowded = api.as({
        bearer: requireScenario('concurrency_limited_token', 'a workspace with a small in-flight call limit') as string,
      });
      const limit = Number(
        requireScenario('concurrency_limit', 'how many synchronous calls that workspace may have in flight'),
      );
      if (!Number.isInteger(limit) || limit < 1)
        throw new SuiteError(`scenario input concurrency_limit must be a positive integer, got ${String(limit)}`);
      const slow = modelRef(
        requireScenario('slow_model', 'a model whose calls last long enough to be seen in flight') as string,
      );
      const quick = modelRef(requireScenario('image_model', 'a JSON model') as string);
      const body = imageBody(requireScenario);
      // One round: `limit` slow calls, then calls until one is refused for the limit while they run.
      const round = async (n: number): Promise<{ current?: bigint; why?: string }> => {
        const running = Array.from({ length: limit }, () => crowded.call('runModel', { path: path(slow), json: body }));
        let refused: ApiResponse | undefined;
        for (let i = 0; i < 10 && refused === undefined; i++) {
          await delay(100);
          const res = await crowded.call('runModel', { path: path(quick), json: body });
          if (res.status === 429 && errorTypeOf(api, res) === 'concurrency_limit_exceeded') refused = res;
        }
        const ended = await Promise.all(running);
        const failed = ended.find((r) => r.status !== 200);
        if (failed !== undefined) return { why: `a slow call of round ${n} answered ${describe(api, failed)}` };
        if (refused === undefined)
          return {
            why: `no call of round ${n} was refused 429 concurrency_limit_exceeded while ${limit} slow calls of ${slow.id} ran`,
          };
        const raw = refused.header('x-committed-spend-current');
        const current = raw !== undefined && /^\d+$/.test(raw.trim()) ? BigInt(raw.trim()) : undefined;
        return current === undefined
          ? {
              why:
                `the 429 of round ${n} carries X-Committed-Spend-Current ${raw ?? 'absent'}, not integer ` +
                `cents (ROUTER.ERR.RATE_LIMITED, ROUTER.RUN.SPEND_HEADERS judge that)`,
            }
          : { current };
      };
      const first = await round(1);
      const second = first.current === undefined ? first : await round(2);
      if (first.current === undefined || second.current === undefined) {
        notJudged('ROUTER.RUN.SPEND_RESERVED', first.why ?? second.why ?? 'no reading');
        return;
      }
      // Integer cents (R:222:2af63df563cf) may round a sub-cent commitment to 0: above 0 is owed only
      // where one call is quoted exactly at a cent or more.
      const quote = (await api.call('estimateModel', { path: path(slow), json: body })).json<Quote>();
      const cents =
        quote.source === 'exact' && typeof quote.amount === 'string' ? parseDecimal(quote.amount) : undefined;
      if (cents === undefined || cents < parseDecimal('0.01')!)
        notJudged(
          'ROUTER.RUN.SPEND_RESERVED',
          `a call of ${slow.id} is quoted ` +
            (quote.source === 'exact' ? `${String(quote.amount)} dollars, under a cent` : String(quote.source)) +
            ', so whole cents in flight may read 0; only their release is judged',
        );
      else
        check('ROUTER.RUN.SPEND_RESERVED', first.current > 0n, {
          what: `X-Committed-Spend-Current while ${limit} calls of ${slow.id} run`,
          expected: `above 0 (their spend, ${String(quote.amount)} dollars a call, is reserved from admission)`,
          received: String(first.current),
        });
      check('ROUTER.RUN.SPEND_RESERVED', second.current <= first.current, {
        what: `X-Committed-Spend-Current while ${limit} new calls run, after the first ${limit} ended`,
        expected: `at most ${first.current} (the ended calls' spend was released)`,
        received: String(second.current),
      });
    },
  );

  test(
    'reject_unknown_fields refuses undeclared top-level fields only; by default, for schemas allowing them and for unauthored models they pass',
    rules('ROUTER.RUN.REJECT_UNKNOWN'),
    async ({ api, requireScenario, target }) => {
      const m = modelRef(requireScenario('image_model', 'model with an authored schema') as string);
      const doc = await modelDocument(api, m);
      const body = minimalBody(doc.input);
      const extra = { ...body, conformance_extra: 'not declared' };
      const byDefault = await api.call('runModel', { path: path(m), json: extra });
      check('ROUTER.RUN.REJECT_UNKNOWN', byDefault.status === 200, {
        what: 'an undeclared top-level field without reject_unknown_fields',
        expected: '200 (accepted)',
        received: describe(api, byDefault),
      });
      // Only a schema that does not allow undeclared fields has any to refuse (seed: nothing is refused otherwise).
      const closed = doc.input?.additionalProperties === false;
      if (closed) {
        const refused = await api.call('runModel', {
          path: path(m),
          query: { reject_unknown_fields: true },
          json: extra,
        });
        check('ROUTER.RUN.REJECT_UNKNOWN', refused.status === 422, {
          what: 'an undeclared top-level field with reject_unknown_fields=true',
          expected: '422',
          received: describe(api, refused),
        });
      } else {
        notJudged(
          'ROUTER.RUN.REJECT_UNKNOWN',
          `the input schema of ${m.id} allows undeclared fields, so the refusal of one with reject_unknown_fields=true is not judged`,
        );
      }
      const nestedKey = Object.entries(asRecord(doc.input?.properties) ?? {}).find(
        ([, s]) => asRecord(s)?.type === 'object',
      )?.[0];
      if (nestedKey !== undefined) {
        const nested = await api.call('runModel', {
          path: path(m),
          query: { reject_unknown_fields: true },
          json: { ...body, [nestedKey]: { conformance_extra: 1 } },
        });
        check('ROUTER.RUN.REJECT_UNKNOWN', nested.status === 200, {
          what: `an undeclared field nested in ${nestedKey} with reject_unknown_fields=true`,
          expected: '200 (nested fields are never checked)',
          received: describe(api, nested),
        });
      } else {
        notJudged(
          'ROUTER.RUN.REJECT_UNKNOWN',
          `the input schema of ${m.id} declares no object member, so no nested undeclared field can be sent`,
        );
      }
      // A model whose authored schema allows undeclared fields has none to refuse either (R:159:c8fb1c4e85c7).
      const open = await openSchemaModel(api, target.scenario);
      if (open !== undefined) {
        const res = await api.call('runModel', {
          path: path(open.m),
          query: { reject_unknown_fields: true },
          json: { ...open.body, conformance_extra: 'not declared' },
        });
        check('ROUTER.RUN.REJECT_UNKNOWN', res.status !== 422, {
          what: `an undeclared top-level field to ${open.m.id}, whose authored schema allows undeclared fields, with reject_unknown_fields=true`,
          expected: 'no 422 (nothing is refused for such a model)',
          received: describe(api, res),
        });
      } else {
        notJudged(
          'ROUTER.RUN.REJECT_UNKNOWN',
          'none of the scenario models with a body (video_model, text_model) has an authored schema allowing undeclared fields, so that case is not judged',
        );
      }
      const free = modelRef(requireScenario('unauthored_model', 'model without an authored schema') as string);
      const unauthored = await api.call('runModel', {
        path: path(free),
        query: { reject_unknown_fields: true },
        json: { ...imageBody(requireScenario), conformance_extra: true },
      });
      check('ROUTER.RUN.REJECT_UNKNOWN', unauthored.status !== 422, {
        what: `an undeclared field to unauthored ${free.id} with reject_unknown_fields=true`,
        expected: 'no 422',
        received: describe(api, unauthored),
      });
      const strict = requireScenario('strict_body', "a body written in the alternate provider's schema") as {
        provider: string;
        body: Record<string, unknown>;
      };
      const submit = await api.call('submitModelRequest', {
        path: path(m),
        query: { model_provider: strict.provider, strict_mode: true, reject_unknown_fields: true },
        json: { ...strict.body, conformance_extra: 'x' },
      });
      check('ROUTER.RUN.REJECT_UNKNOWN', submit.status !== 422, {
        what: 'a strict-mode queued submit with an undeclared field and reject_unknown_fields=true',
        expected: 'no 422',
        received: describe(api, submit),
      });
    },
  );

  test(
    'a body naming a model different from the path is refused 422',
    rules('ROUTER.RUN.MODEL_MISMATCH'),
    async ({ api }) => {
      // Any scenario model whose own schema has a `model` member serves (R:268 holds for every model).
      const named = await modelNamingBody(api);
      if (named === undefined) {
        notJudged(
          'ROUTER.RUN.MODEL_MISMATCH',
          'no scenario model with a body (video_model, text_model, image_model) has an input schema ' +
            'declaring a model member, so no body can name another model',
        );
        return;
      }
      const { m } = named;
      const body = { ...named.body, model: 'conformance-some-other-model' };
      const res = await api.call('runModel', { path: path(m), json: body });
      check('ROUTER.RUN.MODEL_MISMATCH', res.status === 422, {
        what: `a run of ${m.id} whose body names conformance-some-other-model`,
        expected: '422',
        received: describe(api, res),
      });
    },
  );

  test(
    'the video family bills by the media kinds present, not by their roles: any video input, wherever it stands, bills as video-to-video',
    rules('ROUTER.RUN.VIDEO_BILLING'),
    async ({ api, requireScenario }) => {
      const m = modelRef(requireScenario('video_model', 'the content[].role video family') as string);
      const text = { type: 'text', text: 'a paper boat on a river' };
      const image = (role: string) => ({
        type: 'image_url',
        image_url: { url: 'https://example.com/frame.png' },
        role,
      });
      const video = { type: 'video_url', video_url: { url: 'https://example.com/clip.mp4' }, role: 'reference_video' };
      const name = hdr(api, 'credits-used');
      // What a run costs shows in its credits-used header (R:216:b96bd1ad467b, from the billing rate card);
      // quotes are not what is charged (R:62:226c3704bba9), so they are not compared here.
      const cost = async (body: Record<string, unknown>): Promise<{ credits?: bigint; why?: string }> => {
        const res = await api.call('runModel', { path: path(m), json: body });
        if (res.status !== 200) return { why: `a run answered ${describe(api, res)}` };
        if (res.header(hdr(api, 'router-fallback-provider')) !== undefined)
          return { why: 'a run was served by fallback (billed at that leg, not native dispatch)' };
        const raw = res.header(name);
        const credits = raw === undefined ? undefined : parseDecimal(raw.trim());
        return credits === undefined
          ? { why: `a run carries ${raw === undefined ? `no ${name}` : `${name} ${raw}, not a decimal`}` }
          : { credits };
      };
      const compare = async (
        what: string,
        expected: string,
        a: Record<string, unknown>,
        b: Record<string, unknown>,
      ): Promise<void> => {
        const [x, y] = [await cost(a), await cost(b)];
        if (x.credits === undefined || y.credits === undefined)
          notJudged(
            'ROUTER.RUN.VIDEO_BILLING',
            `${what}: ${x.why ?? y.why} of ${m.id}, so the two costs cannot be compared`,
          );
        else
          check('ROUTER.RUN.VIDEO_BILLING', x.credits === y.credits, {
            what: `${name} of ${what}`,
            expected,
            received: `${formatScaled(x.credits)} and ${formatScaled(y.credits)}`,
          });
      };
      const of = (content: unknown[]): Record<string, unknown> => ({ content, duration: 5 });
      // Equalities only: the seed lets some models charge one rate for several operations, so two
      // operations costing the same proves nothing, while one operation costing two figures does.
      await compare(
        'runs with one image as first_frame and as reference_image',
        'the same credits (billed as image-to-video by media kind)',
        of([text, image('first_frame')]),
        of([text, image('reference_image')]),
      );
      await compare(
        'runs with a video input, without and with an image before it',
        'the same credits (any video input bills as video-to-video)',
        of([text, video]),
        of([text, image('first_frame'), video]),
      );
      await compare(
        'runs with a video input, without and with an image after it',
        'the same credits (any video input bills as video-to-video, wherever the image stands)',
        of([text, video]),
        of([text, video, image('first_frame')]),
      );
    },
  );

  test(
    'a final render of a draft is billed like that draft, not by what its content holds',
    rules('ROUTER.RUN.VIDEO_BILLING'),
    async ({ api, requireScenario }) => {
      const m = modelRef(requireScenario('video_model', 'the content[].role video family') as string);
      const draft = requireScenario(
        'video_draft',
        "a final render of a draft and a body billed as that draft's operation",
      ) as { render_body: unknown; draft_body: unknown };
      const [render, made] = [asRecord(draft.render_body), asRecord(draft.draft_body)];
      if (render === undefined || made === undefined)
        throw new SuiteError(
          'scenario input video_draft must hold render_body and draft_body, each a JSON object body',
        );
      const name = hdr(api, 'credits-used');
      const costs: bigint[] = [];
      for (const [what, body] of [
        ['the render', render],
        ['the run billed as its draft', made],
      ] as const) {
        const res = await api.call('runModel', { path: path(m), json: body });
        const raw =
          res.status === 200 && res.header(hdr(api, 'router-fallback-provider')) === undefined
            ? res.header(name)
            : undefined;
        const credits = raw === undefined ? undefined : parseDecimal(raw.trim());
        if (credits === undefined) {
          notJudged(
            'ROUTER.RUN.VIDEO_BILLING',
            `${what} of scenario video_draft answered ${describe(api, res)}` +
              (res.status === 200 ? ` with ${name} ${res.header(name) ?? 'absent'} (or served by fallback)` : '') +
              ', so the two costs cannot be compared',
          );
          return;
        }
        costs.push(credits);
      }
      check('ROUTER.RUN.VIDEO_BILLING', costs[0] === costs[1], {
        what: `${name} of a final render of a draft and of a run billed as that draft's operation (scenario video_draft)`,
        expected: 'the same credits (a draft_task render is billed like its draft)',
        received: `${formatScaled(costs[0])} and ${formatScaled(costs[1])}`,
      });
    },
  );
});
