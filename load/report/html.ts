// A load run as one self-contained HTML page: inline CSS and SVG, no script, no
// network. Charts: latency percentiles over time, latency histogram, achieved vs
// requested rate (with late arrivals), status-code mix; a table sets corrected latency
// (from the intended start) beside uncorrected (from the actual send).
import type { LoadReport } from '../engine.ts';
import { barChart, esc, legend, lineChart } from './svg.ts';
import { failureSummary, limitText, thresholdOutcome, withUnit } from '../thresholds.ts';
import { COORDINATED_OMISSION_NOTE, figureRows } from './text.ts';
import { held } from '../checks.ts';

// Colours by status class, a shade per code within the class.
const PALETTES: Record<string, string[]> = {
  '2': ['#2e7d32', '#66bb6a', '#a5d6a7'],
  '3': ['#1565c0', '#64b5f6'],
  '4': ['#ef6c00', '#ffa726', '#ffcc80', '#8d6e63'],
  '5': ['#c62828', '#ef5350', '#e57373'],
};

function colorsFor(codes: string[]): string[] {
  const used = new Map<string, number>();
  return codes.map((c) => {
    const cls = /^[2-5]/.test(c) ? c[0] : 'x';
    const palette = PALETTES[cls] ?? ['#6a1b9a', '#9575cd'];
    const i = used.get(cls) ?? 0;
    used.set(cls, i + 1);
    return palette[i % palette.length];
  });
}

const num = (n: number | undefined, d = 2): string =>
  n === undefined || !Number.isFinite(n) ? '–' : String(Math.round(n * 10 ** d) / 10 ** d);

