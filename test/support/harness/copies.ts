// The spec copies a self-test run's tests run from (plan.ts): `<workDir>/specs/r<k>/<family>/<file>`,
// each the spec's own source with its relative imports re-pointed at the repository, so a
// copy reaches the same modules (the fixtures, lib/: one instance each, as the suite's own
// files do). Beside them a package.json (ES modules, as the repository's) and a link to the
// repository's node_modules, through which packages resolve to the very same files.
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Plan } from './plan.ts';

const ROOT = path.resolve(import.meta.dirname, '../../..');

/** A module's source with every relative import specifier re-pointed from `fromDir` to `toDir`. */
export function repointImports(source: string, fromDir: string, toDir: string): string {
  return source.replace(
    /(\bfrom\s*|\bimport\s*\(?\s*)(['"])(\.\.?\/[^'"]+)\2/g,
    (_m, lead: string, quote: string, spec: string) => {
      let moved = path.relative(toDir, path.resolve(fromDir, spec)).split(path.sep).join('/');
      if (!moved.startsWith('.')) moved = `./${moved}`;
      return `${lead}${quote}${moved}${quote}`;
    },
  );
}

/** Writes the plan's copies (removed with the run's work folder). */
export function writeCopies(plan: Pick<Plan, 'copies' | 'copyDir'>): void {
  mkdirSync(plan.copyDir, { recursive: true });
  writeFileSync(path.join(plan.copyDir, 'package.json'), JSON.stringify({ private: true, type: 'module' }));
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(plan.copyDir, 'node_modules'), 'dir');
  const sources = new Map<string, string>();
  for (const [copy, original] of Object.entries(plan.copies)) {
    const from = path.join(ROOT, original);
    const to = path.join(plan.copyDir, copy);
    let source = sources.get(original);
    if (source === undefined) sources.set(original, (source = readFileSync(from, 'utf8')));
    mkdirSync(path.dirname(to), { recursive: true });
    writeFileSync(to, repointImports(source, path.dirname(from), path.dirname(to)));
  }
}
