import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import {
  compareReports,
  readReport,
  renderComparison,
  CompareError,
  LATENCY_RESOLUTION_MS,
} from '../../load/compare.ts';
import type { Second } from '../../load/timeline.ts';
import { fakeReport } from './helpers.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

test('a metric worse than the baseline beyond the tolerance is a regression; within it, or better, is not', () => {
  const base = fakeReport({ p50: 5, p99: 20, errors: 0, rate: 50, rate_limit_accuracy: 2 });
  const cur = fakeReport({ p50: 5.4, p99: 40, errors: 0, rate: 40, rate_limit_accuracy: 1 });
  const cmp = compareReports(base, cur, 10);
  const flagged = cmp.diffs.filter((d) => d.regression).map((d) => d.metric);
  assert.deepEqual(flagged, ['p99', 'rate']);
  assert.ok(
    cmp.improvements.some((i) => i.startsWith('rate_limit_accuracy')) === false,
    'a 1-point change is under the noise floor',
  );
  assert.equal(compareReports(base, cur, 200).regressions.length, 0, 'a wide tolerance forgives both');
});

/** Measured seconds whose p50 take the given values (one second of warm-up first, left out). */
function seconds(p50s: number[]): Second[] {
  const one = (t: number, p50: number, warmup: boolean): Second => ({
    t,
    warmup,
    requested: 50,
    achieved: 50,
    p50,
    p90: p50 * 1.5,
    p99: p50 * 2,
    max: p50 * 3,
    statuses: { 200: 50 },
    errors: 0,
    late: 0,
  });
  return [one(0, 40, true), ...p50s.map((v, i) => one(i + 1, v, false))];
}

test('issue #25: a p50 80 % worse on a steady server is a regression, not noise (it passed as "no regression" under a fixed 1 ms floor)', () => {
  const steady = [0.98, 1.0, 1.02, 0.99, 1.01, 1.0, 0.97, 1.03];
  const base = fakeReport({ p50: 1.0 }, { timeline: seconds(steady) });
  const cur = fakeReport({ p50: 1.8 }, { timeline: seconds(steady.map((v) => v * 1.8)) });
  const cmp = compareReports(base, cur, 10);
  assert.deepEqual(cmp.regressions, ['p50 1ms → 1.8ms (+80.0%)']);
  const p50 = cmp.diffs.find((d) => d.metric === 'p50')!;
  assert.ok(p50.floor < 0.8 && p50.floor >= LATENCY_RESOLUTION_MS, `floor ${p50.floor}`);
  assert.match(p50.floorFrom, /per-second p50 spread|timer resolution/);
  const text = renderComparison(cmp, 'a.json', 'b.json', 10);
  assert.match(text, /1 regression/);
  assert.match(
    text,
    /\| p50 \| 1ms \| 1\.8ms \| \+80% \| [0-9.]+ms \((per-second p50 spread|timer resolution)\) \| 0\.0\d+ \(8 \/ 8\) \| \*\*REGRESSION\*\* \|/,
  );
});

test("the floor of a latency is the spread of the runs' own seconds: a change inside it is not a regression, but it is listed", () => {
  const noisy = [0.2, 1.4, 0.3, 1.2, 0.25, 1.3, 0.35, 1.1];
  const cmp = compareReports(
    fakeReport({ p50: 0.4 }, { timeline: seconds(noisy) }),
    fakeReport({ p50: 0.9 }, { timeline: seconds(noisy) }),
    10,
  );
  assert.deepEqual(cmp.regressions, []);
  assert.equal(cmp.withinFloor.length, 1);
  assert.match(
    cmp.withinFloor[0],
    /^p50 0\.4ms → 0\.9ms \(\+125\.0%\): worse by 0\.5ms, within its noise floor of [0-9.]+ms \(per-second p50 spread\)$/,
  );
  const text = renderComparison(cmp, 'a.json', 'b.json', 10);
  assert.match(
    text,
    /no significant change; 1 change\(s\) for the worse above the tolerance are within the runs' noise/,
  );
  assert.match(text, /Above the tolerance but within the noise floor \(not counted\):\n- p50/);
  // Without per-second figures the floor is the timer's resolution: the same change counts.
  assert.equal(compareReports(fakeReport({ p50: 0.4 }), fakeReport({ p50: 0.9 }), 10).regressions.length, 1);
});

