// A contract finding stops a test only when the answer is unusable (issue #12: judged
// fairly on real servers). A value in another form (a self-hosted proxy's asset id
// `asset_<hex>` where the contract says `format: uuid`) is a broken result of the contract
// rule, with the exchange, and the checks after it are still judged; a body missing a
// member the test reads stops it, and the rules left are blocked by that answer, named.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { loadContract } from '../../lib/contracts/loader.ts';
import { judgeAnswer } from '../../lib/contracts/judge.ts';
import { usableDespite } from '../../lib/contracts/usable.ts';
import { V2_RESPONSE_CHECKS } from '../../lib/checks/v2-errors.ts';
import { ApiClient } from '../../lib/api.ts';
import { runConfig } from '../../lib/config/env.ts';
import { check } from '../../lib/check.ts';
import { step } from '../../lib/check.ts';
import type { HttpResponse } from '../../lib/http.ts';
import type { TestEvidence } from '../../lib/results.ts';
import { runLikeATest } from './run-like-a-test.ts';

const contract = loadContract('workflow-v2.openapi.yaml', 'Comfy', 'V2');
const registry = loadContract('registry.openapi.yaml', 'Comfy', 'REGISTRY');
const router = loadContract('router-v2.openapi.yaml', 'Comfy', 'ROUTER');

// Recorded from comfy-api-proxy 2e52c6e in front of an engine (POST /api/v2/assets -> 201).
const PROXY_ASSET = {
  id: 'asset_637692b942cc4da1939e908a3a509c11',
  hash: 'blake3:dcf5e1eea025f4e1f2dafcaf87b6a0a2625446a38f6c8da653d6aad69b40b06b',
  size_bytes: 69,
  content_type: 'image/png',
  file_path: 'fair-probe.png',
  created_at: '2026-11-23T21:30:01.378718+00:00',
  url: 'http://127.0.0.1:42189/api/v2/assets/asset_637692b942cc4da1939e908a3a509c11/content',
  url_expires_at: '2026-11-24T21:30:01.378783+00:00',
  created_new: true,
};

function answer(status: number, body: unknown, headers: Record<string, string> = {}): HttpResponse {
  return {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
    body: Buffer.from(JSON.stringify(body)),
    truncated: false,
    elapsedMs: 1,
  };
}

function judged(operationId: string, res: HttpResponse, method = 'GET', c = contract) {
  const j = judgeAnswer(c, c === contract ? V2_RESPONSE_CHECKS : [], c.operations.get(operationId)!, method, res);
  return j.findings.map((f) => `${f.rule} ${f.usable ? 'usable' : 'unusable'}`);
}

test('a value in another form leaves the answer usable; a member missing or of another type does not', () => {
  assert.deepEqual(judged('postAssets', answer(201, PROXY_ASSET), 'POST'), ['V2.ASSET.FIELDS usable'], 'a non-UUID id');
  assert.deepEqual(
    judged('getAsset', answer(200, { ...PROXY_ASSET, created_at: '23/11/2026 21:30' })),
    ['V2.ASSET.FIELDS usable'],
    'a date-time in another form',
  );
  assert.deepEqual(
    judged('getAsset', answer(200, { ...PROXY_ASSET, size_bytes: -1 })),
    ['V2.ASSET.FIELDS usable'],
    'a number below its minimum',
  );
  const { id: _, ...noId } = PROXY_ASSET;
  assert.deepEqual(judged('getAsset', answer(200, noId)), ['V2.ASSET.FIELDS unusable'], 'a required member missing');
  assert.deepEqual(
    judged('getAsset', answer(200, { ...PROXY_ASSET, size_bytes: '69' })),
    ['V2.ASSET.FIELDS unusable'],
    'a member of another type',
  );
  assert.deepEqual(
    judged('getAsset', answer(200, [PROXY_ASSET])),
    ['V2.ASSET.FIELDS unusable'],
    'a body of another type',
  );
  assert.deepEqual(
    judged('getAsset', { ...answer(200, {}), body: Buffer.from('{"id": "a",') }),
    ['V2.ASSET.FIELDS unusable'],
    'not JSON',
  );
  // Form and structure together: the structure decides.
  assert.deepEqual(judged('getAsset', answer(200, { ...noId, created_at: 'yesterday' })), ['V2.ASSET.FIELDS unusable']);
});

