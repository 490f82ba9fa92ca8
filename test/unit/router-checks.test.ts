// Recorded router answers, each judged under the rule it breaks; unknown fields and
// unknown error buckets are never failures (seed R § Errors: the set is open).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadContract } from '../../lib/contracts/loader.ts';
import { validateResponse } from '../../lib/contracts/validate.ts';
import { runChecks } from '../../lib/checks/v2-errors.ts';
import { ROUTER_RESPONSE_CHECKS, decodeDroppedParams, errorTypeTable } from '../../lib/checks/router.ts';
import type { HttpResponse } from '../../lib/http.ts';
import { checkQuoteArithmetic, creditsFigures, type Quote } from '../../lib/router/estimate.ts';
import { entryId, pageSizeOf, priceMembers, priceValues, quotedFigures } from '../../lib/router/catalog.ts';
import { typeBrokenBody } from '../../lib/router/schema-doc.ts';
import { doubleMatches, numberAsDecimal, parseDecimal } from '../../lib/router/decimal.ts';
import { RuleViolation } from '../../lib/violations.ts';
import { alternatesOf, mirroringMembers, schemaUrlMember } from '../../lib/router/models.ts';

const contract = loadContract('router-v2.openapi.yaml', 'Comfy', 'ROUTER');
const op = (id: string) => contract.operations.get(id)!;
const RID = { 'x-comfy-request-id': '6f0c8a52-8f65-4a0e-9d5b-2a8d7b0e1c11' };

function res(status: number, body: unknown, headers: Record<string, string> = {}): HttpResponse {
  const buf = Buffer.isBuffer(body) ? body : Buffer.from(typeof body === 'string' ? body : JSON.stringify(body));
  return {
    status,
    headers: { 'content-type': 'application/json', ...RID, ...headers },
    body: buf,
    truncated: false,
    elapsedMs: 1,
  };
}

function judge(id: string, r: HttpResponse, method = 'GET'): string[] {
  const v = validateResponse(op(id), method, r);
  const c = runChecks(ROUTER_RESPONSE_CHECKS, { contract, method, response: r, json: v.json });
  return [...new Set([...v.findings, ...c.findings].map((f) => f.rule))].sort();
}

const err = (type: string, detail = 'why') => ({ detail, error_type: type });
const handle = {
  request_id: '5f0c8a52-8f65-4a0e-9d5b-2a8d7b0e1c11',
  status: 'IN_QUEUE',
  status_url: 'https://r.example/v2/models/a/b/requests/5f0c8a52-8f65-4a0e-9d5b-2a8d7b0e1c11/status',
  response_url: 'https://r.example/v2/models/a/b/requests/5f0c8a52-8f65-4a0e-9d5b-2a8d7b0e1c11',
  cancel_url: 'https://r.example/v2/models/a/b/requests/5f0c8a52-8f65-4a0e-9d5b-2a8d7b0e1c11/cancel',
};

test('correct answers raise nothing; unknown members and unknown buckets are tolerated', () => {
  assert.deepEqual(
    judge('getModel', res(404, err('model_not_found'), { 'x-comfy-error-type': 'model_not_found' })),
    [],
  );
  assert.deepEqual(
    judge(
      'getModel',
      res(
        404,
        { ...err('a_bucket_added_next_year'), hint: 'new member' },
        { 'x-comfy-error-type': 'a_bucket_added_next_year' },
      ),
    ),
    [],
  );
  assert.deepEqual(
    judge('getModelRequestStatus', res(200, { ...handle, status: 'COMPLETED', logs: [], brand_new: { x: 1 } })),
    [],
  );
  const page = {
    data: [
      { id: 'a/b', provider: 'a', model: 'b', billing: { charges_on_policy_rejection: 'sometimes' }, tags: ['x'] },
    ],
    has_more: false,
    limit: 20,
  };
  assert.deepEqual(judge('listModels', res(200, page)), []);
  assert.deepEqual(
    judge(
      'estimateModel',
      res(200, { source: 'a_new_source', pricing_as_of: '2026-01-01T00:00:00Z', reason: 'a_new_reason' }),
    ),
    [],
  );
});

