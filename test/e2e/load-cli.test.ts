// Load as a server team runs it from its own folder (issue #25, items 12 and 13):
// `workflow-conformance load`, `load merge`, `load compare` and `merge-reports` are commands
// of the installed entry point with their own --help (none says `npm run`), `load` takes the
// target flags of `run`, the v2 polling profile runs against a self-hosted proxy (surface
// local) given only its base URL, a run where the profile was skipped exits non-zero with
// the reason, `load --list` names each profile's surfaces, and REFERENCE_PORT places load's
// embedded reference. Every load here is a few seconds at a low rate on loopback.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { LoadReport } from '../../load/engine.ts';
import { PROFILES } from '../../load/profiles/index.ts';
import { startReference } from '../../reference/server.ts';
import { freePortBase } from '../support/ports.ts';
import { fakeReport } from '../load/helpers.ts';
import { ROOT } from '../support/run-suite.ts';
import { childEnv } from '../support/child-env.ts';
import { runToEnd, type Exit } from '../support/run-to-end.ts';

const BIN = path.join(ROOT, 'bin', 'workflow-conformance.mjs');

/** The user's environment: no target of the outer run, no test-runner context. */
function userEnv(extra: Record<string, string> = {}): Record<string, string> {
  return childEnv({ drop: ['REFERENCE_PORT', 'REPORTS_DIR', 'NODE_TEST_CONTEXT', 'SCORE_FILE'], set: extra });
}

/** A folder outside the repository, as a project that installed the package. */
const project = (): string => mkdtempSync(path.join(os.tmpdir(), 'load-cli-'));

function cli(
  cwd: string,
  args: string[],
  env: Record<string, string> = userEnv(),
  timeout = 90_000,
): SpawnSyncReturns<string> {
  return spawnSync(process.execPath, [BIN, ...args], { cwd, env, encoding: 'utf8', timeout });
}

/** The same, without blocking this process (whose event loop serves an in-process reference). */
function cliAsync(cwd: string, args: string[], env: Record<string, string> = userEnv()): Promise<Exit> {
  return runToEnd(process.execPath, [BIN, ...args], cwd, env);
}

/** A two-second v2-job-poll run at 20 requests a second, judged on the team's own threshold p99<3s. */
const SHORT_JOB_POLL = [
  '--profile',
  'v2-job-poll',
  '--duration',
  '2',
  '--rate',
  '20',
  '--threshold',
  'p99<3s',
  '--quiet',
];

const reportIn = (dir: string): LoadReport => {
  const json = readdirSync(dir).find((f) => f.endsWith('.json'));
  assert.ok(json, `a report in ${dir}: ${readdirSync(dir).join(', ')}`);
  return JSON.parse(readFileSync(path.join(dir, json), 'utf8')) as LoadReport;
};

