// What the load report says (issue #25, item 14): the over-time chart and the histogram
// name the latency they plot (corrected), the warm-up band is labelled, a note explains
// coordinated omission, "Figures" is a table, thresholds carry their units, and no
// percentile is ever above the max. Also: a merge refuses shards of different servers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newHdr, percentileMs, recordMs, summarizeHdr, decodeHdr, encodeHdr, HDR_PRECISION } from '../../load/hdr.ts';
import { renderHtml } from '../../load/report/html.ts';
import { renderMarkdown } from '../../load/report/markdown.ts';
import { mergeReports, MergeError } from '../../load/merge.ts';
import { parseThreshold, evaluate } from '../../load/thresholds.ts';
import { Timeline } from '../../load/timeline.ts';
import { fakeReport } from './helpers.ts';

test("p99.9 never exceeds max: max is read as percentiles are (its bucket's upper edge), the same live and decoded", () => {
  // 10.001 ms sits in an HDR bucket 8 µs wide whose upper edge is 10.007 ms: p99.9 read 10.007
  // while max read the exact 10.001.
  const h = newHdr();
  for (let i = 0; i < 1000; i++) recordMs(h, 2 + (i % 50) / 100);
  for (let i = 0; i < 5; i++) recordMs(h, 10.001);
  const s = summarizeHdr(h);
  assert.ok(s['p99.9'] <= s.max, `p99.9 ${s['p99.9']} > max ${s.max}`);
  assert.ok(
    Math.abs(s.max - 10.001) <= 10.001 * HDR_PRECISION,
    `max ${s.max} within the histogram's precision of the value recorded`,
  );
  assert.ok(percentileMs(h, 100) <= s.max);
  for (const p of ['p50', 'p90', 'p95', 'p99'] as const) assert.ok(s[p] <= s['p99.9'], p);
  // The report's encoded form gives the same figures: a merge of one shard equals the run.
  assert.deepEqual(summarizeHdr(decodeHdr(encodeHdr(h))), s);
  // Per second, the same: the timeline's p99 is never above its max.
  const tl = new Timeline(10, 0);
  for (let i = 0; i < 99; i++) tl.add(0, '200', 2, false);
  tl.add(0, '200', 10.001, false);
  const [second] = tl.seconds(1);
  assert.ok(second.p99 <= second.max, `second p99 ${second.p99} > max ${second.max}`);
});

function runReport() {
  const timeline = new Timeline(20, 1);
  for (let t = 0; t < 4; t++) for (let i = 0; i < 20; i++) timeline.add(t, '200', 1 + (i % 5), false);
  const thresholds = evaluate(['p99<250', 'errors<0.1%', 'jobs_completed>0'].map(parseThreshold), {
    p99: 4.2,
    errors: 0,
    jobs_completed: 7,
  });
  return fakeReport(
    { requests: 60, p50: 2, p90: 4, p99: 4.2, 'p99.9': 5, max: 5, measured_s: 3, errors: 0, jobs_completed: 7 },
    {
      timeline: timeline.seconds(4),
      histogram: { bounds: [1, 1.78, 3.16, 5.62], counts: [12, 12, 24, 12] },
      thresholds,
      figures: { job_statuses_seen: { running: 40, succeeded: 12 }, pool_size: 12, retry_after_values: {} },
    },
  );
}

test('the HTML report names the corrected latency in its charts, labels the warm-up band and explains coordinated omission', () => {
  const html = renderHtml(runReport());
  const caption = (id: string): string =>
    new RegExp(`<figure id="${id}"><figcaption>([^<]*)</figcaption>`).exec(html)?.[1] ?? '';
  assert.match(caption('chart-latency-time'), /corrected latency/i);
  assert.match(caption('chart-histogram'), /corrected latency/i);
  assert.match(html, /aria-label="Corrected latency percentiles over time"/);
  assert.match(html, /class="warmup-label"[^>]*>warm-up<\/text>/, 'the warm-up band carries a visible label');
  const note = /<p id="coordinated-omission">([^<]*)<\/p>/.exec(html)?.[1] ?? '';
  assert.match(note, /coordinated omission/i);
  assert.match(note, /corrected/i);
  assert.equal(note.split(/(?<=\.)\s+/).filter(Boolean).length, 2, `two sentences: ${note}`);
});

test('"Figures" is a table, not raw JSON; thresholds show their limit and measurement with units', () => {
  const html = renderHtml(runReport());
  const figures = /<h2>Figures<\/h2>([\s\S]*?)(<h2>|$)/.exec(html)?.[1] ?? '';
  assert.match(figures, /<table id="figures">/);
  assert.doesNotMatch(figures, /<pre>|[{}]/);
  assert.match(figures, /<th>job statuses seen › running<\/th><td>40<\/td>/);
  assert.match(figures, /<th>retry after values<\/th><td>none<\/td>/);
  assert.match(html, /<td><code>p99&lt;250<\/code><\/td><td>&lt; 250 ms<\/td><td>4\.2 ms<\/td>/);
  assert.match(html, /<td><code>errors&lt;0\.1%<\/code><\/td><td>&lt; 0\.1 %<\/td><td>0 %<\/td>/);
  const md = renderMarkdown(runReport());
  assert.match(md, /\| `p99<250` \| < 250 ms \| 4\.2 ms \|/);
  assert.match(md, /\| `jobs_completed>0` \| > 0 \| 7 \|/);
  assert.match(md, /coordinated omission/i);
});

test('a merge refuses shards that ran against different servers', () => {
  const shard = (index: number, baseUrl: string, embedded = false) =>
    fakeReport(
      {},
      { shard: { index, count: 2 }, target: { name: 'mine', surface: 'local', baseUrl, embedded }, verdict: 'skipped' },
    );
  assert.throws(
    () => mergeReports([shard(1, 'http://127.0.0.1:8189'), shard(2, 'http://127.0.0.1:9189')]),
    (err: Error) =>
      err instanceof MergeError && /different servers/.test(err.message) && /127\.0\.0\.1:9189/.test(err.message),
  );
  // The embedded reference: each machine starts its own on ports of its own; the same reference all the same.
  assert.doesNotThrow(() =>
    mergeReports([shard(1, 'http://127.0.0.1:20000', true), shard(2, 'http://127.0.0.1:30000', true)]),
  );
  assert.throws(
    () => mergeReports([shard(1, 'http://127.0.0.1:20000', true), shard(2, 'http://127.0.0.1:20000')]),
    /different servers/,
  );
});
