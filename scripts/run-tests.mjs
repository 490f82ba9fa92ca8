#!/usr/bin/env node
// Runs the project's own tests (unit, reference, end-to-end) with Node's test runner.
// Node 20's --test does not expand globs or load TypeScript, so the files are listed
// here and tsx is loaded as the module hook.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const only = process.argv.slice(2);
const dirs = only.length ? only : ['test/unit', 'test/engine', 'test/reference', 'test/e2e'];

function collect(dir) {
  const abs = path.join(root, dir);
  let entries;
  try {
    entries = readdirSync(abs);
  } catch {
    return [];
  }
  return entries.flatMap((name) => {
    const full = path.join(abs, name);
    if (statSync(full).isDirectory()) return collect(path.join(dir, name));
    return name.endsWith('.test.ts') ? [path.join(dir, name)] : [];
  });
}

const files = dirs.flatMap((d) => (d.endsWith('.ts') ? [d] : collect(d))).sort();
if (files.length === 0) {
  console.error('no test files found');
  process.exit(1);
}
const reporter = process.env.TEST_REPORTER ?? 'spec';
const result = spawnSync(process.execPath, ['--import', 'tsx', '--test', `--test-reporter=${reporter}`, '--test-concurrency=2', ...files], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, FORCE_COLOR: process.env.FORCE_COLOR ?? '0' },
});
process.exit(result.status ?? 1);
