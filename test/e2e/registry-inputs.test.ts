// Issue #22 § 5: the registry's own scenario credentials are checked as setup. A target
// whose `jwt` is no JWT, whose `api_key` has another prefix, or whose `revoked_api_key` is
// a key X-API-Key accepts, made the auth rules fail as if the server broke them; now each
// ends `error` naming the input to set, and no rule fails.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse, stringify } from 'yaml';
import { ROOT, failedRules, runSuite } from '../support/run-suite.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'registry-inputs-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** The reference's registry and cloud surfaces, with these registry scenario inputs changed; runs the registry auth spec. */
async function runWith(name: string, scenario: Record<string, unknown>, env: Record<string, string>) {
  const doc = parse(readFileSync(path.join(ROOT, 'targets.yaml'), 'utf8')) as {
    targets: { reference: { surfaces: Record<string, { scenario?: Record<string, unknown> }> } };
  };
  const ref = doc.targets.reference;
  const registry = { ...ref.surfaces.registry, scenario: { ...ref.surfaces.registry.scenario, ...scenario } };
  const file = path.join(dir, `${name}.yaml`);
  writeFileSync(
    file,
    stringify({ targets: { reference: { ...ref, surfaces: { registry, cloud: ref.surfaces.cloud } } } }),
  );
  const run = await runSuite({
    args: ['--project=registry', 'specs/registry/auth.spec.ts'],
    env: { TARGETS_FILE: file, ...env },
    workers: 1,
  });
  const cell = (id: string) => run.report.rules.find((r) => r.id === id)?.results.registry;
  /** Asserts the rule ended error on the registry surface, for a reason matching `reason`. */
  const endedError = (id: string, reason: RegExp) => {
    assert.equal(cell(id)?.status, 'error', `${id}: ${JSON.stringify(cell(id))}`);
    assert.match(String(cell(id)?.reason), reason, id);
  };
  return { run, cell, endedError };
}

describe(
  'registry scenario credentials of the wrong form end error naming the input, never a rule failure',
  { concurrency: 1 },
  () => {
    test('a jwt that is no JWT and an api_key of another prefix', async () => {
      const { run, endedError } = await runWith(
        'form',
        { jwt_env: 'CONFORMANCE_TEST_NOT_A_JWT', api_key_env: 'CONFORMANCE_TEST_OTHER_PREFIX' },
        { CONFORMANCE_TEST_NOT_A_JWT: 'eyJ-a-typo', CONFORMANCE_TEST_OTHER_PREFIX: 'sk-conformance-typo-7d1f' },
      );
      assert.deepEqual(failedRules(run.report), [], run.output.slice(-3000));
      for (const id of ['REGISTRY.AUTH.JWT', 'REGISTRY.AUTH.REFUSED'])
        endedError(id, /scenario input jwt is not a compact JWT .*set jwt/);
      endedError(
        'REGISTRY.AUTH.API_KEY_BEARER',
        /scenario input api_key does not start with the API-key prefix "comfyui-"; set api_key/,
      );
      const text = JSON.stringify(run.report);
      assert.ok(
        !text.includes('sk-conformance-typo-7d1f') && !text.includes('eyJ-a-typo'),
        'the inputs themselves are not shown',
      );
    });

    test('a revoked_api_key that X-API-Key accepts', async () => {
      const { run, cell, endedError } = await runWith('revoked', { revoked_api_key_env: 'REFERENCE_CLOUD_KEY' }, {});
      assert.deepEqual(failedRules(run.report), [], run.output.slice(-3000));
      endedError(
        'REGISTRY.AUTH.API_KEY_BEARER',
        new RegExp(
          /scenario input revoked_api_key is accepted in X-API-Key by the v1 operations /.source +
            /at http:\/\/127\.0\.0\.1:\d+; set revoked_api_key to a key X-API-Key refuses/.source,
        ),
      );
      for (const id of ['REGISTRY.AUTH.JWT', 'REGISTRY.AUTH.REFUSED']) assert.equal(cell(id)?.status, 'pass', id);
    });
  },
);
