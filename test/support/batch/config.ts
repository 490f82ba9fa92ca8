// Playwright configuration of a batched self-test run (test/support/batch/run.ts): one
// project per case x family x surface, each aimed at its case's reference by
// `referencePort`, narrowed to the case's spec files and, where the case's rule is
// declared by tests, to the tests that carry its tag.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { defineConfig } from '@playwright/test';
import type { Options } from '../../../fixtures/test.ts';
import { JOB_DEADLINE_MS } from '../../../lib/time.ts';
import { PLAN_ENV, projectName, type Plan } from './plan.ts';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const plan = JSON.parse(readFileSync(process.env[PLAN_ENV]!, 'utf8')) as Plan;
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export default defineConfig<Options>({
  testDir: path.join(ROOT, 'specs'),
  fullyParallel: true,
  retries: 0,
  timeout: Math.max(60_000, 2 * JOB_DEADLINE_MS + 15_000),
  // Ends the batch in time for the reporter to write what did run (the caller's hard kill is later).
  ...(process.env.BATCH_GLOBAL_TIMEOUT_MS ? { globalTimeout: Number(process.env.BATCH_GLOBAL_TIMEOUT_MS) } : {}),
  outputDir: path.join(plan.reportsDir, 'test-results'),
  projects: plan.cases.flatMap((c) =>
    c.projects.map(({ family, surface }) => ({
      name: projectName(c, family, surface),
      testDir: path.join(ROOT, 'specs', family),
      ...(c.files.length ? { testMatch: c.files.filter((f) => f.startsWith(`specs/${family}/`)).map((f) => path.join(ROOT, f)) } : {}),
      ...(c.tag ? { grep: new RegExp(`${escape(c.tag)}(\\s|$)`) } : {}),
      metadata: { caseId: c.id, family, surface },
      use: { surface, family, referencePort: c.portBase },
    })),
  ),
  reporter: [[path.join(import.meta.dirname, 'reporter.ts'), { outputDir: plan.reportsDir }]],
});
