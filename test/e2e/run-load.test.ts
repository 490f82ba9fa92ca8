// One result type, one matrix, one verdict (issue #23, item 2): `run --load` runs the
// conformance projects, then load profiles against the same target, and writes one
// conformance.json whose LOAD.* cells are judged from the load results, each load report
// linked; a load fault fails the verdict on its rule, with a failure line like any cell's.
// Bounded: one small spec file of the router project and each profile's quick size.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ConformanceReport } from '../../report/report.ts';
import type { Cell } from '../../report/matrix.ts';
import { PROFILES } from '../../load/profiles/index.ts';
import { freePortBase } from '../support/ports.ts';
import { ROOT } from '../support/run-suite.ts';
import { childEnv, REFERENCE_SWITCHES, VERDICT_SETTINGS } from '../support/child-env.ts';

const BIN = path.join(ROOT, 'bin', 'workflow-conformance.mjs');
const SMALL_SPEC = 'specs/router/schemas.spec.ts';

function userEnv(extra: Record<string, string>): Record<string, string> {
  return childEnv({
    drop: ['REFERENCE_PORT', ...REFERENCE_SWITCHES, 'REPORTS_DIR', 'NODE_TEST_CONTEXT', ...VERDICT_SETTINGS],
    set: { CONFORMANCE_QUIET: '1', ...extra },
  });
}

const run = (args: string[], env: Record<string, string>) => cli(['run', ...args], env);

function cli(args: string[], env: Record<string, string>): Promise<{ status: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const timer = setTimeout(() => child.kill('SIGTERM'), 240_000);
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, output });
    });
  });
}

const cells = (report: ConformanceReport, id: string): Array<[string, Cell]> =>
  Object.entries<Cell>(report.rules.find((r) => r.id === id)?.results ?? {});

test('run --load all against the reference: one conformance.json, every LOAD.* cell judged pass, verdict pass, load reports linked', async () => {
  const reports = mkdtempSync(path.join(os.tmpdir(), 'run-load-'));
  try {
    // Not quiet: the console's verdict lines are judged too.
    const r = await run(
      ['--load', 'all', '--project=router', '--reports', reports, SMALL_SPEC],
      userEnv({ REFERENCE_PORT: String(await freePortBase()), CONFORMANCE_QUIET: '0' }),
    );
    const report = JSON.parse(readFileSync(path.join(reports, 'conformance.json'), 'utf8')) as ConformanceReport;
    assert.equal(report.summary.verdict, 'pass', `${JSON.stringify(report.summary)}\n${r.output.slice(-3000)}`);
    assert.equal(r.status, 0, r.output.slice(-3000));
    // One verdict on the console, printed once the load has run: no provisional line of the projects alone.
    const verdicts = r.output.split('\n').filter((l) => /^Conformance\b/.test(l));
    assert.deepEqual(
      verdicts.map((l) => l.split(':')[0]),
      ['Conformance with load PASS'],
      r.output.slice(-3000),
    );
    const lines = r.output.split('\n');
    assert.ok(
      lines.findIndex((l) => l.startsWith('load ')) < lines.indexOf(verdicts[0]),
      'the load lines come before the verdict',
    );
    const runs = report.load?.profiles ?? [];
    assert.deepEqual(
      [...new Set(runs.map((p) => p.profile))].sort(),
      PROFILES.map((p) => p.name).sort(),
      'every profile ran',
    );
    // On each of its surfaces the reference has: v2-job-poll on all three v2 surfaces.
    assert.deepEqual(
      runs
        .filter((p) => p.profile === 'v2-job-poll')
        .map((p) => p.surface)
        .sort(),
      ['cloud', 'local', 'serverless'],
    );
    for (const p of runs) {
      assert.equal(p.verdict, 'pass', `${p.profile}: ${JSON.stringify(p.checks)} ${p.thresholds_missed.join('; ')}`);
      assert.ok(p.report, `${p.profile}: its load report is linked`);
      for (const f of Object.values(p.report))
        assert.ok(existsSync(path.join(reports, f)), `${p.profile}: ${f} is linked and exists`);
    }
    for (const row of report.rules.filter((x) => x.id.startsWith('LOAD.'))) {
      for (const [surface, cell] of cells(report, row.id)) {
        assert.ok(
          runs.some((p) => p.surface === surface && p.rules.includes(row.id)),
          `${row.id} on ${surface}: a profile of the run judges it`,
        );
        assert.equal(cell.status, 'pass', `${row.id} on ${surface}: ${JSON.stringify(cell)}`);
        assert.ok((cell.evidence?.held ?? 0) > 0, `${row.id} on ${surface} passes on evidence`);
      }
    }
    const md = readFileSync(path.join(reports, 'conformance.md'), 'utf8');
    assert.match(md, new RegExp(`## Load profiles \\(${runs.length}\\)`));
    assert.match(md, /\[load\/router-queue-poll-[^\]]+\.md\]\(load\/router-queue-poll-[^)]+\.md\)/);
    assert.match(
      readFileSync(path.join(reports, 'conformance.html'), 'utf8'),
      /<a href="load\/rate-limit-[^"]+\.html">report<\/a>/,
    );
  } finally {
    rmSync(reports, { recursive: true, force: true });
  }
});

