// V2.JOB.LIST_WALK on a server that already holds many jobs (issue #25 item 5): a server
// in use holds jobs the suite did not create, and the walk must not fail for them. The
// reference is made to hold 200 jobs on the local surface (which keeps no job labels, so
// the walk cannot be scoped there) and 200 on the serverless deployment (which keeps and
// filters labels, so the walk is scoped to the test's own jobs), then the one test is run
// through the CLI against it (TARGET=reference follows REFERENCE_PORT). Then once more with a
// page budget too small for the whole local list: that walk ends error naming the variable.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startReference } from '../../reference/server.ts';
import { resolveTarget } from '../../lib/targets.ts';
import { emptyImageWorkflow } from '../../lib/data/workflows.ts';
import { freePortBase } from '../support/ports.ts';
import { childEnv, REFERENCE_SWITCHES, VERDICT_SETTINGS } from '../support/child-env.ts';
import type { ConformanceReport } from '../../report/report.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const HELD = 200;
const TITLE = 'walking the list with random limits';

async function submitMany(baseUrl: string, token: string | undefined, count: number): Promise<void> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    ...(token ? { authorization: `Bearer ${token}` } : {}),
  };
  for (let done = 0; done < count; done += 20) {
    const batch = Array.from({ length: Math.min(20, count - done) }, () =>
      fetch(`${baseUrl}/api/v2/jobs`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ workflow: emptyImageWorkflow() }),
      }).then(async (res) => {
        if (res.status !== 201) throw new Error(`seeding a job at ${baseUrl}: ${res.status} ${await res.text()}`);
      }),
    );
    await Promise.all(batch);
  }
}

function runCli(
  args: string[],
  env: Record<string, string | undefined>,
): Promise<{ code: number | null; out: string }> {
  const child = spawn(process.execPath, ['bin/workflow-conformance.mjs', 'run', ...args], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), 240_000);
  return new Promise((resolve) => child.once('close', (code) => (clearTimeout(timer), resolve({ code, out }))));
}

test(`V2.JOB.LIST_WALK passes on a reference that already holds ${HELD} jobs on each listing surface`, async () => {
  const port = await freePortBase();
  const reference = await startReference({ portBase: port });
  const reports = mkdtempSync(path.join(os.tmpdir(), 'list-walk-busy-'));
  try {
    const target = resolveTarget({ TARGET: 'reference', REFERENCE_PORT: String(port) });
    const listing = target.surfaces.filter((s) => s.surface === 'local' || s.surface === 'serverless');
    assert.equal(listing.length, 2);
    for (const s of listing) await submitMany(s.baseUrl, s.token, HELD);

    const env = childEnv({
      drop: [...REFERENCE_SWITCHES, ...VERDICT_SETTINGS, 'NODE_TEST_CONTEXT'],
      set: { CI: '1', CONFORMANCE_QUIET: '1', TARGET: 'reference', REFERENCE_PORT: String(port) },
    });
    const { code, out } = await runCli(
      ['--reports', reports, '--project=v2-local', '--project=v2-serverless', '--workers=2', '--grep', TITLE],
      env,
    );
    const report = JSON.parse(readFileSync(path.join(reports, 'conformance.json'), 'utf8')) as ConformanceReport;
    const row = report.rules.find((r) => r.id === 'V2.JOB.LIST_WALK');
    assert.ok(row, 'the report has a row for V2.JOB.LIST_WALK');
    const cells = Object.entries(row.results)
      .map(([surface, cell]) => `${surface}=${cell?.status}`)
      .sort();
    assert.deepEqual(cells, ['local=pass', 'serverless=pass'], `${cells.join(', ')}\n${out.slice(-3000)}`);
    assert.equal(report.summary.verdict, 'pass', out.slice(-3000));
    assert.equal(code, 0, out.slice(-3000));

    // The local surface keeps no labels, so its walk is of the whole list: past the suite's
    // page budget it ends error naming the variable, never fail; the scoped walk needs no budget.
    const small = await runCli(
      ['--reports', reports, '--project=v2-local', '--project=v2-serverless', '--workers=2', '--grep', TITLE],
      { ...env, CONFORMANCE_LIST_WALK_MAX_PAGES: '5' },
    );
    const again = JSON.parse(readFileSync(path.join(reports, 'conformance.json'), 'utf8')) as ConformanceReport;
    const cell = again.rules.find((r) => r.id === 'V2.JOB.LIST_WALK')?.results;
    assert.equal(cell?.local?.status, 'error', small.out.slice(-3000));
    assert.match(
      cell?.local?.reason ?? '',
      new RegExp(
        /could not be scoped to this test's jobs: this surface refuses job labels /.source +
          /\(422 metadata_not_supported\)\) did not end within the suite's bound of 5 pages /.source +
          /\(CONFORMANCE_LIST_WALK_MAX_PAGES raises it\)/.source,
      ),
    );
    assert.equal(cell?.serverless?.status, 'pass', small.out.slice(-3000));
    assert.equal(again.summary.verdict, 'error');
  } finally {
    await reference.close();
    rmSync(reports, { recursive: true, force: true });
  }
});