test('a missing request id, or an error type header that differs from the body, break their header rules', () => {
  const r = res(404, err('model_not_found'), { 'x-comfy-error-type': 'model_not_found' });
  delete r.headers['x-comfy-request-id'];
  assert.deepEqual(judge('getModel', r), ['ROUTER.HEADER.REQUEST_ID']);
  assert.deepEqual(judge('getModel', res(404, err('model_not_found'), { 'x-comfy-error-type': 'not_found' })), [
    'ROUTER.HEADER.ERROR_TYPE',
  ]);
  assert.deepEqual(judge('getModel', res(404, err('model_not_found'))), ['ROUTER.HEADER.ERROR_TYPE']);
});

test('a known bucket with a status its pairing does not allow breaks ROUTER.ERR.CODE_STATUS; unpaired statuses take any bucket', () => {
  const bucket = (status: number, type: string, id = 'runModel', method = 'POST') =>
    judge(id, res(status, err(type), { 'x-comfy-error-type': type }), method);
  assert.deepEqual(
    bucket(400, 'model_not_found'),
    ['ROUTER.ERR.CODE_STATUS'],
    "against the seed's own pairing: the MUST rule alone",
  );
  assert.deepEqual(bucket(413, 'invalid_input'), []);
  assert.deepEqual(bucket(402, 'provider_error'), [], '402 may carry any request-level bucket');
  assert.deepEqual(errorTypeTable(contract).pairs.concurrency_limit_exceeded, [409, 429]);
});

test(
  'pairings only public docs give are ROUTER.ERR.CODE_STATUS_PUBLIC (SHOULD), and a status whose ' +
    'seed condition names no bucket takes any under the seed',
  () => {
    const bucket = (status: number, type: string, id: string, method = 'GET') =>
      judge(id, res(status, err(type), { 'x-comfy-error-type': type }), method);
    // The seed's 404 row names no bucket for an unknown queued request; public docs say request_not_found.
    assert.deepEqual(bucket(404, 'request_not_found', 'getModelRequestStatus'), []);
    assert.deepEqual(bucket(404, 'invalid_input', 'getModelRequestStatus'), ['ROUTER.ERR.CODE_STATUS_PUBLIC']);
    // The seed's 500 names no bucket; public docs pair service_unavailable with 503 and internal_error with 500.
    assert.deepEqual(bucket(500, 'internal_error', 'getModelSchema'), []);
    assert.deepEqual(bucket(500, 'service_unavailable', 'getModelSchema'), ['ROUTER.ERR.CODE_STATUS_PUBLIC']);
    // A bucket only public docs pair: never the MUST rule.
    assert.deepEqual(bucket(503, 'internal_error', 'runModel', 'POST'), ['ROUTER.ERR.CODE_STATUS_PUBLIC']);
    assert.deepEqual(bucket(504, 'provider_timeout', 'runModel', 'POST'), []);
    assert.deepEqual(bucket(409, 'invalid_input', 'runModel', 'POST'), []);
    assert.deepEqual(errorTypeTable(contract).publicPairs.request_not_found, [404]);
  },
);

test('a Retry-After that is not integer seconds breaks ROUTER.HEADER.RETRY_AFTER', () => {
  const body = { ...handle, status: 'IN_PROGRESS' };
  assert.deepEqual(judge('getModelRequestStatus', res(200, body, { 'retry-after': 'Wed, 21 Oct 2026 07:28:00 GMT' })), [
    'ROUTER.HEADER.RETRY_AFTER',
  ]);
  assert.deepEqual(judge('getModelRequestStatus', res(200, body, { 'retry-after': '2' })), []);
});

test('a 422 whose detail is not the entry list breaks ROUTER.ERR.VALIDATION_BODY', () => {
  const ok = { detail: [{ loc: ['body', 'prompt'], msg: 'Field required', type: 'missing' }] };
  assert.deepEqual(judge('runModel', res(422, ok, { 'x-comfy-error-type': 'invalid_input' }), 'POST'), []);
  assert.deepEqual(
    judge(
      'runModel',
      res(422, { detail: 'prompt: Field required' }, { 'x-comfy-error-type': 'invalid_input' }),
      'POST',
    ),
    ['ROUTER.ERR.VALIDATION_BODY'],
  );
});