test("run --load with a load fault: the one verdict fails on that fault's rule, its failure line naming rule, seed and expected vs received", async () => {
  const reports = mkdtempSync(path.join(os.tmpdir(), 'run-load-fault-'));
  try {
    const r = await run(
      [
        '--load',
        'router-queue-poll',
        '--fault',
        'load-poll-no-retry-after',
        '--project=router',
        '--reports',
        reports,
        SMALL_SPEC,
      ],
      userEnv({ REFERENCE_PORT: String(await freePortBase()) }),
    );
    const report = JSON.parse(readFileSync(path.join(reports, 'conformance.json'), 'utf8')) as ConformanceReport;
    assert.equal(report.summary.verdict, 'fail', `${JSON.stringify(report.summary)}\n${r.output.slice(-3000)}`);
    assert.equal(r.status, 1, r.output.slice(-3000));
    assert.deepEqual(report.summary.must_failed, ['LOAD.POLL.RETRY_AFTER']);
    const [, cell] = cells(report, 'LOAD.POLL.RETRY_AFTER').find(([s]) => s === 'router')!;
    assert.equal(cell.status, 'fail');
    assert.match(
      cell.reason ?? '',
      /^load profile router-queue-poll \(fault load-poll-no-retry-after\): every poll of unfinished work carries Retry-After/,
    );
    assert.match(
      cell.reason ?? '',
      /expected polls of unfinished work, each with an integer Retry-After, received \d+ of \d+ polls of unfinished work had no Retry-After/,
    );
    assert.match(cell.reason ?? '', /seed: R § States and transitions/);
    assert.match(
      readFileSync(path.join(reports, 'conformance.md'), 'utf8'),
      /- \*\*`LOAD\.POLL\.RETRY_AFTER`\*\* \(MUST\) — seed: R/,
    );

    // A load run alone joins the existing report: the same profile against a correct reference
    // replaces the faulty run, and the verdict is computed again (exit status with it).
    const alone = await cli(
      [
        'load',
        '--profile',
        'router-queue-poll',
        '--quiet',
        '--duration',
        '3',
        '--rate',
        '30',
        '--conformance',
        path.join(reports, 'conformance.json'),
      ],
      userEnv({}),
    );
    assert.equal(alone.status, 0, alone.output.slice(-3000));
    const joined = JSON.parse(readFileSync(path.join(reports, 'conformance.json'), 'utf8')) as ConformanceReport;
    assert.equal(joined.summary.verdict, 'pass', JSON.stringify(joined.summary));
    assert.equal(cells(joined, 'LOAD.POLL.RETRY_AFTER').find(([s]) => s === 'router')?.[1].status, 'pass');
    assert.deepEqual(
      joined.load?.profiles.map((p) => [p.profile, p.fault ?? null]),
      [['router-queue-poll', null]],
    );
  } finally {
    rmSync(reports, { recursive: true, force: true });
  }
});
