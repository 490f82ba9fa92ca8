// A recorded run (workflow-conformance run --record) replayed offline gives the same
// rule verdicts as the run that recorded it: for a passing run, and for a run against
// a fault, whose failure the replay finds again from the recording alone.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ROOT } from '../support/run-suite.ts';
import { freePortBase } from '../support/ports.ts';
import type { ConformanceReport } from '../../report/report.ts';

const BIN = path.join(ROOT, 'bin', 'workflow-conformance.mjs');

function cli(args: string[], env: Record<string, string>, cwd: string): Promise<{ code: number | null; output: string }> {
  const clean = { ...process.env } as Record<string, string>;
  for (const k of ['TARGET', 'TARGETS_FILE', 'TARGET_SURFACE', 'TARGET_BASE_URL', 'TARGET_TOKEN', 'NODE_TEST_CONTEXT', 'REFERENCE_FAULT', 'REFERENCE_CONTROL', 'REPORTS_DIR', 'FC_SEED', 'CONFORMANCE_STRICT', 'CONFORMANCE_BASELINE']) delete clean[k];
  const child = spawn(process.execPath, [BIN, ...args], { cwd, env: { ...clean, CONFORMANCE_QUIET: '1', ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d));
  child.stderr.on('data', (d: Buffer) => (output += d));
  const timer = setTimeout(() => process.kill(-child.pid!, 'SIGKILL'), 240_000);
  return new Promise((resolve) => child.on('close', (code) => (clearTimeout(timer), resolve({ code, output }))));
}

const read = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as ConformanceReport;
const cells = (r: ConformanceReport) => Object.fromEntries(r.rules.flatMap((row) => Object.entries(row.results).map(([s, c]) => [`${row.id} on ${s}`, c?.status])));

async function recordThenReplay(fault: string | undefined, specs: string[]) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'cassette-'));
  try {
    const port = String(await freePortBase());
    const rec = await cli(['run', '--surface', 'cloud', '--workers=1', '--record', 'run.har', '--reports', 'recorded', ...(fault ? ['--fault', fault] : []), ...specs.map((s) => path.join(ROOT, s))], { REFERENCE_PORT: port }, dir);
    assert.match(rec.output, /recorded \d+ exchanges to run\.har/, rec.output.slice(-2000));
    const har = readFileSync(path.join(dir, 'run.har'), 'utf8');
    assert.ok(!/comfyui-ref-/.test(har), 'the recording carries no development key');
    const rep = await cli(['replay', 'run.har', '--reports', 'replayed'], {}, dir);
    return { recorded: read(path.join(dir, 'recorded', 'conformance.json')), replayed: read(path.join(dir, 'replayed', 'conformance.json')), recCode: rec.code, repCode: rep.code, output: rep.output };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('a passing run, replayed from its recording, passes with the same cells', async () => {
  const r = await recordThenReplay(undefined, ['specs/v2/assets.spec.ts']);
  assert.equal(r.recorded.summary.verdict, 'pass');
  assert.equal(r.replayed.summary.verdict, 'pass', r.output.slice(-2000));
  assert.deepEqual(cells(r.replayed), cells(r.recorded));
  assert.equal(r.repCode, 0);
});

test('a run against stale-asset-url, replayed, fails V2.ASSET.FRESH_URL again and nothing else', async () => {
  const r = await recordThenReplay('stale-asset-url', ['specs/v2/assets.spec.ts']);
  assert.deepEqual(r.recorded.summary.must_failed, ['V2.ASSET.FRESH_URL']);
  assert.deepEqual(r.replayed.summary.must_failed, ['V2.ASSET.FRESH_URL'], r.output.slice(-2000));
  assert.deepEqual(cells(r.replayed), cells(r.recorded));
  assert.notEqual(r.repCode, 0);
});
