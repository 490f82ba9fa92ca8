// Runs a batch of self-test cases (plan.ts) in one Playwright invocation against a farm
// of embedded references, and returns each case's matrix. Used by the fault matrix and
// the controls; test/support/run-suite.ts stays for runs that need a process of their
// own (an environment variable, the user-facing reporter, the exit code).
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePortBase } from '../ports.ts';
import type { RuleRow } from '../../../report/matrix.ts';
import { PLAN_ENV, type BatchCase, type Plan } from './plan.ts';
import { planRounds } from './rounds.ts';
import { specMap } from '../spec-map.ts';
import { BATCH_RESULTS_ENV } from '../../../fixtures/evidence.ts';
import { BATCH_PROJECT_WORKERS } from '../concurrency.ts';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const PLAYWRIGHT_CLI = path.join(ROOT, 'node_modules', '@playwright', 'test', 'cli.js');

/** One case's outcome: the shape of the user report's parts the self-tests read. */
export interface CaseReport {
  id: string;
  summary: { verdict: 'pass' | 'fail' | 'error'; must_failed: string[]; should_failed: string[]; errors: string[] };
  unplaced: string[];
  rules: RuleRow[];
  /** Tests the case ran. */
  tests: number;
  /** First lines of the errors of its failing tests, for messages. */
  output: string;
}

export interface BatchOptions {
  workers?: number;
  /** Workers one project (a round on one family and surface) may use at once; default BATCH_PROJECT_WORKERS. */
  projectWorkers?: number;
  timeoutMs?: number;
  env?: Record<string, string>;
}

function cleanEnv(extra: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = { ...(process.env as Record<string, string>), CONFORMANCE_QUIET: '1', ...extra };
  // A caller's own target or gate settings would change what is under test.
  for (const k of ['TARGET', 'TARGETS_FILE', 'TARGET_SURFACE', 'TARGET_BASE_URL', 'TARGET_TOKEN', 'NODE_TEST_CONTEXT', 'REFERENCE_FAULT', 'REFERENCE_CONTROL', 'CONFORMANCE_STRICT', 'CONFORMANCE_BASELINE', 'CONFORMANCE_PROFILE', 'SCORE_FILE', 'REFERENCE_PORT']) {
    if (!(k in extra)) delete env[k];
  }
  return env;
}

function waitForReady(farm: ChildProcess, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`the reference farm was not ready within ${timeoutMs} ms:\n${out}`)), timeoutMs);
    farm.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('ready\n')) {
        clearTimeout(timer);
        resolve();
      }
    });
    farm.stderr!.on('data', (d: Buffer) => (out += d.toString()));
    farm.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the reference farm exited (${code}) before it was ready:\n${out}`));
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

export async function runBatch(cases: BatchCase[], opts: BatchOptions = {}): Promise<Map<string, CaseReport>> {
  const work = mkdtempSync(path.join(os.tmpdir(), 'conformance-batch-'));
  const plan: Plan = { cases: [], projects: [], reportsDir: path.join(work, 'reports'), projectWorkers: opts.projectWorkers ?? BATCH_PROJECT_WORKERS };
  for (const c of cases) plan.cases.push({ ...c, portBase: await freePortBase() });
  plan.projects = planRounds(plan.cases, await specMap(ROOT), ROOT);
  const planFile = path.join(work, 'plan.json');
  writeFileSync(planFile, JSON.stringify(plan));
  // Generous on a busy machine: a minute per case, at least a quarter of an hour.
  const timeoutMs = opts.timeoutMs ?? Math.max(900_000, cases.length * 60_000);
  const env = cleanEnv({ ...(opts.env ?? {}), [PLAN_ENV]: planFile, [BATCH_RESULTS_ENV]: '1', BATCH_GLOBAL_TIMEOUT_MS: String(timeoutMs - 60_000) });
  const farm = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'farm.ts'), planFile], { cwd: ROOT, env, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
  let output = '';
  try {
    await waitForReady(farm, 60_000);
    const pw = spawn(process.execPath, [PLAYWRIGHT_CLI, 'test', '--config', path.join(import.meta.dirname, 'config.ts'), `--workers=${opts.workers ?? 2}`], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    pw.stdout.on('data', (d: Buffer) => (output += d.toString()));
    pw.stderr.on('data', (d: Buffer) => (output += d.toString()));
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => killGroup(pw), timeoutMs);
      pw.on('close', () => {
        clearTimeout(timer);
        resolve();
      });
    });
    const reports = new Map<string, CaseReport>();
    for (const c of plan.cases) {
      const file = path.join(plan.reportsDir, `${c.id}.json`);
      reports.set(
        c.id,
        existsSync(file)
          ? (JSON.parse(readFileSync(file, 'utf8')) as CaseReport)
          : { id: c.id, summary: { verdict: 'error', must_failed: [], should_failed: [], errors: ['no test ran'] }, unplaced: [], rules: [], tests: 0, output: `no test of this case ran (the batch ended first, or its selection is empty):\n${output.slice(-3000)}` },
      );
    }
    return reports;
  } finally {
    killGroup(farm);
    rmSync(work, { recursive: true, force: true });
  }
}
