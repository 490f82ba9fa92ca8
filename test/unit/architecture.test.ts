// The project's architecture, stated over one import graph (test/support/import-graph.ts):
// static imports, `export … from`, `import type` and `import()` of every module, the tests,
// load, bench and scripts included. Each rule is its own test; a failure names the modules
// (and, for a layering rule, the chain of imports) that break it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chainTo, circles, importGraph, SOURCE_DIRS, under } from '../support/import-graph.ts';

const { edges, unresolved } = importGraph();
const modulesUnder = (...dirs: string[]): string[] => [...edges.keys()].filter((f) => under(f, ...dirs));
/** The direct imports from `from` into `into`, as "a -> b" lines. */
const importsInto = (from: string[], into: (file: string) => boolean): string[] =>
  modulesUnder(...from).flatMap((f) => (edges.get(f) ?? []).filter(into).map((t) => `${f} -> ${t}`));

test('the import graph sees every folder, static and dynamic imports, and resolves every relative module import (sanity)', () => {
  for (const dir of SOURCE_DIRS) assert.ok(modulesUnder(dir).length > 0, `no module found under ${dir}/`);
  assert.ok(edges.size > 300, `only ${edges.size} modules found`);
  assert.ok(
    edges.get('reference/server.ts')?.some((t) => t.startsWith('reference/surfaces/')),
    'reference/server.ts imports the surfaces',
  );
  assert.ok(
    edges.get('cli/run.ts')?.includes('reference/faults.ts'),
    "cli/run.ts's import() of reference/faults.ts is an edge",
  );
  assert.ok(
    edges.get('test/unit/suite-bounds.test.ts')?.includes('lib/v2/jobs.ts'),
    "a test's top-level await import() is an edge",
  );
  assert.ok(
    edges.get('playwright.config.ts')?.includes('fixtures/test.ts'),
    'the entry points at the top are modules of the graph',
  );
  assert.deepEqual(
    circles(
      new Map([
        ['a.ts', ['b.ts']],
        ['b.ts', ['a.ts']],
        ['c.ts', ['a.ts']],
      ]),
    ),
    [['a.ts', 'b.ts']],
  );
  assert.deepEqual(
    [...unresolved].map(([f, specs]) => `${f}: ${specs.join(', ')}`),
    [],
    'relative imports that name no file',
  );
});

test('no import circle anywhere in the project', () => {
  const found = circles(edges);
  assert.deepEqual(
    found,
    [],
    `import circles (break each by moving what both sides need into a leaf module):\n${found.map((c) => `  ${c.join(' -> ')}`).join('\n')}`,
  );
});

test('no fault unit (reference/faults/) reaches reference/faults.ts, which gathers the units', () => {
  const units = modulesUnder('reference/faults');
  assert.ok(units.includes('reference/faults/unit.ts'), 'the fault units are in the graph');
  const chains = units.map((u) => chainTo(edges, u, (f) => f === 'reference/faults.ts')).filter((c) => c !== undefined);
  assert.deepEqual(
    chains.map((c) => c.join(' -> ')),
    [],
    'import circles through the fault catalogue',
  );
});

test('the suite (lib/, fixtures/, specs/, report/) imports no module of the reference', () => {
  // The suite learns the embedded reference's credentials from targets.yaml (test/unit/reference-dev-credentials.test.ts).
  assert.deepEqual(
    importsInto(['lib', 'fixtures', 'specs', 'report'], (t) => under(t, 'reference')),
    [],
  );
});

test("lib/ imports nothing of the Playwright layer (fixtures/, specs/) or of the project's own tests (test/)", () => {
  assert.deepEqual(
    importsInto(['lib'], (t) => under(t, 'fixtures', 'specs', 'test')),
    [],
  );
});

test('no module outside test/ imports the self-test (test/)', () => {
  const outside = [...edges.keys()].filter((f) => !under(f, 'test'));
  assert.deepEqual(
    outside.flatMap((f) => (edges.get(f) ?? []).filter((t) => under(t, 'test')).map((t) => `${f} -> ${t}`)),
    [],
  );
});