test('a nullable member is judged by its non-null branch; a failed alternative of whole shapes is unusable', () => {
  const job = {
    id: 'job_1',
    status: 'running',
    expires_at: '2026-12-01T00:00:00Z',
    outputs: [],
    urls: { self: '/s', events: '/e', cancel: '/c' },
  };
  assert.equal(
    usableDespite([
      { keyword: 'format', instancePath: '/id', params: { format: 'uuid' } },
      { keyword: 'enum', instancePath: '/kind', params: {} },
    ]),
    true,
  );
  assert.equal(
    usableDespite([
      { keyword: 'format', instancePath: '/id', params: { format: 'uuid' } },
      { keyword: 'anyOf', instancePath: '/error', params: {} },
    ]),
    false,
    'an alternative no branch is near',
  );
  // anyOf [ErrorDetails, null]: eleven unknown classes listed is ErrorDetails in another form,
  // named by its own error alone (not "must be null", not "must match a schema in anyOf").
  const refusal = (details: unknown) =>
    answer(422, { error: { code: 'invalid_workflow', message: 'unknown classes', details } });
  const eleven = Array.from({ length: 11 }, (_, i) => `Missing${i}`);
  const j = judgeAnswer(
    contract,
    V2_RESPONSE_CHECKS,
    contract.operations.get('postJobs')!,
    'POST',
    refusal({ unknown_node_classes: eleven }),
  );
  assert.deepEqual(
    j.findings.map((f) => [f.rule, f.usable, f.expected]),
    [['V2.ERR.NODE_ERRORS_DETAILS', true, '/error/details/unknown_node_classes must NOT have more than 10 items']],
  );
  assert.deepEqual(
    judged('postJobs', refusal({ unknown_node_classes: 'Missing0' }), 'POST'),
    ['V2.ERR.NODE_ERRORS_DETAILS unusable'],
    'a list that is not a list',
  );
  assert.deepEqual(
    judged('getJob', answer(200, { ...job, error: 5 })),
    ['V2.JOB.FIELDS unusable'],
    'error neither an object nor null',
  );
  assert.deepEqual(
    judged('getJob', answer(200, { ...job, status: 'warming_up' })),
    [],
    'an unknown status is an open vocabulary, not a finding',
  );
  // A cancel answer (anyOf [cancel response, error body]) whose request_id is in upper case:
  // it is a cancel response in another form, judged under the request-ID rule alone, not a
  // failure of the cancel rule for matching neither alternative.
  const rid = '70230B82-5EA4-46DE-8ABC-2918658F0926';
  const call = { 'x-comfy-request-id': 'c0ffee00-0000-4000-8000-000000000001' };
  assert.deepEqual(
    judged('cancelModelRequest', answer(409, { request_id: rid, status: 'ALREADY_COMPLETED' }, call), 'PUT', router),
    ['ROUTER.ID.REQUEST_ID usable'],
  );
  assert.deepEqual(
    judged(
      'cancelModelRequest',
      answer(409, { request_id: rid.toLowerCase(), status: 'ALREADY_COMPLETED' }, call),
      'PUT',
      router,
    ),
    [],
  );
  // Registry error bodies: neither alternative's members are there.
  const regOp = [...registry.operations.keys()][0];
  assert.deepEqual(judged(regOp, answer(400, { foo: 1 }), 'POST', registry), ['REGISTRY.ERR.SHAPE unusable']);
});

test('findings that are not about a value (undeclared status, broken envelope) stay unusable', () => {
  assert.deepEqual(judged('getAsset', answer(418, { error: { code: 'teapot', message: 'x' } })), [
    'V2.CONTRACT.STATUS_DECLARED unusable',
  ]);
  assert.deepEqual(judged('getAsset', answer(404, { code: 'not_found', message: 'flat' })), [
    'V2.ERR.ENVELOPE unusable',
  ]);
});

