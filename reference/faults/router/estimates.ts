// Router faults of cost estimates (seed R § Estimates): figures, reasons, validation, rollout.
import type { FaultUnit } from '../unit.ts';
import { Dec } from '../../router/decimal.ts';
import { CORRECT_FIGURES } from '../../router/pricing.ts';
import { RouterError } from '../../router/errors.ts';
import { callPartner } from '../../router/partners.ts';
import {
  CAPACITY_DETAIL,
  ESTIMATE,
  SUBMIT,
  estimateOf,
  isObj,
  onRouter,
  params,
  routerError,
  type Obj,
} from './shared.ts';

export const ESTIMATE_FAULTS = [
  {
    name: 'router-exact-with-range',
    breaks: 'ROUTER.ESTIMATE.FIELDS',
    statements: ['R:49:295f1710b99f'],
    description: 'exact quotes also carry min_amount and max_amount',
    install(s) {
      onRouter(s, [ESTIMATE, SUBMIT], (out) => {
        const est = estimateOf(out);
        if (est?.source !== 'exact') return;
        const { pricing_as_of, model_id, provider, ...figures } = est;
        const rebuilt: Obj = {
          ...figures,
          min_amount: est.amount,
          max_amount: est.amount,
          pricing_as_of,
          model_id,
          provider,
        };
        for (const k of Object.keys(est)) delete est[k];
        Object.assign(est, rebuilt);
      });
    },
  },
  {
    name: 'router-reason-on-estimated',
    breaks: 'ROUTER.ESTIMATE.FIELDS',
    statements: ['R:52:36c68f3d4dbe'],
    description: 'estimated quotes also carry reason not_quotable, to say why no exact figure is given',
    install(s) {
      onRouter(s, [ESTIMATE, SUBMIT], (out) => {
        const est = estimateOf(out);
        if (est?.source === 'estimated') est.reason = 'not_quotable';
      });
    },
  },
  {
    name: 'router-submit-reason-on-estimated',
    breaks: 'ROUTER.ESTIMATE.FIELDS',
    statements: ['R:52:36c68f3d4dbe'],
    description:
      "a queued submit's estimated quote carries reason not_quotable, to say why no exact figure is given (the estimate route's quotes do not)",
    install(s) {
      onRouter(s, [SUBMIT], (out) => {
        const est = estimateOf(out);
        if (est?.source === 'estimated') est.reason = 'not_quotable';
      });
    },
  },
  {
    name: 'router-submit-estimate-native-leg',
    breaks: 'ROUTER.QUEUE.ESTIMATE_LEG',
    description:
      'a queued submit with model_provider naming an alternate embeds the quote of the native leg (the ' +
      "model's own provider, at its rate), not of the leg the request is pinned to",
    install(s) {
      s.policy.router.submitEstimateLeg = (_pinned, model) => ({ kind: 'native', provider: model.provider });
    },
  },
  {
    name: 'router-amount-exponent',
    breaks: 'ROUTER.ESTIMATE.DECIMAL',
    statements: ['R:48:bfddbf0af403'],
    description: 'amounts are written in exponent form',
    install(s) {
      s.policy.router.figures = { ...CORRECT_FIGURES, dollars: (amount) => amount.toNumber(8).toExponential() };
    },
  },
  {
    name: 'router-cents-rounded',
    breaks: 'ROUTER.ESTIMATE.CENTS',
    statements: ['R:50:d9b658add9f4'],
    description: 'amount_cents is rounded to whole cents',
    install(s) {
      s.policy.router.figures = { ...CORRECT_FIGURES, cents: (cents) => cents.round(0).toNumber() };
    },
  },
  {
    name: 'router-credits-truncated',
    breaks: 'ROUTER.ESTIMATE.CREDITS',
    statements: ['R:51:ad9a5652bd3b'],
    description: 'credits are truncated to 2 decimals instead of rounded',
    install(s) {
      s.policy.router.figures = { ...CORRECT_FIGURES, credits: (raw) => raw.floor(2) };
    },
  },
  {
    name: 'router-subcent-unpriced',
    breaks: 'ROUTER.ESTIMATE.SUBCENT',
    statements: ['R:48:bfddbf0af403'],
    description: 'a sub-cent price is read as no price: quoted unknown unpriced_model',
    install(s) {
      // A rate card kept in whole cents: a price below half a cent reads as none.
      onRouter(s, [ESTIMATE, SUBMIT], (out) => {
        const est = estimateOf(out);
        if (est?.source !== 'exact' || typeof est.amount !== 'string') return;
        const amount = Dec.of(est.amount);
        if (amount.isZero() || !amount.round(2).isZero()) return;
        const { currency, pricing_as_of, model_id, provider } = est;
        for (const k of Object.keys(est)) delete est[k];
        Object.assign(est, {
          source: 'unknown',
          currency,
          reason: 'unpriced_model',
          pricing_as_of,
          model_id,
          provider,
        });
      });
    },
  },
  {
    name: 'router-subcent-zero',
    breaks: 'ROUTER.ESTIMATE.SUBCENT',
    statements: ['R:48:bfddbf0af403'],
    description: 'sub-cent exact prices are quoted as 0',
    install(s) {
      // A sub-cent price is zero, consistently in every figure.
      s.policy.router.figures = {
        ...CORRECT_FIGURES,
        exact: (amount) => (amount.round(2).isZero() ? Dec.ZERO : amount),
      };
    },
  },
  {
    name: 'router-estimate-leg-native',
    breaks: 'ROUTER.ESTIMATE.CURRENCY_LEG',
    statements: ['R:54:2b304134f243', 'R:65:d1040a0b3d81', 'R:176:01156134f3e8'],
    description: 'quotes of the estimate route name the native provider whatever model_provider says',
    install(s) {
      onRouter(s, [ESTIMATE], (out) => {
        const est = estimateOf(out);
        if (est !== undefined) est.provider = params(out).provider;
      });
    },
  },
  {
    name: 'router-not-quotable-wrong-reason',
    breaks: 'ROUTER.ESTIMATE.REASON',
    statements: ['R:56:372c6fe011c9'],
    description: 'unbounded bodies are quoted with reason pricing_unavailable',
    install(s) {
      onRouter(s, [ESTIMATE], (out) => {
        const est = estimateOf(out);
        if (est?.reason === 'not_quotable') est.reason = 'pricing_unavailable';
      });
    },
  },
  {
    name: 'router-unpriced-not-quotable',
    breaks: 'ROUTER.ESTIMATE.REASON',
    statements: ['R:56:372c6fe011c9'],
    description: 'a model the rate card does not price is quoted with reason not_quotable instead of unpriced_model',
    install(s) {
      onRouter(s, [ESTIMATE, SUBMIT], (out) => {
        const est = estimateOf(out);
        if (est?.reason === 'unpriced_model') est.reason = 'not_quotable';
      });
    },
  },
  {
    name: 'router-estimate-byok-reason',
    breaks: 'ROUTER.ESTIMATE.NO_BYOK_DETECTION',
    statements: ['R:63:5b3c0c7beaff'],
    description: 'the estimate answers reason byok for an own-key caller',
    install(s) {
      s.policy.router.estimateQuote = (p, def, leg, quote) =>
        p.ownKeys.has(def.provider) && leg.kind === 'native' ? { source: 'unknown', reason: 'byok' } : quote();
    },
  },
  {
    name: 'router-estimate-rejects-unknown',
    breaks: 'ROUTER.ESTIMATE.VALIDATION',
    statements: ['R:64:ad4294906b92', 'R:176:0ed3e198e0eb'],
    description: 'the estimate refuses undeclared top-level fields',
    install(s) {
      s.policy.router.rejectsUnknown = (route, asked) => asked || route === 'estimate';
    },
  },
  {
    name: 'router-estimate-model-mismatch-priced',
    breaks: 'ROUTER.ESTIMATE.VALIDATION',
    statements: ['R:176:0ed3e198e0eb', 'R:177:1232d32690e0'],
    description:
      'the estimate prices a body naming a model other than the path (the model-name check runs on runs and submits only)',
    install(s) {
      const correct = s.policy.router.bodyNamesModel;
      s.policy.router.bodyNamesModel = (named, model, route) => route === 'estimate' || correct(named, model, route);
    },
  },
  {
    name: 'router-estimate-honours-strict',
    breaks: 'ROUTER.ESTIMATE.VALIDATION',
    statements: ['R:64:ad4294906b92', 'R:176:1df49dbd624c', 'R:176:0ed3e198e0eb'],
    description:
      'the estimate reads strict_mode as a run does: with an alternate and strict_mode=true it skips ' +
      "native validation and prices a body in the alternate's own schema",
    install(s) {
      s.policy.router.estimateStrict = (asked) => asked;
    },
  },
  {
    name: 'router-estimate-rollout-open',
    breaks: 'ROUTER.ESTIMATE.ROLLOUT',
    statements: ['R:178:63c16dd8a002', 'R:263:2162d416be91'],
    description: 'callers outside the rollout are quoted',
    install(s) {
      s.policy.router.estimatesEnabled = () => true;
    },
  },
  {
    name: 'router-estimate-stale-card-guessed',
    breaks: 'ROUTER.ESTIMATE.STALE_CARD',
    statements: ['R:179:0ebb31a4bbc6'],
    description: 'a stale rate card is used for a figure',
    install(s) {
      s.policy.router.cardFresh = () => true;
    },
  },
  // R § Cost estimate: source is exact, estimated or unknown. An enum serialised by its
  // constant's name instead of its value sends EXACT.
  {
    name: 'router-source-enum-name',
    breaks: 'ROUTER.ESTIMATE.FIELDS',
    statements: ['R:46:b9a8304506ad'],
    description: "quotes give source as the enum constant's name (EXACT, ESTIMATED, UNKNOWN) instead of its value",
    install(s) {
      onRouter(s, [ESTIMATE, SUBMIT], (out) => {
        const est = estimateOf(out);
        if (typeof est?.source === 'string') est.source = est.source.toUpperCase();
      });
    },
  },
  // R § Cost estimate: currency is always USD. A currency taken from a payments library's
  // lowercase codes sends usd.
  {
    name: 'router-currency-lowercase',
    breaks: 'ROUTER.ESTIMATE.CURRENCY_LEG',
    statements: ['R:47:29681be41632'],
    description: 'quotes state the currency in lowercase (usd), as a payments library writes its codes',
    install(s) {
      onRouter(s, [ESTIMATE, SUBMIT], (out) => {
        const est = estimateOf(out);
        if (est?.currency === 'USD') est.currency = 'usd';
      });
    },
  },
  // R § Cost estimate, Versioning: pricing_as_of is a date-time. A card timestamp kept as
  // epoch seconds and serialised as is sends a number.
  {
    name: 'router-pricing-as-of-epoch',
    breaks: 'ROUTER.ESTIMATE.FIELDS',
    statements: ['R:53:d57e97826a93', 'R:298:ede6a79e2a5c'],
    description: 'pricing_as_of is the rate card timestamp in epoch seconds (a number), not a date-time string',
    install(s) {
      onRouter(s, [ESTIMATE, SUBMIT], (out) => {
        const est = estimateOf(out);
        if (typeof est?.pricing_as_of === 'string')
          est.pricing_as_of = Math.floor(Date.parse(est.pricing_as_of) / 1000);
      });
    },
  },
  // R § Cost estimate, Limits: 211 credits per dollar. A conversion constant left at an old
  // rate converts at 200.
  {
    name: 'router-credits-200-per-dollar',
    breaks: 'ROUTER.ESTIMATE.CREDITS',
    statements: ['R:51:ad9a5652bd3b', 'R:288:2802bef63335'],
    description: 'credits convert the amount at 200 credits per dollar (a stale constant) instead of 211',
    install(s) {
      onRouter(s, [ESTIMATE, SUBMIT], (out) => {
        const est = estimateOf(out);
        if (typeof est?.amount === 'string' && typeof est.credits === 'number')
          est.credits = Dec.of(est.amount).timesInt(200).round(2).toNumber();
      });
    },
  },
  // R § Cost estimate, Limits: at most 8 decimals. A fixed-point formatter using the rate
  // card's internal scale writes 12.
  {
    name: 'router-amount-12-decimals',
    breaks: 'ROUTER.ESTIMATE.DECIMAL',
    statements: ['R:48:bfddbf0af403', 'R:289:6d4a7b9e127a'],
    description: "amounts are written with 12 decimals (the rate card's internal scale) instead of at most 8",
    install(s) {
      s.policy.router.figures = { ...CORRECT_FIGURES, dollars: (amount) => Number(amount.toString(12)).toFixed(12) };
    },
  },
  // R § estimate: a not_quotable call is answered without reading the card. A router that
  // checks the card's freshness up front, before it classifies the body, refuses it 503.
  {
    name: 'router-stale-card-checked-first',
    breaks: 'ROUTER.ESTIMATE.STALE_CARD',
    statements: ['R:179:54542e273ebc'],
    description:
      'every estimate of a model whose rate card is stale is refused 503, a body that cannot be priced ' +
      "at all too: the card's freshness is checked before the body is classified",
    install(s) {
      s.request(
        { surfaces: ['router'], routes: [ESTIMATE] },
        ({ request, ctx }) => {
          const p = request.params as Record<string, string>;
          if (ctx.router.catalog.get(p.provider ?? '', p.model ?? '')?.behaviour === 'stale-card')
            throw new RouterError(
              503,
              'service_unavailable',
              'the rate card is stale; no figure is given instead of a guess',
            );
        },
        'preHandler',
      );
    },
  },
  // R § estimate: nothing is dispatched or charged. A router pricing by a dry run at the
  // provider (to learn the metered quantity) dispatches the body, and its failures come back.
  {
    name: 'router-estimate-dry-run',
    breaks: 'ROUTER.ESTIMATE.NOTHING_CHARGED',
    statements: ['R:176:b0683c953839'],
    description:
      "the estimate dispatches the body to the model's provider as a dry run to learn the metered " +
      "quantity, so a body the provider fails on is refused (503 service_unavailable, the route's " +
      'answer to an upstream failure) instead of quoted',
    install(s) {
      s.request(
        { surfaces: ['router'], routes: [ESTIMATE] },
        ({ request, ctx }) => {
          const p = request.params as Record<string, string>;
          const def = ctx.router.catalog.get(p.provider ?? '', p.model ?? '');
          if (def === undefined || !isObj(request.body)) return;
          const answer = callPartner({
            model: def,
            leg: { kind: 'native', provider: def.provider },
            body: request.body,
            strict: false,
          });
          if (answer.kind === 'ok') return;
          throw new RouterError(
            503,
            'service_unavailable',
            `the dry run of ${def.id} at its provider failed; no price could be measured`,
          );
        },
        'preHandler',
      );
    },
  },
  // R § estimate: 503 carries Retry-After on capacity refusals. The run route's capacity
  // path sets it; an estimate route refusing on the same capacity check forgets it.
  {
    name: 'router-estimate-capacity-no-retry-after',
    breaks: 'ROUTER.ERR.CAPACITY',
    statements: ['R:177:1232d32690e0'],
    description:
      'an estimate refused because the model is at capacity (503) lacks Retry-After (the run route sets it, the estimate route does not)',
    install(s) {
      onRouter(s, [ESTIMATE], (out) => {
        if (out.status === 503 && String(routerError(out)?.detail).endsWith(CAPACITY_DETAIL))
          out.setHeader('retry-after', undefined);
      });
    },
  },
  // R § Queued request: the submit's estimate covers the pinned leg. A pricing lookup keyed
  // by model alone prices the native leg while the label is taken from the request.
  {
    name: 'router-submit-estimate-native-rate',
    breaks: 'ROUTER.QUEUE.ESTIMATE_LEG',
    statements: ['R:65:c4ed5a315dcb', 'R:72:d586e05637f1'],
    description:
      'a queued submit pinned to an alternate embeds a quote labelled with that alternate but priced ' +
      "at the native provider's rate (the rate looked up by model alone)",
    install(s) {
      s.policy.router.submitEstimateLeg = (_pinned, model) => ({ kind: 'native', provider: model.provider });
      onRouter(s, [SUBMIT], (out) => {
        const est = estimateOf(out);
        const pinned = (out.request.query as Record<string, unknown>).model_provider;
        if (est !== undefined && typeof pinned === 'string') est.provider = pinned;
      });
    },
  },
] as const satisfies ReadonlyArray<FaultUnit>;
