// The synchronous run, POST /v2/models/{provider}/{model} (seed R § Endpoints): credits,
// capacity, the provider leg, the body's schema, the in-flight limit, the spend hold, then
// the call, all under the request's Idempotency-Key.
import type { FastifyInstance } from 'fastify';
import { commitmentCents, parseRunQuery, runSync, selectLeg, validateBody } from '../dispatch.ts';
import { RouterError } from '../errors.ts';
import { charge } from '../pricing.ts';
import { scopeOf } from '../principals.ts';
import { atCapacity, spendHeadersOnRuns } from '../variations.ts';
import { withKey } from './keyed.ts';
import type { ModelParams, RouteKit } from './kit.ts';

export function registerRunRoute(app: FastifyInstance, kit: RouteKit): void {
  const { state, policy } = kit;
  app.post('/v2/models/:provider/:model', async (req, reply) => {
    const p = kit.principalOf(req);
    const def = kit.resolveModel(req.params as ModelParams);
    kit.requireCredits(p);
    const q = parseRunQuery(req.query as Record<string, unknown>, state);
    const hasKey = req.headers['idempotency-key'] !== undefined;
    return withKey(kit, req, reply, p, async () => {
      if (def.behaviour === 'busy') throw atCapacity(state, def);
      const leg = selectLeg(state, def, p, q, req.body, 'run', hasKey);
      // strict_mode means something only with an alternate.
      const strict = policy.strictMode(q.strict, leg);
      const body = validateBody(state, def, req.body, {
        skipNative: strict,
        rejectUnknown: q.rejectUnknown,
        route: 'run',
      });
      const s = scopeOf(p);
      // The in-flight limit of a scope that has one (seed R § 409 and 429 rules, 3).
      const endCall = state.startCall(s, p.inFlightLimit);
      if (!endCall) {
        throw new RouterError(
          429,
          'concurrency_limit_exceeded',
          `this workspace already has ${p.inFlightLimit ?? 0} calls in flight; reduce in-flight calls`,
          { headers: state.spendHeaders(s) },
        );
      }
      const release = policy.holdSpend(() =>
        state.reserve(s, commitmentCents(p.ownKeys.has(def.provider) ? undefined : charge(def, leg, body, 0))),
      );
      try {
        const { keyRecord, ...answer } = await runSync(state, def, p, { ...q, strict }, leg, body);
        if (answer.status === 200 && spendHeadersOnRuns(state)) Object.assign(answer.headers, state.spendHeaders(s));
        if (keyRecord?.status === 200 && spendHeadersOnRuns(state))
          Object.assign(keyRecord.headers, state.spendHeaders(s));
        return { answer, dispatched: true, ...(keyRecord ? { record: keyRecord } : {}) };
      } finally {
        release();
        endCall();
      }
    });
  });
}
