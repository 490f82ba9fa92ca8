// Every load profile, short and slow, against a fresh in-process reference: it runs,
// writes its three report files, and its thresholds and checks pass. Each clean run is
// a control of the self-validation score (a failure here is a false alarm).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { PROFILES } from '../../load/profiles/index.ts';
import { writeReports } from '../../load/report/write.ts';
import { recordScore } from '../support/score.ts';
import { smoke } from './helpers.ts';
import { startOnFreePorts } from '../support/ports.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

test('npm run load -- --list prints the profiles, one per line: name first, then the surfaces it needs', () => {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'load/run.ts', '--list'], { cwd: ROOT, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(
    r.stdout
      .trim()
      .split('\n')
      .map((l) => l.split(/\s+/)[0]),
    PROFILES.map((p) => p.name),
  );
  for (const p of PROFILES)
    assert.ok(
      r.stdout
        .split('\n')
        .find((l) => l.startsWith(`${p.name} `))
        ?.includes(p.surfaces.join(', ')),
      p.name,
    );
  for (const name of [
    'v2-job-poll',
    'v1-job-status',
    'router-queue-poll',
    'rate-limit',
    'router-rate-limit',
    'router-concurrency',
  ])
    assert.ok(r.stdout.includes(name), name);
});

describe('each profile passes against the reference', { concurrency: false }, () => {
  for (const p of PROFILES) {
    test(`${p.name}: ${p.title}`, async () => {
      const report = await smoke(p.name);
      const dir = mkdtempSync(path.join(tmpdir(), 'load-smoke-'));
      const files = await writeReports(report, dir);
      const clean = report.verdict === 'pass';
      recordScore({ kind: 'load', name: p.name, ok: clean });
      for (const f of Object.values(files) as string[]) assert.ok(existsSync(f), f);
      const json = JSON.parse(readFileSync(files.json, 'utf8')) as {
        schema: string;
        environment: Record<string, unknown>;
        profile: { name: string };
      };
      assert.equal(json.schema, 'load-report/2');
      assert.equal(json.profile.name, p.name);
      assert.ok(json.environment.node);
      const failed = [
        ...report.thresholds.filter((t) => !t.ok).map((t) => `${t.expr} (measured ${t.actual})`),
        ...report.checks.filter((c) => c.outcome !== 'held').map((c) => `${c.rule}: ${c.what}: ${c.received ?? ''}`),
      ];
      assert.equal(report.verdict, 'pass', `${report.skipReason ?? ''} ${failed.join('; ')}`);
      assert.ok(report.metrics.requests > 0);
      assert.ok(report.metrics.sampled > 0, 'a sample of responses was validated against the contract');
    });
  }
});

// A control varies what a profile judges: the load analysis must accept it too, as the
// conformance run does (test/e2e/controls.test.ts). Seed R lists no Retry-After on a 429.
test('router-rate-limit passes against a reference whose 429s carry no Retry-After (control router-429-without-retry-after)', async () => {
  const reference = await startOnFreePorts({ control: 'router-429-without-retry-after' });
  try {
    const report = await smoke('router-rate-limit', undefined, reference);
    const failed = [
      ...report.thresholds.filter((t) => !t.ok).map((t) => `${t.expr} (measured ${t.actual})`),
      ...report.checks.filter((c) => c.outcome !== 'held').map((c) => `${c.rule}: ${c.what}: ${c.received ?? ''}`),
    ];
    assert.equal(report.verdict, 'pass', `${report.skipReason ?? ''} ${failed.join('; ')}`);
    assert.ok(Number(report.metrics.refused) > 0, 'the limited key was refused under load');
    assert.deepEqual(report.figures.retry_after_values, {}, 'no 429 named a Retry-After');
    assert.match(
      report.checks.find((c) => c.rule === 'LOAD.RATE_LIMIT.RETRY_SUCCEEDS')?.received ?? '',
      /no Retry-After/,
    );
  } finally {
    await reference.close();
  }
});

// Seed W names no limiting algorithm: a clock-aligned fixed window and a token bucket of the
// same allowance are judged as the reference's own window is, whatever the phase of the run.
for (const control of ['rate-limit-clock-windows', 'rate-limit-token-bucket'] as const) {
  test(`rate-limit passes against a reference whose v2 limiter is another algorithm (control ${control})`, async () => {
    const reference = await startOnFreePorts({ control });
    try {
      const report = await smoke('rate-limit', undefined, reference);
      const failed = [
        ...report.thresholds.filter((t) => !t.ok).map((t) => `${t.expr} (measured ${t.actual})`),
        ...report.checks.filter((c) => c.outcome !== 'held').map((c) => `${c.rule}: ${c.what}: ${c.received ?? ''}`),
      ];
      recordScore({ kind: 'load', name: `rate-limit under ${control}`, ok: report.verdict === 'pass' });
      assert.equal(report.verdict, 'pass', `${report.skipReason ?? ''} ${failed.join('; ')}`);
      assert.ok(Number(report.metrics.refused) > 0, 'the limited key was refused under load');
    } finally {
      await reference.close();
    }
  });
}
