// Recorded bad responses: each is judged under the rule it breaks.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadContract } from '../../lib/contracts/loader.ts';
import { validateResponse } from '../../lib/contracts/validate.ts';
import { runChecks, V2_RESPONSE_CHECKS } from '../../lib/checks/v2-errors.ts';
import type { HttpResponse } from '../../lib/http.ts';

const contract = loadContract('workflow-v2.openapi.yaml', 'Comfy', 'V2');
const op = (id: string) => contract.operations.get(id)!;

function res(status: number, body: unknown, headers: Record<string, string> = {}): HttpResponse {
  const buf = Buffer.isBuffer(body) ? body : Buffer.from(typeof body === 'string' ? body : JSON.stringify(body));
  return {
    status,
    headers: { 'content-type': 'application/json', ...headers },
    body: buf,
    truncated: false,
    elapsedMs: 1,
  };
}

function judge(id: string, r: HttpResponse, method = 'GET') {
  const v = validateResponse(op(id), method, r);
  const c = runChecks(V2_RESPONSE_CHECKS, { contract, method, response: r, json: v.json });
  return [...new Set([...v.findings, ...c.findings].map((f) => f.rule))].sort();
}

const asset = {
  id: '5f0c8a52-8f65-4a0e-9d5b-2a8d7b0e1c11',
  hash: 'blake3:ab',
  size_bytes: 3,
  content_type: 'image/png',
  created_at: '2026-01-01T00:00:00.000Z',
  url: 'https://s.example/x?sig=1',
  url_expires_at: '2026-01-01T06:00:00.000Z',
};

test('a correct asset and a correct refusal raise nothing', () => {
  assert.deepEqual(judge('getAsset', res(200, asset)), []);
  assert.deepEqual(judge('getAsset', res(404, { error: { code: 'not_found', message: 'no such asset' } })), []);
  assert.deepEqual(
    judge('getAsset', res(404, { error: { code: 'asset_not_found', message: 'live deviation', details: null } })),
    [],
    'unknown codes are tolerated',
  );
});

test('an asset without url_expires_at breaks V2.ASSET.FIELDS', () => {
  const { url_expires_at: _, ...rest } = asset;
  assert.deepEqual(judge('getAsset', res(200, rest)), ['V2.ASSET.FIELDS']);
});

test('unknown fields on an asset are not a failure', () => {
  assert.deepEqual(judge('getAsset', res(200, { ...asset, thumbnail: 'x', nested: { a: 1 } })), []);
});

test('a flat error body breaks V2.ERR.ENVELOPE', () => {
  assert.deepEqual(judge('getAsset', res(404, { code: 'not_found', message: 'flat' })), ['V2.ERR.ENVELOPE']);
});

test('a known code with the wrong status breaks V2.ERR.CODE_STATUS', () => {
  assert.ok(judge('getAsset', res(403, { error: { code: 'not_found', message: 'x' } })).includes('V2.ERR.CODE_STATUS'));
});

test('a 429 without an integer Retry-After breaks V2.ERR.RETRY_AFTER', () => {
  const body = { error: { code: 'rate_limited', message: 'slow down' } };
  assert.deepEqual(judge('getAsset', res(429, body)), ['V2.ERR.RETRY_AFTER']);
  assert.deepEqual(judge('getAsset', res(429, body, { 'retry-after': 'Wed, 21 Oct 2026 07:28:00 GMT' })), [
    'V2.ERR.RETRY_AFTER',
  ]);
  assert.deepEqual(judge('getAsset', res(429, body, { 'retry-after': '7' })), []);
});

test('organization_id with a code other than sso_required breaks V2.ERR.ORG_ID_ONLY_SSO', () => {
  assert.deepEqual(
    judge('getAsset', res(403, { error: { code: 'forbidden', message: 'x', organization_id: 'org_1' } })),
    ['V2.ERR.ORG_ID_ONLY_SSO'],
  );
  assert.deepEqual(
    judge('getAsset', res(403, { error: { code: 'sso_required', message: 'x', organization_id: 'org_1' } })),
    [],
  );
});

test('an undeclared status breaks V2.CONTRACT.STATUS_DECLARED', () => {
  assert.ok(
    judge('getAsset', res(418, { error: { code: 'teapot', message: 'x' } })).includes('V2.CONTRACT.STATUS_DECLARED'),
  );
});