test('a dropped-params header that is not a JSON array of strings breaks ROUTER.HEADER.DROPPED_PARAMS_JSON', () => {
  const ok = res(200, { images: [] }, { 'x-content-type-options': 'nosniff' });
  assert.deepEqual(
    judge(
      'runModel',
      {
        ...ok,
        headers: {
          ...ok.headers,
          'x-comfy-router-dropped-params': JSON.stringify(['style: dropped, sorry', 'seed: dropped']),
        },
      },
      'POST',
    ),
    [],
  );
  assert.deepEqual(
    judge(
      'runModel',
      { ...ok, headers: { ...ok.headers, 'x-comfy-router-dropped-params': 'style: dropped, seed: dropped' } },
      'POST',
    ),
    ['ROUTER.HEADER.DROPPED_PARAMS_JSON'],
  );
  assert.deepEqual(decodeDroppedParams('["a, b","c"]'), ['a, b', 'c']);
  assert.equal(decodeDroppedParams('[1]'), undefined);
});

test('nested violations are reported under the nested rule: error_type, request id, decimal amounts; an unknown status name is no contract failure', () => {
  // The names of the unfinished statuses are public docs' (SHOULD, judged by the specs), never a MUST contract failure.
  assert.deepEqual(judge('getModelRequestStatus', res(200, { ...handle, status: 'RUNNING' })), []);
  assert.deepEqual(judge('getModelRequestStatus', res(200, { ...handle, status: 'COMPLETED', error_type: null })), [
    'ROUTER.QUEUE.ERROR_TYPE_ON_FAILURE',
  ]);
  assert.deepEqual(
    judge('getModelRequestStatus', res(200, { ...handle, request_id: handle.request_id.toUpperCase() })),
    ['ROUTER.ID.REQUEST_ID'],
  );
  const estimate = {
    source: 'exact',
    amount: '1.25e-2',
    amount_cents: 1.25,
    credits: 2.64,
    pricing_as_of: '2026-01-01T00:00:00Z',
  };
  assert.deepEqual(judge('submitModelRequest', res(201, { ...handle, estimate }), 'POST'), ['ROUTER.ESTIMATE.DECIMAL']);
  assert.deepEqual(
    judge('submitModelRequest', res(201, { ...handle, status_url: '/v2/models/a/b/requests/x/status' }), 'POST'),
    ['ROUTER.QUEUE.HANDLE'],
  );
});

test('ALREADY_COMPLETED is accepted under both documented statuses, 409 and 400', () => {
  const body = { request_id: handle.request_id, status: 'ALREADY_COMPLETED' };
  assert.deepEqual(judge('cancelModelRequest', res(409, body, { 'x-comfy-error-type': 'invalid_input' }), 'PUT'), []);
  assert.deepEqual(judge('cancelModelRequest', res(400, body, { 'x-comfy-error-type': 'invalid_input' }), 'PUT'), []);
});

function violated(q: Quote): string | undefined {
  try {
    checkQuoteArithmetic(q, 'a recorded quote');
    return undefined;
  } catch (e) {
    if (e instanceof RuleViolation) return e.rule;
    throw e;
  }
}

