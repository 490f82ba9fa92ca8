// reports/conformance.html: the verdict, the causes of red tests, the failures grouped by
// rule (each with why, expected, received, the seed statement it rests on and a curl that
// reproduces it, all shown without hovering), the matrix with every skip and error reason
// written out, and the seed statements this run did not judge. The statements are quoted
// from the user's copy of the seeds (lib/seeds/runtime.ts finds it); without one a failure
// names its section and line. Links lead to the run's other reports.
import type { ConformanceReport } from './report.ts';
import type { Cell, RuleRow } from './matrix.ts';
import type { Surface } from '../lib/families.ts';
import { seedLocation } from '../lib/rules.ts';
import { quotedRefs, statementText } from '../lib/seeds/runtime.ts';
import type { SeedStatements } from '../lib/seeds/statements.ts';
import { seedCoverageLine } from './seed-coverage.ts';
import { countsLine } from './markdown.ts';
import { isExpected } from './baseline.ts';
import type { CellViolation } from './violations-list.ts';

/** A received body in a one-line summary: its start (the failure card has it whole). */
const short = (s: string, max = 160) => (s.length > max ? `${s.slice(0, max)}…` : s);
import { passiveHtml, passiveLabel } from './passive-section.ts';

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** The run's other reports, beside this one in the reports folder (Playwright's html/ and junit.xml when it wrote them). */
function links(report: ConformanceReport): string {
  const own = [
    ['conformance.md', 'Markdown'],
    ['conformance.json', 'JSON'],
    ['junit.xml', 'JUnit'],
    ['html/index.html', "Playwright's report (transcripts)"],
  ];
  const load = (report.load?.profiles ?? []).flatMap((p) => (p.report ? [[p.report.html, `load: ${p.profile}`]] : []));
  return `<nav class="links">Reports of this run: ${[...own, ...load].map(([href, label]) => `<a href="${esc(href)}">${esc(label)}</a>`).join(' · ')}</nav>`;
}

function violationHtml(v: CellViolation): string {
  const operation = v.operation && !v.what.startsWith(v.operation) ? `<code>${esc(v.operation)}</code> ` : '';
  const count = v.count > 1 ? ` <span class="count">(${v.count} times)</span>` : '';
  const exchange = v.exchange ? `<dt>Exchange</dt><dd class="exchange">${esc(v.exchange)}</dd>` : '';
  return (
    `<div class="violation">
<p class="why"><b>Why:</b> ${operation}${esc(v.what)}${count}</p>
<dl><dt>Expected</dt><dd class="expected">${esc(v.expected)}</dd><dt>Received</dt>` +
    `<dd class="received">${esc(v.received)}</dd>${exchange}<dt>Test</dt><dd class="test">${esc(v.test)}</dd></dl>
${v.curl ? `<p class="label">Reproduce:</p><pre class="curl">${esc(v.curl)}</pre>` : ''}
</div>`
  );
}

function failedCell(r: RuleRow, sf: string, c: Cell, report: ConformanceReport): string {
  const expected = isExpected(report.baseline, r.id, sf)
    ? ' <span class="expected-failure">(expected failure, baseline)</span>'
    : '';
  const listed = c.violations ?? [];
  // A cell from a report written before violations were listed: its reason and curl.
  const body = listed.length
    ? listed.map(violationHtml).join('\n') +
      (c.violations_more ? `<p class="more">… and ${c.violations_more} more (conformance.json)</p>` : '')
    : `<p class="why"><b>Why:</b> ${esc(c.reason ?? '')}</p>${c.curl ? `<p class="label">Reproduce:</p><pre class="curl">${esc(c.curl)}</pre>` : ''}`;
  const distinct = listed.length > 1 ? ` — ${listed.length + (c.violations_more ?? 0)} distinct violations` : '';
  return `<div class="surface"><h4>on ${esc(sf)}${expected}${distinct}</h4>\n${body}</div>`;
}

function quotes(r: RuleRow, seeds: SeedStatements | undefined): string {
  if (!seeds) return '';
  const first = Object.values(r.results).find((c) => c?.status === 'fail')?.violations?.[0];
  return quotedRefs(r, first ?? { what: '' }, seeds)
    .map((ref) => {
      const text = statementText(ref, seeds);
      return text
        ? `<blockquote class="statement">${esc(text)} <cite>${esc(`${ref.seed}:${ref.line}`)}</cite></blockquote>`
        : '';
    })
    .join('');
}

