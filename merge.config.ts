// Config for joining sharded runs:
//
//   npx playwright test --shard=1/3     (on each machine; writes reports/blob-report/)
//   npx playwright merge-reports --config merge.config.ts ./all-blob-reports
//
// writes one reports/html, reports/junit.xml and reports/conformance.{json,md}, the same
// as an unsharded run. Only the reporters matter here; the tests are not run again.
// REPORTS_DIR and CONFORMANCE_QUIET mean what they mean for playwright.config.ts.
import path from 'node:path';
import { defineConfig } from '@playwright/test';
import { runConfig } from './lib/config/env.ts';

const config = runConfig();
// Reports go to the working directory, as for playwright.config.ts.
const reports = config.reportsDir;
const conformance: [string, Record<string, unknown>] = [
  './report/conformance-reporter.ts',
  { outputDir: reports, quiet: config.quiet },
];

export default defineConfig({
  testDir: './specs',
  reporter: config.quiet
    ? [conformance]
    : [
        [config.ci ? 'dot' : 'list'],
        ['html', { outputFolder: path.join(reports, 'html'), open: 'never' }],
        ['junit', { outputFile: path.join(reports, 'junit.xml') }],
        conformance,
      ],
});
