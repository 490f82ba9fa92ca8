// Sharded runs give one report: two shards (`--shard=i/2`, each writing a blob report),
// joined by `playwright merge-reports --config merge.config.ts`, produce the same
// conformance report as one unsharded run of the same tests.
//
// Compared: every rule's cells (surface, status, reason), the summary, the test counts,
// the contract coverage, unplaced failures, run errors, profile, strict, target name.
// Ignored, because they legitimately differ between any two runs:
//   generated_at, timing           the clock
//   seeds                          each run draws its own property-test seeds (unless FC_SEED is set)
//   target.surfaces[].base_url     each run's embedded reference gets its own free port
//   evidence.held (the count)      how many checks held varies with timing (polls, retries);
//                                  that some held, and the broken and blocked counts, are compared
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ROOT, runSuite } from '../support/run-suite.ts';
import type { ConformanceReport } from '../../report/report.ts';

const SELECTION = [
  '--project=v2-local',
  '--project=v2-cloud',
  'specs/v2/assets.spec.ts',
  'specs/v2/errors.spec.ts',
  'specs/v2/auth.spec.ts',
];

/** The report without the fields that differ between any two runs; skip reasons in a stable order. */
function comparable(r: ConformanceReport): unknown {
  const { generated_at: _clock, timing: _timing, seeds: _seeds, target, rules, ...rest } = r;
  return {
    ...rest,
    target: { name: target.name, surfaces: target.surfaces.map((s) => s.surface) },
    rules: rules.map((row) => ({
      ...row,
      results: Object.fromEntries(
        Object.entries(row.results).map(([surface, cell]) => [
          surface,
          cell && {
            ...cell,
            ...(cell.reason ? { reason: cell.reason.split('; ').sort().join('; ') } : {}),
            ...(cell.evidence
              ? {
                  evidence: {
                    held: cell.evidence.held > 0,
                    broken: cell.evidence.broken,
                    blocked: cell.evidence.blocked,
                  },
                }
              : {}),
          },
        ]),
      ),
    })),
  };
}

test('two shards merged with merge.config.ts give the conformance report of one unsharded run', async () => {
  const work = mkdtempSync(path.join(os.tmpdir(), 'conformance-shards-'));
  try {
    const blobs = path.join(work, 'blobs');
    mkdirSync(blobs);
    for (const shard of ['1/2', '2/2']) {
      const run = await runSuite({ args: [...SELECTION, `--shard=${shard}`], keep: true, timeoutMs: 300_000 });
      try {
        assert.equal(run.exitCode, 0, `shard ${shard}:\n${run.output.slice(-2000)}`);
        const dir = path.join(run.reportsDir, 'blob-report');
        const zips = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.zip')) : [];
        assert.equal(zips.length, 1, `a sharded run writes one blob report in reports/blob-report: ${zips.join(', ')}`);
        copyFileSync(path.join(dir, zips[0]), path.join(blobs, zips[0]));
      } finally {
        rmSync(run.reportsDir, { recursive: true, force: true });
      }
    }
    assert.equal(readdirSync(blobs).length, 2, 'the two shards wrote distinct blob files');

    const merged = path.join(work, 'merged');
    // Not a child test file of this runner: without NODE_TEST_CONTEXT the CLI prints as a user sees it.
    const { NODE_TEST_CONTEXT: _ctx, ...env } = process.env;
    const merge = spawnSync(
      process.execPath,
      [
        path.join(ROOT, 'node_modules', '@playwright', 'test', 'cli.js'),
        'merge-reports',
        '--config',
        'merge.config.ts',
        blobs,
      ],
      {
        cwd: ROOT,
        env: { ...env, REPORTS_DIR: merged, CONFORMANCE_QUIET: '0' },
        encoding: 'utf8',
        timeout: 120_000,
      },
    );
    assert.equal(merge.status, 0, `merge-reports:\n${merge.stdout}\n${merge.stderr}`);
    for (const f of ['conformance.json', 'conformance.md', 'junit.xml', path.join('html', 'index.html')])
      assert.ok(existsSync(path.join(merged, f)), `merge wrote ${f}`);
    const mergedReport = JSON.parse(readFileSync(path.join(merged, 'conformance.json'), 'utf8')) as ConformanceReport;

    const whole = await runSuite({ args: SELECTION, timeoutMs: 300_000 });
    assert.equal(whole.exitCode, 0, whole.output.slice(-2000));
    assert.ok(whole.report.tests.passed > 5, `a run with something in it: ${JSON.stringify(whole.report.tests)}`);
    assert.deepEqual(comparable(mergedReport), comparable(whole.report));
    assert.ok(
      mergedReport.rules.some((r) => r.results.local?.status === 'pass') &&
        mergedReport.rules.some((r) => r.results.cloud?.status === 'pass'),
      'both projects are in the merged matrix',
    );
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
});
