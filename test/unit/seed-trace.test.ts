// Every rule points at the seed statements it judges, and every seed statement is in the
// trace with what the suite does about it. The locators are resolved against the seeds
// beside this checkout (../shared/seeds, or SEEDS_DIR): a fingerprint that no longer
// matches is a seed that changed under a rule, and the test names the rule and the line.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  defaultSeedsDir,
  fingerprint,
  loadSeeds,
  refKey,
  resolveRef,
  seedFile,
  sentences,
  statementsOf,
  type SeedStatements,
} from '../../lib/seeds/statements.ts';
import { runConfig } from '../../lib/config/env.ts';
import { loadTrace, parseTrace } from '../../lib/seeds/trace.ts';
import { loadRules, parseRules } from '../../lib/rules.ts';
import { textOf } from '../../lib/values.ts';

const dir = defaultSeedsDir(runConfig().seeds.dev);
const seeds = (): SeedStatements => {
  assert.ok(dir, 'the seeds are not beside this checkout: set SEEDS_DIR to the folder holding 000_*.txt and 001_*.txt');
  const s = loadSeeds(dir);
  assert.ok(s, `${dir} lacks one of the two seed documents`);
  return s;
};

test('a statement is a sentence or a table row: header and rule rows, list markers and "e.g." do not make statements', () => {
  const doc = [
    '# Title',
    '',
    '## Part',
    '### Sub',
    '',
    'First thing, e.g. a cat. Second `thing` here! Third (aside).',
    '',
    '| a | b |',
    '| - | - |',
    '| 1 | 2 |',
    '',
    '1. Listed one. Listed two.',
  ].join('\n');
  const got = statementsOf('W', doc);
  assert.deepEqual(
    got.map((s) => [s.line, s.section, s.text]),
    [
      [6, 'Part › Sub', 'First thing, e.g. a cat.'],
      [6, 'Part › Sub', 'Second `thing` here!'],
      [6, 'Part › Sub', 'Third (aside).'],
      [10, 'Part › Sub', '| 1 | 2 |'],
      [12, 'Part › Sub', 'Listed one.'],
      [12, 'Part › Sub', 'Listed two.'],
    ],
  );
  assert.deepEqual(sentences('A b. c d. E f.'), ['A b. c d.', 'E f.']);
  assert.equal(fingerprint('a  b\tc '), fingerprint('a b c'));
  assert.match(fingerprint('x'), /^[0-9a-f]{12}$/);
});

test('a changed seed shows: the locator no longer resolves and the message names the line and what is there now', () => {
  const s = seeds();
  const first = s.W.find((x) => x.section.includes('Errors'))!;
  const copy = mkdtempSync(path.join(os.tmpdir(), 'seeds-'));
  for (const letter of ['W', 'R'] as const) {
    const text = readFileSync(seedFile(dir!, letter)!, 'utf8');
    const lines = text.split('\n');
    if (letter === 'W') lines[first.line - 1] = lines[first.line - 1].replace(/\w+/, 'Changed');
    writeFileSync(path.join(copy, path.basename(seedFile(dir!, letter)!)), lines.join('\n'));
  }
  const changed = loadSeeds(copy)!;
  assert.equal(typeof resolveRef(s, first), 'object');
  assert.match(
    textOf(resolveRef(changed, first)),
    new RegExp(`W:${first.line} has no statement with fingerprint ${first.sha}`),
  );
  assert.match(textOf(resolveRef(s, { ...first, line: first.line + 1000 })), /holds no statement/);
});

test('every rule has seed_refs, and each resolves to the statement it names (section, line, fingerprint)', () => {
  const s = seeds();
  const problems: string[] = [];
  for (const rule of loadRules().values()) {
    if (rule.seed_refs.length === 0) problems.push(`${rule.id}: no seed_refs`);
    for (const ref of rule.seed_refs) {
      const hit = resolveRef(s, ref);
      if (typeof hit === 'string') problems.push(`${rule.id}: ${hit}`);
      else if (hit.section !== ref.section)
        problems.push(`${rule.id}: ${refKey(ref)} is in section "${hit.section}", not "${ref.section}"`);
    }
  }
  assert.deepEqual(problems, []);
});

