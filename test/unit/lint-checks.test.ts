// Every check can fail, and a rule is never left unjudged in silence. Two habits are
// enforced on the source: no check whose condition is the constant true, and no bare
// `return` in a spec that leaves a rule unjudged without recording why (notJudged).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../..');
const sources = (dir: string) =>
  readdirSync(path.join(ROOT, dir), { recursive: true })
    .map(String)
    .filter((f) => f.endsWith('.ts'))
    .map((f) => path.posix.join(dir, f.split(path.sep).join('/')));
const lines = (file: string) => readFileSync(path.join(ROOT, file), 'utf8').split('\n');

const CONSTANT_TRUE = /\b(check|ensure|precondition)\(\s*[^,()]+,\s*(true|!0|1 === 1)\s*,/;
// `return;`, `if (...) return;`: a spec stopping early without a result (a helper returning a value is fine).
const BARE_RETURN = /\breturn\s*;/;

test('no check has a constant true condition (a check that cannot fail): use held() where a rule holds by construction', () => {
  // Over the whole file, not line by line: a formatted call puts rule and condition on lines of their own.
  const all = new RegExp(CONSTANT_TRUE.source, 'g');
  const found = [...sources('specs'), ...sources('lib'), ...sources('fixtures')]
    .filter((f) => f !== 'lib/check.ts')
    .flatMap((f) => {
      const text = readFileSync(path.join(ROOT, f), 'utf8');
      return [...text.matchAll(all)].map((m) => `${f}:${text.slice(0, m.index).split('\n').length}: ${m[0].trim()}`);
    });
  assert.deepEqual(found, []);
});

/** The statement ending just before line `i` (statements end a line with `;` or open a block with `{`). */
function statementBefore(ls: string[], i: number): string {
  const before = ls.slice(Math.max(0, i - 15), i).join('\n');
  const chunks = before.replace(/;\s*$/, '').split(/;[ \t]*\n|\{[ \t]*\n/);
  return chunks[chunks.length - 1] ?? '';
}

test('no spec returns early without recording why its rule was not judged (return notJudged(...))', () => {
  // Allowed right after recording why: notJudged in the same statement, or as the statement
  // before it (which the formatter may spread over several lines).
  const found = sources('specs').flatMap((f) => {
    const ls = lines(f);
    return ls.flatMap((l, i) =>
      BARE_RETURN.test(l) && !/notJudged\(/.test(l) && !/notJudged\(/.test(statementBefore(ls, i))
        ? [`${f}:${i + 1}: ${l.trim()}`]
        : [],
    );
  });
  assert.deepEqual(found, []);
});

test('the lint itself catches what it is for', () => {
  assert.ok(
    CONSTANT_TRUE.test(
      "    check('V2.ERR.NOT_IMPLEMENTED', true, { what: 'the job list', expected: '200 or 501', received: res.status });",
    ),
  );
  assert.ok(
    CONSTANT_TRUE.test("    check(\n      'V2.ERR.NOT_IMPLEMENTED',\n      true,\n      { what: 'the job list' },"),
  );
  assert.ok(
    !CONSTANT_TRUE.test(
      "    check('V2.ERR.NOT_IMPLEMENTED', res.status === 501, { what: 'x', expected: 'y', received: z });",
    ),
  );
  assert.ok(BARE_RETURN.test('    if (res.status !== 302 || !location) return; // judged elsewhere'));
  assert.ok(!BARE_RETURN.test("    if (!out) return notJudged('V1.VIEW.SIGNED_OPENABLE', 'no output');"));
  const spread = [
    '  if (x) {',
    '    notJudged(',
    "      'V1.VIEW.SIGNED_OPENABLE',",
    '      `no output ${id}`,',
    '    );',
    '    return;',
    '  }',
  ];
  assert.match(statementBefore(spread, 5), /notJudged\(/, 'a notJudged spread over lines is the statement before');
  const other = ['  notJudged(A, "x");', '  const y = 1;', '  if (z) return;'];
  assert.doesNotMatch(statementBefore(other, 2), /notJudged\(/, 'a notJudged two statements back is not');
});
