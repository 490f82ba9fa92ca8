// Writes one run's three files: reports/load/<profile>-<time>.{json,md,html}, under the
// working folder (REPORTS_DIR, default ./reports), as the conformance reports are.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { LoadReport } from '../engine.ts';
import { renderHtml } from './html.ts';
import { renderMarkdown } from './markdown.ts';
import { environment } from '../../lib/config/env.ts';

export function defaultReportDir(env: Record<string, string | undefined> = environment()): string {
  return path.resolve(env.REPORTS_DIR ?? 'reports', 'load');
}

export interface Written {
  json: string;
  markdown: string;
  html: string;
}

export async function writeReports(report: LoadReport, dir = defaultReportDir()): Promise<Written> {
  await mkdir(dir, { recursive: true });
  const stamp = report.startedAt.replace(/\.\d+Z$/, 'Z').replace(/:/g, '-');
  const base = path.join(dir, `${report.profile.name}-${stamp}`);
  const out = { json: `${base}.json`, markdown: `${base}.md`, html: `${base}.html` };
  await writeFile(out.json, `${JSON.stringify(report, null, 2)}\n`);
  await writeFile(out.markdown, renderMarkdown(report));
  await writeFile(out.html, renderHtml(report));
  return out;
}
