// Several runs side by side: one row per rule, one column per implementation (a run's
// target and surface), like an implementations table. A column is named by what tells
// it apart from the others (the fault, the target, the surface, then the file); cells are
// the runs' own statuses, and a rule a run did not apply to reads "—". Rows whose cells
// all agree can be left out ("differences only"), counted in one line.
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
  /** Rows whose cells are the same in every column. */
  identical: number;
  markdown: string;
}

const esc = (s: string) => s.replace(/\|/g, '\\|');

/** A cell the run had no say on: the rule is not on that column's surface, or that surface was not in its run. */
const notApplicable = (c: string) => c === '' || c === 'not_run';

/** Whether a row's cells agree wherever the rule applied: a "not applicable" cell is no difference. */
function same(cells: readonly string[]): boolean {
  const applied = cells.filter((c) => !notApplicable(c));
  return applied.every((c) => c === applied[0]);
}

interface Described {
  file: string;
  surface: string;
  verdict: string;
  parts: { target: string; surface: string; variant: string; base_url: string; file: string };
}

/** The shortest description that tells every column apart: only the parts that differ. */
function labels(cols: Described[]): string[] {
  const keys = ['variant', 'target', 'surface', 'base_url', 'file'] as const;
  const differs = keys.filter((k) => new Set(cols.map((c) => c.parts[k])).size > 1);
  const chosen: Array<(typeof keys)[number]> = [];
  for (const k of differs) {
    chosen.push(k);
    const names = cols.map((c) => chosen.map((x) => c.parts[x]).join(' · '));
    if (new Set(names).size === cols.length) break;
  }
  if (chosen.length === 0) chosen.push('target');
  return cols.map((c) => chosen.map((x) => c.parts[x]).join(' · '));
}

export function sideBySide(
  runs: Array<{ file: string; report: ConformanceReport }>,
  options: { differencesOnly?: boolean } = {},
): SideBySide {
  const described: Described[] = [];
  const cellOf: Array<(id: string) => string> = [];
  for (const { file, report } of runs) {
    const t = report.target;
    const variant = t.fault ? `fault ${t.fault}` : t.control ? `control ${t.control}` : 'no fault';
    const byId = new Map(report.rules.map((r) => [r.id, r]));
    for (const { surface, base_url } of t.surfaces) {
      described.push({
        file,
        surface,
        verdict: report.summary.verdict,
        parts: { target: t.name, surface, variant, base_url, file },
      });
      cellOf.push(
        (id) =>
          (byId.get(id)?.results as Record<string, { status: string } | undefined> | undefined)?.[surface]?.status ??
          '',
      );
    }
  }
  const names = labels(described);
  const columns: Column[] = described.map((d, i) => ({
    label: names[i],
    file: d.file,
    surface: d.surface,
    verdict: d.verdict,
  }));

  const seen = new Map<string, { level: string; summary: string }>();
  for (const { report } of runs)
    for (const r of report.rules) if (!seen.has(r.id)) seen.set(r.id, { level: r.level, summary: r.summary });
  const all = [...seen]
    .map(([id, r]) => ({ id, ...r, cells: cellOf.map((f) => f(id)) }))
    // A rule none of the runs had a cell for says nothing about any of them.
    .filter((r) => r.cells.some((c) => c !== '' && c !== 'not_run'));
  const identical = columns.length > 1 ? all.filter((r) => same(r.cells)).length : 0;
  const rows = options.differencesOnly && columns.length > 1 ? all.filter((r) => !same(r.cells)) : all;

  const header = `| Rule | Level | ${columns.map((c) => esc(c.label)).join(' | ')} |`;
  const lines = [
    '# Conformance side by side',
    '',
    `Runs: ${runs.map((r) => `\`${r.file}\` (${r.report.target.name}, ${r.report.generated_at})`).join(', ')}`,
    '',
    ...(options.differencesOnly && columns.length > 1
      ? [
          `Differences only: ${identical} rule${identical === 1 ? '' : 's'} with the same status in ` +
            `every column are left out (a column the rule does not apply to, or whose run left its ` +
            `surface out, is no difference).`,
          '',
        ]
      : []),
    header,
    `| - | - | ${columns.map(() => '-').join(' | ')} |`,
    `| **verdict** | | ${columns.map((c) => `**${c.verdict.toUpperCase()}**`).join(' | ')} |`,
    ...rows.map((r) => `| \`${r.id}\` | ${r.level} | ${r.cells.map((c) => (c ? (MARK[c] ?? c) : '—')).join(' | ')} |`),
    '',
  ];
  return { columns, rows: all, identical, markdown: lines.join('\n') };
}

const html = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
// Short cell words keep many columns on one page; the full word is the cell's title.
const SHORT: Record<string, string> = {
  pass: 'pass',
  fail: 'FAIL',
  error: 'ERR',
  skipped: 'skip',
  not_covered: 'n/c',
  not_run: 'n/r',
};

export function sideBySideHtml(t: SideBySide): string {
  const cell = (c: string) =>
    `<td class="${c || 'na'}" title="${html(c ? c.replace('_', ' ') : 'not applicable')}">${html(c ? (SHORT[c] ?? c) : '—')}</td>`;
  return (
    `<!doctype html>
<meta charset="utf-8"><title>Conformance side by side</title>
<style>
body{font:13px system-ui,sans-serif;margin:1.5em}.wrap{overflow-x:auto;max-width:100%}table{border-collapse:collapse}
th,td{border:1px solid #ccc;padding:2px 5px;text-align:left;white-space:nowrap}th{background:#f4f4f4;position:sticky;top:0}
th.col{writing-mode:vertical-rl;transform:rotate(180deg);max-height:16em;overflow:hidden;text-overflow:ellipsis;vertical-align:bottom}
.pass{background:#dff5dd}.fail{background:#f8d0d0;font-weight:bold}.error{background:#fde3b0;font-weight:bold}
.skipped,.not_covered,.not_run,.na{color:#777}td.id{font-family:monospace}
body:not(.all) tr.same{display:none}
</style>
<h1>Conformance side by side</h1>
<p><label><input type="checkbox" onchange="document.body.classList.toggle('all', this.checked)"> show all rules</label>
— differences only by default: ${t.identical} rule${t.identical === 1 ? '' : 's'} ` +
    `with the same status in every column ${t.identical === 1 ? 'is' : 'are'} hidden.</p>
<div class="wrap"><table>
<tr><th>Rule</th><th>Level</th>${t.columns.map((c) => `<th class="col" title="${html(`${c.label} — ${c.file}`)}">${html(c.label)}</th>`).join('')}</tr>
<tr><th>verdict</th><th></th>${t.columns.map((c) => cell(c.verdict)).join('')}</tr>
${t.rows
  .map(
    (r) =>
      `<tr${t.columns.length > 1 && same(r.cells) ? ' class="same"' : ''}>` +
      `<td class="id" title="${html(r.summary)}">${html(r.id)}</td><td>${r.level}</td>${r.cells.map(cell).join('')}</tr>`,
  )
  .join('\n')}
</table></div>
`
  );
}
