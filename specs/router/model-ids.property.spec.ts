// Properties of model addresses (seed R § Resources › Identifiers): a valid address
// (pattern, lowercase, 64 / 128 / 193 characters) reaches the model or answers 404
// model_not_found; an invalid one is refused with a 4xx router error, never 2xx or 5xx.
import fc from 'fast-check';
import { test, rules } from '../../fixtures/test.ts';
import { check } from '../../lib/check.ts';
import { assertProperty } from '../../fixtures/property.ts';
import { MODEL_MAX, PROVIDER_MAX, invalidModelAddress, validModelAddress } from '../../lib/arbitraries/router.ts';
import { describe, errorTypeOf, jsonOf, modelRef } from '../../lib/router/models.ts';

test.describe('Identifiers', () => {
  test(
    'a valid model address reaches exactly the model it names, or answers 404 model_not_found',
    rules('ROUTER.ID.SEGMENTS'),
    async ({ api, profile, requireScenario }, testInfo) => {
      const judge = async (a: { provider: string; model: string }, what: string): Promise<void> => {
        const res = await api.call('getModel', { path: { provider: a.provider, model: a.model } });
        const ok = res.status === 200 || (res.status === 404 && errorTypeOf(api, res) === 'model_not_found');
        check('ROUTER.ID.SEGMENTS', ok, {
          what: `the detail of ${what} (${a.provider.length} + ${a.model.length} characters)`,
          expected: '200, or 404 model_not_found',
          received: describe(api, res),
        });
        // The model ID is exactly the path's value (R:23:94c53fad03fb): a detail answered for it is that model's.
        const detail = res.status === 200 ? jsonOf(res) : undefined;
        if (detail !== undefined)
          check('ROUTER.ID.SEGMENTS', detail.provider === a.provider && detail.model === a.model, {
            what: `the detail answered for ${what}`,
            expected: `the model ${a.provider}/${a.model} itself`,
            received: `${String(detail.provider)}/${String(detail.model)}`,
          });
      };
      // Every run meets these, whatever the draws: the longest segments (64 and 128, 193 in all),
      // each separator, and a listed model's own segment under a provider that has no such model.
      const m = modelRef(requireScenario('image_model', 'a listed model') as string);
      const fixed: Array<[{ provider: string; model: string }, string]> = [
        [{ provider: 'p'.repeat(PROVIDER_MAX), model: 'm'.repeat(MODEL_MAX) }, 'an address of the longest segments'],
        [{ provider: 'a1.b2_c3-d4', model: 'x9.y8_z7-w6' }, 'an address using each separator'],
        [{ provider: `${m.provider}-elsewhere`, model: m.model }, `${m.model} under another provider`],
      ];
      for (const [a, what] of fixed) await judge(a, `${what}, ${a.provider}/${a.model}`.slice(0, 120));
      await assertProperty(testInfo, profile, validModelAddress(), (a) =>
        judge(a, `${a.provider}/${a.model}`.slice(0, 80)),
      );
    },
  );

  test(
    'the address of a listed model written with an uppercase letter is refused, not served',
    rules('ROUTER.ID.SEGMENTS'),
    async ({ api, requireScenario }) => {
      const m = modelRef(requireScenario('image_model', 'a listed model') as string);
      const upper = (s: string): string => s.replace(/[a-z]/, (c) => c.toUpperCase());
      for (const a of [
        { provider: upper(m.provider), model: m.model },
        { provider: m.provider, model: upper(m.model) },
      ]) {
        const res = await api.call('getModel', { path: a });
        check('ROUTER.ID.SEGMENTS', res.status >= 400 && res.status < 500, {
          what: `the detail of ${a.provider}/${a.model} (segments are lowercase)`,
          expected: 'a 4xx router error',
          received: describe(api, res),
        });
      }
    },
  );

  test(
    'an invalid model address is refused with a 4xx router error, never 2xx or 5xx',
    rules('ROUTER.ID.SEGMENTS'),
    async ({ api, profile }, testInfo) => {
      const operation = fc.constantFrom('getModel', 'runModel', 'estimateModel');
      await assertProperty(testInfo, profile, fc.tuple(invalidModelAddress(), operation), async ([a, op]) => {
        const res = await api.call(op, {
          path: { provider: a.provider, model: a.model },
          ...(op === 'getModel' ? {} : { json: { prompt: 'conformance' } }),
        });
        check('ROUTER.ID.SEGMENTS', res.status >= 400 && res.status < 500 && errorTypeOf(api, res) !== undefined, {
          what: `${op} of an invalid address (${a.why}): ${JSON.stringify(`${a.provider}/${a.model}`.slice(0, 80))}`,
          expected: 'a 4xx router error',
          received: describe(api, res),
        });
      });
    },
  );
});
