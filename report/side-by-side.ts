// Several runs side by side: one row per rule, one column per implementation (a run's
// target, and its surface when the run had several), like an implementations table.
// Cells are the runs' own statuses; a rule a run did not apply to reads "—".
import type { ConformanceReport } from './report.ts';
import { MARK } from './markdown.ts';

export interface Column {
  label: string;
  file: string;
  surface: string;
  verdict: string;
}

export interface SideBySide {
  columns: Column[];
  rows: Array<{ id: string; level: string; summary: string; cells: string[] }>;
  markdown: string;
}

const esc = (s: string) => s.replace(/\|/g, '\\|');

export function sideBySide(runs: Array<{ file: string; report: ConformanceReport }>): SideBySide {
  const columns: Column[] = [];
  const cellOf: Array<(id: string) => string> = [];
  for (const { file, report } of runs) {
    const surfaces = report.target.surfaces.map((s) => s.surface);
    const byId = new Map(report.rules.map((r) => [r.id, r]));
    for (const surface of surfaces) {
      columns.push({ label: surfaces.length > 1 ? `${report.target.name} (${surface})` : report.target.name, file, surface, verdict: report.summary.verdict });
      cellOf.push((id) => (byId.get(id)?.results as Record<string, { status: string } | undefined> | undefined)?.[surface]?.status ?? '');
    }
  }
  // Two runs of targets with the same name are told apart by their file.
  const counts = new Map<string, number>();
  for (const c of columns) counts.set(c.label, (counts.get(c.label) ?? 0) + 1);
  for (const c of columns) if (counts.get(c.label)! > 1) c.label = `${c.label} [${c.file}]`;

  const seen = new Map<string, { level: string; summary: string }>();
  for (const { report } of runs) for (const r of report.rules) if (!seen.has(r.id)) seen.set(r.id, { level: r.level, summary: r.summary });
  const rows = [...seen]
    .map(([id, r]) => ({ id, ...r, cells: cellOf.map((f) => f(id)) }))
    // A rule none of the runs had a cell for says nothing about any of them.
    .filter((r) => r.cells.some((c) => c !== '' && c !== 'not_run'));

  const header = `| Rule | Level | ${columns.map((c) => esc(c.label)).join(' | ')} |`;
  const lines = [
    '# Conformance side by side',
    '',
    `Runs: ${runs.map((r) => `\`${r.file}\` (${r.report.target.name}, ${r.report.generated_at})`).join(', ')}`,
    '',
    header,
    `| - | - | ${columns.map(() => '-').join(' | ')} |`,
    `| **verdict** | | ${columns.map((c) => `**${c.verdict.toUpperCase()}**`).join(' | ')} |`,
    ...rows.map((r) => `| \`${r.id}\` | ${r.level} | ${r.cells.map((c) => (c ? (MARK[c] ?? c) : '—')).join(' | ')} |`),
    '',
  ];
  return { columns, rows, markdown: lines.join('\n') };
}

const html = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export function sideBySideHtml(t: SideBySide): string {
  const cell = (c: string) => `<td class="${c || 'na'}">${html(c ? c.replace('_', ' ') : '—')}</td>`;
  return `<!doctype html>
<meta charset="utf-8"><title>Conformance side by side</title>
<style>
body{font:14px system-ui,sans-serif;margin:2em}table{border-collapse:collapse}th,td{border:1px solid #ccc;padding:3px 8px;text-align:left}
th{background:#f4f4f4;position:sticky;top:0}.pass{background:#dff5dd}.fail{background:#f8d0d0;font-weight:bold}.error{background:#fde3b0;font-weight:bold}
.skipped,.not_covered,.not_run,.na{color:#777}td.id{font-family:monospace}
</style>
<h1>Conformance side by side</h1>
<table>
<tr><th>Rule</th><th>Level</th>${t.columns.map((c) => `<th title="${html(c.file)}">${html(c.label)}</th>`).join('')}</tr>
<tr><th>verdict</th><th></th>${t.columns.map((c) => cell(c.verdict)).join('')}</tr>
${t.rows.map((r) => `<tr><td class="id" title="${html(r.summary)}">${html(r.id)}</td><td>${r.level}</td>${r.cells.map(cell).join('')}</tr>`).join('\n')}
</table>
`;
}
