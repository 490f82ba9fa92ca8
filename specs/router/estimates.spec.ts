// Seed R § Resources › Cost estimate (fields, rules 3-5, reasons); Endpoints › POST
// /v2/models/{provider}/{model}/estimate (validation, rollout, stale rate card).
import { test, rules } from '../../fixtures/test.ts';
import { check, notJudged, step } from '../../lib/check.ts';
import type { ApiClient } from '../../lib/api.ts';
import {
  amountOf,
  checkQuoteCents,
  checkQuoteCredits,
  checkQuoteDecimals,
  checkQuoteFields,
  type Quote,
} from '../../lib/router/estimate.ts';
import {
  asRecord,
  checkRouterError,
  describe,
  hdr,
  jsonOf,
  modelRef,
  path,
  type ModelRef,
} from '../../lib/router/models.ts';
import { imageBody, textBody, videoBody } from '../../lib/router/bodies.ts';
import { SuiteError } from '../../lib/violations.ts';
import { modelDocument, refusedBody } from '../../lib/router/schema-doc.ts';
import { textOf } from '../../lib/values.ts';

type Need = (key: string, why: string) => unknown;

/** R:46:b9a8304506ad: a source other than exact or estimated reads as unknown. */
const readsUnknown = (q: Quote): boolean => q.source !== 'exact' && q.source !== 'estimated';
/** R:56:372c6fe011c9: the reasons named there; any other value reads as not_quotable. */
const KNOWN_REASONS = ['not_quotable', 'unpriced_model', 'byok', 'pricing_unavailable'];
const readsNotQuotable = (reason: unknown): boolean =>
  reason === 'not_quotable' || (typeof reason === 'string' && !KNOWN_REASONS.includes(reason));

/** One quote of each source the scenarios reach: exact, estimated and unknown. */
async function sampleQuotes(api: ApiClient, requireScenario: Need): Promise<Array<[string, Quote]>> {
  const image = modelRef(requireScenario('image_model', 'model with exact prices') as string);
  const text = modelRef(requireScenario('text_model', 'model priced by output length') as string);
  const image1 = imageBody(requireScenario);
  const text1 = textBody(requireScenario);
  const quotes: Array<[string, Quote]> = [];
  const ask = async (
    what: string,
    m: ModelRef,
    body: Record<string, unknown>,
    query: Record<string, string> = {},
  ): Promise<void> => {
    const res = await api.call('estimateModel', { path: path(m), query, json: body });
    if (res.status !== 200) throw new SuiteError(`the estimate for ${what} answered ${describe(api, res)}`);
    quotes.push([what, res.json<Quote>()]);
  };
  await ask(`${image.id}, one image`, image, image1);
  await ask(`${image.id}, three images`, image, { ...image1, num_images: 3 });
  await ask(`${text.id} with max_tokens`, text, { ...text1, max_tokens: 777 });
  await ask(`${text.id} without max_tokens`, text, text1);
  return quotes;
}

