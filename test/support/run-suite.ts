// Runs the conformance suite as a user would (npx playwright test) against an
// embedded reference, optionally with one fault switched on, and returns its report.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePortBase } from './ports.ts';
import type { ConformanceReport } from '../../fixtures/reporter/report.ts';

export const ROOT = path.resolve(import.meta.dirname, '../..');
const PLAYWRIGHT_CLI = path.join(ROOT, 'node_modules', '@playwright', 'test', 'cli.js');

export interface SuiteRun {
  exitCode: number | null;
  report: ConformanceReport;
  output: string;
  reportsDir: string;
}

export async function runSuite(opts: { fault?: string; args?: string[]; env?: Record<string, string>; timeoutMs?: number; keep?: boolean } = {}): Promise<SuiteRun> {
  const reportsDir = mkdtempSync(path.join(os.tmpdir(), 'conformance-run-'));
  const port = await freePortBase();
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    REFERENCE_PORT: String(port),
    REPORTS_DIR: reportsDir,
    CONFORMANCE_QUIET: '1',
    ...(opts.fault ? { REFERENCE_FAULT: opts.fault } : {}),
    ...(opts.env ?? {}),
  };
  for (const k of ['TARGET', 'TARGETS_FILE', 'TARGET_SURFACE', 'TARGET_BASE_URL', 'TARGET_TOKEN', 'NODE_TEST_CONTEXT']) {
    if (!(opts.env && k in opts.env)) delete env[k];
  }
  // Its own process group, so a timeout also ends the reference that webServer started.
  const child = spawn(process.execPath, [PLAYWRIGHT_CLI, 'test', '--workers=2', ...(opts.args ?? [])], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
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
    if (!opts.keep) rmSync(reportsDir, { recursive: true, force: true });
  }
  return { exitCode, report, output, reportsDir };
}

export function failedRules(report: ConformanceReport): string[] {
  return report.rules.filter((r) => Object.values(r.results).some((c) => c?.status === 'fail')).map((r) => r.id).sort();
}

export function rulesWith(report: ConformanceReport, status: string): string[] {
  return report.rules.filter((r) => Object.values(r.results).some((c) => c?.status === status)).map((r) => r.id).sort();
}
