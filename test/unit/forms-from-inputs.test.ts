// Issue #29 §4: every request form the seeds do not show comes from a scenario input whose
// default is the public form. Node class names are such a form (seed W names none), and so
// is the asset reference inside a v2 workflow (submit payloads: not shown). This test walks
// the suite's sources (fixtures/, lib/, specs/) and fails, naming file and line, on a node
// class name written as a literal anywhere but in the scenario-input defaults, on a literal
// `class_type`, and on the asset-reference form written out. A listed allowance that no
// longer matches anything fails too, so the list only shrinks.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { createCatalog } from '../../reference/engine/catalog.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const DIRS = ['fixtures', 'lib', 'specs'];

/** The node classes an engine may spell otherwise: every class of the reference's engine. */
const CLASSES = new Set(
  createCatalog()
    .list()
    .map((c) => c.name),
);

/** Where a class name is the default of its scenario input: the one place the public form is written. */
const DEFAULTS: ReadonlyArray<{ file: string; line: RegExp }> = [
  { file: 'lib/data/workflows.ts', line: /^\s*\w+: \{ input: '[a-z_]+_class', default: '\w+' \},$/ },
  { file: 'lib/scenario-inputs.ts', line: /^\s*V2_DEFAULT_CLASS\('[a-z_]+_class', '\w+'\),$/ },
];

/**
 * Forms still written out, each with who moves it into an input. The lead removes an entry
 * when its form has moved (a stale entry fails this test).
 */
const ALLOWED: ReadonlyArray<{ file: string; contains: string; why: string }> = [
  // The default of scenario input asset_reference (the public documents' form), where the input is read.
  {
    file: 'lib/data/workflows.ts',
    contains: "__type: 'core/ASSET'",
    why: 'the default of scenario input asset_reference (issue #29 §4)',
  },
  // v2 files with class names written out, for the v2 engineers to take from the class inputs.
  {
    file: 'lib/explore/families.ts',
    contains: "fc.constantFrom('EmptyImage', 'SaveImage', 'ImageInvert', 'LoadImage'",
    why: "the v2 explorer's graphs name core classes (v2 engineers)",
  },
];

interface Literal {
  value: string;
  line: number;
}

/**
 * The string literals of a TypeScript source (quotes and template parts without `${}`), and the
 * source with its comments blanked, so commented-out or explained names do not count.
 */
function scanSource(src: string): { literals: Literal[]; code: string } {
  const literals: Literal[] = [];
  let code = '';
  let line = 1;
  let i = 0;
  const blank = (ch: string): string => (ch === '\n' ? '\n' : ' ');
  while (i < src.length) {
    const ch = src[i];
    const next = src[i + 1];
    if (ch === '/' && next === '/') {
      while (i < src.length && src[i] !== '\n') code += blank(src[i++]);
      continue;
    }
    if (ch === '/' && next === '*') {
      const end = src.indexOf('*/', i + 2);
      const stop = end === -1 ? src.length : end + 2;
      for (; i < stop; i++) {
        if (src[i] === '\n') line++;
        code += blank(src[i]);
      }
      continue;
    }
    if (ch === "'" || ch === '"' || ch === '`') {
      const start = line;
      let value = '';
      let plain = true;
      code += ch;
      i++;
      while (i < src.length && src[i] !== ch) {
        if (src[i] === '\\') {
          value += src[i + 1] ?? '';
          code += src.slice(i, i + 2);
          i += 2;
          continue;
        }
        if (ch === '`' && src[i] === '$' && src[i + 1] === '{') plain = false;
        if (src[i] === '\n') line++;
        value += src[i];
        code += src[i];
        i++;
      }
      code += src[i] ?? '';
      i++;
      if (plain) literals.push({ value, line: start });
      continue;
    }
    if (ch === '\n') line++;
    code += ch;
    i++;
  }
  return { literals, code };
}

function sources(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts'))
    .map((e) => path.relative(ROOT, path.join(e.parentPath, e.name)));
}

test('the scanner sees literals and ignores comments', () => {
  const { literals, code } = scanSource(
    "const a = 'EmptyImage'; // 'SaveImage'\n/* 'LoadImage' */ const b = `x${'y'}`;\nconst c = \"Sleep\";",
  );
  // A template with substitutions is no literal form (a name built at run time, such as a class the suite invents to be unknown).
  assert.deepEqual(
    literals.map((l) => [l.value, l.line]),
    [
      ['EmptyImage', 1],
      ['Sleep', 3],
    ],
  );
  assert.ok(!code.includes('SaveImage') && !code.includes('LoadImage'));
});

test('node classes and the asset reference form come from scenario inputs: no literal outside their defaults', () => {
  const found: string[] = [];
  const used = new Set<number>();
  for (const file of DIRS.flatMap(sources)) {
    const src = readFileSync(path.join(ROOT, file), 'utf8');
    const lines = src.split('\n');
    const { literals, code } = scanSource(src);
    const codeLines = code.split('\n');
    const allowed = (line: number, what: string): boolean => {
      const text = lines[line - 1] ?? '';
      if (DEFAULTS.some((d) => d.file === file && d.line.test(text))) return true;
      const k = ALLOWED.findIndex((a) => a.file === file && text.includes(a.contains));
      if (k === -1) return false;
      used.add(k);
      return what.length > 0;
    };
    for (const lit of literals) {
      if (CLASSES.has(lit.value) && !allowed(lit.line, lit.value))
        found.push(`${file}:${lit.line}: node class '${lit.value}' written out (take it from its scenario input)`);
      if (lit.value === 'core/ASSET' && !allowed(lit.line, lit.value))
        found.push(`${file}:${lit.line}: the asset reference form written out (take it from a scenario input)`);
    }
    codeLines.forEach((text, k) => {
      if (/\bclass_type\s*:\s*(['"]|`[^`$]*`)/.test(text) && !allowed(k + 1, 'class_type'))
        found.push(`${file}:${k + 1}: a literal class_type (name the class through a scenario input)`);
    });
  }
  assert.deepEqual(found, [], 'forms the seeds do not show, written out in the suite');
  const stale = ALLOWED.filter((_, k) => !used.has(k)).map((a) => `${a.file}: ${a.contains} (${a.why})`);
  assert.deepEqual(stale, [], 'allowances that match nothing any more: remove them');
});
