// reports/conformance.html: the verdict, the failures grouped by rule with the seed
// statement each rests on, the matrix, and the seed statements this run did not judge.
// With the user's copy of the seeds (run --seeds DIR) a failure shows the statement
// itself; without it, its section and line.
import type { ConformanceReport } from './report.ts';
import type { Surface } from '../lib/families.ts';
import { seedLocation } from '../lib/rules.ts';
import { statementText } from '../lib/seeds/runtime.ts';
import type { SeedStatements } from '../lib/seeds/statements.ts';
import { seedCoverageLine } from './seed-coverage.ts';
import { countsLine } from './markdown.ts';
import { passiveHtml, passiveLabel } from './passive-section.ts';

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export function toHtml(report: ConformanceReport, seeds?: SeedStatements): string {
  const surfaces = [...new Set(report.rules.flatMap((r) => Object.keys(r.results)))] as Surface[];
  const s = report.summary;
  const failing = report.rules.filter((r) => Object.values(r.results).some((c) => c?.status === 'fail'));
  const quote = (ref: Parameters<typeof statementText>[0]) => {
    const text = seeds ? statementText(ref, seeds) : undefined;
    return text ? `<blockquote>${esc(text)}</blockquote>` : '';
  };
  const failures = failing.map(
    (r) => `<section class="fail"><h3><code>${esc(r.id)}</code> ${r.level}${r.source !== 'seed' ? ` (${esc(r.source)})` : ''}</h3>
<p>${esc(r.summary)}</p><p class="seed">seed: ${esc(seedLocation(r))}</p>${r.seed_refs.map(quote).join('')}
<ul>${Object.entries(r.results)
      .filter(([, c]) => c?.status === 'fail')
      .map(([sf, c]) => `<li><b>${esc(sf)}</b>: ${esc(c!.reason ?? '')}</li>`)
      .join('')}</ul></section>`,
  );
  const unjudged = report.seed_coverage?.not_judged ?? [];
  const sections = [...new Set(unjudged.map((u) => `${u.at[0]} § ${u.section}`))];
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Conformance: ${esc(report.target.name)}</title>
<style>body{font:14px system-ui,sans-serif;margin:2em;max-width:80em}td,th{border:1px solid #ccc;padding:2px 6px}table{border-collapse:collapse}
.pass{background:#dfd}.fail{background:#fdd}.error{background:#fec}.skipped,.not_covered,.not_run{color:#666}section.fail{padding:4px 12px;margin:8px 0}
blockquote{border-left:3px solid #999;margin:4px 0;padding-left:8px;color:#333}.seed{color:#555}</style></head><body>
<h1>Conformance: ${esc(report.target.name)} — ${esc(s.verdict.toUpperCase())}</h1>
<p>${esc(s.reason ?? '')}</p><p>${esc(countsLine(report))}</p>
${report.seed_coverage ? `<p>${esc(seedCoverageLine(report.seed_coverage))}</p>` : ''}
${report.run_errors?.length ? `<h2>The suite could not judge this target</h2><ul>${report.run_errors.map((e) => `<li>${esc(e)}</li>`).join('')}</ul>` : ''}
${failures.length ? `<h2>Failures (${failures.length} rules)</h2>${failures.join('\n')}` : ''}
${report.load?.profiles.length ? `<h2>Load profiles (${report.load.profiles.length})</h2><p>Their rule checks judge the <code>LOAD.*</code> cells and count in the verdict; their thresholds are your limits, in their own reports only.</p><ul>${report.load.profiles
    .map((r) => `<li><b>${esc(r.profile)}</b> on ${esc(r.surface)}${r.fault ? ` (fault ${esc(r.fault)})` : ''}: ${esc(r.verdict.toUpperCase())}${r.skip_reason ? ` — ${esc(r.skip_reason)}` : ''} — ${r.report ? `<a href="${esc(r.report.html)}">report</a> (<a href="${esc(r.report.markdown)}">markdown</a>, <a href="${esc(r.report.json)}">json</a>)` : `not run: ${esc(r.checks[0]?.what ?? 'it could not start')}`}</li>`)
    .join('')}</ul>` : ''}
${report.passive ? passiveHtml(report.passive) : ''}
<h2>Rules</h2><table><tr><th>Rule</th><th>Level</th>${surfaces.map((x) => `<th>${esc(x)}</th>`).join('')}<th>Seed</th></tr>
${report.rules
  .filter((r) => Object.values(r.results).some((c) => c?.status !== 'not_run'))
  .map((r) => `<tr><td title="${esc(r.summary)}"><code>${esc(r.id)}</code></td><td>${r.level}</td>${surfaces.map((sf) => {
      const c = r.results[sf];
      return `<td class="${c?.status ?? ''}" title="${esc(c?.reason ?? '')}">${esc(c ? (passiveLabel(report, c.status, c.reason) ?? c.status.replace('_', ' ')) : '—')}</td>`;
    }).join('')}<td>${esc(seedLocation(r))}</td></tr>`)
  .join('\n')}</table>
${sections.length ? `<h2>Seed statements not judged in this run (${unjudged.length})</h2>${sections
    .map((sec) => `<h3>${esc(sec)}</h3><ul>${unjudged.filter((u) => `${u.at[0]} § ${u.section}` === sec).map((u) => `<li>line ${esc(u.at.split(':')[1]!)}: ${esc(u.says)} — <i>${esc(u.why)}</i></li>`).join('')}</ul>`)
    .join('\n')}` : ''}
${report.seed_coverage?.not_proven?.length ? `<h2>Seed statements judged but not proven (${report.seed_coverage.not_proven.length})</h2><ul>${report.seed_coverage.not_proven.map((u) => `<li>${esc(u.at[0]!)} § ${esc(u.section)}, line ${esc(u.at.split(':')[1]!)}: ${esc(u.says)} — <i>${esc(u.why)}</i></li>`).join('')}</ul>` : ''}
</body></html>
`;
}
