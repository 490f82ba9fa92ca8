// Fault units import their type from reference/faults/unit.ts; reference/faults.ts only
// gathers them. No module a unit loads leads back to reference/faults.ts (no import circle).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../..');
const AGGREGATE = path.join(ROOT, 'reference/faults.ts');
const SPECIFIER = /(?:^|\n)\s*(?:import|export)\s[^;]*?\sfrom\s+['"](\.{1,2}\/[^'"]+)['"]/g;

function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? tsFiles(full) : full.endsWith('.ts') ? [full] : [];
  });
}

/** The local modules a file imports (type-only imports too: they are edges of the graph a reader follows). */
function importsOf(file: string): string[] {
  return [...readFileSync(file, 'utf8').matchAll(SPECIFIER)].map((m) => path.resolve(path.dirname(file), m[1])).filter((f) => existsSync(f));
}

test('no module under reference/faults/ reaches reference/faults.ts through its imports', () => {
  const imports = new Map<string, string[]>();
  const edges = (f: string) => imports.get(f) ?? imports.set(f, importsOf(f)).get(f)!;
  const units = tsFiles(path.join(ROOT, 'reference/faults'));
  assert.ok(units.some((f) => f.endsWith('unit.ts')));
  for (const unit of units) {
    // Breadth first, keeping how each module was reached, for the message.
    const from = new Map<string, string | undefined>([[unit, undefined]]);
    const queue = [unit];
    while (queue.length) {
      const file = queue.shift()!;
      if (file === AGGREGATE) {
        const chain: string[] = [];
        for (let f: string | undefined = file; f; f = from.get(f)) chain.unshift(path.relative(ROOT, f));
        assert.fail(`import circle: ${chain.join(' → ')} (which imports the units)`);
      }
      for (const next of edges(file)) {
        if (from.has(next)) continue;
        from.set(next, file);
        queue.push(next);
      }
    }
  }
});
