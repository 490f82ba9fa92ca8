// A run that cannot start says why in one line, exits 2, and replaces the last report
// with verdict error (a stale PASS must never answer for it): a misspelt flag names the
// nearest one, an unknown fault is one line, a busy port of the embedded reference is named.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { ConformanceReport } from '../../report/report.ts';
import { childEnv } from '../support/child-env.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

// The last run's green results, as a CI page would publish them.
const STALE_JUNIT =
  '<testsuites tests="343" failures="0" errors="0"><testsuite name="v2-local" tests="343"/></testsuites>';

/** A reports folder holding the last run's green results. */
function stale(): string {
  const reports = mkdtempSync(path.join(os.tmpdir(), 'cli-refusal-'));
  writeFileSync(path.join(reports, 'conformance.json'), JSON.stringify({ summary: { verdict: 'pass' } }));
  writeFileSync(path.join(reports, 'junit.xml'), STALE_JUNIT);
  mkdirSync(path.join(reports, 'html'));
  writeFileSync(path.join(reports, 'html', 'index.html'), '<title>343 passed</title>');
  return reports;
}

function run(args: string[], env: Record<string, string> = {}) {
  const reports = stale();
  const base = childEnv({ drop: ['REFERENCE_FAULT'], set: env });
  const r = spawnSync(process.execPath, ['bin/workflow-conformance.mjs', 'run', '--reports', reports, ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    env: base,
    timeout: 60_000,
  });
  const report = JSON.parse(readFileSync(path.join(reports, 'conformance.json'), 'utf8')) as ConformanceReport;
  return { ...r, report, reports };
}

/** No file of the last run answers for this one: junit.xml says error, Playwright's old html/ is gone. */
function assertNothingStale(reports: string): void {
  const junit = readFileSync(path.join(reports, 'junit.xml'), 'utf8');
  assert.notEqual(junit, STALE_JUNIT, "the last run's junit.xml was left in place");
  assert.match(junit, /<testsuites[^>]* errors="1"/);
  assert.match(junit, /<error message="[^"]*(could not start|no test was run)/);
  assert.ok(!existsSync(path.join(reports, 'html', 'index.html')), "the last run's html/ report was left in place");
}

test('a misspelt flag: exit 2, the nearest flag named, the last report replaced by verdict error', () => {
  const r = run(['--surfce', 'local']);
  assert.equal(r.status, 2, r.stderr);
  assert.match(r.stderr, /unknown option --surfce \(did you mean --surface\?\)/);
  assert.equal(r.stderr.trim().split('\n').length, 2, 'one line, and where the report says so');
  assert.equal(r.report.summary.verdict, 'error');
  assert.match(r.report.summary.reason ?? '', /unknown option --surfce/);
  assert.equal(run(['--workerz=2']).status, 2);
  assertNothingStale(r.reports);
});

test('a run that cannot start leaves no green junit.xml or html/ of the last run beside its error', () => {
  // Refused by the CLI (an unknown fault), and by the Playwright config itself (an unknown target).
  assertNothingStale(run(['--fault', 'no-such-fault']).reports);
  const reports = stale();
  const r = spawnSync(process.execPath, [path.join(ROOT, 'node_modules/@playwright/test/cli.js'), 'test'], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, TARGET: 'no-such-target', REPORTS_DIR: reports, CONFORMANCE_QUIET: '1' },
    timeout: 60_000,
  });
  assert.notEqual(r.status, 0);
  assertNothingStale(reports);
});

test('an unknown fault is one line and exit 2, not the list of every fault', () => {
  const r = run(['--fault', 'no-such-fault']);
  assert.equal(r.status, 2);
  assert.match(r.stderr, /unknown fault "no-such-fault"/);
  assert.ok(r.stderr.length < 400, r.stderr);
  assert.equal(r.report.summary.verdict, 'error');
});

test('a busy port of the embedded reference: exit 2 naming the port and REFERENCE_PORT', async () => {
  const server = createServer();
  const port = await new Promise<number>((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port)),
  );
  try {
    const r = run([], { REFERENCE_PORT: String(port) });
    assert.equal(r.status, 2, r.stderr);
    assert.match(r.stderr, new RegExp(`port ${port} on 127.0.0.1 is in use.*REFERENCE_PORT`));
    assert.equal(r.report.summary.verdict, 'error');
  } finally {
    server.close();
  }
});