export function renderHtml(r: LoadReport): string {
  const t = r.timeline;
  const xMax = Math.max(1, t.length);
  const warm = r.profile.effective.warmupS;
  const charts: string[] = [];
  const warmNote =
    warm > 0
      ? `<div class="legend"><small>Shaded: the ${warm} s warm-up, left out of every figure and threshold.</small></div>`
      : '';
  if (r.verdict !== 'skipped' && t.length > 0) {
    const pct = [
      { name: 'p50', color: '#1565c0', points: t.map((s): [number, number] => [s.t + 0.5, s.p50]) },
      { name: 'p90', color: '#ef6c00', points: t.map((s): [number, number] => [s.t + 0.5, s.p90]) },
      { name: 'p99', color: '#c62828', points: t.map((s): [number, number] => [s.t + 0.5, s.p99]) },
    ];
    charts.push(
      `<figure id="chart-latency-time"><figcaption>Corrected latency percentiles over time (from ` +
        `each request's intended start, per second of arrival)</figcaption>` +
        lineChart({
          title: 'Corrected latency percentiles over time',
          xLabel: 'seconds since start',
          yLabel: 'corrected latency, ms',
          series: pct,
          xMax,
          shadeTo: warm,
        }) +
        `${legend(pct)}${warmNote}</figure>`,
    );
    const h = r.histogram;
    const cats = h.bounds.map(
      (b) => `≤${b < 1 ? Number(b.toPrecision(2)) : b < 100 ? Math.round(b * 10) / 10 : Math.round(b)}`,
    );
    charts.push(
      `<figure id="chart-histogram"><figcaption>Corrected latency histogram (from each request's ` +
        `intended start; measured responses, warm-up left out)</figcaption>` +
        barChart({
          title: 'Corrected latency histogram',
          xLabel: 'corrected latency bucket (ms, log-spaced)',
          yLabel: 'responses',
          categories: cats,
          stacks: [{ name: 'responses', color: '#1565c0', values: h.counts }],
        }) +
        '</figure>',
    );
    const rate = [
      { name: 'achieved', color: '#2e7d32', points: t.map((s): [number, number] => [s.t + 0.5, s.achieved]) },
      {
        name: 'requested',
        color: '#555555',
        dashed: true,
        points: t.map((s): [number, number] => [s.t + 0.5, s.requested]),
      },
      ...(r.model.name === 'open'
        ? [{ name: 'late', color: '#c62828', points: t.map((s): [number, number] => [s.t + 0.5, s.late ?? 0]) }]
        : []),
    ];
    charts.push(
      `<figure id="chart-rate"><figcaption>Achieved vs requested rate` +
        `${r.model.name === 'open' ? ', and late arrivals' : ''}</figcaption>` +
        lineChart({
          title: 'Achieved vs requested rate',
          xLabel: 'seconds since start',
          yLabel: 'responses per second',
          series: rate,
          xMax,
          shadeTo: warm,
        }) +
        `${legend(rate)}${warmNote}</figure>`,
    );
    const codes = [...new Set(t.flatMap((s) => Object.keys(s.statuses)))].sort();
    const colors = colorsFor(codes);
    const stacks = codes.map((c, i) => ({ name: c, color: colors[i], values: t.map((s) => s.statuses[c] ?? 0) }));
    charts.push(
      `<figure id="chart-status"><figcaption>Status-code mix per second</figcaption>` +
        barChart({
          title: 'Status-code mix',
          xLabel: 'seconds since start',
          yLabel: 'responses',
          categories: t.map((s) => String(s.t)),
          stacks,
        }) +
        `${legend(stacks)}</figure>`,
    );
  }
  const m = r.metrics;
  const rows = (pairs: Array<[string, string]>): string =>
    pairs.map(([k, v]) => `<tr><th>${esc(k)}</th><td>${esc(v)}</td></tr>`).join('');
  const thresholds = r.thresholds
    .map(
      (x) =>
        `<tr class="${x.decides === false ? 'figure' : x.ok ? 'ok' : 'bad'}"><td><code>${esc(x.expr)}</code></td>` +
        `<td>${esc(limitText(x))}</td><td>${esc(withUnit(x.actual, x.unit))}</td><td>${esc(thresholdOutcome(x))}</td></tr>`,
    )
    .join('');
  const why = r.verdict === 'fail' ? failureSummary(r) : undefined;
  const checks = r.checks
    .map(
      (c) =>
        `<tr class="${held(c) ? 'ok' : 'bad'}"><td><code>${esc(c.rule)}</code></td><td>${esc(c.what)}<br><small>` +
        esc(
          c.outcome === 'broken'
            ? `expected ${c.expected ?? '?'}; received ${c.received ?? '?'}`
            : c.outcome === 'blocked'
              ? `not judged: stopped at ${c.step ?? 'a step'}`
              : (c.received ?? ''),
        ) +
        `</small></td><td>${held(c) ? 'pass' : c.outcome === 'broken' ? 'FAIL' : c.outcome.replace('_', ' ').toUpperCase()}` +
        '</td></tr>',
    )
    .join('');
  const violations = r.contract.examples
    .map(
      (v) =>
        `<li><code>${esc(v.rule)}</code>${v.level === 'SHOULD' ? ' (SHOULD, not failing)' : ''} ` +
        `${esc(v.method)} ${esc(v.path)} → ${v.status}: ${esc(v.summary)}<br><small>expected ` +
        `${esc(v.expected)}; received ${esc(v.received)}</small></li>`,
    )
    .join('');
  const figures = Object.keys(r.figures).length
    ? `<h2>Figures</h2><p>What the profile counted besides the latency.</p><table id="figures">${rows(figureRows(r.figures))}</table>`
    : '';
  const env = Object.entries(r.environment).map(([k, v]): [string, string] => [k, String(v)]);
  const open = r.model.name === 'open';
  const latRow = (name: string, cls: string, keys: string[]): string =>
    `<tr class="${cls}"><th>${esc(name)}</th>${keys.map((k) => `<td>${esc(num(m[k]))} ms</td>`).join('')}</tr>`;
  const lateArrivals = open
    ? `Late arrivals: ${esc(num(m.late_requests, 0))} (${esc(num(m.late, 2))}%) sent more than ` +
      `${esc(num(r.model.late_after_ms, 1))} ms after their intended start; dropped (never sent): ` +
      `${esc(num(m.dropped, 0))}; arrival spacing p50 ${esc(num(m.spacing_p50, 3))} ms, p99 ` +
      `${esc(num(m.spacing_p99, 3))} ms.`
    : 'Late arrivals: not measured (closed model).';
  const latencyTable =
    r.verdict === 'skipped' || m.p50 === undefined
      ? ''
      : '<h2>Latency: corrected and uncorrected</h2><table id="latency-table">' +
        '<tr><th></th><th>p50</th><th>p90</th><th>p99</th><th>p99.9</th><th>max</th></tr>' +
        latRow('corrected (from the intended start)', 'corrected', ['p50', 'p90', 'p99', 'p99.9', 'max']) +
        latRow('uncorrected (from the actual send)', 'uncorrected', [
          'uncorrected_p50',
          'uncorrected_p90',
          'uncorrected_p99',
          'uncorrected_p99.9',
          'uncorrected_max',
        ]) +
        `</table>
<p id="late-arrivals">${lateArrivals}</p>
<p id="coordinated-omission">${esc(COORDINATED_OMISSION_NOTE)}</p>`;
  const measured =
    m.measured_s !== undefined
      ? `${num(m.measured_s, 1)} s measured of ${r.profile.effective.durationS} s`
      : `${r.profile.effective.durationS} s measured`;
  const shard = r.shard
    ? r.shard.merged
      ? `, merged from ${r.shard.merged} shards`
      : `, shard ${r.shard.index}/${r.shard.count}`
    : '';
  return (
    `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<title>Load ${esc(r.profile.name)} — ${esc(r.verdict.toUpperCase())}</title>
<style>
body{font:14px/1.45 system-ui,sans-serif;margin:24px;color:#222;max-width:1360px}
h1{font-size:20px;margin:0 0 4px}h2{font-size:16px;margin:24px 0 8px}
.verdict{display:inline-block;padding:2px 10px;border-radius:4px;color:#fff;font-weight:600}
.pass{background:#2e7d32}.fail{background:#c62828}.skipped{background:#757575}.interrupted{background:#6a1b9a}
.charts{display:grid;grid-template-columns:repeat(auto-fit,minmax(660px,1fr));gap:16px}
figure{margin:0;border:1px solid #ddd;border-radius:6px;padding:8px;background:#fff}figcaption{font-weight:600;margin-bottom:4px}
svg.chart{max-width:100%;height:auto}.grid{stroke:#eee}.axis{stroke:#999}.tick{font-size:10px;fill:#666}.axis-label{font-size:11px;fill:#444}
.warmup{fill:#000;opacity:.05}.warmup-label{font-size:11px;fill:#555}.legend span{margin-right:14px;font-size:12px}` +
    `.legend i{display:inline-block;width:12px;height:12px;margin-right:4px;vertical-align:-2px;border-radius:2px}
table{border-collapse:collapse;margin:4px 0}td,th{border:1px solid #ddd;padding:4px 8px;text-align:left;vertical-align:top}
tr.bad td{background:#fdecea}tr.ok td:last-child{color:#2e7d32}tr.bad td:last-child{color:#c62828;font-weight:600}
pre{background:#f6f6f6;padding:8px;overflow:auto}small{color:#555}
</style></head><body>
<h1>Load profile <code>${esc(r.profile.name)}</code> <span class="verdict ${r.verdict}">${esc(r.verdict.toUpperCase())}</span></h1>
<p>${esc(r.profile.title)}. ${esc(r.profile.description)}</p>
${r.skipReason ? `<p><strong>Skipped:</strong> ${esc(r.skipReason)}</p>` : ''}
${why ? `<p id="failed-on"><strong>Failed on:</strong> ${esc(why)}</p>` : ''}
<table>${rows([
      [
        'target',
        `${r.target.name} (${r.target.surface}${r.target.embedded ? ', embedded reference' : ''}) ` +
          `${r.target.baseUrl}${r.target.fault ? ` — fault ${r.target.fault}` : ''}`,
      ],
      [
        'load',
        `${r.profile.effective.rate} req/s requested, ${r.profile.effective.connections} ` +
          `connections, ${r.profile.effective.warmupS} s warm-up + ${measured} (${r.profile.ceiling})${shard}`,
      ],
      ['model', r.model.summary],
      [
        'requests (measured)',
        `${num(m.requests, 0)} at ${num(m.rate)} req/s (${num(m.rate_achieved, 1)}% of requested)`,
      ],
      [
        'latency (corrected)',
        `p50 ${num(m.p50)} ms · p90 ${num(m.p90)} ms · p95 ${num(m.p95)} ms · p99 ${num(m.p99)} ms · max ${num(m.max)} ms`,
      ],
      ['errors', `${num(m.errors, 3)}% (transport errors ${num(m.transport_errors, 0)})`],
      [
        'contract',
        `${r.contract.sampled} responses validated against the ${r.contract.family} contract, ` +
          `${r.contract.violations} violations${r.contract.should ? `, ${r.contract.should} SHOULD departures (not failing)` : ''}`,
      ],
      ['started', `${r.startedAt} → ${r.finishedAt}`],
    ])}</table>
${latencyTable}
<div class="charts">${charts.join('\n')}</div>
${
  thresholds
    ? `<h2>Thresholds</h2><p>Limits, not rules of the seeds; the rule checks are below. A ` +
      `latency, error or rate budget decides the run only when you set it ` +
      `(<code>--threshold</code>); the profile's suggested budgets are figures.</p>` +
      `<table><tr><th>threshold</th><th>limit</th><th>measured</th><th>result</th></tr>${thresholds}</table>`
    : ''
}
${checks ? `<h2>Checks</h2><table><tr><th>rule</th><th>check</th><th>result</th></tr>${checks}</table>` : ''}
${violations ? `<h2>Contract violations (first ${r.contract.examples.length})</h2><ul>${violations}</ul>` : ''}
<h2>Status codes (measured)</h2><p>${esc(
      Object.entries(r.statusCodes)
        .map(([k, v]) => `${k} ×${v}`)
        .join(', ') || 'none',
    )}</p>
${figures}
${r.notes.length ? `<h2>Notes</h2><ul>${r.notes.map((n) => `<li>${esc(n)}</li>`).join('')}</ul>` : ''}
<h2>Environment</h2><table>${rows(env)}</table>
</body></html>
`
  );
}
