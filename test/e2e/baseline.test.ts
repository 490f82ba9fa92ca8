// Gate semantics end to end: an expected-failures baseline excuses exactly what it
// lists and fails on stale entries; strict mode makes SHOULD failures fail the run.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { failedRules, runSuite } from '../support/run-suite.ts';

// Narrow runs: one spec file each, so the whole file stays under a minute on a quiet machine.
const SCHEMAS = ['--project=router', 'specs/router/schemas.spec.ts'];
const CATALOG = ['--project=router', 'specs/router/catalog.spec.ts'];

function baselineFile(yaml: string): { file: string; done: () => void } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'baseline-'));
  const file = path.join(dir, 'baseline.yaml');
  writeFileSync(file, yaml);
  return { file, done: () => rmSync(dir, { recursive: true, force: true }) };
}

describe('expected-failures baseline', { concurrency: 2 }, () => {
  test('a MUST failure the baseline lists is an expected failure and the run passes', async () => {
    const b = baselineFile(
      'expected_failures:\n  - { rule: ROUTER.SCHEMA.ETAG, reason: "weak tags until the CDN is fixed" }\n',
    );
    try {
      const run = await runSuite({
        fault: 'router-etag-weak',
        args: SCHEMAS,
        env: { CONFORMANCE_BASELINE: b.file },
        keep: true,
      });
      try {
        assert.deepEqual(failedRules(run.report), ['ROUTER.SCHEMA.ETAG'], 'the failure is still reported, not hidden');
        assert.equal(run.exitCode, 0, run.output.slice(-2000));
        assert.deepEqual(
          run.report.baseline?.expected_failures.map((e) => `${e.rule} on ${e.surface}`),
          ['ROUTER.SCHEMA.ETAG on router'],
        );
        const md = readFileSync(path.join(run.reportsDir, 'conformance.md'), 'utf8');
        const line = md.split('\n').find((l) => l.startsWith('| `ROUTER.SCHEMA.ETAG` |'));
        assert.match(line ?? '', /\| expected failure \|/, 'the matrix shows it as an expected failure');
        assert.match(md, /expected failure: `ROUTER\.SCHEMA\.ETAG` on router/);
      } finally {
        rmSync(run.reportsDir, { recursive: true, force: true });
      }
    } finally {
      b.done();
    }
  });

  test('a listed rule that passes now is stale: the run fails and says so', async () => {
    const b = baselineFile('expected_failures:\n  - ROUTER.SCHEMA.ETAG\n');
    try {
      // Not quiet, so the console summary a CI log shows is checked too.
      const run = await runSuite({ args: SCHEMAS, env: { CONFORMANCE_BASELINE: b.file, CONFORMANCE_QUIET: '0' } });
      assert.deepEqual(failedRules(run.report), []);
      assert.deepEqual(run.report.baseline?.stale, ['ROUTER.SCHEMA.ETAG']);
      assert.notEqual(run.exitCode, 0, 'a stale entry fails the run');
      assert.match(run.output, /stale baseline entries .*ROUTER\.SCHEMA\.ETAG/);
    } finally {
      b.done();
    }
  });
});

describe('strict mode', { concurrency: 2 }, () => {
  test('a SHOULD failure is reported without failing the run by default', async () => {
    const run = await runSuite({ fault: 'router-retired-wording', args: CATALOG });
    assert.deepEqual(run.report.summary.should_failed, ['ROUTER.CATALOG.RETIRED_DETAIL']);
    assert.equal(run.report.strict, false);
    assert.equal(run.exitCode, 0, run.output.slice(-2000));
  });

  test('with CONFORMANCE_STRICT=1 the same SHOULD failure fails the run', async () => {
    const run = await runSuite({ fault: 'router-retired-wording', args: CATALOG, env: { CONFORMANCE_STRICT: '1' } });
    assert.deepEqual(run.report.summary.should_failed, ['ROUTER.CATALOG.RETIRED_DETAIL']);
    assert.equal(run.report.strict, true);
    assert.notEqual(run.exitCode, 0, 'strict mode fails the run on a SHOULD failure');
  });
});
