// Cost estimates, POST /v2/models/{provider}/{model}/estimate (seed R § Endpoints), and
// the estimate a queued submit may carry: one quote shaped the same way for both.
import type { FastifyInstance } from 'fastify';
import type { ModelDef } from '../catalog.ts';
import { parseRunQuery, selectLeg, validateBody } from '../dispatch.ts';
import { RouterError } from '../errors.ts';
import { StaleCardError, estimateBody, quote, type Leg, type Quote } from '../pricing.ts';
import type { Principal } from '../principals.ts';
import { atCapacity, defaultMaxTokens, quoteVideoOperation, shapeQuote } from '../variations.ts';
import { estimatesRefuseAtCapacity, shapeSurfaceQuote } from '../surface-variations.ts';
import { sendJson, type ModelParams, type RouteKit } from './kit.ts';

export function registerEstimateRoute(app: FastifyInstance, kit: RouteKit): void {
  const { state, policy } = kit;
  app.post('/v2/models/:provider/:model/estimate', async (req, reply) => {
    const p = kit.principalOf(req);
    if (!policy.estimatesEnabled(p))
      throw new RouterError(403, 'not_enabled', 'cost estimates are rolling out and not enabled for this caller');
    const def = kit.resolveModel(req.params as ModelParams);
    // A model at capacity: the estimate route refuses it as the run does, 503 with Retry-After
    // (R § estimate lists that 503); control router-estimate-ignores-capacity quotes it instead.
    if (def.behaviour === 'busy' && estimatesRefuseAtCapacity(state)) throw atCapacity(state, def);
    const q = parseRunQuery(req.query as Record<string, unknown>, state);
    const leg = selectLeg(state, def, p, { ...q, strict: false }, req.body, 'estimate', false);
    const body = validateBody(state, def, req.body, {
      skipNative: policy.estimateStrict(q.strict) && leg.kind === 'alternate',
      rejectUnknown: false,
      route: 'estimate',
    });
    const result = policy.estimateQuote(p, def, leg, () => {
      try {
        return quote(def, leg, body, {
          cardFresh: () => policy.cardFresh(def),
          videoOperation: quoteVideoOperation(state),
          defaultMaxTokens: defaultMaxTokens(state),
        });
      } catch (err) {
        if (err instanceof StaleCardError)
          throw new RouterError(
            503,
            'service_unavailable',
            `the rate card for ${def.provider} is stale; no figure is given instead of a guess`,
          );
        throw err;
      }
    });
    const asOf = def.behaviour === 'stale-card' ? new Date().toISOString() : state.pricingAsOf;
    return sendJson(
      reply,
      200,
      shapeSurfaceQuote(state, shapeQuote(state, estimateBody(result, def, leg, asOf, policy.figures)), 'estimate'),
    );
  });
}

/** The estimate a queued submit carries when the caller has estimates on. */
export function submitEstimate(
  kit: RouteKit,
  def: ModelDef,
  pinned: Leg,
  body: Record<string, unknown>,
  p: Principal,
): Record<string, unknown> {
  const { state, policy } = kit;
  const leg = policy.submitEstimateLeg(pinned, def);
  let result: Quote;
  if (p.ownKeys.has(def.provider) && leg.kind === 'native') result = { source: 'unknown', reason: 'byok' };
  else {
    try {
      result = quote(def, leg, body, {
        cardFresh: () => policy.cardFresh(def),
        videoOperation: policy.videoOperation,
        defaultMaxTokens: defaultMaxTokens(state),
      });
    } catch (err) {
      if (!(err instanceof StaleCardError)) throw err;
      result = policy.submitQuoteUnavailable(def);
    }
  }
  return shapeSurfaceQuote(
    state,
    shapeQuote(
      state,
      estimateBody(
        result,
        def,
        leg,
        def.behaviour === 'stale-card' ? new Date().toISOString() : state.pricingAsOf,
        policy.figures,
      ),
    ),
    'submit',
  );
}
