// Properties of Idempotency-Key (seed R § Endpoints › POST, Idempotency rules 1-2, 409 and
// 429 rule 2; Limits): keys of 1 to 255 characters are accepted, the same key and request
// replay identically, the same key with another request is a 409; 0 and 256+ are refused
// (the last an assumption: the seed gives the bounds, not the answer outside them).
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { test, rules } from '../../fixtures/test.ts';
import { check } from '../../lib/check.ts';
import { assertProperty } from '../../fixtures/property.ts';
import { idempotencyKey, outOfRangeKey } from '../../lib/arbitraries/router.ts';
import { checkRouterError, describe, errorTypeOf, modelRef, path, withKey } from '../../lib/router/models.ts';
import { imageBody } from '../../lib/router/bodies.ts';

test.describe('Idempotency', () => {
  test(
    'keys of 1 to 255 characters are accepted; the same key replays identically, another request under it is a 409',
    rules('ROUTER.IDEM.KEY_LENGTH', 'ROUTER.IDEM.REPLAY', 'ROUTER.IDEM.CONFLICT'),
    async ({ api, profile, requireScenario }, testInfo) => {
      const m = modelRef(requireScenario('image_model', 'JSON model') as string);
      const base = imageBody(requireScenario);
      const used = new Set<string>();
      await assertProperty(testInfo, profile, idempotencyKey(), async (key) => {
        fc.pre(!used.has(key));
        used.add(key);
        // The body is a function of the key alone: a key an earlier run of the suite drew (records
        // last 24 hours, R:169) holds this very request and is replayed, never a 409. So a 409 here
        // is a refusal of this key, whatever the router calls it, and breaks the rule.
        const body = {
          ...base,
          prompt: `conformance key ${createHash('sha256').update(key).digest('hex').slice(0, 24)}`,
        };
        const first = await api.call('runModel', withKey(key, { path: path(m), json: body }));
        check('ROUTER.IDEM.KEY_LENGTH', first.status === 200, {
          what: `a run keyed with ${key.length} characters`,
          expected: '200 (the key is accepted; a replay of an earlier run of the suite too)',
          received: describe(api, first),
        });
        fc.pre(first.status === 200);
        const again = await api.call('runModel', withKey(key, { path: path(m), json: body }));
        check(
          'ROUTER.IDEM.REPLAY',
          again.status === 200 && again.header('idempotent-replayed') === 'true' && again.body.equals(first.body),
          {
            what: `the retry under a ${key.length}-character key`,
            expected: 'the recorded answer, byte for byte, Idempotent-Replayed: true',
            received: `${describe(api, again)}, Idempotent-Replayed: ${again.header('idempotent-replayed') ?? 'absent'}`,
          },
        );
        const other = await api.call(
          'runModel',
          withKey(key, { path: path(m), json: { ...body, prompt: `${String(body.prompt)} changed` } }),
        );
        checkRouterError(
          api,
          'ROUTER.IDEM.CONFLICT',
          other,
          [409],
          'invalid_input',
          `another body under a ${key.length}-character key: ${describe(api, other)}`,
        );
      });
    },
  );

  // The seed gives the bounds only (R:125:a8636bbeb1af, R:283:40db08880b8a), not what answers a
  // key outside them: refusing it as a malformed request is the suite's assumption, a SHOULD.
  test(
    'an empty key or one of 256 characters and more is refused without running (assumed)',
    rules('ROUTER.IDEM.KEY_OUT_OF_RANGE'),
    async ({ api, profile, requireScenario }, testInfo) => {
      const m = modelRef(requireScenario('image_model', 'JSON model') as string);
      const base = imageBody(requireScenario);
      const refused = async (key: string): Promise<void> => {
        const res = await api.call('runModel', withKey(key, { path: path(m), json: base }));
        const ok = (res.status === 400 && errorTypeOf(api, res) === 'invalid_input') || res.status === 422;
        check('ROUTER.IDEM.KEY_OUT_OF_RANGE', ok, {
          what: `a run keyed with ${key.length} characters`,
          expected: '400 invalid_input (or 422): the key is refused',
          received: describe(api, res),
        });
      };
      // The two bounds first, then the property.
      await refused('');
      await refused('k'.repeat(256));
      await assertProperty(
        testInfo,
        { ...profile, numRuns: Math.max(5, Math.ceil(profile.numRuns / 3)) },
        outOfRangeKey(),
        refused,
      );
    },
  );
});
