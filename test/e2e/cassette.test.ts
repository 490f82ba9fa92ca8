// A recorded run (workflow-conformance run --record) replayed offline gives the same
// rule verdicts as the run that recorded it: for a passing run of every project (the v1
// WebSocket included, replayed from its recorded frames), and for a run against a fault,
// whose failure the replay finds again from the recording alone. The replay opens no
// connection: the recorded addresses are held by listeners that count every attempt.
// What the recording lacks ends `error` "not in the recording", never a failure.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { ROOT } from '../support/run-suite.ts';
import { childEnv, REFERENCE_SWITCHES } from '../support/child-env.ts';
import { freePortBase } from '../support/ports.ts';
import { assertJudgedOnEvidence } from '../support/judged.ts';
import type { ConformanceReport } from '../../report/report.ts';
import type { Har } from '../../lib/har.ts';

const BIN = path.join(ROOT, 'bin', 'workflow-conformance.mjs');

function cli(
  args: string[],
  env: Record<string, string>,
  cwd: string,
  timeoutMs = 240_000,
): Promise<{ code: number | null; output: string }> {
  const clean = childEnv({
    drop: [
      'NODE_TEST_CONTEXT',
      ...REFERENCE_SWITCHES,
      'REPORTS_DIR',
      'FC_SEED',
      'CONFORMANCE_STRICT',
      'CONFORMANCE_BASELINE',
    ],
    set: { CONFORMANCE_QUIET: '1', ...env },
  });
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd,
    env: clean,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  const timer = setTimeout(() => process.kill(-child.pid!, 'SIGKILL'), timeoutMs);
  return new Promise((resolve) => child.on('close', (code) => (clearTimeout(timer), resolve({ code, output }))));
}

const read = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as ConformanceReport;
const cells = (r: ConformanceReport) =>
  Object.fromEntries(
    r.rules.flatMap((row) => Object.entries(row.results).map(([s, c]) => [`${row.id} on ${s}`, c?.status])),
  );
/** The cells two reports disagree on, `rule on surface: recorded -> replayed` (empty when they agree). */
function differences(recorded: ConformanceReport, replayed: ConformanceReport): string[] {
  const a = cells(recorded);
  const b = cells(replayed);
  return [...new Set([...Object.keys(a), ...Object.keys(b)])]
    .filter((k) => a[k] !== b[k])
    .map((k) =>
      `${k}: ${a[k]} -> ${b[k]} ${cellOf(replayed, k.split(' on ')[0], k.split(' on ')[1])?.reason ?? ''}`.slice(
        0,
        600,
      ),
    );
}
type Cell = { status?: string; reason?: string } | undefined;
const cellOf = (r: ConformanceReport, id: string, surface: string): Cell =>
  (r.rules.find((row) => row.id === id)?.results as Record<string, Cell> | undefined)?.[surface];
const allCells = (r: ConformanceReport): Cell[] =>
  r.rules.flatMap((row) => Object.values(row.results as Record<string, Cell>));
/** The summary, then each failing or erroring cell with its reason: what a red verdict needs to be understood from the CI log alone. */
const explained = (r: ConformanceReport): string =>
  [
    JSON.stringify(r.summary),
    ...r.rules.flatMap((row) =>
      Object.entries(row.results as Record<string, Cell>)
        .filter(([, c]) => c?.status === 'fail' || c?.status === 'error')
        .map(([s, c]) => `${row.id} on ${s}: ${c?.status} ${String(c?.reason ?? '').slice(0, 600)}`),
    ),
  ].join('\n');

/** Listeners on every port the recording names, counting each connection made to them (none may be). */
async function watchPorts(ports: number[]): Promise<{ attempts: () => number; close: () => Promise<void> }> {
  let attempts = 0;
  const servers = await Promise.all(
    ports.map(
      (port) =>
        new Promise<net.Server>((resolve, reject) => {
          const server = net.createServer((socket) => {
            attempts++;
            socket.destroy();
          });
          // A port still held means the recorded reference did not stop: that fails here too.
          server.once('error', reject);
          server.listen(port, '127.0.0.1', () => resolve(server));
        }),
    ),
  );
  return {
    attempts: () => attempts,
    close: () => Promise.all(servers.map((s) => new Promise<void>((r) => s.close(() => r())))).then(() => undefined),
  };
}

/** Every port a recording's exchanges and WebSocket connections were made to. */
function portsOf(har: Har): number[] {
  return [...new Set(har.log.entries.map((e) => Number(new URL(e.request.url).port)))].sort();
}

