// The HTML report opens in a real browser (Debian's chromium, headless) without console
// or page errors and without any network request, its four charts are drawn, and it
// shows corrected and uncorrected percentiles and the late arrivals of the open model.
// One screenshot is kept at /tmp/load-report.png.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { writeReports } from '../../load/report/write.ts';
import { renderMarkdown } from '../../load/report/markdown.ts';
import { smoke } from './helpers.ts';
import { launchChromium, noChromium, pageProblems } from '../support/chromium.ts';

test(
  'the HTML report renders in headless chromium with its charts drawn and no errors',
  { skip: noChromium },
  async () => {
    // A run with two status codes and two latency modes: admitted slow calls and quick refusals.
    const report = await smoke('router-concurrency');
    const files = await writeReports(report, mkdtempSync(path.join(tmpdir(), 'load-html-')));
    const html = readFileSync(files.html, 'utf8');
    assert.ok(!/<script|https?:\/\/(?!127\.0\.0\.1)[a-z]/i.test(html), 'self-contained: no script, no remote address');
    assert.match(renderMarkdown(report), /### Load: router-concurrency/);

    const browser = await launchChromium();
    try {
      const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
      const problems = pageProblems(page);
      const requests: string[] = [];
      page.on('request', (r) => {
        if (!r.url().startsWith('file:')) requests.push(r.url());
      });
      const url = pathToFileURL(files.html).href;
      await page.goto(url, { waitUntil: 'load' });
      assert.deepEqual(problems, []);
      assert.deepEqual(requests, [], 'the page made network requests');
      assert.match(await page.title(), /router-concurrency/);

      // Written as source text: tsx's name-keeping helper does not exist inside the page.
      const charts = await page.evaluate<
        Array<{ id: string; width: number; height: number; lines: number; bars: number }>
      >(`[...document.querySelectorAll('figure')].map((f) => {
      const svg = f.querySelector('svg');
      const box = svg ? svg.getBoundingClientRect() : { width: 0, height: 0 };
      const drawn = (sel) => (svg ? [...svg.querySelectorAll(sel)].filter((e) => { const b = e.getBBox(); return b.width > 0 || b.height > 0; }).length : 0);
      return { id: f.id, width: box.width, height: box.height, lines: drawn('path.series'), bars: drawn('rect.bar') };
    })`);
      const byId = Object.fromEntries(charts.map((c) => [c.id, c]));
      assert.deepEqual(Object.keys(byId).sort(), [
        'chart-histogram',
        'chart-latency-time',
        'chart-rate',
        'chart-status',
      ]);
      for (const c of charts) assert.ok(c.width > 300 && c.height > 150, `${c.id} has no size`);
      assert.equal(byId['chart-latency-time'].lines, 3, 'p50, p90 and p99 lines');
      assert.equal(byId['chart-rate'].lines, 3, 'achieved, requested and late');
      assert.ok(byId['chart-histogram'].bars >= 2, 'latency histogram bars');
      assert.ok(byId['chart-status'].bars >= 2, 'status-code bars');
      const latency = await page.evaluate<{
        corrected: string[];
        uncorrected: string[];
        late: string;
        visible: boolean;
      }>(
        `(() => {
      const row = (cls) => [...document.querySelectorAll('#latency-table tr.' + cls + ' td')].map((td) => td.textContent);
      const late = document.querySelector('#late-arrivals');
      return { corrected: row('corrected'), uncorrected: row('uncorrected'), late: late ? late.textContent : '', ` +
          `visible: late ? late.getBoundingClientRect().height > 0 : false };
    })()`,
      );
      const m = report.metrics;
      assert.equal(latency.corrected.length, 5, 'corrected p50, p90, p99, p99.9, max');
      assert.equal(latency.uncorrected.length, 5, 'uncorrected p50, p90, p99, p99.9, max');
      assert.equal(latency.corrected[2], `${Math.round(m.p99 * 100) / 100} ms`);
      assert.equal(latency.uncorrected[2], `${Math.round(m.uncorrected_p99 * 100) / 100} ms`);
      assert.ok(latency.visible);
      assert.match(latency.late, new RegExp(`^Late arrivals: ${m.late_requests} \\(`));
      assert.match(latency.late, /dropped \(never sent\): \d+; arrival spacing p50 [\d.]+ ms, p99 [\d.]+ ms/);
      await page.screenshot({ path: '/tmp/load-report.png', fullPage: true });
    } finally {
      await browser.close();
    }
  },
);
