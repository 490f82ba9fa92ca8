// The example CI workflow parses and has the parts the README promises: sharded
// conformance jobs that keep their blob reports, a merge job using merge.config.ts that
// publishes the conformance table and reports/, and an optional load job in shards
// with a job that merges them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';

const ROOT = path.resolve(import.meta.dirname, '../..');
const FILE = path.join(ROOT, 'examples/github-actions/conformance.yml');

interface Step {
  name?: string;
  uses?: string;
  run?: string;
  if?: string;
  with?: Record<string, unknown>;
  env?: Record<string, unknown>;
}
interface Job {
  needs?: string | string[];
  if?: string;
  'continue-on-error'?: boolean;
  strategy?: { matrix?: Record<string, unknown> };
  steps: Step[];
}
interface Workflow {
  on: Record<string, unknown>;
  jobs: Record<string, Job>;
}

const wf = parse(readFileSync(FILE, 'utf8')) as Workflow;
const runs = (job: Job) => job.steps.map((s) => s.run ?? '').join('\n');
const uploads = (job: Job) => job.steps.filter((s) => s.uses?.startsWith('actions/upload-artifact@')).map((s) => String(s.with?.path));

test('the example workflow parses and shards the suite over a matrix, keeping each blob report', () => {
  const shards = wf.jobs.conformance!;
  const matrix = shards.strategy?.matrix?.shard as unknown[];
  assert.ok(Array.isArray(matrix) && matrix.length >= 2, 'a matrix of at least two shards');
  assert.match(runs(shards), /npx playwright test --shard=\$\{\{ matrix\.shard \}\}\/\$\{\{ strategy\.job-total \}\}/);
  assert.deepEqual(uploads(shards), ['reports/blob-report']);
});

test('the merge job joins the shards with merge.config.ts, writes the job summary, uploads reports/ and gates on the verdict', () => {
  const report = wf.jobs.report!;
  assert.equal(report.needs, 'conformance');
  assert.match(report.if ?? '', /!cancelled\(\)/, 'runs even when a shard failed, so the failure is reported');
  assert.ok(report.steps.some((s) => s.uses?.startsWith('actions/download-artifact@') && s.with?.['merge-multiple'] === true));
  assert.match(runs(report), /npx playwright merge-reports --config merge\.config\.ts \.\/all-blob-reports/);
  assert.ok(existsSync(path.join(ROOT, 'merge.config.ts')));
  assert.match(runs(report), /cat reports\/conformance\.md >> "\$GITHUB_STEP_SUMMARY"/);
  assert.ok(uploads(report).includes('reports/'));
  assert.match(runs(report), /summary\.verdict === 'pass'/);
});

test('the load profile is a separate, optional job that never blocks the gate', () => {
  const load = wf.jobs.load!;
  assert.equal(load['continue-on-error'], true);
  assert.match(load.if ?? '', /workflow_dispatch/);
  assert.ok(wf.on.workflow_dispatch && typeof wf.on.workflow_dispatch === 'object');
  assert.match(runs(load), /npm run load -- --profile "\$LOAD_PROFILE"/);
});

test('the load job shards one profile over a matrix and a merge job joins the shards into one report', () => {
  const load = wf.jobs.load!;
  const matrix = load.strategy?.matrix?.shard as unknown[];
  assert.ok(Array.isArray(matrix) && matrix.length >= 2, 'a matrix of at least two load shards');
  assert.match(runs(load), /--shard "\$SHARD"/);
  assert.ok(load.steps.some((s) => s.env?.SHARD === '${{ matrix.shard }}/${{ strategy.job-total }}'));
  assert.deepEqual(uploads(load), ['reports/load-shard']);
  const merge = wf.jobs['load-report']!;
  assert.equal(merge.needs, 'load');
  assert.match(merge.if ?? '', /!cancelled\(\)/);
  assert.match(runs(merge), /npm run load:merge -- load-shards\/\* --out reports\/load/);
  assert.ok(uploads(merge).includes('reports/load'));
});
