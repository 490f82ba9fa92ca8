// A HAR recorded by Playwright's recordHar from a browser session against the reference
// (Debian's chromium, headless: uploads an image, reads it, asks for an asset that does not
// exist, submits a job and polls it to its end) judged by `check-har`: no finding on the
// reference, and exactly the fault's rule on the reference started with a v2 fault. The
// browser's own requests (the page, its favicon) are listed, not judged.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startOnFreePorts } from '../support/ports.ts';
import { launchChromium, noChromium } from '../support/chromium.ts';
import { uniquePng } from '../../lib/data/png.ts';
import type { ConformanceReport } from '../../report/report.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const BIN = path.join(ROOT, 'bin/workflow-conformance.mjs');
const skip = noChromium;

// Runs in the page, so written as source text (tsx's helpers do not exist there).
const SESSION =
  `async ({ key, png }) => {
  const auth = { authorization: 'Bearer ' + key };
  const bytes = Uint8Array.from(atob(png), (c) => c.charCodeAt(0));
  const form = new FormData();
  form.append('content_type', 'image/png');
  form.append('file_path', 'browser-' + Date.now() + '.png');
  form.append('file', new Blob([bytes], { type: 'image/png' }), 'browser.png');
  const created = await (await fetch('/api/v2/assets', { method: 'POST', headers: auth, body: form })).json();
  await (await fetch('/api/v2/assets/' + created.id, { headers: auth })).json();
  await fetch('/api/v2/assets/00000000-0000-4000-8000-000000000000', { headers: auth }).then((r) => r.text());
  const workflow = { 1: { class_type: 'EmptyImage', inputs: { width: 4, height: 4, batch_size: 1, color: 255 } }, ` +
  `2: { class_type: 'SaveImage', inputs: { images: ['1', 0], filename_prefix: 'browser' } } };
  let job = await (await fetch('/api/v2/jobs', { method: 'POST', ` +
  `headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ workflow }) })).json();
  for (let i = 0; i < 100 && !['succeeded', 'failed', 'canceled', 'expired'].includes(job.status); i++) {
    await new Promise((r) => setTimeout(r, 100));
    job = await (await fetch(job.urls?.self ?? '/api/v2/jobs/' + job.id, { headers: auth })).json();
  }
  await fetch('/static/app.js').then((r) => r.text()).catch(() => undefined);
  return job.status;
}`;

async function recordAndCheck(
  fault?: string,
): Promise<{ report: ConformanceReport; status: number | null; output: string; jobStatus: string }> {
  const ref = await startOnFreePorts(fault ? { fault } : {});
  const dir = mkdtempSync(path.join(tmpdir(), 'passive-har-'));
  const har = path.join(dir, 'browser.har');
  let jobStatus: string;
  try {
    const browser = await launchChromium();
    try {
      const context = await browser.newContext({ recordHar: { path: har } });
      const page = await context.newPage();
      await page.goto(`${ref.surfaces.cloud}/api/v2/assets/00000000-0000-4000-8000-000000000001`);
      jobStatus = String(
        await page.evaluate(
          `(${SESSION})(${JSON.stringify({ key: ref.credentials.cloud.alice, png: uniquePng(4, 4, 'har').toString('base64') })})`,
        ),
      );
      await context.close();
    } finally {
      await browser.close();
    }
  } finally {
    await ref.close();
  }
  const reports = path.join(dir, 'reports');
  const run = spawnSync(
    process.execPath,
    [BIN, 'check-har', har, '--surface', 'cloud', '--base-url', ref.surfaces.cloud, '--reports', reports],
    { cwd: ROOT, encoding: 'utf8', timeout: 60_000 },
  );
  const report = JSON.parse(readFileSync(path.join(reports, 'conformance.json'), 'utf8')) as ConformanceReport;
  const written =
    readFileSync(path.join(reports, 'conformance.md'), 'utf8') +
    readFileSync(path.join(reports, 'conformance.html'), 'utf8') +
    JSON.stringify(report);
  assert.ok(!written.includes(ref.credentials.cloud.alice), 'the key the browser sent is redacted in every report');
  return { report, status: run.status, output: `${run.stdout}${run.stderr}`, jobStatus };
}

test(
  "check-har judges a browser session Playwright recorded against the reference: no finding, the browser's own requests listed",
  { skip },
  async () => {
    const { report, status, output, jobStatus } = await recordAndCheck();
    assert.equal(jobStatus, 'succeeded');
    assert.equal(status, 0, output);
    assert.equal(report.summary.verdict, 'pass', output);
    assert.deepEqual(
      report.passive!.rules.filter((r) => r.broken > 0),
      [],
    );
    const judged = report.passive!.rules.map((r) => r.id);
    for (const rule of ['V2.ASSET.FIELDS', 'V2.JOB.FIELDS', 'V2.ERR.ENVELOPE', 'V2.ERR.CODE_STATUS'])
      assert.ok(judged.includes(rule), `${rule} judged (${judged.join(', ')})`);
    assert.ok(report.passive!.judged >= 6, `${report.passive!.judged} exchanges judged`);
    assert.ok(
      report.passive!.unplaced_list.some((u) => u.url.endsWith('/static/app.js') && /no operation/.test(u.why)),
      JSON.stringify(report.passive!.unplaced_list),
    );
  },
);

test(
  'check-har on the same browser session against a reference with a v2 fault (assets without url_expires_at) fails exactly V2.ASSET.FIELDS',
  { skip },
  async () => {
    const { report, status, output } = await recordAndCheck('drop-url-expires-at');
    assert.equal(status, 1, output);
    assert.deepEqual(report.summary.must_failed, ['V2.ASSET.FIELDS']);
    const cell = report.rules.find((r) => r.id === 'V2.ASSET.FIELDS')!.results.cloud!;
    assert.match(cell.reason ?? '', /url_expires_at/);
    assert.match(cell.curl ?? '', /^curl .*\/api\/v2\/assets/m);
  },
);
