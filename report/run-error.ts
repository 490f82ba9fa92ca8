// The report of a run that could not start or did not finish: a configuration mistake,
// an unknown --project, a busy port, a killed run. A CI gate reads conformance.json;
// the previous run's report must never be left in place to answer for this one.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ConformanceReport } from './report.ts';
import { toMarkdown } from './markdown.ts';
import { toHtml } from './html.ts';
import { runConfigOrDefaults } from '../lib/config/env.ts';

export function runErrorReport(reason: string, target?: ConformanceReport['target']): ConformanceReport {
  // A report saying the configuration is wrong is written with whatever of it could be read.
  const config = runConfigOrDefaults();
  return {
    generated_at: new Date().toISOString(),
    target: target ?? { name: 'unknown', surfaces: [] },
    profile: config.profile,
    strict: config.strict,
    summary: {
      verdict: 'error',
      reason,
      rules: 0,
      pass: 0,
      fail: 0,
      error: 0,
      skipped: 0,
      not_covered: 0,
      not_run: 0,
      must_failed: [],
      should_failed: [],
      errors: [],
    },
    unplaced: [],
    run_errors: [reason],
    tests: { passed: 0, failed: 0, skipped: 0 },
    rules: [],
    coverage: {
      operations: { declared: 0, exercised: 0 },
      statuses: { declared: 0, exercised: 0 },
      operations_missing: [],
      statuses_missing: [],
      statuses_undeclared: [],
      codes: { declared: 0, exercised: 0 },
      codes_missing: [],
    },
    seeds: [],
  };
}

// The name of the one test case a placeholder junit.xml holds: the conformance reporter
// knows its own placeholder by it (a quiet run writes no JUnit of its own to replace it).
export const RUN_ERROR_JUNIT_CASE = 'workflow-conformance run';

const xml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** A JUnit file with one errored test case: a CI page that publishes JUnit shows the run red, with why. */
export function runErrorJunit(reason: string): string {
  return (
    `<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="workflow-conformance" tests="1" failures="0" errors="1" skipped="0">
<testsuite name="workflow-conformance" tests="1" failures="0" errors="1" skipped="0">
<testcase name="${RUN_ERROR_JUNIT_CASE}" classname="workflow-conformance">` +
    `<error message="${xml(reason.split('\n')[0])}" type="RunError">${xml(reason)}</error></testcase>
</testsuite>
</testsuites>
`
  );
}

/** Whether junit.xml in `dir` is the placeholder written here, not Playwright's. */
export function isRunErrorJunit(dir: string): boolean {
  const file = path.join(dir, 'junit.xml');
  return existsSync(file) && readFileSync(file, 'utf8').includes(`<testcase name="${RUN_ERROR_JUNIT_CASE}"`);
}

/**
 * Writes conformance.json, .md and .html with verdict `error` and the reason (already
 * redacted by the caller), a junit.xml saying the same, and removes the last run's
 * Playwright HTML report: no file of an earlier run may stand green beside a red job.
 * Playwright's junit and html reporters replace both when this run gets that far.
 */
export function writeRunError(dir: string, reason: string, target?: ConformanceReport['target']): void {
  const report = runErrorReport(reason, target);
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'conformance.json'), JSON.stringify(report, null, 2) + '\n');
  writeFileSync(path.join(dir, 'conformance.md'), toMarkdown(report));
  writeFileSync(path.join(dir, 'conformance.html'), toHtml(report));
  writeFileSync(path.join(dir, 'junit.xml'), runErrorJunit(reason));
  rmSync(path.join(dir, 'html'), { recursive: true, force: true });
}
