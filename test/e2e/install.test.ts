// The CLI as a server team gets it: `npm pack`, installed into an empty project, then
// `--help`, `init` and `run` from that project's folder, with reports there. npm needs
// the registry (or its cache) for the dependencies: where neither answers in time the
// test is skipped with that reason, not failed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { ROOT } from '../support/run-suite.ts';
import { freePortBase } from '../support/ports.ts';
import { childEnv } from '../support/child-env.ts';

const run = promisify(execFile);
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/**
 * A command that starts the embedded reference on REFERENCE_PORT, run again on another free
 * range when the CLI says a port of it was taken: the range was found free before `init`, and
 * this test's commands run for a minute beside test files whose references take ranges too.
 */
async function onFreePorts(
  bin: string,
  args: string[],
  opts: { cwd: string; env: Record<string, string>; timeout?: number },
): Promise<{ stdout: string; stderr: string }> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run(bin, args, opts);
    } catch (err) {
      const taken = /is in use, so the embedded reference cannot start there/.test(
        String((err as { stderr?: string }).stderr),
      );
      if (!taken || attempt >= 3) throw err;
      opts.env.REFERENCE_PORT = String(await freePortBase());
    }
  }
}

test('installed from npm pack into an empty folder: --help, init, and run against the embedded reference work there', async (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'install-'));
  try {
    const packed = await run(NPM, ['pack', '--pack-destination', dir, '--silent'], { cwd: ROOT, timeout: 120_000 });
    const tarball = path.join(dir, packed.stdout.trim().split('\n').pop()!);
    const project = path.join(dir, 'project');
    await run('mkdir', [project]);
    writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'server-under-test', private: true }));
    try {
      await run(NPM, ['install', '-D', tarball, '--prefer-offline', '--no-audit', '--no-fund', '--silent'], {
        cwd: project,
        timeout: 300_000,
      });
    } catch (err) {
      t.skip(`npm could not install the tarball's dependencies here: ${(err as Error).message.split('\n')[0]}`);
      return;
    }
    const bin = path.join(project, 'node_modules', '.bin', 'workflow-conformance');
    const env = childEnv({
      drop: ['REPORTS_DIR', 'NODE_TEST_CONTEXT'],
      set: { CONFORMANCE_QUIET: '1', REFERENCE_PORT: String(await freePortBase()) },
    });

    const help = await run(bin, ['--help'], { cwd: project, env });
    assert.match(help.stdout, /^usage: workflow-conformance <command>/);
    assert.match((await run(bin, ['run', '--help'], { cwd: project, env })).stdout, /TARGET_TOKEN/);

    await run(bin, ['init', '--surface', 'local', '--base-url', `http://127.0.0.1:${env.REFERENCE_PORT}`], {
      cwd: project,
      env,
    });
    const written = readFileSync(path.join(project, 'targets.yaml'), 'utf8');
    assert.match(written, /surface: local/);
    assert.doesNotMatch(
      written,
      /issue #\d|\(#\d+\)/,
      "init writes no note of this project's own tracker into the user's file",
    );

    // Test locations point at the real lines of the installed specs, not at tsx's one-line output.
    const { CONFORMANCE_QUIET: _, ...listEnv } = env;
    const listed = await onFreePorts(bin, ['run', '--project', 'v2-cloud', '--list', 'specs/v2/errors.spec.ts'], {
      cwd: project,
      env: listEnv,
    });
    const source = readFileSync(path.join(ROOT, 'specs/v2/errors.spec.ts'), 'utf8').split('\n');
    // The first test's call, whose title the formatter may put on the line after `test(`.
    const firstTest = source.findIndex((l) => /^\s*test\(/.test(l)) + 1;
    assert.match(
      listed.stdout,
      new RegExp(`errors\\.spec\\.ts:(${firstTest}|${firstTest + 1}):\\d+ ›`),
      listed.stdout.slice(0, 600),
    );
    assert.doesNotMatch(listed.stdout, /spec\.ts:1:\d{3,}/);

    // init's file, then the suite against the embedded reference, from the project's folder.
    const embedded = await onFreePorts(bin, ['run', '--surface', 'cloud', '--workers=1', 'specs/v2/errors.spec.ts'], {
      cwd: project,
      env,
      timeout: 240_000,
    }).catch((e: { stdout: string; stderr: string }) => e);
    const report = JSON.parse(readFileSync(path.join(project, 'reports', 'conformance.json'), 'utf8')) as {
      summary: { verdict: string };
    };
    assert.equal(report.summary.verdict, 'pass', `${embedded.stdout}\n${embedded.stderr}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
