// `matrix`: several runs' conformance.json side by side, columns named by what differs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sideBySide, sideBySideHtml } from '../../report/side-by-side.ts';
import { runErrorReport } from '../../report/run-error.ts';
import type { RuleRow } from '../../report/matrix.ts';

/** A MUST rule's row (summary `s`, of seed W unless said) with the given cell status per surface. */
function mustRule(id: string, results: RuleRow['results'], seed = 'W'): RuleRow {
  return { id, level: 'MUST', summary: 's', seed, seed_refs: [], source: 'seed', results };
}

test('matrix: one row per rule, one column per implementation, verdicts on top', () => {
  const a = runErrorReport('x', { name: 'alpha', surfaces: [{ surface: 'cloud', base_url: 'http://a' }] });
  a.summary.verdict = 'pass';
  a.rules = [mustRule('V2.X', { cloud: { status: 'pass' }, local: { status: 'not_run' } })];
  const b = runErrorReport('y', {
    name: 'beta',
    surfaces: [
      { surface: 'cloud', base_url: 'http://b' },
      { surface: 'local', base_url: 'http://b2' },
    ],
  });
  b.summary.verdict = 'fail';
  b.rules = [mustRule('V2.X', { cloud: { status: 'fail' }, local: { status: 'pass' } })];
  const t = sideBySide([
    { file: 'a.json', report: a },
    { file: 'b.json', report: b },
  ]);
  assert.deepEqual(
    t.columns.map((c) => c.label),
    ['alpha · cloud', 'beta · cloud', 'beta · local'],
  );
  assert.deepEqual(t.rows, [{ id: 'V2.X', level: 'MUST', summary: 's', cells: ['pass', 'fail', 'pass'] }]);
  assert.match(t.markdown, /\| `V2\.X` \| MUST \| pass \| \*\*FAIL\*\* \| pass \|/);
  assert.match(t.markdown, /\| \*\*verdict\*\* \| \| \*\*PASS\*\* \| \*\*FAIL\*\* \| \*\*FAIL\*\* \|/);
});

test('matrix: runs of one target are named by their fault, and the differences-only view counts the rows it leaves out', () => {
  const run = (fault: string | undefined, status: 'pass' | 'fail') => {
    const r = runErrorReport('x', {
      name: 'reference',
      surfaces: [{ surface: 'local', base_url: 'http://127.0.0.1:18189' }],
    });
    if (fault) r.target.fault = fault;
    r.summary.verdict = status === 'pass' ? 'pass' : 'fail';
    r.rules = [mustRule('V2.X', { local: { status: 'pass' } }), mustRule('V2.Y', { local: { status } })];
    return r;
  };
  const t = sideBySide(
    [
      { file: 'a/conformance.json', report: run(undefined, 'pass') },
      { file: 'b/conformance.json', report: run('upload-201-on-dedup', 'fail') },
    ],
    { differencesOnly: true },
  );
  assert.deepEqual(
    t.columns.map((c) => c.label),
    ['no fault', 'fault upload-201-on-dedup'],
  );
  assert.equal(t.identical, 1);
  assert.match(t.markdown, /Differences only: 1 rule with the same status in every column are left out/);
  assert.doesNotMatch(t.markdown, /`V2\.X`/);
  assert.match(t.markdown, /\| `V2\.Y` \| MUST \| pass \| \*\*FAIL\*\* \|/);
  const html = sideBySideHtml(t);
  assert.match(
    html,
    /<tr class="same"><td class="id"[^>]*>V2\.X</,
    'the HTML hides identical rows by default, behind a toggle',
  );
  assert.match(html, /1 rule with the same status in every column is hidden/);
});

test('matrix --differences: a cell a run did not apply to (another surface, not in its run) is no difference', () => {
  const local = runErrorReport('x', { name: 'proxy', surfaces: [{ surface: 'local', base_url: 'http://p' }] });
  local.summary.verdict = 'pass';
  local.rules = [
    mustRule('V2.X', { local: { status: 'pass' }, cloud: { status: 'not_run' } }),
    mustRule('V2.Z', { local: { status: 'pass' } }),
  ];
  const router = runErrorReport('y', { name: 'router', surfaces: [{ surface: 'router', base_url: 'http://r' }] });
  router.summary.verdict = 'pass';
  router.rules = [
    mustRule('ROUTER.Y', { router: { status: 'pass' } }, 'R'),
    mustRule('V2.X', { local: { status: 'not_run' } }),
  ];
  const other = runErrorReport('z', { name: 'proxy2', surfaces: [{ surface: 'local', base_url: 'http://q' }] });
  other.summary.verdict = 'fail';
  other.rules = [mustRule('V2.X', { local: { status: 'pass' } }), mustRule('V2.Z', { local: { status: 'fail' } })];
  const t = sideBySide(
    [
      { file: 'a.json', report: local },
      { file: 'b.json', report: router },
      { file: 'c.json', report: other },
    ],
    { differencesOnly: true },
  );
  // V2.X passes wherever it applies; ROUTER.Y applies to one column only: neither differs.
  assert.equal(t.identical, 2);
  assert.doesNotMatch(t.markdown, /`V2\.X`|`ROUTER\.Y`/);
  assert.match(t.markdown, /\| `V2\.Z` \| MUST \| pass \| — \| \*\*FAIL\*\* \|/);
  assert.match(sideBySideHtml(t), /<tr class="same"><td class="id"[^>]*>ROUTER\.Y</);
});
