// What a server team reads first is the server's real bug, and every violation is shown:
// - an answer that breaks an always-on rule (the code table) is still judged by the check
//   the test makes of exactly that answer: a delete's follow-up read answered 400 is
//   V2.ASSET.DELETE's failure (expected 404), not only "blocked by V2.ERR.CODE_STATUS";
// - a failing cell lists each distinct violation (operation, expected, received, curl);
// - many red tests with one cause are said once: "N tests fail because <rule> …".
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { runSuite } from '../support/run-suite.ts';

const ASSETS = ['--project=v2-local', 'specs/v2/assets.spec.ts'];
// A few tests that each make an asset first, and the delete test.
const SOME_ASSETS = [...ASSETS, '--grep', 'hash|delet'];

test('the check of the answer in hand judges it whatever always-on rule it also breaks, and the cell lists its violations with their curl', async () => {
  const run = await runSuite({ fault: 'not-found-as-400', args: [...ASSETS, '--grep', 'deleting an asset'] });
  const cell = (id: string) => run.report.rules.find((r) => r.id === id)?.results.local;
  const del = cell('V2.ASSET.DELETE');
  assert.equal(del?.status, 'fail', `V2.ASSET.DELETE is judged on the 400, not blocked: ${JSON.stringify(del)}`);
  assert.match(del.reason ?? '', /expected 404, received 400 not_found/);
  const codes = cell('V2.ERR.CODE_STATUS');
  assert.equal(codes?.status, 'fail');
  const violations = codes.violations ?? [];
  assert.ok(violations.length >= 1, 'the cell lists its violations');
  for (const v of violations) {
    assert.equal(v.operation, 'getAsset');
    assert.match(v.expected, /HTTP 404/);
    assert.match(v.received, /HTTP 400/);
    assert.match(v.curl ?? '', /^curl /m, 'each violation carries its reproduction');
  }
});

test('red tests of one cause are grouped: "N tests fail because" once, with the rule, before the failures', async () => {
  const run = await runSuite({ fault: 'drop-url-expires-at', args: SOME_ASSETS, keep: true });
  try {
    const causes = run.report.causes ?? [];
    const first = causes[0];
    assert.ok(first, `causes are listed: ${JSON.stringify(run.report.summary)}`);
    assert.equal(first.rule, 'V2.ASSET.FIELDS');
    assert.ok(first.tests >= 3, `one cause, many tests: ${JSON.stringify(causes, null, 1)}`);
    assert.equal(first.titles.length, Math.min(first.tests, 5), 'the first few tests are named');
    assert.match(first.expected ?? '', /url_expires_at/);
    const md = readFileSync(path.join(run.reportsDir, 'conformance.md'), 'utf8');
    const said = md.indexOf(`${first.tests} tests fail because \`V2.ASSET.FIELDS\``);
    assert.ok(said > 0 && said < md.indexOf('## Failures'), `said once, before the failures:\n${md.slice(0, 3000)}`);
    assert.equal(md.split(`tests fail because \`V2.ASSET.FIELDS\``).length, 2, 'said once');
  } finally {
    rmSync(run.reportsDir, { recursive: true, force: true });
  }
});
