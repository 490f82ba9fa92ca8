// Playwright configuration of a batched self-test run (test/support/batch/run.ts): one
// project per round x family x surface (plan.ts), narrowed to its cases' spec files
// and, where every case's rule is declared by tests, to the tests carrying their tags.
// Each test reaches its own case's reference through the `referenceCases` fixture.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { defineConfig } from '@playwright/test';
import type { Options } from '../../../fixtures/test.ts';
import { JOB_DEADLINE_MS, retryAfterMaxMs } from '../../../lib/time.ts';
import { PLAN_ENV, type Plan } from './plan.ts';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const plan = JSON.parse(readFileSync(process.env[PLAN_ENV]!, 'utf8')) as Plan;
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
// What every worker of this batch shares (lib/router/queue.ts: the queue statuses seen per target).
process.env.CONFORMANCE_RUN_DIR ??= path.join(plan.reportsDir, 'run');

export default defineConfig<Options>({
  testDir: path.join(ROOT, 'specs'),
  fullyParallel: true,
  retries: 0,
  timeout: Math.max(60_000, 2 * JOB_DEADLINE_MS + retryAfterMaxMs() + 15_000),
  // Ends the batch in time for the reporter to write what did run (the caller's hard kill is later).
  ...(process.env.BATCH_GLOBAL_TIMEOUT_MS ? { globalTimeout: Number(process.env.BATCH_GLOBAL_TIMEOUT_MS) } : {}),
  outputDir: path.join(plan.reportsDir, 'test-results'),
  projects: plan.projects.map((p) => {
    const whole = p.cases.some((c) => c.files.length === 0);
    const tags = p.cases.every((c) => c.tag) ? p.cases.map((c) => c.tag!) : undefined;
    return {
      name: p.name,
      testDir: path.join(ROOT, 'specs', p.family),
      ...(whole ? {} : { testMatch: [...new Set(p.cases.flatMap((c) => c.files))] }),
      ...(tags ? { grep: new RegExp(`(?:${tags.map(escape).join('|')})(\\s|$)`) } : {}),
      // A project's tests share its workers; one started for another project starts afresh.
      ...(plan.projectWorkers ? { workers: plan.projectWorkers } : {}),
      metadata: { family: p.family, surface: p.surface, cases: p.cases },
      use: { surface: p.surface, family: p.family, referenceCases: p.cases },
    };
  }),
  reporter: [[path.join(import.meta.dirname, 'reporter.ts'), { outputDir: plan.reportsDir }]],
});
