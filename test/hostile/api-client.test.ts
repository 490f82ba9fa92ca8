// The contract-validating client against a broken server: a body that breaks the
// declared media type is the server's contract failure (a rule); an exchange that
// cannot complete is a suite error (the suite could not judge). Both carry a
// transcript, and both end within their bound.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApiClient } from '../../lib/api.ts';
import { loadContract } from '../../lib/contracts/loader.ts';
import { FAMILY_CONTRACTS } from '../../lib/contracts/registry.ts';
import { Recorder } from '../../lib/recorder.ts';
import { Redactor } from '../../lib/redact.ts';
import { RuleViolation, SuiteError } from '../../lib/violations.ts';
import { downloadVia } from '../../lib/v2/assets.ts';
import globalSetup, { probeSurface } from '../../fixtures/global-setup.ts';
import type { SurfaceTarget } from '../../lib/targets.ts';
import { resetRunConfig, runConfig } from '../../lib/config/index.ts';
import { startHostileServer, type Behaviour, type HostileServer } from '../support/hostile-server.ts';

let hostile: HostileServer;
before(async () => {
  hostile = await startHostileServer();
});
after(() => hostile.close());

const v2 = FAMILY_CONTRACTS.v2!;
const ID = '0b6a3f0e-8c1d-4d3e-9f5a-2b7c4e1d6a90';

function surfaceAt(baseUrl: string): SurfaceTarget {
  return { surface: 'local', baseUrl, brand: 'Comfy', scenario: {}, capabilities: {} };
}

function clientFor(baseUrl: string): { api: ApiClient; recorder: Recorder } {
  const recorder = new Recorder(new Redactor([]));
  const contract = loadContract(v2.file, 'Comfy', v2.rulePrefix);
  const bounds = runConfig().bounds;
  return {
    api: new ApiClient({ contract, target: surfaceAt(baseUrl), recorder, checks: v2.checks, bounds }),
    recorder,
  };
}

const at = (b: Behaviour) => clientFor(hostile.url(b));

const violation = (rule: RegExp, text: RegExp) => (e: unknown) => {
  assert.ok(e instanceof RuleViolation, `expected a RuleViolation, got ${String(e)}`);
  assert.match(e.rule, rule);
  assert.match(e.message, text);
  return true;
};
const suiteError = (text: RegExp) => (e: unknown) => {
  assert.ok(e instanceof SuiteError, `expected a SuiteError, got ${String(e)}`);
  assert.match(e.message, text);
  return true;
};

test('non-JSON where JSON is declared: a contract failure of the server, quoting what came', async () => {
  const { api, recorder } = at('nonjson');
  await assert.rejects(
    api.call('getAsset', { path: { id: ID } }),
    violation(/^V2\.CONTRACT\.BODY$|^V2\.ASSET\./, /body is not JSON[\s\S]*Bad Gateway/),
  );
  assert.match(recorder.transcript(), /< 200[\s\S]*502 Bad Gateway/);
});

test('invalid UTF-8 in a JSON body: a contract failure, not mojibake', async () => {
  const { api } = at('badutf8');
  await assert.rejects(api.call('getAsset', { path: { id: ID } }), violation(/^V2\./, /not valid UTF-8/));
});

test('a body beyond the cap: a contract failure naming the limit, after reading only up to it', async () => {
  const { api } = at('huge');
  const started = performance.now();
  await assert.rejects(
    api.call('getAsset', { path: { id: ID }, maxBodyBytes: 512 * 1024 }),
    violation(/^V2\./, /body larger than the suite accepts/),
  );
  assert.ok(performance.now() - started < 5000);
});

test('a truncated body (short of its Content-Length): a suite error, and the transcript says so', async () => {
  const { api, recorder } = at('truncated');
  await assert.rejects(api.call('getAsset', { path: { id: ID } }), suiteError(/mid-body/));
  assert.match(
    recorder.transcript(),
    /! \[suite-error\] GET \/truncated\/api\/v2\/assets\/[0-9a-f-]+ at http:\/\/127\.0\.0\.1:\d+: status 200 arrived but the connection failed mid-body/,
  );
});

test('a server that never answers: a suite error within the request bound', async () => {
  const { api } = at('hang');
  const started = performance.now();
  await assert.rejects(
    api.call('getAsset', { path: { id: ID }, timeoutMs: 500 }),
    suiteError(/no response within 500 ms/),
  );
  assert.ok(performance.now() - started < 3000);
});

test('headers, then a stalled body: a suite error within the request bound', async () => {
  const { api } = at('stall');
  await assert.rejects(
    api.call('getAsset', { path: { id: ID }, timeoutMs: 500 }),
    suiteError(/body not complete within 500 ms/),
  );
});

test('a connection closed mid-response: a suite error', async () => {
  await assert.rejects(at('midbody').api.call('getAsset', { path: { id: ID } }), suiteError(/mid-body/));
  await assert.rejects(at('reset').api.call('getAsset', { path: { id: ID } }), suiteError(/before a response arrived/));
});

test('a followed embedded URL that redirects to itself ends: two exchanges, then the rule that the signed URL opens fails', async () => {
  const { api, recorder } = at('loop');
  const before = hostile.hits.get('loop') ?? 0;
  await assert.rejects(
    downloadVia(api, `${hostile.url('loop')}/api/v2/assets/${ID}/content`),
    violation(/^V2\.URL\.SIGNED_OPENABLE$/, /302/),
  );
  assert.equal((hostile.hits.get('loop') ?? 0) - before, 2);
  assert.equal(recorder.exchanges.length, 2);
});

async function deadPort(): Promise<number> {
  const s = http.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

test('a target that is not listening: each request says so, and the run-level probe names the target and URL once', async () => {
  const port = await deadPort();
  const base = `http://127.0.0.1:${port}`;
  await assert.rejects(
    clientFor(base).api.call('getAsset', { path: { id: ID } }),
    suiteError(new RegExp(`target not reachable: nothing listens at ${base}`)),
  );
  assert.equal(
    await probeSurface(surfaceAt(base), runConfig().bounds.probeTimeoutMs),
    'nothing listens there (connection refused)',
  );
  assert.match((await probeSurface(surfaceAt(hostile.url('hang')), 300)) ?? '', /no response headers within 300 ms/);
  // Headers are all the probe needs: a stalled body still counts as reachable.
  assert.equal(await probeSurface(surfaceAt(hostile.url('stall')), 2000), undefined);

  const saved = { ...process.env };
  try {
    for (const k of ['TARGET', 'TARGET_TOKEN']) delete process.env[k];
    Object.assign(process.env, { TARGET_SURFACE: 'local', TARGET_BASE_URL: base });
    resetRunConfig();
    await assert.rejects(globalSetup(), (e: Error) => {
      assert.equal(
        e.message,
        `[suite-error] target "adhoc" is not reachable, so no test was run:\n  local at ${base}: nothing listens there (connection refused)`,
      );
      return true;
    });
  } finally {
    for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k];
    Object.assign(process.env, saved);
    resetRunConfig();
  }
});
