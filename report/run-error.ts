// The report of a run that could not start or did not finish: a configuration mistake,
// an unknown --project, a busy port, a killed run. A CI gate reads conformance.json;
// the previous run's report must never be left in place to answer for this one.
import { mkdirSync, writeFileSync } from 'node:fs';
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
    summary: { verdict: 'error', reason, rules: 0, pass: 0, fail: 0, error: 0, skipped: 0, not_covered: 0, not_run: 0, must_failed: [], should_failed: [], errors: [] },
    unplaced: [],
    run_errors: [reason],
    tests: { passed: 0, failed: 0, skipped: 0 },
    rules: [],
    coverage: { operations: { declared: 0, exercised: 0 }, statuses: { declared: 0, exercised: 0 }, operations_missing: [], statuses_missing: [], statuses_undeclared: [], codes: { declared: 0, exercised: 0 }, codes_missing: [] },
    seeds: [],
  };
}

/** Writes conformance.json and .md with verdict `error` and the reason (already redacted by the caller). */
export function writeRunError(dir: string, reason: string, target?: ConformanceReport['target']): void {
  const report = runErrorReport(reason, target);
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'conformance.json'), JSON.stringify(report, null, 2) + '\n');
  writeFileSync(path.join(dir, 'conformance.md'), toMarkdown(report));
  writeFileSync(path.join(dir, 'conformance.html'), toHtml(report));
}
