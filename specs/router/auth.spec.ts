// Seed R § Authentication, rules 1-4.
import { randomUUID } from 'node:crypto';
import { test, rules } from '../../fixtures/test.ts';
import { check, ensure } from '../../lib/check.ts';
import type { CallOptions } from '../../lib/api.ts';
import { checkRouterError, describe, modelRef, path } from '../../lib/router/models.ts';

test.describe('Authentication', () => {
  test(
    'every operation without credentials, or with an unknown key, answers 401 unauthorized',
    rules('ROUTER.AUTH.REQUIRED'),
    async ({ api, requireScenario }) => {
      const m = modelRef(requireScenario('image_model', 'model') as string);
      const p = path(m);
      const rid = { ...p, request_id: randomUUID() };
      const json = { prompt: 'conformance' };
      const calls: Array<[string, CallOptions]> = [
        ['listModels', {}],
        ['getModel', { path: p }],
        ['runModel', { path: p, json }],
        ['estimateModel', { path: p, json }],
        ['getModelSchema', { path: p }],
        ['submitModelRequest', { path: p, json }],
        ['getModelRequest', { path: rid }],
        ['cancelModelRequest', { path: rid }],
        ['getModelRequestStatus', { path: rid }],
      ];
      for (const [op, opts] of calls) {
        checkRouterError(
          api,
          'ROUTER.AUTH.REQUIRED',
          await api.call(op, { ...opts, auth: 'none' }),
          [401],
          'unauthorized',
          `${op} without credentials`,
        );
      }
      const unknown = `comfyui-conformance-unknown-${randomUUID()}`;
      checkRouterError(
        api,
        'ROUTER.AUTH.REQUIRED',
        await api.call('listModels', { auth: { apiKey: unknown } }),
        [401],
        'unauthorized',
      );
      checkRouterError(
        api,
        'ROUTER.AUTH.REQUIRED',
        await api.call('getModel', { path: p, auth: { bearer: unknown } }),
        [401],
        'unauthorized',
      );
    },
  );

  test(
    'an API key works in X-API-Key and as a bearer token, and X-API-Key wins when both are sent',
    rules('ROUTER.AUTH.KEY_FORMS'),
    async ({ api, target }) => {
      const key = target.token;
      ensure('ROUTER.AUTH.KEY_FORMS', key !== undefined, {
        what: 'the target configuration',
        expected: 'an API key for the router',
        received: 'none configured',
      });
      const bogus = `comfyui-conformance-unknown-${randomUUID()}`;
      const forms: Array<[string, CallOptions['auth'], number]> = [
        ['X-API-Key', { apiKey: key }, 200],
        ['Authorization: Bearer <key>', { bearer: key }, 200],
        [
          'a valid X-API-Key with an unknown bearer',
          { headers: { 'x-api-key': key, authorization: `Bearer ${bogus}` } },
          200,
        ],
        [
          'an unknown X-API-Key with a valid bearer',
          { headers: { 'x-api-key': bogus, authorization: `Bearer ${key}` } },
          401,
        ],
      ];
      for (const [what, auth, want] of forms) {
        const res = await api.call('listModels', { query: { limit: 1 }, auth: auth! });
        check('ROUTER.AUTH.KEY_FORMS', res.status === want, {
          what: `the catalog with ${what}`,
          expected: String(want),
          received: describe(api, res),
        });
      }
    },
  );

  test(
    'a JWT sent as Authorization: Bearer is accepted',
    rules('ROUTER.AUTH.JWT'),
    async ({ api, requireScenario }) => {
      const jwt = requireScenario('jwt_token', 'a session JWT the router accepts') as string;
      const m = modelRef(requireScenario('image_model', 'model') as string);
      for (const [op, opts] of [
        ['listModels', { query: { limit: 1 } }],
        ['getModel', { path: path(m) }],
      ] as const) {
        const res = await api.call(op, { ...opts, auth: { bearer: jwt } });
        check('ROUTER.AUTH.JWT', res.status === 200, {
          what: `${op} with Authorization: Bearer <JWT>`,
          expected: '200',
          received: describe(api, res),
          on: res,
        });
      }
    },
  );

  test(
    'a model the caller may not use answers 403 forbidden',
    rules('ROUTER.AUTH.FORBIDDEN'),
    async ({ api, requireScenario }) => {
      const m = modelRef(requireScenario('forbidden_model', 'model the default key may not use') as string);
      checkRouterError(api, 'ROUTER.AUTH.FORBIDDEN', await api.call('getModel', { path: path(m) }), [403], 'forbidden');
      checkRouterError(
        api,
        'ROUTER.AUTH.FORBIDDEN',
        await api.call('runModel', { path: path(m), json: { prompt: 'conformance' } }),
        [403],
        'forbidden',
      );
    },
  );
});