export function toHtml(report: ConformanceReport, seeds?: SeedStatements): string {
  const surfaces = [...new Set(report.rules.flatMap((r) => Object.keys(r.results)))] as Surface[];
  const s = report.summary;
  const failing = report.rules.filter((r) => Object.values(r.results).some((c) => c?.status === 'fail'));
  const failures = failing.map(
    (
      r,
    ) => `<section class="failure" id="${esc(r.id)}"><h3><code>${esc(r.id)}</code> ${r.level}${r.source !== 'seed' ? ` (${esc(r.source)})` : ''}</h3>
<p>${esc(r.summary)}</p><p class="seed">Seed: ${esc(seedLocation(r))}</p>${quotes(r, seeds)}
${Object.entries(r.results)
  .filter(([, c]) => c?.status === 'fail')
  .map(([sf, c]) => failedCell(r, sf, c, report))
  .join('\n')}</section>`,
  );
  const causes = report.causes ?? [];
  const unjudged = report.seed_coverage?.not_judged ?? [];
  const sections = [...new Set(unjudged.map((u) => `${u.at[0]} § ${u.section}`))];
  const cellHtml = (c: Cell | undefined) => {
    if (!c) return '<td class="na">—</td>';
    const why =
      c.status !== 'pass' && c.status !== 'not_run' && c.reason ? `<div class="reason">${esc(c.reason)}</div>` : '';
    return `<td class="${c.status}"><span class="status">${esc(passiveLabel(report, c.status, c.reason) ?? c.status.replace('_', ' '))}</span>${why}</td>`;
  };
  return (
    `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<title>Conformance: ${esc(report.target.name)}</title>
<style>
body{font:14px system-ui,sans-serif;margin:2em;max-width:90em;overflow-wrap:anywhere}
td,th{border:1px solid #ccc;padding:3px 6px;vertical-align:top;text-align:left}table{border-collapse:collapse;table-layout:fixed;width:100%}
th.rule{width:18em}th.level{width:5em}
.pass{background:#dfd}.fail{background:#fdd}.error{background:#fec}.skipped,.not_covered,.not_run,.na{color:#555}
.reason{font-size:12px;color:#333;margin-top:2px}
section.failure{border:1px solid #e4a0a0;border-left:6px solid #c33;background:#fff7f7;padding:6px 14px;margin:10px 0}
.surface{margin:6px 0 10px}.violation{border-top:1px dashed #e4b4b4;padding-top:6px;margin-top:6px}
dl{display:grid;grid-template-columns:max-content 1fr;gap:2px 10px;margin:4px 0}dt{font-weight:bold}` +
    `dd{margin:0;font-family:ui-monospace,monospace;font-size:13px}
pre.curl{background:#272822;color:#f8f8f2;padding:8px;white-space:pre-wrap;word-break:break-all;font-size:12px;max-height:24em;overflow:auto}
blockquote{border-left:3px solid #999;margin:4px 0;padding-left:8px;color:#333}cite{color:#777;font-size:12px}.seed{color:#555}
.cause{margin:4px 0}.links{margin:0 0 1em;color:#555}code{overflow-wrap:anywhere}
</style></head><body>
<h1>Conformance: ${esc(report.target.name)} — ${esc(s.verdict.toUpperCase())}</h1>
${links(report)}
${
  report.target.replay
    ? `<p class="replay"><b>Replay</b> of a recording (${esc(report.target.replay)}): nothing was ` +
      `sent to the server; the current checks judged the recorded answers.</p>`
    : ''
}
<p>${esc(s.reason ?? '')}</p><p>${esc(countsLine(report))}</p>
${report.seed_coverage ? `<p>${esc(seedCoverageLine(report.seed_coverage))}</p>` : ''}
${report.run_errors?.length ? `<h2>The suite could not judge this target</h2><ul>${report.run_errors.map((e) => `<li>${esc(e)}</li>`).join('')}</ul>` : ''}
${
  causes.length
    ? `<h2>Why tests are red (${causes.length} cause${causes.length === 1 ? '' : 's'})</h2><ul class="causes">${causes
        .map(
          (c) =>
            `<li class="cause"><b>${c.tests} test${c.tests === 1 ? '' : 's'}</b> fail${c.tests === 1 ? 's' : ''} because ` +
            (c.rule
              ? `<a href="#${esc(c.rule)}"><code>${esc(c.rule)}</code></a> ` +
                `(${esc(c.level ?? '')}${c.seed ? `, seed: ${esc(c.seed)}` : ''}) broke: ${esc(c.what)} — ` +
                `expected ${esc(c.expected ?? '?')}, received ${esc(short(c.received ?? '?'))}`
              : `the suite ${esc(c.what)}`) +
            `<div class="reason">${esc(c.titles.join('; '))}` +
            `${c.tests > c.titles.length ? ` and ${c.tests - c.titles.length} more` : ''}</div></li>`,
        )
        .join('')}</ul>`
    : ''
}
${
  failures.length
    ? `<h2>Failures (${failures.length} rules)</h2>${
        seeds
          ? ''
          : '<p class="seed">The seed statements are named by section and line: give the run your copy of the seeds ' +
            '(run --seeds DIR, or a seeds/ folder beside the targets file) to quote them here.</p>'
      }${failures.join('\n')}`
    : ''
}
${
  report.load?.profiles.length
    ? `<h2>Load profiles (${report.load.profiles.length})</h2><p>Their rule checks judge the <code>LOAD.*</code> cells ` +
      `and count in the verdict; their thresholds are your limits, in their own reports only.</p><ul>${report.load.profiles
        .map(
          (r) =>
            `<li><b>${esc(r.profile)}</b> on ${esc(r.surface)}${r.fault ? ` (fault ${esc(r.fault)})` : ''}: ` +
            `${esc(r.verdict.toUpperCase())}${r.skip_reason ? ` — ${esc(r.skip_reason)}` : ''} — ` +
            (r.report
              ? `<a href="${esc(r.report.html)}">report</a> (<a href="${esc(r.report.markdown)}">markdown</a>, ` +
                `<a href="${esc(r.report.json)}">json</a>)`
              : `not run: ${esc(r.checks[0]?.what ?? 'it could not start')}`) +
            '</li>',
        )
        .join('')}</ul>`
    : ''
}
${report.passive ? passiveHtml(report.passive) : ''}
<h2>Rules</h2><table><tr><th class="rule">Rule</th><th class="level">Level</th>${surfaces.map((x) => `<th>${esc(x)}</th>`).join('')}<th>Seed</th></tr>
${report.rules
  .filter((r) => Object.values(r.results).some((c) => c?.status !== 'not_run'))
  .map(
    (r) =>
      `<tr><td><code>${esc(r.id)}</code><div class="reason">${esc(r.summary)}</div></td><td>${r.level}</td>` +
      `${surfaces.map((sf) => cellHtml(r.results[sf])).join('')}<td>${esc(seedLocation(r))}</td></tr>`,
  )
  .join('\n')}</table>
${
  sections.length
    ? `<h2>Seed statements not judged in this run (${unjudged.length})</h2>${sections
        .map(
          (sec) =>
            `<h3>${esc(sec)}</h3><ul>${unjudged
              .filter((u) => `${u.at[0]} § ${u.section}` === sec)
              .map((u) => `<li>line ${esc(u.at.split(':')[1])}: ${esc(u.says)} — <i>${esc(u.why)}</i></li>`)
              .join('')}</ul>`,
        )
        .join('\n')}`
    : ''
}
${
  report.seed_coverage?.not_proven?.length
    ? `<h2>Seed statements judged but not proven (${report.seed_coverage.not_proven.length})</h2><ul>${report.seed_coverage.not_proven
        .map(
          (u) =>
            `<li>${esc(u.at[0])} § ${esc(u.section)}, line ${esc(u.at.split(':')[1])}: ` +
            `${esc(u.says)} — <i>${esc(u.why)}</i></li>`,
        )
        .join('')}</ul>`
    : ''
}
</body></html>
`
  );
}
