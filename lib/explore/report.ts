// The explorer's report across operations: one row per operation (requests sent, answers by
// status, distinct failures, seed), then each distinct failure with its reproduction. Read
// from the per-operation reports the explorer tests write (lib/explore/run.ts).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { OperationReport } from './run.ts';

export function readExploreReports(dir: string): OperationReport[] {
  if (!existsSync(dir)) return [];
  const out: OperationReport[] = [];
  for (const project of readdirSync(dir, { withFileTypes: true }).filter((d) => d.isDirectory())) {
    for (const f of readdirSync(path.join(dir, project.name))
      .filter((n) => n.endsWith('.json'))
      .sort()) {
      try {
        out.push(JSON.parse(readFileSync(path.join(dir, project.name, f), 'utf8')) as OperationReport);
      } catch {
        // a report cut short by an interrupted run: left out
      }
    }
  }
  return out.sort((a, b) => a.project.localeCompare(b.project) || a.operation.localeCompare(b.operation));
}

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

export function exploreMarkdown(reports: OperationReport[]): string {
  const lines = ['# Contract-driven exploration', ''];
  if (reports.length === 0) return [...lines, 'No operation was explored.', ''].join('\n');
  const sent = reports.reduce((n, r) => n + r.sent, 0);
  const failures = reports.reduce((n, r) => n + r.failures.length, 0);
  lines.push(`${reports.length} operation(s), ${sent} requests, ${failures} distinct failure(s).`, '');
  lines.push(
    '| project | operation | requests (valid / mistaken) | answers by status | distinct failures | seed | time |',
    '| - | - | - | - | - | - | - |',
  );
  for (const r of reports) {
    if (r.skipped) {
      lines.push(`| ${r.project} | ${r.operation} | skipped: ${cell(r.skipped)} | | | | |`);
      continue;
    }
    const statuses = Object.entries(r.statuses)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([s, n]) => `${s}×${n}`)
      .join(' ');
    lines.push(
      `| ${r.project} | ${r.operation} | ${r.sent} (${r.valid} / ${r.mistaken})` +
        `${r.interrupted ? ' cut short' : ''}${r.budget ? `, ${cell(r.budget)}` : ''} | ` +
        `${statuses} | ${r.failures.length} | ${r.seed ?? ''} | ${(r.elapsedMs / 1000).toFixed(1)} s |`,
    );
  }
  const withFailures = reports.filter((r) => r.failures.length > 0);
  if (withFailures.length) {
    lines.push('', '## Distinct failures', '');
    for (const r of withFailures) {
      for (const f of r.failures) {
        lines.push(`### ${r.project} ${r.operation}: ${f.rule} (${f.level})`, '');
        lines.push(`- ${cell(f.what)}`, `- request: ${f.case}, answered ${f.status ?? '?'}; seen ${f.count} time(s)`);
        if (f.expected !== undefined) lines.push(`- expected: ${cell(f.expected)}`);
        if (f.received !== undefined) lines.push(`- received: ${cell(f.received.slice(0, 400))}`);
        lines.push(`- replay: ${f.replay}`);
        if (f.curl) lines.push('', '```sh', f.curl, '```');
        lines.push('');
      }
    }
  }
  const observed = reports.filter((r) => r.observations.length > 0);
  if (observed.length) {
    lines.push('', '## Observations (no rule judges them)', '');
    for (const r of observed) for (const o of r.observations) lines.push(`- ${r.project} ${r.operation}: ${cell(o)}`);
  }
  return `${lines.join('\n')}\n`;
}