async function recordThenReplay(fault: string | undefined, args: string[]) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'cassette-'));
  try {
    const port = String(await freePortBase());
    const rec = await cli(
      ['run', '--record', 'run.har', '--reports', 'recorded', ...(fault ? ['--fault', fault] : []), ...args],
      { REFERENCE_PORT: port },
      dir,
    );
    assert.match(rec.output, /recorded \d+ exchanges to run\.har/, rec.output.slice(-2000));
    const har = readFileSync(path.join(dir, 'run.har'), 'utf8');
    assert.ok(!/comfyui-ref-/.test(har), 'the recording carries no development key');
    const rep = await cli(['replay', 'run.har', '--reports', 'replayed'], {}, dir);
    return {
      recorded: read(path.join(dir, 'recorded', 'conformance.json')),
      replayed: read(path.join(dir, 'replayed', 'conformance.json')),
      recCode: rec.code,
      repCode: rep.code,
      output: rep.output,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// One project per surface: v2-local (HTTP, multipart uploads, event streams), v1-cloud (HTTP,
// multipart, the WebSocket), v2-serverless, router and registry. v2-cloud makes the same kinds
// of exchange as v2-local and v2-serverless, so recording it too proved nothing more.
describe(
  'a passing run of one project per surface, recorded and replayed with the reference stopped',
  { concurrency: 1 },
  () => {
    const PROJECTS = ['v2-local', 'v2-serverless', 'v1-cloud', 'registry', 'router'];
    const dir = mkdtempSync(path.join(os.tmpdir(), 'cassette-all-'));
    let recorded: ConformanceReport;
    let recordedCode: number | null;
    let har: Har;
    before(async () => {
      const port = String(await freePortBase());
      const rec = await cli(
        ['run', '--record', 'run.har', '--reports', 'recorded', ...PROJECTS.flatMap((p) => ['--project', p])],
        { REFERENCE_PORT: port },
        dir,
        600_000,
      );
      assert.match(rec.output, /recorded \d+ exchanges to run\.har/, rec.output.slice(-2000));
      recorded = read(path.join(dir, 'recorded', 'conformance.json'));
      recordedCode = rec.code;
      har = JSON.parse(readFileSync(path.join(dir, 'run.har'), 'utf8')) as Har;
    });
    after(() => rmSync(dir, { recursive: true, force: true }));

    test('the replay gets the same cells, and not one connection is attempted', async () => {
      assert.equal(recorded.summary.verdict, 'pass', explained(recorded));
      // The user's command on a correct server: exit 0, verdict pass, and (as the plain reference's
      // harness run shows for every project) every pass on evidence, every other cell with its reason.
      assert.equal(recordedCode, 0);
      assert.deepEqual(
        [...recorded.summary.must_failed, ...recorded.summary.should_failed, ...recorded.summary.errors],
        [],
        explained(recorded),
      );
      assertJudgedOnEvidence(recorded, 'the recorded run of the reference', { onlyWhereRun: true });
      assert.ok(!/comfyui-ref-/.test(JSON.stringify(har)), 'the recording carries no development key');
      const ws = har.log.entries.filter((e) => e._resourceType === 'websocket');
      assert.ok(
        ws.length > 0 && ws.some((e) => (e._webSocketMessages ?? []).some((m) => m.type === 'receive')),
        'the v1 WebSocket connections and their frames are in the recording',
      );
      const ports = portsOf(har);
      assert.ok(ports.length >= 5, `the recording names the reference's five ports: ${ports.join(', ')}`);
      // The reference that answered the recording is gone; listeners now hold its ports.
      const watch = await watchPorts(ports);
      try {
        const rep = await cli(['replay', 'run.har', '--reports', 'replayed'], {}, dir, 600_000);
        const replayed = read(path.join(dir, 'replayed', 'conformance.json'));
        assert.equal(watch.attempts(), 0, 'the replay connected to a recorded address');
        assert.equal(replayed.summary.verdict, 'pass', `${explained(replayed)}\n${rep.output.slice(-2000)}`);
        assert.deepEqual(differences(recorded, replayed), []);
        for (const surface of ['local', 'cloud', 'serverless', 'router', 'registry'])
          assert.ok(
            replayed.rules.some((row) => cellOf(replayed, row.id, surface)?.status === 'pass'),
            `rules pass on ${surface}`,
          );
        // The v1 stream's rules were judged from the recorded frames.
        for (const rule of ['WS.ORDER', 'WS.POLL_AGREEMENT', 'V1.PROMPT.PARALLEL_QUEUE'])
          assert.equal(cellOf(replayed, rule, 'cloud')?.status, 'pass', rule);
        assert.equal(rep.code, 0);
      } finally {
        await watch.close();
      }
    });

    test('what the recording lacks (its WebSocket connections, one HTTP answer) ends error "not in the recording", never fail', async () => {
      const cut = structuredClone(har);
      // Replayed: the tests of three stream rules and of the image upload, not all of v1-cloud. In a
      // user's run every test that ends in error costs a new Playwright worker; the whole project's
      // cut replay spent about 50 CPU-seconds on them and showed nothing these tests do not.
      const UPLOAD_TEST = 'POST /api/upload/image answers name and subfolder';
      // (A recording keeps Playwright's arguments: the --grep that `run --rule` makes of rule ids.)
      const rules = ['WS.ORDER', 'WS.POLL_AGREEMENT', 'WS.CLIENT_ID_IGNORED', 'V1.UPLOAD.IMAGE'];
      cut.log._conformance!.args = [
        '--project',
        'v1-cloud',
        '--grep',
        rules.map((id) => `@${id.replace(/\./g, '\\.')}(\\s|$)`).join('|'),
      ];
      // The upload test's image upload, made before any stream, so the cut is what it meets first.
      const missing = cut.log.entries.find(
        (e) =>
          e._scope.startsWith('v1-cloud') &&
          e._scope.endsWith(`› ${UPLOAD_TEST}`) &&
          e._key === 'POST /api/upload/image' &&
          !cut.log.entries.some(
            (w) => w._resourceType === 'websocket' && w._scope === e._scope && w.startedDateTime <= e.startedDateTime,
          ),
      );
      assert.ok(missing, `the recording holds the image upload of "${UPLOAD_TEST}", made before any stream`);
      cut.log.entries = cut.log.entries.filter((e) => e._resourceType !== 'websocket' && e !== missing);
      writeFileSync(path.join(dir, 'cut.har'), JSON.stringify(cut));
      const watch = await watchPorts(portsOf(har));
      try {
        // As long a bound as the whole replay's: a loaded machine took over 240 s for this one.
        const rep = await cli(['replay', 'cut.har', '--reports', 'cut'], {}, dir, 600_000);
        assert.notEqual(rep.code, null, `the replay was stopped at the test's bound:\n${rep.output.slice(-2000)}`);
        const replayed = read(path.join(dir, 'cut', 'conformance.json'));
        assert.equal(watch.attempts(), 0, 'the replay connected to a recorded address');
        assert.deepEqual(replayed.summary.must_failed, [], rep.output.slice(-2000));
        assert.deepEqual(replayed.summary.should_failed, []);
        assert.equal(replayed.summary.verdict, 'error');
        assert.deepEqual(
          allCells(replayed).filter((c) => c?.status === 'fail'),
          [],
        );
        for (const rule of ['WS.ORDER', 'WS.POLL_AGREEMENT', 'WS.CLIENT_ID_IGNORED']) {
          const c = cellOf(replayed, rule, 'cloud');
          assert.equal(c?.status, 'error', `${rule}: ${JSON.stringify(c)}`);
          assert.match(
            String(c?.reason),
            /not in the recording: GET ws:\/\/127\.0\.0\.1:\d+\/ws\?.*the recording holds no WebSocket connection of this test/,
            rule,
          );
        }
        const upload = allCells(replayed).filter(
          (c) =>
            c?.status === 'error' &&
            /not in the recording: POST http:\/\/127\.0\.0\.1:\d+\/api\/upload\/image/.test(String(c.reason)),
        );
        assert.ok(upload.length > 0, 'the test whose upload was cut ends error naming it');
      } finally {
        await watch.close();
      }
    });
  },
);

test('a run against stale-asset-url, replayed, fails V2.ASSET.FRESH_URL again and nothing else', async () => {
  const r = await recordThenReplay('stale-asset-url', [
    '--surface',
    'cloud',
    '--workers=1',
    path.join(ROOT, 'specs/v2/assets.spec.ts'),
  ]);
  assert.deepEqual(r.recorded.summary.must_failed, ['V2.ASSET.FRESH_URL']);
  assert.deepEqual(r.replayed.summary.must_failed, ['V2.ASSET.FRESH_URL'], r.output.slice(-2000));
  assert.deepEqual(differences(r.recorded, r.replayed), []);
  assert.notEqual(r.repCode, 0);
  // The replay's report says it is one (nothing was sent); the recorded run's does not.
  assert.equal(r.replayed.target.replay, 'run.har');
  assert.equal(r.recorded.target.replay, undefined);
});
