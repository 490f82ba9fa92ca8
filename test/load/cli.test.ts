// The runner's command line (issue #15): Ctrl-C ends a run with the verdict
// `interrupted` and a non-zero exit, caps are said before the load starts, and a
// misspelt flag is one line with the usage, not a stack.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { LoadReport } from '../../load/engine.ts';
import { childEnv } from '../support/child-env.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const RUNNER = ['--import', 'tsx', 'load/run.ts'];

test('a misspelt flag prints one line and the usage, exit 2', () => {
  const r = spawnSync(process.execPath, [...RUNNER, '--profle', 'v2-job-poll'], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, TARGET: '' },
  });
  assert.equal(r.status, 2);
  const lines = r.stderr.trim().split('\n');
  assert.match(lines[0], /^load: Unknown option '--profle'/);
  assert.match(lines[0], /\(did you mean --profile\?\)$/);
  assert.match(r.stderr, /usage: workflow-conformance load --profile NAME/);
  assert.doesNotMatch(r.stderr, /npm run/);
  assert.doesNotMatch(r.stderr, /ERR_PARSE_ARGS|\n\s+at /, 'no error code, no stack');
  const bad = spawnSync(process.execPath, [...RUNNER, '--profile', 'v2-job-poll', '--shard', '3/2'], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /^load: --shard must be i\/n/);
});

test('Ctrl-C during a run: the cap is said before the load, the report says interrupted, exit non-zero', async () => {
  const out = mkdtempSync(path.join(tmpdir(), 'load-sigint-'));
  const env = childEnv({ drop: ['REFERENCE_PORT'] });
  const child = spawn(
    process.execPath,
    [...RUNNER, '--profile', 'router-queue-poll', '--rate', '20', '--duration', '100000', '--out', out],
    { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  const started = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the load did not start within 60 s: ${stderr}`)), 60_000);
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
      if (/req\/s over \d+ connections/.test(stderr)) {
        clearTimeout(timer);
        resolve();
      }
    });
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  try {
    await started;
    // The cap on a 100000 s run is announced before the load line, not only in the report.
    const cap = stderr.indexOf('load: note: duration capped at 600 s');
    assert.ok(cap >= 0 && cap < stderr.search(/req\/s over/), stderr);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    child.kill('SIGINT');
    const code = await Promise.race([
      exited,
      new Promise<'hung'>((resolve) => setTimeout(() => resolve('hung'), 20_000)),
    ]);
    assert.notEqual(code, 'hung', 'the runner stopped after Ctrl-C');
    assert.equal(code, 130, `${stdout}\n${stderr}`);
    assert.match(stdout, /router-queue-poll: INTERRUPTED/);
    const json = readdirSync(out).find((f) => f.endsWith('.json'));
    assert.ok(json, 'the report was written');
    const report = JSON.parse(readFileSync(path.join(out, json), 'utf8')) as LoadReport;
    assert.equal(report.verdict, 'interrupted');
    assert.ok(report.metrics.measured_s < 10, `measured ${report.metrics.measured_s} s, not the asked duration`);
    assert.ok(report.notes.some((n) => /interrupted by a signal/.test(n)));
    assert.match(readFileSync(path.join(out, json.replace(/\.json$/, '.md')), 'utf8'), /INTERRUPTED/);
  } finally {
    child.kill('SIGKILL');
  }
});
