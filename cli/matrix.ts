// `matrix`: several runs' conformance.json side by side (report/side-by-side.ts).
import { readFileSync, writeFileSync } from 'node:fs';
import type { ConformanceReport } from '../report/report.ts';
import { sideBySide, sideBySideHtml } from '../report/side-by-side.ts';
import { splitArgs, UsageError } from './args.ts';

export function matrix(args: string[]): number {
  const { flags, rest } = splitArgs(args, ['html', 'out'], ['differences']);
  if (rest.length === 0) throw new UsageError('matrix needs one or more conformance.json files');
  const reports = rest.map((file) => {
    try {
      const r = JSON.parse(readFileSync(file, 'utf8')) as ConformanceReport;
      if (!r.summary || !Array.isArray(r.rules)) throw new Error('no summary and rules');
      return { file, report: r };
    } catch (err) {
      throw new UsageError(`${file} is not a conformance.json: ${(err as Error).message}`);
    }
  });
  const table = sideBySide(reports, { differencesOnly: flags.has('differences') });
  if (flags.has('out')) writeFileSync(flags.get('out')!, table.markdown);
  else process.stdout.write(table.markdown);
  if (flags.has('html')) writeFileSync(flags.get('html')!, sideBySideHtml(table));
  return 0;
}
