// Properties of request bodies generated from each model's schema document (seed R §
// Opaque documents; Validation error body; Cost estimate): a valid body passes the router's
// own validation (it runs, or the provider itself refuses it), a body broken at one field is
// a 422 whose loc points at it, and every quote's arithmetic holds.
import fc from 'fast-check';
import { test, rules } from '../../fixtures/test.ts';
import { check, ensure } from '../../lib/check.ts';
import type { ApiClient } from '../../lib/api.ts';
import { assertProperty } from '../../fixtures/property.ts';
import { brokenBody, validBody, type Loc } from '../../lib/arbitraries/router.ts';
import { checkQuoteArithmetic, type Quote } from '../../lib/router/estimate.ts';
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
import { modelDocument, type Schema } from '../../lib/router/schema-doc.ts';
import { SuiteError } from '../../lib/violations.ts';

type Need = (key: string, why: string) => unknown;

interface Target {
  m: ModelRef;
  schema: Schema;
}

/**
 * The scenario models with authored schemas the bodies are drawn from: image_model and video_model,
 * whichever the target names, else text_model (any model whose schema serves; none named skips).
 */
async function targets(api: ApiClient, requireScenario: Need): Promise<Target[]> {
  const out: Target[] = [];
  const { image_model, video_model, text_model } = api.target.scenario;
  const first = [image_model, video_model].filter((id): id is string => typeof id === 'string');
  const named = first.length > 0 ? first : typeof text_model === 'string' ? [text_model] : [];
  if (named.length === 0) requireScenario('image_model', 'model with an authored input schema');
  for (const id of named) {
    const m = modelRef(id);
    const doc = await modelDocument(api, m);
    if (!doc.input) {
      // An authored document without an input schema breaks its rule; an unauthored one means the scenario named the wrong model.
      ensure('ROUTER.SCHEMA.DOCUMENT', doc.authored !== true, {
        what: `the authored document of ${m.id}`,
        expected: 'a request-body schema',
        received: 'none',
      });
      throw new SuiteError(`the scenario names ${m.id} as a model with a body, but its input schema is not authored`);
    }
    out.push({ m, schema: doc.input });
  }
  return out;
}

/** A body member naming the model must name this one (seed: a different model is a 422). */
function pinModel(t: Target, body: Record<string, unknown>): Record<string, unknown> {
  return asRecord(t.schema.properties)?.model !== undefined && typeof body.model === 'string'
    ? { ...body, model: t.m.model }
    : body;
}

function stripBody(loc: unknown): Loc | undefined {
  if (!Array.isArray(loc)) return undefined;
  return (loc[0] === 'body' ? loc.slice(1) : loc) as Loc;
}

test.describe('Request bodies from schema documents', () => {
  test(
    "any body valid against a model's input schema is run, unless the provider itself refuses it",
    rules('ROUTER.RUN.SCHEMA_BODIES'),
    async ({ api, profile, requireScenario }, testInfo) => {
      const ts = await targets(api, requireScenario);
      const arbitrary = fc.oneof(...ts.map((t) => validBody(t.schema).map((body) => ({ t, body: pinModel(t, body) }))));
      await assertProperty(testInfo, profile, arbitrary, async ({ t, body }) => {
        const res = await api.call('runModel', { path: path(t.m), json: body });
        // Provider requirements still apply beyond the schema: the provider may call the request
        // malformed and say why (400 invalid_input with its own status, R:80:3d30fc7a6bb8) or refuse
        // it on content-policy grounds (400 content_policy_violation). The router's own refusal of
        // a schema-valid body (a 422, or a 400 no provider gave) breaks the rule.
        const type = errorTypeOf(api, res);
        const upstream = Number(res.header(hdr(api, 'upstream-status')));
        const providerRefused =
          res.status === 400 &&
          ((type === 'invalid_input' && ((upstream >= 400 && upstream < 500) || (upstream >= 200 && upstream < 300))) ||
            type === 'content_policy_violation');
        check('ROUTER.RUN.SCHEMA_BODIES', (res.status >= 200 && res.status < 300) || providerRefused, {
          what: `a run of ${t.m.id} with a schema-valid body`,
          expected:
            "2xx, or the provider's own refusal (400 invalid_input with a provider status, or 400 content_policy_violation)",
          received: `${describe(api, res)} ${JSON.stringify(jsonOf(res)?.detail ?? '').slice(0, 200)}`,
        });
      });
    },
  );

  test(
    'a body broken at one field is refused 422 whose loc points at that field',
    rules('ROUTER.ERR.VALIDATION_LOC'),
    async ({ api, profile, requireScenario }, testInfo) => {
      const ts = await targets(api, requireScenario);
      const arbitrary = fc.oneof(
        ...ts.map((t) =>
          brokenBody(t.schema).map((b) => ({ t, ...b, body: b.loc[0] === 'model' ? b.body : pinModel(t, b.body) })),
        ),
      );
      await assertProperty(testInfo, profile, arbitrary, async ({ t, body, loc, kind }) => {
        const res = await api.call('runModel', { path: path(t.m), json: body });
        check('ROUTER.ERR.VALIDATION_LOC', res.status === 422, {
          what: `a run of ${t.m.id} broken at ${JSON.stringify(loc)} (${kind})`,
          expected: '422',
          received: describe(api, res),
        });
        const entries = (jsonOf(res)?.detail as Array<{ loc?: unknown }> | undefined) ?? [];
        const locs = entries.map((e) => stripBody(e.loc));
        check(
          'ROUTER.ERR.VALIDATION_LOC',
          locs.some((l) => JSON.stringify(l) === JSON.stringify(loc)),
          {
            what: `the 422 for ${t.m.id} broken at ${JSON.stringify(loc)} (${kind})`,
            expected: `an entry with loc ${JSON.stringify(['body', ...loc])} (a leading "body" optional)`,
            received: locs,
          },
        );
      });
    },
  );

  test(
    'every quote of a schema-valid body keeps the estimate arithmetic',
    rules('ROUTER.ESTIMATE.FIELDS', 'ROUTER.ESTIMATE.DECIMAL', 'ROUTER.ESTIMATE.CENTS', 'ROUTER.ESTIMATE.CREDITS'),
    async ({ api, profile, requireScenario }, testInfo) => {
      const ts = await targets(api, requireScenario);
      const arbitrary = fc.oneof(...ts.map((t) => validBody(t.schema).map((body) => ({ t, body: pinModel(t, body) }))));
      await assertProperty(testInfo, profile, arbitrary, async ({ t, body }) => {
        const res = await api.call('estimateModel', { path: path(t.m), json: body });
        if (res.status !== 200)
          throw new SuiteError(`the estimate of a schema-valid body for ${t.m.id} answered ${describe(api, res)}`);
        checkQuoteArithmetic(res.json<Quote>(), `the quote for ${t.m.id}`);
      });
    },
  );
});
