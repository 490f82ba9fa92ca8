#!/usr/bin/env node
// Runs the project's own tests (unit, reference, end-to-end) with Node's test runner.
// Node 20's --test does not expand globs or load TypeScript, so the files are listed
// here and tsx is loaded as the module hook.
//
// Output ends with two lines CI can read: the self-validation score
// (`faults caught N/N, controls clean M/M`, from the lines the fault, control and load
// tests append to $SCORE_FILE) and `<P> passed, <F> failed` (the runner's own counts,
// through scripts/summary-reporter.mjs).
// Any missed fault or control alarm fails the run even if its test somehow passed.
//
// A whole run (no folders named, or LINT=1) also lints (`eslint .`) and checks the
// formatting (`prettier --check .`) of the whole tree, once, beside the tests; each counts
// as one test, named lint and format, in the last line, and a failure of either fails the run.
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import module from 'node:module';
import os from 'node:os';
import path from 'node:path';

// Under Node 22 every process of the run (test files, Playwright runners and their workers, the
// CLI) keeps compiled code in one on-disk cache: each of the self-test's hundreds of Playwright
// workers would otherwise compile Playwright's bundles anew. Node 20 has no such cache.
const compileCache = module.enableCompileCache?.();
if (compileCache?.directory && !process.env.NODE_COMPILE_CACHE) process.env.NODE_COMPILE_CACHE = compileCache.directory;

const root = path.resolve(import.meta.dirname, '..');
const only = process.argv.slice(2);
const dirs = only.length
  ? only
  : ['test/unit', 'test/engine', 'test/reference', 'test/hostile', 'test/load', 'test/e2e'];

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

// The longest files start first, so the many short ones fill the cores around them instead
// of the long ones starting late, side by side, at the end: the controls (two harness runs,
// one after the other), the fault matrix, the cassette (a recording, then three replays).
const LONGEST = ['test/e2e/controls.test.ts', 'test/e2e/faults.test.ts', 'test/e2e/cassette.test.ts'];
const rank = (f) => (LONGEST.includes(f) ? LONGEST.indexOf(f) : LONGEST.length);
const files = dirs
  .flatMap((d) => (d.endsWith('.ts') ? [d] : collect(d)))
  .sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
if (files.length === 0) {
  console.error('no test files found');
  process.exit(1);
}

// The whole-tree checks, started beside the tests (the lint alone takes over a minute of one
// core, and most test files wait on servers): each writes its findings to a file, printed
// after the tests with one line naming the check.
const treeChecks = [
  { name: 'lint', bin: 'node_modules/eslint/bin/eslint.js', args: ['.'] },
  { name: 'format', bin: 'node_modules/prettier/bin/prettier.cjs', args: ['--check', '.', '--log-level=warn'] },
];
const treeFailed = [];
let treePassed = 0;
const treeWork = mkdtempSync(path.join(os.tmpdir(), 'run-tests-tree-'));
const treeRuns =
  only.length === 0 || process.env.LINT === '1'
    ? treeChecks.map((c) => {
        const out = path.join(treeWork, `${c.name}.txt`);
        const fd = openSync(out, 'w');
        const child = spawn(process.execPath, [path.join(root, c.bin), ...c.args], {
          cwd: root,
          stdio: ['ignore', fd, fd],
        });
        closeSync(fd);
        const ended = new Promise((resolve) => child.on('close', (code, signal) => resolve(code ?? signal)));
        return { ...c, out, ended };
      })
    : [];

const reporter = process.env.TEST_REPORTER ?? 'spec';
// Four files at once on two cores: most test files wait on servers, timeouts and job runs
// more than they compute (a whole run's files sum to about twice its CPU-seconds in wall
// time), so two more keep the cores busy (TEST_CONCURRENCY overrides). Measured here under
// Node 22: three at once 658 s, four 561 s, for the same CPU-seconds.
const concurrency = Number(process.env.TEST_CONCURRENCY) > 0 ? Number(process.env.TEST_CONCURRENCY) : 4;
const work = mkdtempSync(path.join(os.tmpdir(), 'run-tests-'));
const scoreFile = path.join(work, 'score.jsonl');
const summaryFile = path.join(work, 'summary.json');
const result = spawnSync(
  process.execPath,
  [
    '--import',
    'tsx',
    '--test',
    `--test-reporter=${reporter}`,
    '--test-reporter-destination=stdout',
    `--test-reporter=${path.join(root, 'scripts', 'summary-reporter.mjs')}`,
    `--test-reporter-destination=${summaryFile}`,
    `--test-concurrency=${concurrency}`,
    ...files,
  ],
  {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, FORCE_COLOR: process.env.FORCE_COLOR ?? '0', SCORE_FILE: scoreFile },
  },
);

