// Real test locations when the suite runs from an installed package. Playwright leaves
// files under node_modules to tsx, whose output is one line per file, so every test
// there is reported at line 1 (`errors.spec.ts:1:524`). Listed first among the
// reporters, this one puts each such test back on the line of its `test(` call, found by
// its title in the source, before any other reporter prints it.
import { readFileSync } from 'node:fs';
import type { FullConfig, Reporter, Suite } from '@playwright/test/reporter';

const sources = new Map<string, string[] | undefined>();

function linesOf(file: string): string[] | undefined {
  if (!sources.has(file)) {
    try {
      sources.set(file, readFileSync(file, 'utf8').split('\n'));
    } catch {
      sources.set(file, undefined);
    }
  }
  return sources.get(file);
}

/** The 1-based line and column of the `test(` call whose title is `title`, or undefined. */
function locateTest(lines: string[], title: string): { line: number; column: number } | undefined {
  const forms = [`'${title.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`, JSON.stringify(title), `\`${title}\``];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (!forms.some((f) => line.includes(f))) continue;
    const call = line.search(/\btest(\.\w+)?\(/);
    return { line: i + 1, column: (call >= 0 ? call : line.search(/\S/)) + 1 };
  }
  return undefined;
}

export default class Locations implements Reporter {
  onBegin(_config: FullConfig, suite: Suite): void {
    for (const t of suite.allTests()) {
      if (t.location.line !== 1 || !t.location.file.includes('node_modules')) continue;
      const lines = linesOf(t.location.file);
      const found = lines && locateTest(lines, t.title);
      if (found) Object.assign(t.location, found);
    }
  }

  printsToStdio(): boolean {
    return false;
  }
}