test('a rule resting on the public documents or an assumption is SHOULD and says what it assumes; unknown keys are refused', () => {
  const problems: string[] = [];
  for (const rule of loadRules().values()) {
    if (rule.source !== 'seed' && rule.level === 'MUST') problems.push(`${rule.id}: MUST with source ${rule.source}`);
    if (rule.source !== 'seed' && !rule.assumes) problems.push(`${rule.id}: source ${rule.source} without "assumes"`);
  }
  assert.deepEqual(problems, []);
  assert.throws(
    () => parseRules('rules:\n  - {id: V2.X, level: MUST, surfaces: [local], seed: s, summary: t, sumary: u}'),
    /unknown key sumary/,
  );
  assert.throws(
    () => parseRules('rules:\n  - {id: V2.X, level: MUST, surfaces: [local], seed: s, summary: t, source: folklore}'),
    /source/,
  );
});

test('the seed trace holds every statement of both seeds once, under its own section, and every locator resolves', () => {
  const s = seeds();
  const trace = loadTrace();
  const want = [...s.W, ...s.R].map(refKey);
  const got = trace.map(refKey);
  const dupes = got.filter((k, i) => got.indexOf(k) !== i);
  assert.deepEqual(dupes, [], 'statements listed twice');
  assert.deepEqual(
    want.filter((k) => !got.includes(k)),
    [],
    'statements missing from contracts/seed-trace.yaml',
  );
  const problems: string[] = [];
  for (const e of trace) {
    const hit = resolveRef(s, e);
    if (typeof hit === 'string') problems.push(hit);
    else if (hit.section !== e.section)
      problems.push(`${refKey(e)} is filed under "${e.section}", but is in "${hit.section}"`);
  }
  assert.deepEqual(problems, []);
});

test(
  'trace and catalog agree: every rule a statement names exists, every rule is named by a ' +
    "statement, and a rule's seed_refs are exactly the statements naming it",
  () => {
    const rules = loadRules();
    const trace = loadTrace();
    const naming = new Map<string, Set<string>>();
    for (const e of trace) for (const id of e.rules) naming.set(id, (naming.get(id) ?? new Set()).add(refKey(e)));
    const unknown = [...naming.keys()].filter((id) => !rules.has(id));
    assert.deepEqual(unknown, [], 'rules named in the trace that the catalog lacks');
    const problems: string[] = [];
    for (const rule of rules.values()) {
      const fromTrace = [...(naming.get(rule.id) ?? [])].sort();
      const fromRule = rule.seed_refs.map(refKey).sort();
      if (fromTrace.length === 0) problems.push(`${rule.id}: no statement of the trace names it`);
      else if (fromTrace.join() !== fromRule.join())
        problems.push(`${rule.id}: seed_refs ${fromRule.join(' ')} but the trace names it at ${fromTrace.join(' ')}`);
    }
    assert.deepEqual(problems, []);
  },
);

test('the trace format: exactly one of rules, untestable, gap or informative, with a reason; a paraphrase on every entry', () => {
  const ok = 'W:\n  Part:\n    - {at: "W:3:0123456789ab", says: x, rules: [V2.A]}\n';
  assert.equal(parseTrace(ok).length, 1);
  assert.throws(
    () => parseTrace('W:\n  Part:\n    - {at: "W:3:0123456789ab", says: x, rules: [V2.A], gap: y}\n'),
    /exactly one/,
  );
  assert.throws(() => parseTrace('W:\n  Part:\n    - {at: "W:3:0123456789ab", rules: [V2.A]}\n'), /says/);
  assert.throws(() => parseTrace('W:\n  Part:\n    - {at: "R:3:0123456789ab", says: x, gap: y}\n'), /"at" must be W/);
  assert.throws(
    () => parseTrace('W:\n  Part:\n    - {at: "W:3:0123456789ab", says: x, gap: ""}\n'),
    /gap must say why/,
  );
});

test('the trace paraphrases: no entry repeats eight words in a row of the statement it points at', () => {
  const s = seeds();
  const words = (t: string) =>
    t
      .toLowerCase()
      .replace(/[^a-z0-9_ ]+/g, ' ')
      .split(/\s+/)
      .filter(Boolean);
  const runs = (w: string[]) =>
    new Set(w.slice(0, Math.max(0, w.length - 7)).map((_, i) => w.slice(i, i + 8).join(' ')));
  const copied = loadTrace().flatMap((e) => {
    const hit = resolveRef(s, e);
    if (typeof hit === 'string') return [];
    const seed = runs(words(hit.text));
    return [...runs(words(e.says))].some((r) => seed.has(r)) ? [`${refKey(e)}: ${e.says}`] : [];
  });
  assert.deepEqual(copied, [], 'say it in our own words');
});