const read = (file) => {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
};

for (const c of treeRuns) {
  const code = await c.ended;
  const findings = read(c.out).trimEnd();
  if (findings) console.log(findings);
  if (code === 0) {
    treePassed++;
    console.log(`✔ ${c.name} (${c.bin.split('/')[1]} ${c.args[0]})`);
  } else {
    treeFailed.push(c.name);
    console.log(`✖ ${c.name} failed (${c.bin.split('/')[1]} ${c.args.join(' ')}: exit ${code}): see above`);
  }
}
rmSync(treeWork, { recursive: true, force: true });

// Last entry per kind and name wins; the format is described in test/support/score.ts.
const last = new Map();
for (const line of read(scoreFile).split('\n')) {
  try {
    const e = JSON.parse(line);
    if (
      (e.kind === 'fault' || e.kind === 'control' || e.kind === 'load') &&
      typeof e.name === 'string' &&
      typeof e.ok === 'boolean'
    )
      last.set(`${e.kind}\0${e.name}`, e);
  } catch {
    // not a score line
  }
}
const entries = [...last.values()];
const of = (kind) => entries.filter((e) => e.kind === kind);
const faults = of('fault');
const controls = of('control');
const loads = of('load');
// The denominators are the catalogs, not what happened to be recorded: a fault that never
// ran is not caught. A run of a subset (some folders, FAULTS=, CONTROLS=) says so.
const catalog = (flag) =>
  (
    spawnSync(process.execPath, ['--import', 'tsx', 'reference/main.ts', flag], { cwd: root, encoding: 'utf8' })
      .stdout ?? ''
  )
    .split('\n')
    .filter(Boolean)
    .map((l) => l.split('\t')[0]);
const catalogFaults = catalog('--list-faults');
const catalogControls = catalog('--list-controls');
const subset = only.length > 0 || !!process.env.FAULTS || !!process.env.CONTROLS;
const recorded = (list, name) => list.some((e) => e.name === name);
const unrun = subset
  ? []
  : [...catalogFaults.filter((n) => !recorded(faults, n)), ...catalogControls.filter((n) => !recorded(controls, n))];
const missed = faults.filter((e) => !e.ok).map((e) => e.name);
const alarms = controls.filter((e) => !e.ok).map((e) => e.name);
const loadAlarms = loads.filter((e) => !e.ok).map((e) => e.name);

// The runner's own closing counts (every test, suites excluded) and each file's time
// (scripts/summary-reporter.mjs); a run that wrote none counts nothing and fails below.
let summary = { counts: {}, files: {} };
try {
  summary = JSON.parse(read(summaryFile) || '{}');
} catch {
  // no summary: the run ended before its reporters did
}
const count = (name) => summary.counts?.[name] ?? 0;
const passed = count('pass') + treePassed;
const failed = count('fail') + count('cancelled') + treeFailed.length;
const fileTimes = summary.files ?? {};
rmSync(work, { recursive: true, force: true });

let status = result.status ?? 1;
console.log('');
// Where the wall time went: each file's top-level tests and suites, end to end (files run
// TEST_CONCURRENCY at a time, so these overlap).
const slowest = Object.entries(fileTimes)
  .sort((a, b) => b[1] - a[1])
  .slice(0, 8)
  .map(([f, ms]) => `${path.relative(root, f)} ${Math.round(ms / 1000)} s`);
if (slowest.length > 1) console.log(`slowest files: ${slowest.join(', ')}`);
if (treeFailed.length) {
  console.log(`whole-tree checks failed: ${treeFailed.join(', ')} (npm run lint, npm run format:check)`);
  status = status || 1;
}
if (entries.length > 0 || only.length === 0) {
  if (missed.length) console.log(`faults missed: ${missed.join(', ')}`);
  if (alarms.length) console.log(`controls with a false alarm: ${alarms.join(', ')}`);
  if (unrun.length) console.log(`in the catalog but never run: ${unrun.join(', ')}`);
  if (loadAlarms.length) console.log(`load profiles whose smoke run raised an alarm: ${loadAlarms.join(', ')}`);
  if (subset) console.log(`(a subset ran: the denominators are the whole catalogs)`);
  if (loads.length) console.log(`load profiles clean ${loads.length - loadAlarms.length}/${loads.length}`);
  const nFaults = Math.max(catalogFaults.length, faults.length);
  const nControls = Math.max(catalogControls.length, controls.length);
  console.log(
    `faults caught ${faults.length - missed.length}/${nFaults}, controls clean ${controls.length - alarms.length}/${nControls}`,
  );
  if (missed.length || alarms.length || unrun.length || loadAlarms.length) status = status || 1;
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(status);
