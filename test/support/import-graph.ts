// The project's one import graph, for the architecture tests (test/unit/architecture.test.ts).
// Every module of the repository's own code (the product, the reference, the entry points,
// scripts, load, bench and the tests) is a node; every static `import` and `export … from`
// (`import type` too: a type-only edge still ties two modules' meanings together) and every
// `import()` of a literal specifier is an edge. TypeScript's own pre-processor reads the
// specifiers, so an import written in a comment or a string is none.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '../..');

/** The folders whose modules are nodes, and the entry points at the top. */
export const SOURCE_DIRS = [
  'bench',
  'cli',
  'fixtures',
  'lib',
  'load',
  'reference',
  'report',
  'scripts',
  'specs',
  'test',
] as const;
const TOP_FILES = ['playwright.config.ts', 'merge.config.ts'];
const MODULE = /\.(ts|mts|mjs|js)$/;

export interface ImportGraph {
  /** Module (repository-relative, `/`-separated) → the project modules it imports. */
  readonly edges: ReadonlyMap<string, readonly string[]>;
  /** Module → relative specifiers of a module (.ts, .mts, .mjs, .js) that name no file: the graph's own sanity test. */
  readonly unresolved: ReadonlyMap<string, readonly string[]>;
}

function modules(dir: string): string[] {
  const abs = path.join(ROOT, dir);
  if (!existsSync(abs)) return [];
  return readdirSync(abs, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && MODULE.test(e.name) && !e.name.endsWith('.d.ts') && !e.name.endsWith('.d.mts'))
    .map((e) => path.relative(ROOT, path.join(e.parentPath, e.name)).split(path.sep).join('/'));
}

type PreProcess = (
  text: string,
  readImportFiles: boolean,
  detectJavaScriptImports: boolean,
) => { importedFiles: Array<{ fileName: string }> };

let built: ImportGraph | undefined;

/** The graph, built once per process. */
export function importGraph(): ImportGraph {
  if (built) return built;
  // Loaded here only: TypeScript is a development dependency no product module needs.
  const preProcessFile = (createRequire(import.meta.url)('typescript') as { preProcessFile: PreProcess })
    .preProcessFile;
  const files = [...SOURCE_DIRS.flatMap(modules), ...TOP_FILES.filter((f) => existsSync(path.join(ROOT, f)))];
  const edges = new Map<string, string[]>();
  const unresolved = new Map<string, string[]>();
  for (const file of files) {
    const specifiers = preProcessFile(readFileSync(path.join(ROOT, file), 'utf8'), true, true).importedFiles.map(
      (f) => f.fileName,
    );
    const targets: string[] = [];
    for (const spec of specifiers.filter((s) => s.startsWith('./') || s.startsWith('../'))) {
      const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), spec));
      if (existsSync(path.join(ROOT, target))) targets.push(target);
      else if (MODULE.test(spec)) (unresolved.get(file) ?? unresolved.set(file, []).get(file)!).push(spec);
    }
    edges.set(file, [...new Set(targets)]);
  }
  built = { edges, unresolved };
  return built;
}

/** Whether a module lies under one of the folders (`lib`, `reference/faults`). */
export function under(file: string, ...dirs: string[]): boolean {
  return dirs.some((d) => file === d || file.startsWith(`${d}/`));
}

/** Tarjan's strongly connected components of more than one module (and self-imports): the import circles. */
export function circles(edges: ReadonlyMap<string, readonly string[]>): string[][] {
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
    for (const w of edges.get(v) ?? []) {
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
    if (component.length > 1 || (edges.get(v) ?? []).includes(v)) found.push(component.sort());
  };
  for (const v of edges.keys()) if (!index.has(v)) visit(v);
  return found;
}

/**
 * The shortest import chain from `from` to a module `stop` accepts (breadth first), or
 * undefined when none is reachable: the message of a layering failure names the path.
 */
export function chainTo(
  edges: ReadonlyMap<string, readonly string[]>,
  from: string,
  stop: (file: string) => boolean,
): string[] | undefined {
  const via = new Map<string, string | undefined>([[from, undefined]]);
  const queue = [from];
  while (queue.length > 0) {
    const file = queue.shift()!;
    if (file !== from && stop(file)) {
      const chain: string[] = [];
      for (let f: string | undefined = file; f !== undefined; f = via.get(f)) chain.unshift(f);
      return chain;
    }
    for (const next of edges.get(file) ?? []) {
      if (via.has(next)) continue;
      via.set(next, file);
      queue.push(next);
    }
  }
  return undefined;
}
