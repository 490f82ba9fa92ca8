// `matrix`: several runs' conformance.json side by side, columns named by what differs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sideBySide, sideBySideHtml } from '../../report/side-by-side.ts';
import { runErrorReport } from '../../report/run-error.ts';

test('matrix: one row per rule, one column per implementation, verdicts on top', () => {
  const a = runErrorReport('x', { name: 'alpha', surfaces: [{ surface: 'cloud', base_url: 'http://a' }] });
  a.summary.verdict = 'pass';
  a.rules = [{ id: 'V2.X', level: 'MUST', summary: 's', seed: 'W', seed_refs: [], source: 'seed', results: { cloud: { status: 'pass' }, local: { status: 'not_run' } } }];
  const b = runErrorReport('y', { name: 'beta', surfaces: [{ surface: 'cloud', base_url: 'http://b' }, { surface: 'local', base_url: 'http://b2' }] });
  b.summary.verdict = 'fail';
  b.rules = [{ id: 'V2.X', level: 'MUST', summary: 's', seed: 'W', seed_refs: [], source: 'seed', results: { cloud: { status: 'fail' }, local: { status: 'pass' } } }];
  const t = sideBySide([{ file: 'a.json', report: a }, { file: 'b.json', report: b }]);
  assert.deepEqual(t.columns.map((c) => c.label), ['alpha · cloud', 'beta · cloud', 'beta · local']);
  assert.deepEqual(t.rows, [{ id: 'V2.X', level: 'MUST', summary: 's', cells: ['pass', 'fail', 'pass'] }]);
  assert.match(t.markdown, /\| `V2\.X` \| MUST \| pass \| \*\*FAIL\*\* \| pass \|/);
  assert.match(t.markdown, /\| \*\*verdict\*\* \| \| \*\*PASS\*\* \| \*\*FAIL\*\* \| \*\*FAIL\*\* \|/);
});

test('matrix: runs of one target are named by their fault, and the differences-only view counts the rows it leaves out', () => {
  const run = (fault: string | undefined, status: 'pass' | 'fail') => {
    const r = runErrorReport('x', { name: 'reference', surfaces: [{ surface: 'local', base_url: 'http://127.0.0.1:18189' }] });
    if (fault) r.target.fault = fault;
    r.summary.verdict = status === 'pass' ? 'pass' : 'fail';
    r.rules = [
      { id: 'V2.X', level: 'MUST', summary: 's', seed: 'W', seed_refs: [], source: 'seed', results: { local: { status: 'pass' } } },
      { id: 'V2.Y', level: 'MUST', summary: 's', seed: 'W', seed_refs: [], source: 'seed', results: { local: { status } } },
    ];
    return r;
  };
  const t = sideBySide([{ file: 'a/conformance.json', report: run(undefined, 'pass') }, { file: 'b/conformance.json', report: run('upload-201-on-dedup', 'fail') }], { differencesOnly: true });
  assert.deepEqual(t.columns.map((c) => c.label), ['no fault', 'fault upload-201-on-dedup']);
  assert.equal(t.identical, 1);
  assert.match(t.markdown, /Differences only: 1 rule with the same status in every column are left out/);
  assert.doesNotMatch(t.markdown, /`V2\.X`/);
  assert.match(t.markdown, /\| `V2\.Y` \| MUST \| pass \| \*\*FAIL\*\* \|/);
  const html = sideBySideHtml(t);
  assert.match(html, /<tr class="same"><td class="id"[^>]*>V2\.X</, 'the HTML hides identical rows by default, behind a toggle');
  assert.match(html, /1 rule with the same status in every column is hidden/);
});
