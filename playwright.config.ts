// One Playwright project per API family x surface (`v2-local`, `v2-cloud`, ...),
// created only for the surfaces the chosen target has. With no target the embedded
// reference server is started by `webServer` and every surface it serves is tested.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { defineConfig, type PlaywrightTestConfig } from '@playwright/test';
import type { Options } from './fixtures/test.ts';
import { familiesOn, projectName } from './lib/families.ts';
import { REPO_ROOT } from './lib/targets.ts';
import { startRun } from './cli/run-start.ts';

// Reads the run's configuration (lib/config/env.ts) and resolves the target and, in the
// main process, replaces the last run's report with "error: did not finish" until this run
// writes its own; a configuration mistake ends here as one message and a report saying so
// (cli/run-start.ts).
const { config, target } = await startRun();
// Reports go to the working directory (a project that installed the suite gets them in
// its own folder); REPORTS_DIR lets several runs (the suite's own fault tests) write side by side.
const reports = config.reportsDir;
// CONFORMANCE_QUIET=1 keeps only the reports (no console listing, no HTML).
const quiet = config.quiet;
// Sharded runs (--shard=i/n, or CONFORMANCE_SHARD=1) also write a blob report to
// reports/blob-report; `npx playwright merge-reports --config merge.config.ts <dir>`
// joins the shards' blobs into one HTML, JUnit and conformance report.
const sharded = config.shard || process.argv.some((a) => a.startsWith('--shard'));
const blob: Array<[string, Record<string, unknown>]> = sharded
  ? [['blob', { outputDir: path.join(reports, 'blob-report') }]]
  : [];

// The contract-driven explorer (specs/*/explore.spec.ts) runs in the full profile, or alone
// under `workflow-conformance explore` (CONFORMANCE_EXPLORE=1); the quick profile leaves it out.
const exploring = config.profile === 'full' || config.explore;

// Tests mostly wait on the target (jobs, Retry-After, polls), not on this machine: eight
// workers, two per project, four projects side by side, keep a 2-core runner busy (the
// quick run, 2026-12-02: 33-36 s with four, 30-35 s with six, 28-29 s with eight).
// `--workers N` overrides.
const WORKERS = 8;
/** The run's workers as the command line sets them (`--workers N`, `--workers=N`, `-j N`), else the default. */
function runWorkers(argv: readonly string[]): number {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = a.startsWith('--workers=') ? a.slice(10) : a === '--workers' || a === '-j' ? argv[i + 1] : undefined;
    if (value !== undefined && /^\d+$/.test(value)) return Math.max(1, Number(value));
  }
  return WORKERS;
}

// Playwright hands out the projects in the order they are listed, each on at most its share
// of the workers: the one whose tests wait longest goes first, so it does not end the run
// alone on two workers while the others sit idle (the quick run: 49-50 s in the target's
// order, router last; 35.5-37.5 s in this one, 2026-12-02, 2 cores).
const LONGEST_FIRST = ['router', 'v1-cloud', 'v2-serverless', 'v2-cloud', 'v2-local', 'registry'];
/** A project's place in that order; one not named there comes after those that are. */
const rank = (name: string) => (LONGEST_FIRST.includes(name) ? LONGEST_FIRST.indexOf(name) : LONGEST_FIRST.length);
const families = target.surfaces
  .flatMap((s) =>
    familiesOn(s.surface)
      .filter((family) => existsSync(path.join(REPO_ROOT, 'specs', family)))
      .map((family) => ({ family, surface: s.surface })),
  )
  .sort((a, b) => rank(projectName(a.family, a.surface)) - rank(projectName(b.family, b.surface)));
// A worker serves one project, and starting one (Playwright, the fixtures, the specs) costs
// one to two CPU-seconds: with every project's tests spread over all the run's workers, the
// quick run's six projects started 24. Each project gets at most a quarter of them, so four
// projects run side by side and each starts fewer; a run of one project keeps all.
const projectWorkers = Math.max(1, Math.ceil(runWorkers(process.argv) / Math.min(4, Math.max(1, families.length))));
const projects = families.map(({ family, surface }) => ({
  name: projectName(family, surface),
  testDir: `./specs/${family}`,
  ...(exploring ? {} : { testIgnore: '**/explore.spec.ts' }),
  workers: projectWorkers,
  use: { surface, family },
}));

const webServer: PlaywrightTestConfig['webServer'] = target.embedded
  ? {
      command: [
        'node --import tsx reference/main.ts',
        `--port ${target.referencePort}`,
        ...(config.fault ? [`--fault ${config.fault}`] : []),
        ...(config.control ? [`--control ${config.control}`] : []),
      ].join(' '),
      url: `${new URL(target.surfaces[0].baseUrl).origin}/__reference/health`,
      reuseExistingServer: false,
      timeout: 30_000,
      stdout: 'ignore',
      stderr: 'pipe',
    }
  : undefined;

// `run --load`: the same reporter, with the load profiles' runs joined in before its one write.
const conformanceReporter = config.run.load ? './load/gate-reporter.ts' : './report/conformance-reporter.ts';

export default defineConfig<Options>({
  testDir: './specs',
  projects,
  fullyParallel: true,
  forbidOnly: config.ci,
  retries: 0,
  workers: WORKERS,
  // Room for a test that polls two jobs to their deadline (CONFORMANCE_JOB_DEADLINE_MS) and
  // waits out one Retry-After at its ceiling (CONFORMANCE_RETRY_AFTER_MAX_MS), so that the
  // suite's own bound, not the test timeout, is what such a test reports.
  timeout: Math.max(60_000, 2 * config.bounds.jobDeadlineMs + config.bounds.retryAfterMaxMs + 15_000),
  outputDir: path.join(reports, 'test-results'),
  // Probes every surface first: an unreachable target is one message, not a failure per test.
  globalSetup: './fixtures/global-setup.ts',
  metadata: {
    brand: target.surfaces[0]?.brand ?? 'Comfy',
    target: { name: target.name, surfaces: target.surfaces.map((s) => ({ surface: s.surface, base_url: s.baseUrl })) },
  },
  reporter: quiet
    ? [['./report/locations.ts'], [conformanceReporter, { outputDir: reports, quiet: true }], ...blob]
    : [
        // First: the real lines of tests run from an installed package, before anyone prints them.
        ['./report/locations.ts'],
        [config.ci ? 'dot' : 'list'],
        ['html', { outputFolder: path.join(reports, 'html'), open: 'never' }],
        ['junit', { outputFile: path.join(reports, 'junit.xml') }],
        [conformanceReporter, { outputDir: reports }],
        ...blob,
      ],
  ...(webServer ? { webServer } : {}),
});
