// A run that cannot start says why in one line, exits 2, and replaces the last report
// with verdict error (a stale PASS must never answer for it): a misspelt flag names the
// nearest one, an unknown fault is one line, a busy port of the embedded reference is named.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { ConformanceReport } from '../../report/report.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

function run(args: string[], env: Record<string, string> = {}) {
  const reports = mkdtempSync(path.join(os.tmpdir(), 'cli-refusal-'));
  writeFileSync(path.join(reports, 'conformance.json'), JSON.stringify({ summary: { verdict: 'pass' } }));
  const base: Record<string, string | undefined> = { ...process.env, ...env };
  for (const k of ['TARGET', 'TARGET_SURFACE', 'TARGET_BASE_URL', 'TARGET_TOKEN', 'TARGETS_FILE', 'REFERENCE_FAULT']) if (!(k in env)) delete base[k];
  const r = spawnSync(process.execPath, ['bin/workflow-conformance.mjs', 'run', '--reports', reports, ...args], { cwd: ROOT, encoding: 'utf8', env: base, timeout: 60_000 });
  const report = JSON.parse(readFileSync(path.join(reports, 'conformance.json'), 'utf8')) as ConformanceReport;
  return { ...r, report };
}

test('a misspelt flag: exit 2, the nearest flag named, the last report replaced by verdict error', () => {
  const r = run(['--surfce', 'local']);
  assert.equal(r.status, 2, r.stderr);
  assert.match(r.stderr, /unknown option --surfce \(did you mean --surface\?\)/);
  assert.equal(r.stderr.trim().split('\n').length, 2, 'one line, and where the report says so');
  assert.equal(r.report.summary.verdict, 'error');
  assert.match(r.report.summary.reason ?? '', /unknown option --surfce/);
  assert.equal(run(['--workerz=2']).status, 2);
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
  const port = await new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port)));
  try {
    const r = run([], { REFERENCE_PORT: String(port) });
    assert.equal(r.status, 2, r.stderr);
    assert.match(r.stderr, new RegExp(`port ${port} on 127.0.0.1 is in use.*REFERENCE_PORT`));
    assert.equal(r.report.summary.verdict, 'error');
  } finally {
    server.close();
  }
});