test('a verdict, threshold or check that went from pass to fail is a regression', () => {
  const ok = { expr: 'p99<50', metric: 'p99', op: '<' as const, limit: 50, unit: 'ms' as const };
  const base = fakeReport(
    {},
    {
      thresholds: [{ ...ok, actual: 10, ok: true }],
      checks: [{ rule: 'LOAD.POLL.RETRY_AFTER', outcome: 'held', what: 'n' }],
    },
  );
  const cur = fakeReport(
    {},
    {
      verdict: 'fail',
      thresholds: [{ ...ok, actual: 60, ok: false }],
      checks: [
        { rule: 'LOAD.POLL.RETRY_AFTER', outcome: 'broken', what: 'n', expected: 'a Retry-After', received: 'missing' },
      ],
    },
  );
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
  const run = (x: string, y: string) =>
    spawnSync(process.execPath, ['--import', 'tsx', 'load/compare.ts', x, y], { cwd: ROOT, encoding: 'utf8' });
  const worse = run(a, b);
  assert.equal(worse.status, 1, worse.stderr);
  assert.match(worse.stdout, /p99 .*REGRESSION/);
  assert.match(
    worse.stdout,
    /\| metric \| baseline \| current \| change \| noise floor \|/,
    'the floor applied is printed',
  );
  assert.equal(run(a, a).status, 0);
  // The installed command: the same through workflow-conformance load compare, with its own help.
  const cli = (...args: string[]) =>
    spawnSync(process.execPath, ['bin/workflow-conformance.mjs', 'load', 'compare', ...args], {
      cwd: ROOT,
      encoding: 'utf8',
    });
  assert.equal(cli(a, b).status, 1);
  const help = cli('--help');
  assert.equal(help.status, 0);
  assert.match(help.stdout, /^usage: workflow-conformance load compare /);
  assert.match(help.stdout, /noise floor/);
  assert.doesNotMatch(help.stdout, /npm run/);
});

/** A deterministic spread of `n` per-second values around `centre` (a busy machine's seconds). */
function jittered(centre: number, spread: number, n: number, phase: number): number[] {
  return Array.from(
    { length: n },
    (_, i) => Math.round((centre + spread * Math.sin(i * 2.399 + phase) * (0.5 + ((i * 7) % 5) / 8)) * 100) / 100,
  );
}
const run = (p99s: number[], headline: number, over: Partial<Parameters<typeof fakeReport>[1]> = {}) =>
  fakeReport(
    { p99: headline, p50: 5 },
    { timeline: seconds(p99s.map((v) => v / 2)).map((s, i) => ({ ...s, p99: i === 0 ? 40 : p99s[i - 1] })), ...over },
  );

test('issue #32: two runs of one server on a busy machine compare their distributions: "no significant change" both ways, not a regression one way', () => {
  // Same per-second distribution; one second of the second run stalled (the machine was
  // busy), which moved its single p99 figure by a third, beyond the tolerance and the floor.
  const a = run(jittered(12, 1.5, 20, 0), 12);
  const stalled = jittered(12, 1.5, 20, 1.3);
  stalled[7] = 60;
  const b = run(stalled, 16);
  for (const [x, y] of [
    [a, b],
    [b, a],
  ] as const) {
    const cmp = compareReports(x, y, 10);
    const p99 = cmp.diffs.find((d) => d.metric === 'p99')!;
    assert.ok(Math.abs(p99.current - p99.baseline) > p99.floor, 'the single figures alone would have read as a change');
    assert.deepEqual(cmp.regressions, [], 'no regression in either direction');
    assert.deepEqual(cmp.improvements, [], 'nor an improvement');
    assert.equal(p99.significant, false);
    assert.ok(p99.p !== undefined && p99.p > 0.05, `p ${p99.p}`);
    assert.match(renderComparison(cmp, 'x.json', 'y.json', 10), /no significant change/);
  }
});

test('a shift of the whole distribution is significant: a regression one way, an improvement the other', () => {
  const a = run(jittered(12, 3, 20, 0), 13);
  const b = run(jittered(20, 3, 20, 0.7), 21);
  const worse = compareReports(a, b, 10);
  assert.ok(
    worse.regressions.some((r) => r.startsWith('p99 ')),
    JSON.stringify(worse.regressions),
  );
  assert.ok(worse.diffs.find((d) => d.metric === 'p99')!.p! < 0.01);
  const better = compareReports(b, a, 10);
  assert.deepEqual(better.regressions, []);
  assert.ok(better.improvements.some((r) => r.startsWith('p99 ')));
  assert.match(renderComparison(worse, 'a.json', 'b.json', 10), /Mann-Whitney/);
});

test('runs of different targets, durations or rates are compared with a warning; different load models are refused', () => {
  const a = fakeReport({ p99: 10 });
  const settings = { rate: 80, connections: 5, durationS: 30, warmupS: 2 };
  const b = fakeReport(
    { p99: 10 },
    {
      target: { name: 'proxy', surface: 'local', baseUrl: 'http://127.0.0.1:2', embedded: false },
      profile: { ...a.profile, requested: settings, effective: settings },
    },
  );
  const cmp = compareReports(a, b, 10);
  assert.equal(cmp.warnings.length, 3, JSON.stringify(cmp.warnings));
  assert.match(
    cmp.warnings.join('\n'),
    /different targets: reference http:\/\/127\.0\.0\.1:1 vs proxy http:\/\/127\.0\.0\.1:2/,
  );
  assert.match(cmp.warnings.join('\n'), /different durations: 10 s vs 30 s/);
  assert.match(cmp.warnings.join('\n'), /different rates: 50\/s vs 80\/s/);
  assert.match(renderComparison(cmp, 'a.json', 'b.json', 10), /\*\*Not like for like\*\*/);
  assert.throws(
    () => compareReports(a, fakeReport({}, { model: { name: 'closed', summary: 'closed' } })),
    /different load models/,
  );
});
