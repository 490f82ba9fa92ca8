// Writes one run's three files: reports/load/<profile>-<time>.{json,md,html}.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { REPO_ROOT } from '../../lib/targets.ts';
import type { LoadReport } from '../engine.ts';
import { renderHtml } from './html.ts';
import { renderMarkdown } from './markdown.ts';

export const DEFAULT_REPORT_DIR = path.join(REPO_ROOT, 'reports', 'load');

export interface Written {
  json: string;
  markdown: string;
  html: string;
}

export async function writeReports(report: LoadReport, dir = DEFAULT_REPORT_DIR): Promise<Written> {
  await mkdir(dir, { recursive: true });
  const stamp = report.startedAt.replace(/\.\d+Z$/, 'Z').replace(/:/g, '-');
  const base = path.join(dir, `${report.profile.name}-${stamp}`);
  const out = { json: `${base}.json`, markdown: `${base}.md`, html: `${base}.html` };
  await writeFile(out.json, `${JSON.stringify(report, null, 2)}\n`);
  await writeFile(out.markdown, renderMarkdown(report));
  await writeFile(out.html, renderHtml(report));
  return out;
}
