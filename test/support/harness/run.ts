// Runs self-test cases (plan.ts) in one Playwright invocation against the reference host
// (host.ts), and returns each case's report. Used by the fault matrix and the controls;
// test/support/run-suite.ts stays for runs that need a process of their own (an
// environment variable, the user-facing reporter, the exit code).
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PLAN_ENV, planRun, type CaseSpec, type Plan } from './plan.ts';
import { specMap } from '../spec-map.ts';
import { childEnv, REFERENCE_SWITCHES, VERDICT_SETTINGS } from '../child-env.ts';
import { unrunReport, type CaseReport } from './outcomes.ts';
import { writeCopies } from './copies.ts';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const PLAYWRIGHT_CLI = path.join(ROOT, 'node_modules', '@playwright', 'test', 'cli.js');

export interface RunOptions {
  /** Playwright workers of the run. */
  workers: number;
  timeoutMs?: number;
  env?: Record<string, string>;
}

export interface HarnessRun {
  reports: Map<string, CaseReport>;
  /** Per case run per slot: `<project> › <test key>` → the controls its reference consulted serving it. */
  consulted: Record<string, Record<string, string[]>>;
  /** Per case run per slot: the controls its reference consulted before any test (recorded on each test too). */
  consultedAtStart: Record<string, string[]>;
  /** What the run cost in structure: Playwright projects (each at least one worker start) and references started. */
  projects: number;
  referenceStarts: number;
  /** Errors outside any test (a spec that did not load), and Playwright's own last lines. */
  runErrors: string[];
  output: string;
}

function cleanEnv(extra: Record<string, string>): Record<string, string> {
  // A caller's own target or gate settings would change what is under test.
  return childEnv({
    drop: ['NODE_TEST_CONTEXT', ...REFERENCE_SWITCHES, ...VERDICT_SETTINGS, 'REFERENCE_PORT', 'CONFORMANCE_SHARD'],
    set: { CONFORMANCE_QUIET: '1', ...extra },
  });
}

function waitForReady(host: ChildProcess, timeoutMs: number): Promise<number> {
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(
      () => reject(new Error(`the reference host was not ready within ${timeoutMs} ms:\n${out}`)),
      timeoutMs,
    );
    host.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /ready (\d+)\n/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(Number(m[1]));
      }
    });
    host.stderr!.on('data', (d: Buffer) => (out += d.toString()));
    host.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the reference host exited (${code}) before it was ready:\n${out}`));
    });
  });
}

function killGroup(child: ChildProcess): void {
  try {
    process.kill(-child.pid!, 'SIGKILL');
  } catch {
    child.kill('SIGKILL');
  }
}

export async function runCases(cases: CaseSpec[], opts: RunOptions): Promise<HarnessRun> {
  const work = mkdtempSync(path.join(os.tmpdir(), 'conformance-selftest-'));
  const plan: Plan = planRun(cases, await specMap(ROOT), work);
  const planFile = path.join(work, 'plan.json');
  writeFileSync(planFile, JSON.stringify(plan));
  const tests = plan.cases.reduce((n, c) => n + c.tests, 0);
  // Generous on a busy machine: ten seconds a test, at least a quarter of an hour.
  const timeoutMs = opts.timeoutMs ?? Math.max(900_000, tests * 10_000);
  const env = cleanEnv({
    ...(opts.env ?? {}),
    [PLAN_ENV]: planFile,
    SELFTEST_GLOBAL_TIMEOUT_MS: String(timeoutMs - 60_000),
    // What the workers of one run share (the breaker, the router's queue statuses), per reference origin.
    CONFORMANCE_CIRCUIT_DIR: path.join(work, 'run'),
    REPORTS_DIR: path.join(work, 'user-reports'),
  });
  const host = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'host.ts'), planFile], {
    cwd: ROOT,
    env,
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  try {
    writeCopies(plan);
    const port = await waitForReady(host, 60_000);
    plan.hostUrl = `http://127.0.0.1:${port}`;
    writeFileSync(planFile, JSON.stringify(plan));
    const pw = spawn(
      process.execPath,
      [PLAYWRIGHT_CLI, 'test', '--config', path.join(import.meta.dirname, 'config.ts'), `--workers=${opts.workers}`],
      { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true },
    );
    pw.stdout.on('data', (d: Buffer) => (output += d.toString()));
    pw.stderr.on('data', (d: Buffer) => (output += d.toString()));
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => killGroup(pw), timeoutMs);
      pw.on('close', () => {
        clearTimeout(timer);
        resolve();
      });
    });
    const dir = path.join(work, 'reports');
    const reports = new Map<string, CaseReport>();
    for (const c of plan.cases) {
      const file = path.join(dir, `${c.id}.json`);
      reports.set(
        c.id,
        existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as CaseReport) : unrunReport(c.id, output),
      );
    }
    const errorsFile = path.join(dir, 'run-errors.json');
    const runErrors = existsSync(errorsFile)
      ? (JSON.parse(readFileSync(errorsFile, 'utf8')) as { errors: string[] }).errors
      : [`the run wrote no reports:\n${output.slice(-3000)}`];
    const fromHost = (await (await fetch(`${plan.hostUrl}/consulted`)).json()) as {
      starts: number;
      atStart: HarnessRun['consultedAtStart'];
      consulted: HarnessRun['consulted'];
    };
    return {
      reports,
      consulted: fromHost.consulted,
      consultedAtStart: fromHost.atStart,
      projects: plan.projects.length,
      referenceStarts: fromHost.starts,
      runErrors,
      output: output.slice(-4000),
    };
  } finally {
    killGroup(host);
    rmSync(work, { recursive: true, force: true });
  }
}
