// Playwright configuration of a self-test run (run.ts): the projects of its plan (plan.ts),
// each narrowed to the spec copies its tests run from and, by copy and title, to exactly its
// tests; every test reaches the reference of its case through the harness
// option (fixtures/harness.ts, provider.ts).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { defineConfig } from '@playwright/test';
import type { Options } from '../../../fixtures/test.ts';
import { runConfig } from '../../../lib/config/env.ts';
import { PLAN_ENV, type Plan } from './plan.ts';

const planFile = process.env[PLAN_ENV]!;
// A Playwright configuration is an entry point: it reads the run's bounds itself.
const { bounds } = runConfig();
const plan = JSON.parse(readFileSync(planFile, 'utf8')) as Plan;
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
// Playwright greps `<project> <file> <describe> [its tags] ... <title> [its tags]`, the file
// relative to the top-level testDir (the copy folder): the copy, then the test's titles in
// order, each followed by the tags it carries, end the line.
const exactly = (file: string, titles: readonly string[]) =>
  `(?:^| )${escape(file)} ${titles.map(escape).join('(?: @\\S+)* ')}(?: @\\S+)*$`;

export default defineConfig<Options>({
  testDir: plan.copyDir,
  fullyParallel: true,
  retries: 0,
  timeout: Math.max(60_000, 2 * bounds.jobDeadlineMs + bounds.retryAfterMaxMs + 15_000),
  // Ends the run in time for the reporter to write what did run (the caller's hard kill is later).
  ...(process.env.SELFTEST_GLOBAL_TIMEOUT_MS ? { globalTimeout: Number(process.env.SELFTEST_GLOBAL_TIMEOUT_MS) } : {}),
  outputDir: path.join(plan.workDir, 'test-results'),
  projects: plan.projects.map((p) => ({
    name: p.name,
    testDir: plan.copyDir,
    testMatch: p.files.map((f) => path.join(plan.copyDir, f)),
    grep: new RegExp(p.tests.map((t) => exactly(t.file, t.titles)).join('|')),
    workers: p.workers,
    use: {
      surface: p.surface,
      family: p.family,
      harness: { provider: path.join(import.meta.dirname, 'provider.ts'), options: { planFile }, resultsOnly: true },
    },
  })),
  reporter: [[path.join(import.meta.dirname, 'reporter.ts'), { planFile }]],
});
