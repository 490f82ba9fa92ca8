// Prettier wraps code at 120 columns but leaves a long string, template or comment as it is,
// so a line can grow without bound. This keeps every line of the hand-written TypeScript and
// JavaScript that git tracks at 160 characters or fewer; a file whose first line says
// `// Generated` (lib/rule-catalog.ts and the like) is written by a script and left out.
// A long string is wrapped as a concatenation of shorter literals, its value unchanged.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../..');
const MAX = 160;

/** The tracked .ts, .mts and .mjs files, with their text (one deleted in the working tree is skipped). */
function sources(): Array<{ file: string; text: string }> {
  const out = execFileSync('git', ['ls-files', '-z', '--', '*.ts', '*.mts', '*.mjs'], {
    cwd: ROOT,
    encoding: 'utf8',
    maxBuffer: 64 << 20,
  });
  return out
    .split('\0')
    .filter(Boolean)
    .flatMap((file) => {
      try {
        return [{ file, text: readFileSync(path.join(ROOT, file), 'utf8') }];
      } catch {
        return [];
      }
    });
}

const generated = (text: string): boolean => text.startsWith('// Generated');

test('no line of hand-written TypeScript or JavaScript source is over 160 characters', () => {
  const all = sources();
  const handWritten = all.filter((s) => !generated(s.text));
  assert.ok(handWritten.length > 300, `only ${handWritten.length} source files listed by git ls-files under ${ROOT}`);
  assert.ok(
    all.some((s) => s.file === 'lib/rule-catalog.ts' && generated(s.text)),
    'lib/rule-catalog.ts is listed and recognised as generated',
  );
  const long = handWritten.flatMap(({ file, text }) =>
    text.split('\n').flatMap((line, i) => {
      const length = [...line.replace(/\r$/, '')].length;
      return length > MAX ? [`${file}:${i + 1} (${length} characters)`] : [];
    }),
  );
  assert.deepEqual(
    long,
    [],
    `wrap these lines to ${MAX} characters or fewer: split a long string into a concatenation of shorter ` +
      'literals (its value unchanged), pull a long expression into a named const, or break a comment over lines',
  );
});