/** A loopback server answering each request with the next recorded answer for its method and path. */
async function serve(answers: Record<string, unknown>): Promise<{ server: Server; baseUrl: string }> {
  const server = createServer((req, res) => {
    const key = `${req.method} ${req.url?.split('?')[0]}`;
    req.resume();
    req.on('end', () => {
      const body = answers[key];
      res.writeHead(body === undefined ? 404 : key.startsWith('POST') ? 201 : 200, {
        'content-type': 'application/json; charset=utf-8',
      });
      res.end(JSON.stringify(body ?? { error: { code: 'not_found', message: key } }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, baseUrl: `http://127.0.0.1:${(server.address() as { port: number }).port}` };
}

const outcomes = (e: TestEvidence, rule: string) => e.results.filter((r) => r.rule === rule).map((r) => r.outcome);

/** The shape of an asset spec: create (a step the rest needs), then independent checks on it. */
async function assetTest(created: Record<string, unknown>) {
  const { server, baseUrl } = await serve({
    'POST /api/v2/assets': created,
    [`GET /api/v2/assets/${String(created.id)}`]: created,
  });
  try {
    return await runLikeATest(['V2.ASSET.FIELDS', 'V2.ASSET.IMMUTABLE'], async (recorder) => {
      const api = new ApiClient({
        contract,
        recorder,
        checks: V2_RESPONSE_CHECKS,
        target: { surface: 'local', baseUrl, brand: 'Comfy', scenario: {}, capabilities: {} },
        bounds: runConfig().bounds,
      });
      const res = await step('create an asset', () => api.call('postAssets', { form: [['file_path', 'x.png']] }));
      const asset = res.json<typeof PROXY_ASSET>();
      check('V2.ASSET.FIELDS', asset.size_bytes === 69, {
        what: 'size_bytes of the created asset',
        expected: '69',
        received: asset.size_bytes,
        on: res,
      });
      const read = await api.call('getAsset', { path: { id: asset.id } });
      check('V2.ASSET.IMMUTABLE', read.json<typeof PROXY_ASSET>().hash === asset.hash, {
        what: 'the hash read back',
        expected: asset.hash,
        received: read.json<typeof PROXY_ASSET>().hash,
        on: read,
      });
    });
  } finally {
    await new Promise((r) => server.close(r));
  }
}

test('a usable answer with a non-UUID id: the contract rule is broken with the exchange, and the later rules are judged', async () => {
  const { evidence, thrown, status } = await assetTest(PROXY_ASSET);
  assert.equal(status, 'passed', 'the test body ran to its end');
  const fields = evidence.results.filter((r) => r.rule === 'V2.ASSET.FIELDS');
  assert.ok(
    fields.some(
      (r) =>
        r.outcome === 'broken' &&
        /format "uuid"/.test(r.expected ?? '') &&
        r.exchange?.method === 'POST' &&
        r.exchange.status === 201,
    ),
    'broken under its contract rule, citing the exchange',
  );
  assert.ok(
    fields.some((r) => r.outcome === 'held' && r.what === 'size_bytes of the created asset'),
    'the check after it ran',
  );
  assert.deepEqual(
    outcomes(evidence, 'V2.ASSET.IMMUTABLE'),
    ['held'],
    'a later, independent rule judged on its own evidence',
  );
  assert.ok(!evidence.results.some((r) => r.outcome === 'blocked'));
  assert.match(
    thrown?.message ?? '',
    /1 rule\(s\) broken.*\n[\s\S]*V2\.ASSET\.FIELDS/,
    'the test fails at its end, naming the rule',
  );
});

test('an unusable answer (no id): the test stops there, and the rules left are blocked by that answer, named', async () => {
  const { id: _, ...noId } = PROXY_ASSET;
  const { evidence, status } = await assetTest({ ...noId, id: undefined });
  assert.equal(status, 'failed');
  assert.ok(outcomes(evidence, 'V2.ASSET.FIELDS').includes('broken'));
  assert.ok(
    !evidence.results.some((r) => r.what === 'size_bytes of the created asset'),
    'nothing read the unusable body',
  );
  const blocked = evidence.results.find((r) => r.rule === 'V2.ASSET.IMMUTABLE');
  assert.equal(blocked?.outcome, 'blocked');
  assert.equal(blocked?.step, 'the answer of postAssets (POST /api/v2/assets -> 201)');
  assert.deepEqual(blocked?.by, ['V2.ASSET.FIELDS']);
});
