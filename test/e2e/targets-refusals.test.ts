// A misspelt key in a targets file is refused before anything is sent (issue #25 item 3):
// exit 2, the nearest known key named, and the last report replaced by verdict error.
// Ignored, `scenaro:` or `slow_node_clas:` skipped their rules under a PASS.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ConformanceReport } from '../../report/report.ts';
import { childEnv, REFERENCE_SWITCHES } from '../support/child-env.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

function runWith(targets: string, args: string[] = ['--target', 'mine']) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'targets-refusal-'));
  const file = path.join(dir, 'targets.yaml');
  writeFileSync(file, targets);
  const reports = path.join(dir, 'reports');
  const env = childEnv({ drop: [...REFERENCE_SWITCHES, 'REPORTS_DIR'], set: { MINE_KEY: 'comfyui-mine-0123' } });
  // A passing report from an earlier run, which the refusal must replace.
  mkdirSync(reports, { recursive: true });
  writeFileSync(path.join(reports, 'conformance.json'), JSON.stringify({ summary: { verdict: 'pass' } }));
  const r = spawnSync(
    process.execPath,
    ['bin/workflow-conformance.mjs', 'run', '--reports', reports, '--targets-file', file, ...args],
    { cwd: ROOT, encoding: 'utf8', env, timeout: 60_000 },
  );
  const report = JSON.parse(readFileSync(path.join(reports, 'conformance.json'), 'utf8')) as ConformanceReport;
  return { ...r, report };
}

const cases: Array<[string, string, RegExp]> = [
  [
    'a misspelt top-level key',
    'targts:\n  mine:\n    surface: local\n    base_url: http://127.0.0.1:8189\n',
    /unknown key `targts` at the top of the file; did you mean `targets`\?/,
  ],
  [
    'a misspelt scenario key',
    'targets:\n  mine:\n    surface: cloud\n    base_url: https://cloud.example.invalid\n    token_env: MINE_KEY\n    scenario:\n      slow_node_clas: Sleep\n',
    /unknown key `slow_node_clas` in target `mine` \(scenario\); did you mean `slow_node_class`\?/,
  ],
  [
    'a misspelt key inside a surfaces mapping',
    'targets:\n  mine:\n    surfaces:\n      cloud:\n        base_url: ' +
      'https://cloud.example.invalid\n        token_env: MINE_KEY\n        scenaro:\n          ' +
      'other_account_token_env: MINE_KEY\n',
    /unknown key `scenaro` in target `mine` \(surfaces\.cloud\); did you mean `scenario`\?/,
  ],
];

for (const [what, targets, message] of cases) {
  test(`${what}: exit 2, the nearest key named, the last report replaced by verdict error`, () => {
    const r = runWith(targets);
    assert.equal(r.status, 2, r.stdout + r.stderr);
    assert.match(r.stderr, message);
    assert.match(r.stderr, /configuration error, no test was run/);
    assert.doesNotMatch(r.stderr, /\n\s+at /, 'one message, no stack trace');
    assert.equal(r.report.summary.verdict, 'error');
    assert.match(r.report.summary.reason ?? '', message);
  });
}
