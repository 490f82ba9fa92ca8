// Seed R § Endpoints › GET /v2/models/{provider}/{model}/openapi.json: the per-model
// document, its strong ETag, freshness and 304, unauthored models, and the keyless snapshot.
import { test, rules } from '../../fixtures/test.ts';
import { check } from '../../lib/check.ts';
import { checkRouterError, describe, modelRef, path } from '../../lib/router/models.ts';
import { readDocument } from '../../lib/router/schema-doc.ts';

test.describe('Schema documents', () => {
  test(
    'the schema route answers an OpenAPI document with the authored flag and, when authored, an input schema',
    rules('ROUTER.SCHEMA.DOCUMENT'),
    async ({ api, requireScenario }) => {
      for (const key of ['image_model', 'unauthored_model']) {
        const m = modelRef(requireScenario(key, 'model') as string);
        const res = await api.call('getModelSchema', { path: path(m) });
        const doc = readDocument(res.json(), api.target.brand);
        const flag = `x-${api.target.brand.toLowerCase()}-input-schema-authored`;
        check('ROUTER.SCHEMA.DOCUMENT', typeof doc.authored === 'boolean', {
          what: `${flag} of the document of ${m.id}`,
          expected: 'a boolean',
          received: doc.raw[flag],
        });
        if (doc.authored)
          check('ROUTER.SCHEMA.DOCUMENT', doc.input !== undefined && doc.input.type === 'object', {
            what: `the document of ${m.id} (authored)`,
            expected: 'a JSON request-body schema for an object',
            received: doc.input,
          });
      }
    },
  );

  test(
    'the document carries a strong ETag, the same for the same bytes',
    rules('ROUTER.SCHEMA.ETAG'),
    async ({ api, requireScenario }) => {
      const m = modelRef(requireScenario('image_model', 'model') as string);
      const a = await api.call('getModelSchema', { path: path(m) });
      const b = await api.call('getModelSchema', { path: path(m) });
      const [ea, eb] = [a.header('etag'), b.header('etag')];
      check('ROUTER.SCHEMA.ETAG', ea !== undefined && !ea.startsWith('W/'), {
        what: 'ETag of the schema document',
        expected: 'a strong tag (no W/ prefix)',
        received: ea ?? 'absent',
      });
      if (a.body.equals(b.body))
        check('ROUTER.SCHEMA.ETAG', ea === eb, {
          what: 'ETags of two reads of identical bytes',
          expected: 'the same tag',
          received: `${ea} then ${eb}`,
        });
    },
  );

  test(
    'the document carries a Cache-Control freshness directive',
    rules('ROUTER.SCHEMA.CACHE_CONTROL'),
    async ({ api, requireScenario }) => {
      const m = modelRef(requireScenario('image_model', 'model') as string);
      const res = await api.call('getModelSchema', { path: path(m) });
      const cc = res.header('cache-control') ?? '';
      check('ROUTER.SCHEMA.CACHE_CONTROL', /max-age=\d+|no-cache|must-revalidate|s-maxage=\d+|no-store/i.test(cc), {
        what: 'Cache-Control of the schema document',
        expected: 'a freshness directive (max-age, no-cache, ...)',
        received: cc || 'absent',
      });
    },
  );

  test(
    'If-None-Match with the ETag answers 304 without a body',
    rules('ROUTER.SCHEMA.NOT_MODIFIED'),
    async ({ api, requireScenario }) => {
      const m = modelRef(requireScenario('image_model', 'model') as string);
      const first = await api.call('getModelSchema', { path: path(m) });
      const etag = first.header('etag');
      test.skip(etag === undefined, 'not exercised: the document has no ETag (ROUTER.SCHEMA.ETAG judges that)');
      const again = await api.call('getModelSchema', { path: path(m), headers: { 'If-None-Match': etag! } });
      check('ROUTER.SCHEMA.NOT_MODIFIED', again.status === 304, {
        what: 'a read with If-None-Match: <the ETag>',
        expected: '304',
        received: again.status,
      });
      check('ROUTER.SCHEMA.NOT_MODIFIED', again.body.length === 0, {
        what: 'the 304',
        expected: 'no body',
        received: `${again.body.length} bytes`,
      });
    },
  );

  test(
    'a model without an authored input schema accepts any JSON object',
    rules('ROUTER.SCHEMA.UNAUTHORED'),
    async ({ api, requireScenario }) => {
      const m = modelRef(requireScenario('unauthored_model', 'model without an authored schema') as string);
      const doc = readDocument((await api.call('getModelSchema', { path: path(m) })).json(), api.target.brand);
      check('ROUTER.SCHEMA.UNAUTHORED', doc.authored === false, {
        what: `the document of ${m.id}`,
        expected: 'x-…-input-schema-authored false (the scenario needs an unauthored model)',
        received: doc.authored,
      });
      for (const body of [
        {},
        { anything: [1, 'two', { three: 3 }] },
        { nested: { deep: { deeper: true } }, n: -1.5 },
      ]) {
        const res = await api.call('runModel', { path: path(m), json: body });
        check('ROUTER.SCHEMA.UNAUTHORED', res.status !== 422, {
          what: `a run of ${m.id} with ${JSON.stringify(body)}`,
          expected: 'no 422 from model-specific validation',
          received: describe(api, res),
        });
      }
    },
  );

  test(
    'an authored document is published without a key at /router-schemas/{provider}/{model}.json; the endpoint needs a key',
    rules('ROUTER.SCHEMA.SNAPSHOT'),
    async ({ api, requireScenario, target }) => {
      test.skip(
        !target.capabilities.schema_snapshots,
        'not exercised: the target does not declare schema_snapshots (the snapshot is published beside the router)',
      );
      const m = modelRef(requireScenario('image_model', 'model with an authored schema') as string);
      const snapshot = await api.as('none').call('getSchemaSnapshot', { path: path(m) });
      check('ROUTER.SCHEMA.SNAPSHOT', snapshot.status === 200, {
        what: `the snapshot of ${m.id} without a key`,
        expected: '200',
        received: snapshot.status,
      });
      const doc = readDocument(snapshot.json(), api.target.brand);
      check('ROUTER.SCHEMA.SNAPSHOT', doc.authored === true && doc.input !== undefined, {
        what: `the snapshot of ${m.id}`,
        expected: 'the authored document (input schema present)',
        received: doc.raw,
      });
      const keyless = await api.as('none').call('getModelSchema', { path: path(m) });
      checkRouterError(
        api,
        'ROUTER.SCHEMA.SNAPSHOT',
        keyless,
        [401],
        'unauthorized',
        `the endpoint without a key answered ${describe(api, keyless)}`,
      );
    },
  );

  test(
    'a schema-document request the router cannot complete is answered 500 with the error body',
    rules('ROUTER.SCHEMA.INTERNAL_ERROR'),
    async ({ api, requireScenario }) => {
      // Only a target can name such a model (a document its store cannot produce): a correct
      // router fails no document a client can ask for otherwise.
      const m = modelRef(
        requireScenario('schema_failing_model', 'a model whose schema document the router cannot build') as string,
      );
      const res = await api.call('getModelSchema', { path: path(m) });
      checkRouterError(
        api,
        'ROUTER.SCHEMA.INTERNAL_ERROR',
        res,
        [500],
        undefined,
        `the schema document of ${m.id}, which cannot be built, answered ${describe(api, res)}`,
      );
    },
  );
});