test.describe('Cost estimate', () => {
  test(
    'exact quotes carry amount and cents, estimated ones min and max, unknown ones no figure; ' +
      'a reason only on unknown ones (public docs: always there); all pricing_as_of',
    rules('ROUTER.ESTIMATE.FIELDS', 'ROUTER.ESTIMATE.UNKNOWN_REASON'),
    async ({ api, requireScenario }) => {
      // Each quote by the figures its own source carries: the seed does not say which source a body gets.
      const quotes = await sampleQuotes(api, requireScenario);
      for (const [what, q] of quotes) checkQuoteFields(q, what);
      // R:52:36c68f3d4dbe says a reason comes only with unknown, not that it always does: public docs give one to every unknown quote.
      // A quote read as unknown that still carries a figure is ROUTER.ESTIMATE.FIELDS' question.
      const unknown = quotes.filter(
        ([, q]) =>
          readsUnknown(q) && q.amount === undefined && q.min_amount === undefined && q.max_amount === undefined,
      );
      for (const [what, q] of unknown)
        check('ROUTER.ESTIMATE.UNKNOWN_REASON', typeof q.reason === 'string' && q.reason !== '', {
          what: `the unknown quote of ${what}`,
          expected: 'a reason',
          received: q,
        });
      if (unknown.length === 0)
        notJudged(
          'ROUTER.ESTIMATE.UNKNOWN_REASON',
          'none of the sample quotes is unknown (the seed does not say which source a body gets)',
        );
    },
  );

  test(
    'amounts are decimal strings with no exponent and at most 8 decimals',
    rules('ROUTER.ESTIMATE.DECIMAL'),
    async ({ api, requireScenario }) => {
      for (const [what, q] of await sampleQuotes(api, requireScenario)) checkQuoteDecimals(q, what);
    },
  );

  test(
    'amount_cents is the amount in cents, unrounded',
    rules('ROUTER.ESTIMATE.CENTS'),
    async ({ api, requireScenario }) => {
      for (const [what, q] of await sampleQuotes(api, requireScenario)) checkQuoteCents(q, what);
    },
  );

  test(
    'credits are the amount times 211, rounded to 2 decimals',
    rules('ROUTER.ESTIMATE.CREDITS'),
    async ({ api, requireScenario }) => {
      for (const [what, q] of await sampleQuotes(api, requireScenario)) checkQuoteCredits(q, what);
    },
  );

  test(
    'a chargeable price below one cent is never rendered as zero',
    rules('ROUTER.ESTIMATE.SUBCENT'),
    async ({ api, requireScenario }) => {
      const m = modelRef(requireScenario('subcent_model', 'model priced below one cent') as string);
      const q = (await api.call('estimateModel', { path: path(m), json: imageBody(requireScenario) })).json<Quote>();
      // The target declares this model priced (below one cent): a quote without a figure, such as
      // unknown unpriced_model, renders that chargeable price as no price at all.
      check('ROUTER.ESTIMATE.SUBCENT', q.source === 'exact' || q.source === 'estimated', {
        what: `the quote of ${m.id}, priced below one cent (scenario subcent_model)`,
        expected: 'a figure (exact or estimated), not a missing price',
        received: { source: q.source, reason: q.reason },
      });
      const figures = q.source === 'exact' ? [q.amount] : q.source === 'estimated' ? [q.max_amount] : [];
      for (const f of figures) {
        const amount = typeof f === 'string' ? amountOf({ ...q, amount: f }) : undefined;
        // How the figure is written (an exponent, too many decimals) is ROUTER.ESTIMATE.DECIMAL's
        // question; here only its value counts, so a figure that is no plain decimal is read as a number.
        const aboveZero = amount !== undefined ? amount > 0n : typeof f === 'string' && Number(f) > 0;
        check('ROUTER.ESTIMATE.SUBCENT', aboveZero, {
          what: `the ${textOf(q.source)} figure of ${m.id}`,
          expected: 'above zero',
          received: f,
        });
      }
    },
  );

  test(
    'a quote states currency USD, the model ID and the provider leg it prices (members found by value: their names are not shown)',
    rules('ROUTER.ESTIMATE.CURRENCY_LEG'),
    async ({ api, requireScenario }) => {
      const m = modelRef(requireScenario('image_model', 'model with alternates') as string);
      const alt = requireScenario('edit_servable_provider', 'an alternate of image_model') as string;
      const body = imageBody(requireScenario);
      const native = (await api.call('estimateModel', { path: path(m), json: body })).json<Record<string, unknown>>();
      const leg = (await api.call('estimateModel', { path: path(m), query: { model_provider: alt }, json: body })).json<
        Record<string, unknown>
      >();
      // R:58:b6e8b3bc6952 shows none of the three names: each is the member holding its value.
      const holding = (q: Record<string, unknown>, value: string): string[] =>
        Object.entries(q)
          .filter(([, v]) => v === value)
          .map(([k]) => k);
      for (const [what, q, provider] of [
        ['the native quote', native, m.provider],
        [`the quote with model_provider=${alt}`, leg, alt],
      ] as const) {
        check('ROUTER.ESTIMATE.CURRENCY_LEG', holding(q, 'USD').length > 0, {
          what: `the currency of ${what}`,
          expected: 'a member holding USD',
          received: q,
        });
        check('ROUTER.ESTIMATE.CURRENCY_LEG', holding(q, m.id).length > 0, {
          what: `the model of ${what}`,
          expected: `a member holding the model ID ${m.id}`,
          received: q,
        });
        // The model ID member names the provider segment too, inside the ID: only an exact value counts.
        check('ROUTER.ESTIMATE.CURRENCY_LEG', holding(q, provider).length > 0, {
          what: `the provider leg of ${what}`,
          expected: `a member naming ${provider}`,
          received: q,
        });
        const other = provider === m.provider ? alt : m.provider;
        check('ROUTER.ESTIMATE.CURRENCY_LEG', holding(q, other).length === 0, {
          what: `the provider leg of ${what}`,
          expected: `no member naming ${other}, a leg it does not price`,
          received: q,
        });
      }
    },
  );

  test(
    'a body whose price the provider reports afterwards is quoted unknown not_quotable, ' +
      'a model the card does not price unpriced_model, and the estimate never answers the submit-only reasons',
    rules('ROUTER.ESTIMATE.REASON'),
    async ({ api, requireScenario }) => {
      const text = modelRef(requireScenario('text_model', 'model priced by output length') as string);
      const q = (await api.call('estimateModel', { path: path(text), json: textBody(requireScenario) })).json<Quote>();
      // Without max_tokens the body bounds no output, unless the model caps it itself: both readings
      // (R:56:372c6fe011c9) are accepted, a figure or unknown not_quotable, never another reason.
      // R:52 does not make reason required: an unknown quote without one passes here
      // (ROUTER.ESTIMATE.UNKNOWN_REASON reports it), one with another reason does not.
      const figured = q.source === 'exact' || q.source === 'estimated';
      // An unrecognised source reads as unknown, an unrecognised reason as not_quotable (R:46, R:56).
      check(
        'ROUTER.ESTIMATE.REASON',
        figured || (readsUnknown(q) && (readsNotQuotable(q.reason) || q.reason === undefined)),
        {
          what: `the quote of ${text.id} without max_tokens`,
          expected:
            'unknown with reason not_quotable (or one read as it), or no reason (or a figure, when the model bounds its output itself)',
          received: { source: q.source, reason: q.reason },
        },
      );
      const unpriced = modelRef(requireScenario('unpriced_model', 'a model the rate card does not price') as string);
      const u = (
        await api.call('estimateModel', { path: path(unpriced), json: imageBody(requireScenario) })
      ).json<Quote>();
      check(
        'ROUTER.ESTIMATE.REASON',
        readsUnknown(u) &&
          (u.reason === 'unpriced_model' ||
            u.reason === undefined ||
            (typeof u.reason === 'string' && !KNOWN_REASONS.includes(u.reason))),
        {
          what: `the quote of ${unpriced.id}, which the rate card does not price`,
          expected: 'unknown, reason unpriced_model (or no reason, or one of its own)',
          received: { source: u.source, reason: u.reason },
        },
      );
      for (const [what, quote] of await sampleQuotes(api, requireScenario)) {
        check('ROUTER.ESTIMATE.REASON', quote.reason !== 'byok' && quote.reason !== 'pricing_unavailable', {
          what: `reason of ${what}`,
          expected: 'not byok or pricing_unavailable (queued submit only)',
          received: quote.reason,
        });
      }
    },
  );

  test(
    'the estimate cannot tell an own-key call apart and quotes a figure anyway',
    rules('ROUTER.ESTIMATE.NO_BYOK_DETECTION'),
    async ({ api, requireScenario }) => {
      const m = modelRef(requireScenario('image_model', 'model with exact prices') as string);
      const byok = api.as({
        bearer: requireScenario('byok_token', "credential resolving an own key for image_model's provider") as string,
      });
      const q = (await byok.call('estimateModel', { path: path(m), json: imageBody(requireScenario) })).json<Quote>();
      check('ROUTER.ESTIMATE.NO_BYOK_DETECTION', q.source === 'exact' || q.source === 'estimated', {
        what: 'the quote for an own-key caller',
        expected: 'a figure (exact or estimated), not byok',
        received: { source: q.source, reason: q.reason },
      });
    },
  );

  test(
    'the estimate validates as a default run: the same 422 as the run (a body naming another model too, ' +
      "and an alternate's own schema), and an undeclared top-level field is priced",
    rules('ROUTER.ESTIMATE.VALIDATION'),
    async ({ api, requireScenario, target }) => {
      const m = modelRef(requireScenario('image_model', 'model with an authored schema') as string);
      const body = imageBody(requireScenario);
      // A field of another JSON type than the model's own schema document declares for it.
      const { body: bad } = await step(`read the input schema of ${m.id}`, () => refusedBody(api, m, body));
      const [run, est] = await Promise.all([
        api.call('runModel', { path: path(m), json: bad }),
        api.call('estimateModel', { path: path(m), json: bad }),
      ]);
      check('ROUTER.ESTIMATE.VALIDATION', run.status === 422 && est.status === 422, {
        what: 'a run and an estimate of a body failing the schema',
        expected: '422 for both',
        received: `run ${run.status}, estimate ${est.status}`,
      });
      const locs = (r: typeof run): string =>
        JSON.stringify(((jsonOf(r)?.detail as Array<{ loc?: unknown }> | undefined) ?? []).map((d) => d.loc));
      check('ROUTER.ESTIMATE.VALIDATION', locs(run) === locs(est), {
        what: 'the locs of the two 422s',
        expected: locs(run),
        received: locs(est),
      });
      const extra = await api.call('estimateModel', {
        path: path(m),
        json: { ...body, conformance_extra: 'undeclared' },
      });
      check('ROUTER.ESTIMATE.VALIDATION', extra.status === 200, {
        what: 'an estimate of a body with an undeclared top-level field',
        expected: '200 (priced anyway)',
        received: describe(api, extra),
      });
      // A body naming another model is the estimate's 422 as it is the run's (R:177:1232d32690e0).
      // Only a body whose schema has a `model` member names a model: to a schema without one it is
      // an undeclared top-level field, priced anyway (R:64). So a scenario model whose document
      // declares `model` is used, and none is judged when no such model is given.
      const naming = await modelNamingItself(api, requireScenario, target.scenario);
      if (naming !== undefined) {
        const named = await api.call('estimateModel', {
          path: path(naming.m),
          json: { ...naming.body, model: 'conformance-some-other-model' },
        });
        check('ROUTER.ESTIMATE.VALIDATION', named.status === 422, {
          what: `an estimate for ${naming.m.id} (whose schema declares model) of a body naming conformance-some-other-model`,
          expected: '422 (a model different from the path)',
          received: describe(api, named),
        });
      } else
        notJudged(
          'ROUTER.ESTIMATE.VALIDATION',
          'no scenario model (image_model, video_model, text_model) declares a top-level model member in its schema document, so no body names a model',
        );
      // Only the native contract is checked, with no strict parameter (R:64:ad4294906b92, R:65): a body
      // in an alternate's own schema, which the native schema refuses, is refused here too.
      const strict = target.scenario.strict_body as { provider?: unknown; body?: unknown } | undefined;
      const own = asRecord(strict?.body);
      if (typeof strict?.provider === 'string' && own !== undefined) {
        const leg = await api.call('estimateModel', {
          path: path(m),
          query: { model_provider: strict.provider },
          json: own,
        });
        check('ROUTER.ESTIMATE.VALIDATION', leg.status === 422, {
          what: `an estimate with model_provider=${strict.provider} of a body in ${strict.provider}'s own schema (scenario strict_body, invalid natively)`,
          expected: '422 (validated against the native contract only)',
          received: describe(api, leg),
        });
        const asStrict = await api.call('estimateModel', {
          path: path(m),
          query: { model_provider: strict.provider, strict_mode: true },
          json: own,
        });
        // The route has no strict parameter: a router may ignore it (the native 422) or refuse it as an unknown parameter (400).
        check('ROUTER.ESTIMATE.VALIDATION', asStrict.status === 422 || asStrict.status === 400, {
          what: `the same estimate with strict_mode=true`,
          expected:
            '422 (strict_mode is no parameter of the estimate: native validation stays), or 400 refusing the parameter',
          received: describe(api, asStrict),
        });
      } else {
        notJudged(
          'ROUTER.ESTIMATE.VALIDATION',
          "the target gave no strict_body, so a body in an alternate's own schema is not sent to the estimate",
        );
      }
    },
  );

  test(
    "a queued submit's estimate keeps the quote's fields and prices the leg the request is pinned to",
    rules('ROUTER.ESTIMATE.FIELDS', 'ROUTER.QUEUE.ESTIMATE_LEG'),
    async ({ api, requireScenario }) => {
      const image = modelRef(requireScenario('image_model', 'model with exact prices and alternates') as string);
      const text = modelRef(requireScenario('text_model', 'model priced by output length') as string);
      const alt = requireScenario('edit_servable_provider', 'an alternate of image_model') as string;
      const submits: Array<[string, ModelRef, Record<string, unknown>, Record<string, string>]> = [
        [image.id, image, imageBody(requireScenario), {}],
        [`${image.id} with model_provider=${alt}`, image, imageBody(requireScenario), { model_provider: alt }],
        [`${text.id} with max_tokens`, text, { ...textBody(requireScenario), max_tokens: 777 }, {}],
        [`${text.id} without max_tokens`, text, textBody(requireScenario), {}],
      ];
      let carried = 0;
      for (const [what, m, body, query] of submits) {
        const res = await api.call('submitModelRequest', { path: path(m), query, json: body });
        if (res.status !== 201) throw new SuiteError(`a queued submit of ${what} answered ${describe(api, res)}`);
        // Absent during the rollout, or for a caller without estimation (ROUTER.QUEUE.ESTIMATE judges when).
        const estimate = asRecord(jsonOf(res)?.estimate);
        if (estimate === undefined) continue;
        carried += 1;
        checkQuoteFields(estimate, `the estimate of a submit of ${what}`);
        if (query.model_provider === undefined) continue;
        // The leg member's name is not shown (R:58): any member naming the pinned alternate.
        const naming = Object.entries(estimate)
          .filter(([, v]) => v === alt)
          .map(([k]) => k);
        check('ROUTER.QUEUE.ESTIMATE_LEG', naming.length > 0, {
          what: `the estimate of a submit of ${what}`,
          expected: `a member naming the pinned leg ${alt}`,
          received: estimate,
        });
        // Covering the leg is its price too, not only its name: the estimate route quotes the
        // pinned leg and the native one; a submit quote matching the native figure where the two
        // legs' figures differ was priced at the native rate. R:66 lets the two quotes differ a
        // little (another document), so only that exact match is a break.
        const [legQuote, nativeQuote] = await Promise.all([
          api
            .call('estimateModel', { path: path(m), query, json: body })
            .then((r) => (r.status === 200 ? r.json<Quote>() : undefined)),
          api
            .call('estimateModel', { path: path(m), json: body })
            .then((r) => (r.status === 200 ? r.json<Quote>() : undefined)),
        ]);
        const figure = (q: Quote | undefined): string | undefined =>
          q === undefined
            ? undefined
            : typeof q.amount === 'string'
              ? q.amount
              : typeof q.max_amount === 'string'
                ? `${String(q.min_amount)}..${q.max_amount}`
                : undefined;
        const [own, onLeg, onNative] = [figure(estimate), figure(legQuote), figure(nativeQuote)];
        if (own !== undefined && onLeg !== undefined && onNative !== undefined && onLeg !== onNative) {
          check('ROUTER.QUEUE.ESTIMATE_LEG', own !== onNative || own === onLeg, {
            what: `the figure of the estimate of a submit of ${what}`,
            expected: `the pinned leg's price (the estimate route quotes ${onLeg} on ${alt}, ${onNative} natively)`,
            received: own,
            on: res,
          });
        } else
          notJudged(
            'ROUTER.QUEUE.ESTIMATE_LEG',
            `the figures of ${what} could not tell the legs apart (submit ${own ?? 'none'}, estimate ` +
              `route ${onLeg ?? 'none'} on ${alt}, ${onNative ?? 'none'} natively)`,
          );
      }
      if (carried === 0) {
        notJudged(
          'ROUTER.ESTIMATE.FIELDS',
          "no queued submit carried an estimate (the feature may still be rolling out), so only the estimate route's quotes are judged",
        );
        notJudged(
          'ROUTER.QUEUE.ESTIMATE_LEG',
          'no queued submit carried an estimate (the feature may still be rolling out)',
        );
      }
    },
  );

  test(
    'an estimate dispatches nothing: a body every provider fails on is still quoted, and no credits are reported used',
    rules('ROUTER.ESTIMATE.NOTHING_CHARGED'),
    async ({ api, requireScenario }) => {
      const m = modelRef(requireScenario('image_model', 'JSON model') as string);
      // A body valid for the schema that every provider fails on when it runs (scenario failing_body):
      // an estimate that never reaches a provider prices it like any other.
      const failing = asRecord(requireScenario('failing_body', 'a schema-valid body every provider fails on')) ?? {};
      const res = await api.call('estimateModel', { path: path(m), json: failing });
      check('ROUTER.ESTIMATE.NOTHING_CHARGED', res.status === 200, {
        what: `an estimate for ${m.id} of a body its provider fails on`,
        expected: '200 with a quote (nothing is dispatched, so no provider failure can come back)',
        received: describe(api, res),
        on: res,
      });
      const credits = res.header(hdr(api, 'credits-used'));
      check('ROUTER.ESTIMATE.NOTHING_CHARGED', credits === undefined || Number(credits) === 0, {
        what: `${hdr(api, 'credits-used')} of an estimate`,
        expected: 'absent or 0 (nothing is charged)',
        received: credits ?? 'absent',
        on: res,
      });
    },
  );

  test(
    'a caller without the estimate feature is answered 403 not_enabled',
    rules('ROUTER.ESTIMATE.ROLLOUT'),
    async ({ api, requireScenario }) => {
      const m = modelRef(requireScenario('image_model', 'model') as string);
      const preview = api.as({
        bearer: requireScenario('estimate_disabled_token', 'credential outside the estimate rollout') as string,
      });
      checkRouterError(
        api,
        'ROUTER.ESTIMATE.ROLLOUT',
        await preview.call('estimateModel', { path: path(m), json: imageBody(requireScenario) }),
        [403],
        'not_enabled',
      );
    },
  );

  test(
    'a figure needing a stale rate card is 503, while an unquotable body is answered 200 without reading the card',
    rules('ROUTER.ESTIMATE.STALE_CARD'),
    async ({ api, requireScenario }) => {
      const m = modelRef(requireScenario('stale_card_model', 'model whose rate card is stale') as string);
      const body = textBody(requireScenario);
      const needsCard = await api.call('estimateModel', { path: path(m), json: { ...body, max_tokens: 100 } });
      checkRouterError(
        api,
        'ROUTER.ESTIMATE.STALE_CARD',
        needsCard,
        [503],
        undefined,
        `a quote needing the stale card answered ${describe(api, needsCard)}`,
      );
      // A body this router cannot price (text_model quotes it unknown not_quotable) needs no card.
      const text = modelRef(requireScenario('text_model', 'model of the same family with a fresh card') as string);
      const fresh = await api.call('estimateModel', { path: path(text), json: body });
      if (fresh.status !== 200 || !readsUnknown(fresh.json<Quote>())) {
        notJudged(
          'ROUTER.ESTIMATE.STALE_CARD',
          `${text.id} quotes the body without max_tokens ${describe(api, fresh)} ` +
            `${textOf(jsonOf(fresh)?.source ?? '')}: this router bounds it, so it is not a not_quotable ` +
            `body here`,
        );
        return;
      }
      const unquotable = await api.call('estimateModel', { path: path(m), json: body });
      check('ROUTER.ESTIMATE.STALE_CARD', unquotable.status === 200 && readsUnknown(unquotable.json<Quote>()), {
        what: 'a not_quotable body for the same model',
        expected: '200 source unknown (the card is not read)',
        received: describe(api, unquotable),
      });
    },
  );
});

/** The first scenario model whose input schema declares a top-level `model` member, with a valid body for it. */
async function modelNamingItself(
  api: ApiClient,
  need: Need,
  scenario: Record<string, unknown>,
): Promise<{ m: ModelRef; body: Record<string, unknown> } | undefined> {
  const candidates: Array<[unknown, () => Record<string, unknown>]> = [
    [scenario.image_model, () => imageBody(need)],
    [scenario.video_model, () => videoBody(need)],
    [scenario.text_model, () => textBody(need)],
  ];
  for (const [id, body] of candidates) {
    if (typeof id !== 'string') continue;
    const m = modelRef(id);
    const doc = await step(`read the input schema of ${m.id}`, () => modelDocument(api, m));
    if (asRecord(asRecord(doc.input?.properties)?.model) !== undefined) return { m, body: body() };
  }
  return undefined;
}
