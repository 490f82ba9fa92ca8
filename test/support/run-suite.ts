// Runs the conformance suite as a user would (npx playwright test) against an
// embedded reference, optionally with one fault switched on, and returns its report.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePortBase } from './ports.ts';
import { childEnv, REFERENCE_SWITCHES, VERDICT_SETTINGS } from './child-env.ts';
import type { ConformanceReport } from '../../report/report.ts';

export const ROOT = path.resolve(import.meta.dirname, '../..');
const PLAYWRIGHT_CLI = path.join(ROOT, 'node_modules', '@playwright', 'test', 'cli.js');

export interface SuiteRun {
  exitCode: number | null;
  report: ConformanceReport;
  output: string;
  reportsDir: string;
}

export interface RunOptions {
  /** One reference fault (reference/faults.ts). */
  fault?: string;
  /** One harmless variation (reference/controls.ts). */
  control?: string;
  /** Extra Playwright arguments: `--project=...`, spec files. */
  args?: string[];
  env?: Record<string, string>;
  /** Playwright workers (default 2). */
  workers?: number;
  timeoutMs?: number;
  keep?: boolean;
  /** Write the reports here (kept) instead of a fresh temporary folder. */
  reportsDir?: string;
}

// The embedded reference did not come up (a port taken between probe and bind, a slow
// start on a loaded machine): nothing was judged, so one more try on fresh ports is fair.
const STARTUP_FAILED = /from config\.webServer|is in use; set REFERENCE_PORT/;

export async function runSuite(opts: RunOptions = {}): Promise<SuiteRun> {
  const first = await runOnce(opts);
  if (
    first.exitCode === 0 ||
    !STARTUP_FAILED.test(first.output) ||
    first.report.tests.passed + first.report.tests.failed > 0
  )
    return first;
  if (opts.keep) rmSync(first.reportsDir, { recursive: true, force: true });
  return runOnce(opts);
}

async function runOnce(opts: RunOptions): Promise<SuiteRun> {
  const reportsDir = opts.reportsDir ?? mkdtempSync(path.join(os.tmpdir(), 'conformance-run-'));
  const port = await freePortBase();
  // A caller's own gate settings would change the verdict under test.
  const env = childEnv({
    drop: ['NODE_TEST_CONTEXT', ...REFERENCE_SWITCHES, ...VERDICT_SETTINGS],
    set: { REFERENCE_PORT: String(port), REPORTS_DIR: reportsDir, CONFORMANCE_QUIET: '1', ...(opts.env ?? {}) },
  });
  if (opts.fault) env.REFERENCE_FAULT = opts.fault;
  if (opts.control) env.REFERENCE_CONTROL = opts.control;
  // Its own process group, so a timeout also ends the reference that webServer started.
  const child = spawn(
    process.execPath,
    [PLAYWRIGHT_CLI, 'test', `--workers=${opts.workers ?? 2}`, ...(opts.args ?? [])],
    { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true },
  );
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  // Broad faults fail many tests, and Playwright restarts a worker after each failure.
  const timeoutMs = opts.timeoutMs ?? 600_000;
  const exitCode = await new Promise<number | null>((resolve) => {
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    }, timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve(code);
    });
  });
  let report: ConformanceReport;
  try {
    report = JSON.parse(readFileSync(path.join(reportsDir, 'conformance.json'), 'utf8')) as ConformanceReport;
  } catch {
    throw new Error(`the suite wrote no conformance.json (exit ${exitCode}):\n${output.slice(-4000)}`);
  } finally {
    if (!opts.keep && !opts.reportsDir) rmSync(reportsDir, { recursive: true, force: true });
  }
  return { exitCode, report, output, reportsDir };
}

export function failedRules(report: Pick<ConformanceReport, 'rules'>): string[] {
  return report.rules
    .filter((r) => Object.values(r.results).some((c) => c?.status === 'fail'))
    .map((r) => r.id)
    .sort();
}

export function rulesWith(report: Pick<ConformanceReport, 'rules'>, status: string): string[] {
  return report.rules
    .filter((r) => Object.values(r.results).some((c) => c?.status === status))
    .map((r) => r.id)
    .sort();
}
