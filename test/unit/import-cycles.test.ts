// No import circle in the project's own source: every `import` and `export … from` of a
// relative .ts path counts, `import type` included (a type-only circle still ties two
// modules' meanings together, and the issue that asked for this measured those too).
// Each circle is reported as the modules of one strongly connected component.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../..');
const DIRS = ['reference', 'lib', 'load', 'report', 'cli', 'fixtures', 'specs', 'scripts'];
const IMPORT = /(?:^|\n)\s*(?:import|export)(?:\s+type)?\s+(?:[^'";]*?\s+from\s+)?['"](\.[^'"]+\.ts)['"]/g;

function sources(dir: string): string[] {
  const abs = path.join(root, dir);
  if (!existsSync(abs)) return [];
  return readdirSync(abs).flatMap((name) => {
    const rel = path.join(dir, name);
    if (statSync(path.join(root, rel)).isDirectory()) return sources(rel);
    return name.endsWith('.ts') ? [rel] : [];
  });
}

function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of DIRS.flatMap(sources)) {
    const text = readFileSync(path.join(root, file), 'utf8');
    const targets = [...text.matchAll(IMPORT)].map((m) => path.normalize(path.join(path.dirname(file), m[1])));
    graph.set(file, targets.filter((t) => existsSync(path.join(root, t))));
  }
  return graph;
}

/** Tarjan's strongly connected components of more than one module (and self-imports). */
function circles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || (graph.get(v) ?? []).includes(v)) found.push(component.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

test('the import graph finds the imports it should (sanity)', () => {
  const graph = importGraph();
  assert.ok(graph.size > 100, `only ${graph.size} source files found`);
  assert.ok(graph.get(path.normalize('reference/server.ts'))?.some((t) => t.startsWith('reference/surfaces/')), 'reference/server.ts imports the surfaces');
  assert.deepEqual(circles(new Map([['a.ts', ['b.ts']], ['b.ts', ['a.ts']], ['c.ts', ['a.ts']]])), [['a.ts', 'b.ts']]);
});

test('no import circle in the project source (reference/, lib/, load/, report/, cli/, fixtures/, specs/, scripts/)', () => {
  const found = circles(importGraph());
  assert.deepEqual(found, [], `import circles (break each by moving what both sides need into a leaf module):\n${found.map((c) => `  ${c.join(' -> ')}`).join('\n')}`);
});
