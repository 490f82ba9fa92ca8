// A SHOULD finding is reported, never a failed test: a router whose member names differ
// from the public documents (the seed does not show them) leaves every Playwright test
// green and the verdict PASS, with the finding listed; the test counts and the verdict
// agree. In strict mode the same finding fails its test and the run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runSuite } from '../support/run-suite.ts';

const CATALOG = ['--project=router', 'specs/router/catalog.spec.ts'];

test('a SHOULD finding leaves its tests passed and the verdict pass; strict mode fails both', async () => {
  const [plain, strict] = await Promise.all([
    runSuite({ fault: 'router-billing-renamed', args: CATALOG }),
    runSuite({ fault: 'router-billing-renamed', args: CATALOG, env: { CONFORMANCE_STRICT: '1' } }),
  ]);
  assert.ok(
    plain.report.summary.should_failed.includes('ROUTER.CATALOG.MEMBER_NAMES'),
    `the finding is reported: ${JSON.stringify(plain.report.summary)}`,
  );
  assert.equal(plain.report.summary.verdict, 'pass', plain.output.slice(-2000));
  assert.equal(plain.report.tests.failed, 0, 'no Playwright test failed for a SHOULD finding');
  assert.equal(plain.exitCode, 0);

  assert.ok(strict.report.summary.should_failed.includes('ROUTER.CATALOG.MEMBER_NAMES'));
  assert.equal(strict.report.summary.verdict, 'fail');
  assert.ok(strict.report.tests.failed > 0, 'in strict mode the finding fails its test');
  assert.equal(strict.exitCode, 1);
});
