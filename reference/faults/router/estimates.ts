// Router faults of cost estimates (seed R § Estimates): figures, reasons, validation, rollout.
import type { FaultUnit } from '../unit.ts';
import { Dec } from '../../router/decimal.ts';
import { CORRECT_FIGURES } from '../../router/pricing.ts';
import { ESTIMATE, SUBMIT, estimateOf, onRouter, params, type Obj } from './shared.ts';

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
        const rebuilt: Obj = { ...figures, min_amount: est.amount, max_amount: est.amount, pricing_as_of, model_id, provider };
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
    description: "a queued submit's estimated quote carries reason not_quotable, to say why no exact figure is given (the estimate route's quotes do not)",
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
    description: "a queued submit with model_provider naming an alternate embeds the quote of the native leg (the model's own provider, at its rate), not of the leg the request is pinned to",
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
        Object.assign(est, { source: 'unknown', currency, reason: 'unpriced_model', pricing_as_of, model_id, provider });
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
      s.policy.router.figures = { ...CORRECT_FIGURES, exact: (amount) => (amount.round(2).isZero() ? Dec.ZERO : amount) };
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
      s.policy.router.estimateQuote = (p, def, leg, quote) => (p.ownKeys.has(def.provider) && leg.kind === 'native' ? { source: 'unknown', reason: 'byok' } : quote());
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
    description: 'the estimate prices a body naming a model other than the path (the model-name check runs on runs and submits only)',
    install(s) {
      const correct = s.policy.router.bodyNamesModel;
      s.policy.router.bodyNamesModel = (named, model, route) => route === 'estimate' || correct(named, model, route);
    },
  },
  {
    name: 'router-estimate-honours-strict',
    breaks: 'ROUTER.ESTIMATE.VALIDATION',
    statements: ['R:64:ad4294906b92', 'R:176:1df49dbd624c', 'R:176:0ed3e198e0eb'],
    description: "the estimate reads strict_mode as a run does: with an alternate and strict_mode=true it skips native validation and prices a body in the alternate's own schema",
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
] as const satisfies ReadonlyArray<FaultUnit>;