test('quote arithmetic: cents unrounded, credits x 211 rounded to 2 decimals (either tie rule), decimals without exponent', () => {
  const base = { source: 'exact', pricing_as_of: '2026-01-01T00:00:00Z' };
  assert.equal(violated({ ...base, amount: '0.0125', amount_cents: 1.25, credits: 2.64 }), undefined);
  assert.equal(violated({ ...base, amount: '0.0125', amount_cents: 1.25, credits: 2.63 }), 'ROUTER.ESTIMATE.CREDITS');
  assert.equal(
    violated({ ...base, amount: '0.015', amount_cents: 1.5, credits: 3.16 }),
    undefined,
    '3.165 rounds half-even to 3.16',
  );
  assert.equal(
    violated({ ...base, amount: '0.015', amount_cents: 1.5, credits: 3.17 }),
    undefined,
    '3.165 rounds half-up to 3.17',
  );
  assert.equal(violated({ ...base, amount: '0.00004', amount_cents: 0.004, credits: 0.01 }), undefined);
  assert.equal(violated({ ...base, amount: '0.00004', amount_cents: 0, credits: 0.01 }), 'ROUTER.ESTIMATE.CENTS');
  assert.equal(violated({ ...base, amount: '4e-5', amount_cents: 0.004, credits: 0.01 }), 'ROUTER.ESTIMATE.DECIMAL');
  assert.equal(
    violated({ ...base, amount: '0.123456789', amount_cents: 12.3456789, credits: 26.05 }),
    'ROUTER.ESTIMATE.DECIMAL',
  );
  assert.equal(
    violated({ ...base, amount: '1', amount_cents: 100, credits: 211, min_amount: '1' }),
    'ROUTER.ESTIMATE.FIELDS',
  );
  assert.equal(
    violated({
      source: 'estimated',
      pricing_as_of: '2026-01-01T00:00:00Z',
      min_amount: '0.1',
      max_amount: '0.2',
      min_amount_cents: 10,
      max_amount_cents: 20,
    }),
    undefined,
  );
  assert.equal(
    violated({ source: 'unknown', pricing_as_of: '2026-01-01T00:00:00Z', reason: 'not_quotable' }),
    undefined,
  );
  // A reason only when the source is unknown (R:52:36c68f3d4dbe); not that every unknown quote has one.
  assert.equal(violated({ source: 'unknown', pricing_as_of: '2026-01-01T00:00:00Z' }), undefined);
  assert.equal(
    violated({
      source: 'estimated',
      pricing_as_of: '2026-01-01T00:00:00Z',
      min_amount: '0.1',
      max_amount: '0.2',
      reason: 'not_quotable',
    }),
    'ROUTER.ESTIMATE.FIELDS',
  );
  // credits is not said to be always present (R:51:ad9a5652bd3b); amount_cents is, with amount (R:50:d9b658add9f4).
  assert.equal(violated({ ...base, amount: '0.0125', amount_cents: 1.25 }), undefined);
  assert.equal(violated({ ...base, amount: '0.0125' }), 'ROUTER.ESTIMATE.FIELDS');
  // The credits an exact quote stands for: its own, or its amount in credits by either tie rule.
  assert.deepEqual(creditsFigures({ ...base, amount: '0.0125', amount_cents: 1.25, credits: 2.64 })?.figures, [
    parseDecimal('2.64'),
  ]);
  assert.deepEqual(creditsFigures({ ...base, amount: '0.015', amount_cents: 1.5 })?.figures, [
    parseDecimal('3.17'),
    parseDecimal('3.16'),
  ]);
});

test('members whose names seed R does not show are found by their values', () => {
  assert.deepEqual(pageSizeOf({ data: [], has_more: false, limit: 20 }), { member: 'limit', value: 20 });
  assert.deepEqual(pageSizeOf({ data: [], has_more: false, page_size: 20, total: 300 }), {
    member: 'page_size',
    value: 20,
  });
  assert.equal(
    pageSizeOf({ data: [], has_more: false, page_size: 20, served: 7 }),
    undefined,
    'ambiguous without an expected size',
  );
  assert.deepEqual(pageSizeOf({ data: [], has_more: false, page_size: 20, served: 7 }, 7), {
    member: 'served',
    value: 7,
  });
  assert.deepEqual(alternatesOf({ id: 'a/b', model_providers: ['fal'], tags: ['x'] }), {
    member: 'model_providers',
    providers: ['fal'],
  });
  assert.deepEqual(alternatesOf({ model_id: 'a/b', alternates: ['wavespeed-ai', 'fal'] }), {
    member: 'alternates',
    providers: ['wavespeed-ai', 'fal'],
  });
  assert.equal(
    alternatesOf({ model_id: 'a/b', alternates: ['fal'], tags: ['image'] }),
    undefined,
    'two lists of names: none is chosen',
  );
  assert.equal(entryId({ provider: 'bfl', model: 'flux-2-pro' }), 'bfl/flux-2-pro');
});

test('a price in a catalog record is found by its name at any depth, or by a figure its quote gives under any name', () => {
  assert.deepEqual(priceMembers({ id: 'a/b', billing: { charges_on_policy_rejection: 'yes' } }), []);
  assert.deepEqual(priceMembers({ id: 'a/b', tiers: [{ unit_price: '0.04' }], billing: { cost_usd: 1 } }), [
    'tiers[0].unit_price',
    'billing.cost_usd',
  ]);
  const figures = quotedFigures({
    source: 'exact',
    currency: 'USD',
    amount: '0.0125',
    amount_cents: 1.25,
    credits: 2.64,
    pricing_as_of: '2026-01-01T00:00:00Z',
  });
  assert.deepEqual(figures.length, 3);
  assert.deepEqual(priceValues({ id: 'a/b', rates: { text_to_image: '0.0125' } }, figures), [
    'rates.text_to_image = "0.0125"',
  ]);
  assert.deepEqual(priceValues({ id: 'a/b', list: ['$2.64'], n: 1.25 }, figures), ['list[0] = "$2.64"', 'n = 1.25']);
  // Whole figures are never compared: a count or version may equal a whole-dollar quote.
  assert.deepEqual(quotedFigures({ amount: '1', amount_cents: 100, credits: 211 }), []);
  assert.deepEqual(priceValues({ id: 'a/b', max_images: 4, version: '1.5' }, figures), []);
});

