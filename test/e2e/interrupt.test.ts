// Ctrl-C in the middle of a conformance run: the tests that ran may all have passed, but
// the target was judged only in part, so the verdict is error ("interrupted after N s;
// M of T tests did not run"), never pass, in conformance.json, .md and the console.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ConformanceReport } from '../../report/report.ts';
import { freePortBase } from '../support/ports.ts';
import { childEnv, REFERENCE_SWITCHES } from '../support/child-env.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

test('an interrupted run ends verdict error naming how long it ran and how many tests did not run', async () => {
  const reports = mkdtempSync(path.join(os.tmpdir(), 'interrupt-'));
  // A range found free, below the kernel's outgoing ports (a fixed random one was taken by another test's connection).
  const env = childEnv({ drop: REFERENCE_SWITCHES, set: { CI: '1', REFERENCE_PORT: String(await freePortBase()) } });
  const child = spawn(
    process.execPath,
    [
      'bin/workflow-conformance.mjs',
      'run',
      '--reports',
      reports,
      '--project=v2-local',
      '--project=router',
      '--workers=2',
    ],
    { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  const passedSome = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no test passed within 90 s:\n${out.slice(-2000)}`)), 90_000);
    const seen = (d: Buffer) => {
      out += d.toString();
      if ((out.match(/[✓·]/g) ?? []).length >= 5) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout.on('data', seen);
    child.stderr.on('data', seen);
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  try {
    await passedSome;
    child.kill('SIGINT');
    const code = await Promise.race([
      exited,
      new Promise<'hung'>((resolve) => setTimeout(() => resolve('hung'), 60_000)),
    ]);
    assert.notEqual(code, 'hung', 'the run stopped after Ctrl-C');
    assert.notEqual(code, 0, out.slice(-2000));
    const report = JSON.parse(readFileSync(path.join(reports, 'conformance.json'), 'utf8')) as ConformanceReport;
    assert.equal(report.summary.verdict, 'error', out.slice(-2000));
    assert.match(report.summary.reason ?? '', /^interrupted after \d+ s; \d+ of \d+ tests did not run$/);
    assert.ok(
      report.rules.some((r) => Object.values(r.results).some((c) => c?.status === 'pass')),
      'the cells judged before the interrupt keep their verdicts',
    );
    assert.match(
      readFileSync(path.join(reports, 'conformance.md'), 'utf8'),
      /\*\*Verdict: ERROR\*\* \(interrupted after/,
    );
    assert.match(out, /Conformance ERROR \(interrupted after/);
  } finally {
    child.kill('SIGKILL');
    rmSync(reports, { recursive: true, force: true });
  }
});