test('garbage, invalid UTF-8 and an oversized body are contract failures, not crashes', () => {
  assert.deepEqual(judge('getAsset', res(200, '<html>oops</html>')), ['V2.ASSET.FIELDS']);
  assert.deepEqual(judge('getAsset', res(200, Buffer.from([0x7b, 0xff, 0xfe, 0x7d]))), ['V2.ASSET.FIELDS']);
  assert.deepEqual(judge('getAsset', { ...res(200, asset), truncated: true }), ['V2.ASSET.FIELDS']);
  assert.deepEqual(judge('getAsset', res(200, asset, { 'content-type': 'text/plain' })), ['V2.CONTRACT.BODY']);
});

test('a 302 without Location breaks V2.ASSET.CONTENT_REDIRECT', () => {
  assert.deepEqual(
    judge('getAssetContent', { status: 302, headers: {}, body: Buffer.alloc(0), truncated: false, elapsedMs: 1 }),
    ['V2.ASSET.CONTENT_REDIRECT'],
  );
});

test('a Content-Range that breaks its HTTP syntax breaks V2.CONTRACT.HEADERS; a well-formed one passes', () => {
  const partial = (range: string): HttpResponse => ({
    status: 206,
    headers: { 'content-type': 'application/octet-stream', 'content-range': range },
    body: Buffer.alloc(10),
    truncated: false,
    elapsedMs: 1,
  });
  assert.deepEqual(judge('getAssetContent', partial('bytes 0-9/100')), []);
  assert.deepEqual(judge('getAssetContent', partial('bytes 0-9/*')), []);
  assert.deepEqual(judge('getAssetContent', partial('0-9/100')), ['V2.CONTRACT.HEADERS']);
  assert.deepEqual(judge('getAssetContent', partial('bytes 0-9')), ['V2.CONTRACT.HEADERS']);
});

test('a broken output inside a job is judged under the Output rule, not the Job rule', () => {
  const job = {
    id: 'j1',
    status: 'succeeded',
    created_at: '2026-01-01T00:00:00Z',
    started_at: null,
    completed_at: null,
    expires_at: '2026-02-01T00:00:00Z',
    queue_position: null,
    progress: null,
    error: null,
    urls: { self: '/api/v2/jobs/j1', events: '/api/v2/jobs/j1/events', cancel: '/api/v2/jobs/j1/cancel' },
    outputs: [
      {
        node_id: '2',
        name: 'x.png',
        type: 'image',
        content_type: 'image/png',
        size_bytes: 3,
        id: '5f0c8a52-8f65-4a0e-9d5b-2a8d7b0e1c11',
        hash: null,
        url: 'http://h/api/v2/assets/5f0c8a52-8f65-4a0e-9d5b-2a8d7b0e1c11/content',
      },
    ],
  };
  const v = validateResponse(op('getJob'), 'GET', res(200, job));
  assert.deepEqual(
    v.findings.map((f) => f.rule),
    ['V2.JOB.OUTPUT_FIELDS'],
  );
  assert.ok(v.checked.includes('V2.JOB.OUTPUT_FIELDS') && v.checked.includes('V2.JOB.FIELDS'));
});

test('refusal details that break their bounds are judged under the details rule, not the envelope rule', () => {
  const body = {
    error: {
      code: 'invalid_workflow',
      message: 'x',
      details: { unknown_node_classes: Array.from({ length: 12 }, (_, i) => `C${i}`) },
    },
  };
  assert.deepEqual(judge('postJobs', res(422, body), 'POST'), ['V2.ERR.NODE_ERRORS_DETAILS']);
});

// The answers of the reference faults in reference/faults/v2/contract.ts, as recorded.
const output = {
  node_id: '2',
  name: 'x.png',
  type: 'image',
  content_type: 'image/png',
  size_bytes: 3,
  id: asset.id,
  hash: null,
  url: `http://h/api/v2/assets/${asset.id}/content`,
  url_expires_at: '2026-02-01T00:00:00Z',
};
const job = {
  id: 'j1',
  status: 'succeeded',
  expires_at: '2026-02-01T00:00:00Z',
  outputs: [output],
  error: null,
  urls: { self: '/api/v2/jobs/j1', events: '/api/v2/jobs/j1/events', cancel: '/api/v2/jobs/j1/cancel' },
};

