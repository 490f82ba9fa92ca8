// The run configuration (lib/config/): every variable is read in one module, typed,
// checked (a bad value names its variable), and nothing else reads the environment.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { CONFIG_VARIABLES, ConfigError, parseRunConfig } from '../../lib/config/env.ts';
import { resolvedTarget } from '../../lib/config/index.ts';
import { REPO_ROOT } from '../../lib/targets.ts';

/** The only modules outside the project's own tests that may name the process environment. */
const ALLOWED = ['lib/config/env.ts'];
/** The project's own tests: they set variables for the processes they start. */
const TEST_CODE = ['test/', 'scripts/run-tests.mjs'];
const SKIPPED_DIRS = new Set(['node_modules', '.git', 'reports', 'test-results', 'playwright-report']);

function sources(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    if (SKIPPED_DIRS.has(name)) continue;
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) sources(full, out);
    else if (/\.(ts|mts|cts|js|mjs|cjs)$/.test(name))
      out.push(path.relative(REPO_ROOT, full).split(path.sep).join('/'));
  }
  return out;
}

test('defaults: nothing set is the quick, lenient run with the suite-chosen bounds', () => {
  const c = parseRunConfig({}, '/work/here');
  assert.equal(c.reportsDir, path.resolve('/work/here', 'reports'));
  assert.equal(c.profile, 'quick');
  assert.deepEqual(
    [c.strict, c.quiet, c.shard, c.explore, c.ci, c.run.worker, c.property.trace],
    [false, false, false, false, false, false, false],
  );
  assert.deepEqual(c.bounds, {
    httpTimeoutMs: 15_000,
    maxBodyBytes: 16 * 1024 * 1024,
    jobDeadlineMs: 30_000,
    streamGraceMs: 5_000,
    retryAfterMaxMs: 60_000,
    listWalkMaxPages: 1000,
    probeTimeoutMs: 10_000,
    circuitTimeouts: 3,
  });
  assert.deepEqual(c.target, {});
  assert.deepEqual(c.property, { trace: false });
  assert.deepEqual(c.bench, { durationS: 5, connections: 32, openStepS: 3, rounds: 3 });
  assert.equal(c.fault, undefined);
  assert.equal(c.baseline, undefined);
});

test('each variable becomes its typed field; an empty value counts as unset', () => {
  const c = parseRunConfig(
    {
      TARGET: 'mine',
      TARGET_SURFACE: 'cloud',
      REFERENCE_PORT: '31000',
      REPORTS_DIR: 'out',
      CONFORMANCE_PROFILE: 'full',
      CONFORMANCE_STRICT: 'true',
      CONFORMANCE_QUIET: '1',
      CONFORMANCE_JOB_DEADLINE_MS: '300',
      CONFORMANCE_CIRCUIT_TIMEOUTS: '5',
      FC_SEED: '-42',
      FC_PATH: '3:1:0@BDAAIV',
      FC_NUM_RUNS: '7',
      REFERENCE_FAULT: 'some-fault',
      TEST_WORKER_INDEX: '0',
      CI: 'yes',
      CONFORMANCE_BASELINE: '',
      CONFORMANCE_HTTP_TIMEOUT_MS: '',
    },
    '/w',
  );
  assert.deepEqual(c.target, { name: 'mine', surface: 'cloud', referencePort: 31000 });
  assert.equal(c.reportsDir, path.resolve('/w', 'out'));
  assert.deepEqual([c.profile, c.strict, c.quiet, c.ci], ['full', true, true, true]);
  assert.equal(c.bounds.jobDeadlineMs, 300);
  assert.equal(c.bounds.circuitTimeouts, 5);
  assert.equal(c.bounds.httpTimeoutMs, 15_000, 'an empty value is the default');
  assert.deepEqual(c.property, { seed: -42, path: '3:1:0@BDAAIV', numRuns: 7, trace: false });
  assert.equal(c.fault, 'some-fault');
  assert.equal(c.baseline, undefined, 'an empty value is unset');
  assert.equal(c.run.worker, true);
});

test('a bad value is one error naming each variable at fault, and what could be read is kept', () => {
  const bad = {
    CONFORMANCE_HTTP_TIMEOUT_MS: 'soon',
    CONFORMANCE_PROFILE: 'fast',
    CONFORMANCE_STRICT: 'yes please',
    FC_SEED: '1.5',
    CONFORMANCE_CIRCUIT_TIMEOUTS: '0',
    REFERENCE_PORT: '80',
    REPORTS_DIR: 'elsewhere',
  };
  assert.throws(
    () => parseRunConfig(bad, '/w'),
    (e: unknown) => {
      assert.ok(e instanceof ConfigError);
      const lines = e.message.split('\n');
      assert.equal(lines.length, 6, e.message);
      assert.match(e.message, /^CONFORMANCE_HTTP_TIMEOUT_MS="soon" is not a positive number$/m);
      assert.match(e.message, /^CONFORMANCE_PROFILE="fast" is not one of quick, full$/m);
      assert.match(e.message, /^CONFORMANCE_STRICT="yes please" is not 1, true, 0 or false$/m);
      assert.match(e.message, /^FC_SEED="1\.5" is not a whole number$/m);
      assert.match(e.message, /^CONFORMANCE_CIRCUIT_TIMEOUTS="0" is not a positive whole number$/m);
      assert.match(e.message, /^REFERENCE_PORT="80" is not a usable port \(1024\.\.65000\)$/m);
      // The report saying so goes where the run's reports go.
      assert.equal(e.partial.reportsDir, path.resolve('/w', 'elsewhere'));
      assert.equal(e.partial.bounds.httpTimeoutMs, 15_000);
      return true;
    },
  );
});

test('the target is resolved once per process (and once per reference port)', () => {
  const first = resolvedTarget(31_500);
  assert.equal(resolvedTarget(31_500), first);
  assert.equal(first.surfaces[0].baseUrl, 'http://127.0.0.1:31500');
  assert.notEqual(resolvedTarget(31_600), first);
});

test('every variable of the table in docs/gating-your-server.md is one the configuration reads', () => {
  const readme = readFileSync(path.join(REPO_ROOT, 'docs/gating-your-server.md'), 'utf8');
  const table = readme.slice(readme.indexOf('| variable | meaning |'));
  const rows = table.slice(0, table.indexOf('\n\n')).split('\n').slice(2);
  const named = rows.flatMap((row) => [...(row.split('|')[1] ?? '').matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((m) => m[1]));
  assert.ok(named.length > 15, `the variables table names ${named.length} variables`);
  const known = new Set<string>(CONFIG_VARIABLES);
  assert.deepEqual(
    named.filter((n) => !known.has(n)),
    [],
  );
});

test("process.env appears only in the configuration module (and in the project's own tests)", () => {
  const offenders = sources(REPO_ROOT)
    .filter((f) => !TEST_CODE.some((t) => f === t || f.startsWith(t)) && !ALLOWED.includes(f))
    .filter((f) => readFileSync(path.join(REPO_ROOT, f), 'utf8').includes('process.env'));
  assert.deepEqual(offenders, [], 'read the environment through lib/config (runConfig(), environment()) instead');
});