test('load, load merge, load compare and merge-reports each have --help naming the installed command, never npm run', () => {
  const cwd = project();
  try {
    for (const [args, usage] of [
      [['load', '--help'], 'usage: workflow-conformance load --profile NAME'],
      [['load', 'merge', '--help'], 'usage: workflow-conformance load merge '],
      [['load', 'compare', '--help'], 'usage: workflow-conformance load compare '],
      [['merge-reports', '--help'], 'usage: workflow-conformance merge-reports '],
    ] as const) {
      const r = cli(cwd, [...args]);
      assert.equal(r.status, 0, `${args.join(' ')}: ${r.stderr}`);
      assert.ok(r.stdout.startsWith(usage), `${args.join(' ')}:\n${r.stdout}`);
      assert.doesNotMatch(r.stdout, /npm run|npx playwright/, args.join(' '));
    }
    const help = cli(cwd, ['load', '--help']).stdout;
    for (const flag of [
      '--target NAME',
      '--targets-file FILE',
      '--surface SURFACE',
      '--base-url URL',
      '--token-env NAME',
      '--threshold EXPR',
      '--profile NAME',
    ])
      assert.ok(help.includes(flag), flag);
    // The runner's own usage (a misspelt flag prints it) is the same text.
    const slip = cli(cwd, ['load', '--surfce', 'local']);
    assert.equal(slip.status, 2);
    assert.match(
      slip.stderr,
      /^load: Unknown option '--surfce' \(did you mean --surface\?\)\nusage: workflow-conformance load/,
    );
    assert.doesNotMatch(slip.stderr, /npm run/);
    assert.match(cli(cwd, ['--help']).stdout, /merge-reports/);
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
});

test('load --list names each profile and the surfaces it needs', () => {
  const r = cli(ROOT, ['load', '--list']);
  assert.equal(r.status, 0, r.stderr);
  const lines = r.stdout.trim().split('\n');
  assert.deepEqual(
    lines.map((l) => l.split(/\s+/)[0]),
    PROFILES.map((p) => p.name),
  );
  assert.match(
    lines.find((l) => l.startsWith('v2-job-poll'))!,
    /needs one of cloud, local, serverless/,
  );
  assert.match(
    lines.find((l) => l.startsWith('router-queue-poll'))!,
    /needs router/,
  );
});

test(
  'against a self-hosted proxy given only --surface local --base-url, v2-job-poll runs (it printed ' +
    'SKIPPED "has no cloud surface" and exited 0); a profile with no surface there exits 1 with the ' +
    'reason',
  async () => {
    const port = await freePortBase();
    const reference = await startReference({ portBase: port });
    const cwd = project();
    try {
      const local = `http://127.0.0.1:${port}`;
      const run = await cliAsync(cwd, ['load', '--surface', 'local', '--base-url', local, ...SHORT_JOB_POLL]);
      assert.equal(run.status, 0, `${run.stdout}\n${run.stderr}`);
      assert.match(run.stdout, /^v2-job-poll: PASS/);
      assert.match(
        run.stdout,
        /pass {2}p99 < 3000 ms {2}within your threshold \(measured [0-9.]+ ms\)/,
        "the team's own threshold, with units",
      );
      assert.match(run.stdout, /note: the target gave no slow_node_class/);
      const report = reportIn(path.join(cwd, 'reports', 'load'));
      assert.equal(report.target.surface, 'local');
      assert.equal(report.target.baseUrl, local);
      assert.ok(
        report.profile.thresholds.includes('p99<3s') && !report.profile.thresholds.includes('p99<250'),
        report.profile.thresholds.join(', '),
      );
      assert.ok(report.metrics.requests > 0 && report.metrics.jobs_completed > 0);

      // The profile of another surface: nothing is judged, so the run is no pass.
      const skipped = await cliAsync(cwd, [
        'load',
        '--surface',
        'local',
        '--base-url',
        local,
        '--profile',
        'router-queue-poll',
        '--quiet',
        '--out',
        path.join(cwd, 'skipped'),
      ]);
      assert.equal(skipped.status, 1, `${skipped.stdout}\n${skipped.stderr}`);
      assert.match(
        skipped.stdout,
        /^router-queue-poll: SKIPPED — router-queue-poll needs a router surface; target adhoc has only local/,
      );
      assert.match(skipped.stderr, /load: nothing was judged: router-queue-poll was skipped: /);
      assert.equal(reportIn(path.join(cwd, 'skipped')).verdict, 'skipped');

      // The same flags as run: a targets file and entry, and --token-env naming an unset variable.
      writeFileSync(
        path.join(cwd, 'my-targets.yaml'),
        `targets:\n  my-proxy:\n    surface: local\n    base_url: ${local}\n`,
      );
      const byFile = await cliAsync(cwd, [
        'load',
        '--targets-file',
        'my-targets.yaml',
        '--target',
        'my-proxy',
        '--profile',
        'rate-limit',
        '--quiet',
        '--out',
        path.join(cwd, 'by-file'),
      ]);
      assert.equal(byFile.status, 1, byFile.stderr);
      assert.match(
        byFile.stdout,
        /rate-limit needs one of the surfaces cloud, serverless; target my-proxy has only local/,
      );
      const noKey = await cliAsync(cwd, [
        'load',
        '--surface',
        'local',
        '--base-url',
        local,
        '--token-env',
        'LOAD_CLI_UNSET_KEY',
        '--profile',
        'v2-job-poll',
      ]);
      assert.equal(noKey.status, 2);
      assert.match(noKey.stderr, /--token-env LOAD_CLI_UNSET_KEY: \$LOAD_CLI_UNSET_KEY is not set/);
    } finally {
      await reference.close();
      rmSync(cwd, { recursive: true, force: true });
    }
  },
);

test('load --surface local against the embedded reference starts it on REFERENCE_PORT; a busy REFERENCE_PORT is refused naming it', async () => {
  const cwd = project();
  const port = await freePortBase();
  try {
    const run = cli(cwd, ['load', '--surface', 'local', ...SHORT_JOB_POLL], userEnv({ REFERENCE_PORT: String(port) }));
    assert.equal(run.status, 0, `${run.stdout}\n${run.stderr}`);
    const report = reportIn(path.join(cwd, 'reports', 'load'));
    assert.equal(report.target.embedded, true);
    assert.equal(report.target.surface, 'local');
    assert.equal(report.target.baseUrl, `http://127.0.0.1:${port}`);

    const holder = net.createServer();
    await new Promise<void>((resolve) => holder.listen(port + 1, '127.0.0.1', resolve));
    try {
      const busy = cli(cwd, ['load', '--profile', 'v2-job-poll', '--quiet'], userEnv({ REFERENCE_PORT: String(port) }));
      assert.equal(busy.status, 2, busy.stdout);
      assert.match(
        busy.stderr,
        new RegExp(
          `^load: port ${port + 1} on 127\\.0\\.0\\.1 is in use, so the embedded reference cannot start there \\(REFERENCE_PORT=${port}`,
        ),
      );
    } finally {
      await new Promise((resolve) => holder.close(resolve));
    }
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
});

test('load merge refuses shards that ran against different servers (exit 2), writing nothing', () => {
  const cwd = project();
  try {
    const shard = (index: number, baseUrl: string): string => {
      const dir = path.join(cwd, `shard-${index}`);
      mkdirSync(dir);
      writeFileSync(
        path.join(dir, 'r.json'),
        JSON.stringify(
          fakeReport(
            { requests: 10 },
            { shard: { index, count: 2 }, target: { name: 'mine', surface: 'local', baseUrl, embedded: false } },
          ),
        ),
      );
      return dir;
    };
    const merge = cli(cwd, [
      'load',
      'merge',
      shard(1, 'http://127.0.0.1:8189'),
      shard(2, 'http://127.0.0.1:9189'),
      '--out',
      'merged',
    ]);
    assert.equal(merge.status, 2, merge.stdout);
    assert.match(
      merge.stderr,
      /^load merge: shards ran against different servers \(shard 1\/2: local http:\/\/127\.0\.0\.1:8189; shard 2\/2: local http:\/\/127\.0\.0\.1:9189\)/,
    );
    assert.ok(!existsSync(path.join(cwd, 'merged')), 'nothing written');
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
});

test("merge-reports joins a sharded run's blob reports from the user's folder and exits by the merged verdict", async () => {
  const cwd = project();
  try {
    const env = userEnv({ REFERENCE_PORT: String(await freePortBase()), CONFORMANCE_QUIET: '1' });
    const shard = await new Promise<number | null>((resolve) => {
      const child = spawn(
        process.execPath,
        [BIN, 'run', '--surface', 'cloud', '--workers=1', '--shard=1/1', 'specs/v2/errors.spec.ts'],
        { cwd, env, stdio: 'ignore' },
      );
      child.on('exit', resolve);
    });
    const blobs = path.join(cwd, 'reports', 'blob-report');
    assert.ok(
      existsSync(blobs) && readdirSync(blobs).some((f) => f.endsWith('.zip')),
      `the shard (exit ${shard}) wrote a blob report`,
    );
    assert.equal(shard, 0, 'the shard passed');
    const merged = cli(
      cwd,
      ['merge-reports', 'reports/blob-report', '--reports', 'merged'],
      { ...env, CONFORMANCE_QUIET: '0' },
      120_000,
    );
    const report = JSON.parse(readFileSync(path.join(cwd, 'merged', 'conformance.json'), 'utf8')) as {
      summary: { verdict: string };
    };
    assert.equal(report.summary.verdict, 'pass');
    assert.equal(merged.status, 0, `${merged.stdout}\n${merged.stderr}`);
    for (const f of ['conformance.md', 'junit.xml']) assert.ok(existsSync(path.join(cwd, 'merged', f)), f);
    const none = cli(cwd, ['merge-reports', 'no-such-folder']);
    assert.equal(none.status, 2);
    assert.match(none.stderr, /no-such-folder: no such folder/);
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
});