test("a body the model's own schema refuses breaks declared fields by JSON type only", () => {
  const schema = {
    type: 'object',
    properties: {
      model: { type: 'string' },
      prompt: { type: 'string', minLength: 1 },
      n: { type: 'integer', maximum: 4 },
      image: { type: 'string', format: 'uri' },
      any: {},
    },
  };
  assert.deepEqual(typeBrokenBody(schema, { prompt: 'a lighthouse' }, 2), {
    body: { prompt: 12345, n: 'not a number' },
    fields: ['prompt', 'n'],
  });
  assert.deepEqual(
    typeBrokenBody(schema, { prompt: 'x' }, 9).fields,
    ['prompt', 'n', 'image'],
    'never the model member, never an untyped field',
  );
});

test('decimal helpers: numbers in exponent form are expanded, doubles match their decimal', () => {
  assert.equal(numberAsDecimal(1e-7), '0.0000001');
  assert.equal(numberAsDecimal(1.5e-7), '0.00000015');
  assert.equal(numberAsDecimal(1e21), '1000000000000000000000');
  assert.ok(doubleMatches(0.1 + 0.2, parseDecimal('0.3')!));
  assert.ok(!doubleMatches(0.31, parseDecimal('0.3')!));
});

test("a header is mirrored by any body member holding its value, and a schema URL is the detail's one URL member, whatever its path", () => {
  assert.deepEqual(
    mirroringMembers(
      { detail: 'input_text', error_type: 'content_policy_violation', refusal_subject: 'input_text' },
      'input_text',
    ),
    ['refusal_subject'],
  );
  assert.deepEqual(
    mirroringMembers(
      { detail: 'refused', error_type: 'content_policy_violation', subject: 'input_text' },
      'input_text',
    ),
    ['subject'],
  );
  assert.deepEqual(
    mirroringMembers(
      { detail: 'refused', error_type: 'content_policy_violation', refusal_subject: 'output' },
      'input_text',
    ),
    [],
  );
  const m = { id: 'bfl/flux-2-pro', provider: 'bfl', model: 'flux-2-pro' };
  assert.deepEqual(
    schemaUrlMember({ id: m.id, schema_url: 'https://api.example/v2/models/bfl/flux-2-pro/openapi.json' }, m),
    ['schema_url', 'https://api.example/v2/models/bfl/flux-2-pro/openapi.json'],
  );
  // The seed gives the URL's scheme and length, not its path (R:31:93bb4adeb519).
  assert.deepEqual(schemaUrlMember({ id: m.id, schema: 'https://cdn.example/s/8f3a.json' }, m), [
    'schema',
    'https://cdn.example/s/8f3a.json',
  ]);
  // Of several URLs, input_schema_url, else the one naming the model, else none.
  assert.deepEqual(
    schemaUrlMember({ docs: 'https://docs.example/x', input_schema_url: 'https://cdn.example/s.json' }, m),
    ['input_schema_url', 'https://cdn.example/s.json'],
  );
  assert.deepEqual(
    schemaUrlMember(
      { docs: 'https://docs.example/x', schema: 'https://api.example/v2/models/bfl/flux-2-pro/openapi.json' },
      m,
    ),
    ['schema', 'https://api.example/v2/models/bfl/flux-2-pro/openapi.json'],
  );
  assert.equal(schemaUrlMember({ docs: 'https://docs.example/x', other: 'https://cdn.example/y' }, m), undefined);
});

test('X-Svc-Credits-Used off the 2-decimal form is ROUTER.RUN.CREDITS_USED_FORMAT (SHOULD, public docs), never the MUST ROUTER.RUN.CREDITS_USED', () => {
  const run = (credits: string) =>
    judge(
      'runModel',
      res(200, { images: [] }, { 'x-comfy-credits-used': credits, 'x-content-type-options': 'nosniff' }),
      'POST',
    );
  assert.deepEqual(run('2.64'), []);
  assert.deepEqual(run('12'), []);
  // The seed ties the 2-decimal figure to exact quotes only (R:51); the header itself is a string (R:216).
  assert.deepEqual(run('0.3456'), ['ROUTER.RUN.CREDITS_USED_FORMAT']);
});
