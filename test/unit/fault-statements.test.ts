// Coverage is proven per seed statement: a fault names the statements it breaks, each filed
// in the trace under the rule the fault is caught by, and every statement the trace files
// under rules is broken by at least one fault (test/e2e/faults.test.ts proves each caught).
// Statements still waiting for their fault are listed in unproven-statements.txt, a list
// that only shrinks: a listed statement that gained a fault must leave it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { FAULTS } from '../../reference/faults.ts';
import { loadTrace } from '../../lib/seeds/trace.ts';
import { proofSource, PROOFS_FILE } from '../../scripts/gen-proofs.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const trace = loadTrace();
const at = (e: { seed: string; line: number; sha: string }) => `${e.seed}:${e.line}:${e.sha}`;
const byAt = new Map(trace.map((e) => [at(e), e]));
const UNPROVEN_FILE = path.join(import.meta.dirname, 'unproven-statements.txt');
const unprovenListed = new Set(
  readFileSync(UNPROVEN_FILE, 'utf8')
    .split('\n')
    .map((l) => l.split(/\s/)[0])
    .filter((l) => /^[WR]:/.test(l)),
);

test("each fault's statements are in the trace, filed under the rule the fault breaks", () => {
  const wrong: string[] = [];
  for (const f of FAULTS) {
    for (const s of f.statements ?? []) {
      const e = byAt.get(s);
      if (!e) wrong.push(`${f.name}: ${s} is no statement of contracts/seed-trace.yaml`);
      else if (e.kind !== 'rules') wrong.push(`${f.name}: ${s} is filed as ${e.kind}, so no rule judges it`);
      else if (!e.rules.includes(f.breaks))
        wrong.push(
          `${f.name}: ${s} is judged by ${e.rules.join(', ')}, not by ${f.breaks}, the rule the fault is caught under`,
        );
    }
  }
  assert.deepEqual(wrong, []);
});

test(`${PROOFS_FILE} is generated from the current fault units (npm run rules:proofs regenerates it)`, () => {
  assert.equal(
    readFileSync(path.join(ROOT, PROOFS_FILE), 'utf8'),
    proofSource(),
    `${PROOFS_FILE} is stale: run npm run rules:proofs`,
  );
});

test('every statement the trace files under rules is broken by some fault, or still listed as unproven', () => {
  const broken = new Set<string>(FAULTS.flatMap((f) => f.statements ?? []));
  const judged = trace.filter((e) => e.kind === 'rules').map(at);
  const missing = judged.filter((s) => !broken.has(s) && !unprovenListed.has(s));
  const stale = [...unprovenListed].filter((s) => broken.has(s) || !judged.includes(s));
  assert.deepEqual(
    missing,
    [],
    'statements judged by a rule with no fault that breaks them (write the fault; unproven-statements.txt only shrinks)',
  );
  assert.deepEqual(
    stale,
    [],
    'listed in test/unit/unproven-statements.txt but proven now, or no longer filed under rules: take them off the list',
  );
});
