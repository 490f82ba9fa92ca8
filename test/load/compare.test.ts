import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { compareReports, readReport, CompareError } from '../../load/compare.ts';
import { fakeReport } from './helpers.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

test('a metric worse than the baseline beyond the tolerance is a regression; within it, or better, is not', () => {
  const base = fakeReport({ p50: 5, p99: 20, errors: 0, rate: 50, rate_limit_accuracy: 2 });
  const cur = fakeReport({ p50: 5.4, p99: 40, errors: 0, rate: 40, rate_limit_accuracy: 1 });
  const cmp = compareReports(base, cur, 10);
  const flagged = cmp.diffs.filter((d) => d.regression).map((d) => d.metric);
  assert.deepEqual(flagged, ['p99', 'rate']);
  assert.ok(cmp.improvements.some((i) => i.startsWith('rate_limit_accuracy')) === false, 'a 1-point change is under the noise floor');
  assert.equal(compareReports(base, cur, 200).regressions.length, 0, 'a wide tolerance forgives both');
});

test('small absolute changes on tiny latencies are noise, not regressions', () => {
  const cmp = compareReports(fakeReport({ p50: 0.4 }), fakeReport({ p50: 0.9 }), 10);
  assert.deepEqual(cmp.regressions, []);
});

test('a verdict, threshold or check that went from pass to fail is a regression', () => {
  const ok = { expr: 'p99<50', metric: 'p99', op: '<' as const, limit: 50, unit: 'ms' as const };
  const base = fakeReport({}, { thresholds: [{ ...ok, actual: 10, ok: true }], checks: [{ rule: 'LOAD.POLL.RETRY_AFTER', name: 'n', ok: true, detail: '' }] });
  const cur = fakeReport({}, { verdict: 'fail', thresholds: [{ ...ok, actual: 60, ok: false }], checks: [{ rule: 'LOAD.POLL.RETRY_AFTER', name: 'n', ok: false, detail: 'missing' }] });
  const r = compareReports(base, cur).regressions;
  assert.equal(r.length, 3);
});

test('reports of different profiles, or files that are not reports, cannot be compared', () => {
  const other = fakeReport({});
  other.profile = { ...other.profile, name: 'rate-limit' };
  assert.throws(() => compareReports(fakeReport({}), other), CompareError);
  const dir = mkdtempSync(path.join(tmpdir(), 'load-compare-'));
  writeFileSync(path.join(dir, 'x.json'), '{"hello": 1}');
  assert.throws(() => readReport(path.join(dir, 'x.json')), /not a load report/);
});

test('npm run load:compare exits 1 on a regression and 0 without one', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'load-compare-'));
  const a = path.join(dir, 'a.json');
  const b = path.join(dir, 'b.json');
  writeFileSync(a, JSON.stringify(fakeReport({ p99: 20 })));
  writeFileSync(b, JSON.stringify(fakeReport({ p99: 80 })));
  const run = (x: string, y: string) => spawnSync(process.execPath, ['--import', 'tsx', 'load/compare.ts', x, y], { cwd: ROOT, encoding: 'utf8' });
  const worse = run(a, b);
  assert.equal(worse.status, 1, worse.stderr);
  assert.match(worse.stdout, /p99 .*REGRESSION/);
  assert.equal(run(a, a).status, 0);
});