test('a job record without expires_at, or without outputs while it has none, breaks V2.JOB.FIELDS', () => {
  assert.deepEqual(judge('getJob', res(200, job)), []);
  const { expires_at: _, ...noExpiry } = job;
  assert.deepEqual(judge('getJob', res(200, noExpiry)), ['V2.JOB.FIELDS']);
  const { outputs: __, ...noOutputs } = { ...job, status: 'queued' };
  assert.deepEqual(judge('postJobs', res(201, noOutputs), 'POST'), ['V2.JOB.FIELDS']);
});

test('an output entry without url_expires_at, or with its url under another name, breaks V2.JOB.OUTPUT_FIELDS', () => {
  const { url_expires_at: _, ...noExpiry } = output;
  assert.deepEqual(judge('getJob', res(200, { ...job, outputs: [noExpiry] })), ['V2.JOB.OUTPUT_FIELDS']);
  const { url, ...renamed } = output;
  assert.deepEqual(judge('getJob', res(200, { ...job, outputs: [{ ...renamed, content_url: url }] })), [
    'V2.JOB.OUTPUT_FIELDS',
  ]);
});

test(
  'a cancel answering 202, a submit answering 200 and a delete answering 200 break ' +
    'V2.CONTRACT.DOCUMENTED (statuses only the public documents give), and the body is still judged',
  () => {
    assert.deepEqual(judge('cancelJob', res(200, job), 'POST'), []);
    assert.deepEqual(judge('cancelJob', res(202, job), 'POST'), ['V2.CONTRACT.DOCUMENTED']);
    assert.deepEqual(judge('postJobs', res(200, job), 'POST'), ['V2.CONTRACT.DOCUMENTED']);
    const { expires_at: _, ...noExpiry } = job;
    assert.deepEqual(judge('postJobs', res(200, noExpiry), 'POST'), ['V2.CONTRACT.DOCUMENTED', 'V2.JOB.FIELDS']);
    assert.deepEqual(judge('deleteAsset', res(200, { deleted: true, id: asset.id }), 'DELETE'), [
      'V2.CONTRACT.DOCUMENTED',
    ]);
    // An operation the seed shows keeps its statuses at MUST.
    assert.deepEqual(judge('getAsset', res(418, { error: { code: 'teapot', message: 'x' } })), [
      'V2.CONTRACT.STATUS_DECLARED',
    ]);
  },
);

test('a job record whose urls (a public-docs member) are missing breaks only V2.JOB.FIELDS_DOCUMENTED, not V2.JOB.FIELDS', () => {
  const { urls: _, ...noUrls } = job;
  assert.deepEqual(judge('getJob', res(200, noUrls)), []);
  assert.deepEqual(judge('getJob', res(200, { ...job, urls: { self: job.urls.self } })), []);
});

test(
  'a job workflow read (public docs) whose graph is a JSON string breaks V2.CONTRACT.DOCUMENTED; a ' +
    'deployment workflow read sent as text/plain breaks V2.CONTRACT.BODY',
  () => {
    const graph = { '1': { class_type: 'EmptyImage', inputs: {} } };
    assert.deepEqual(judge('getJobWorkflow', res(200, { workflow: graph, format: 'api' })), []);
    assert.deepEqual(judge('getJobWorkflow', res(200, { workflow: JSON.stringify(graph), format: 'api' })), [
      'V2.CONTRACT.DOCUMENTED',
    ]);
    assert.deepEqual(judge('getDeploymentWorkflow', res(200, graph)), []);
    assert.deepEqual(judge('getDeploymentWorkflow', res(200, graph, { 'content-type': 'text/plain; charset=utf-8' })), [
      'V2.CONTRACT.BODY',
    ]);
  },
);

test(
  "a nested component's rule is evidence only where the body holds it: a 404 envelope is no " +
    'evidence for the node-error rule, a 422 with node errors is',
  () => {
    const held = (id: string, r: HttpResponse, method = 'GET') => validateResponse(op(id), method, r).checked;
    assert.ok(
      !held('getAsset', res(404, { error: { code: 'not_found', message: 'no such asset' } })).includes(
        'V2.ERR.NODE_ERRORS_DETAILS',
      ),
    );
    const refusal = {
      error: {
        code: 'invalid_workflow',
        message: 'x',
        details: {
          node_errors: {
            '3': {
              errors: [{ type: 'value_not_in_list', message: 'm', details: '', extra_info: {} }],
              class_type: 'KSampler',
              dependent_outputs: [],
            },
          },
        },
      },
    };
    assert.ok(held('postJobs', res(422, refusal), 'POST').includes('V2.ERR.NODE_ERRORS_DETAILS'));
  },
);
