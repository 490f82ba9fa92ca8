import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { loadRules, parseRules } from '../../lib/rules.ts';
import { FAULTS } from '../../reference/faults.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

test('rules.yaml parses: unique ids with a family prefix, a level, surfaces, a seed section and a summary', () => {
  const rules = loadRules();
  assert.ok(rules.size >= 40);
  for (const r of rules.values()) assert.ok(r.summary.length > 10 && r.seed.length > 3, r.id);
  assert.throws(
    () => parseRules('rules:\n  - {id: V2.X, level: MAY, surfaces: [local], seed: s, summary: t}'),
    /level/,
  );
  assert.throws(
    () => parseRules('rules:\n  - {id: bad, level: MUST, surfaces: [local], seed: s, summary: t}'),
    /bad id/,
  );
});

test('every fault breaks a rule that is in the catalog, and fault names are unique', () => {
  const rules = loadRules();
  for (const f of FAULTS) assert.ok(rules.has(f.breaks), `${f.name} names unknown rule ${f.breaks}`);
  assert.equal(new Set(FAULTS.map((f) => f.name)).size, FAULTS.length);
  assert.ok(FAULTS.length >= 5);
});

test('every rule a spec names exists, and every rule without a stated reason has a check', () => {
  const rules = loadRules();
  const named = new Set<string>();
  // Rules the contracts name with x-rule are judged on every response by the validator.
  for (const f of readdirSync(path.join(ROOT, 'contracts')).filter((f) => f.endsWith('.yaml') && f !== 'rules.yaml')) {
    for (const m of readFileSync(path.join(ROOT, 'contracts', f), 'utf8').matchAll(/x-rule:\s*([A-Z0-9_.]+)/g))
      named.add(m[1]);
  }
  for (const dir of ['specs', 'fixtures', 'lib']) {
    const files = readdirSync(path.join(ROOT, dir), { recursive: true })
      .map(String)
      .filter((f) => f.endsWith('.ts'));
    for (const f of files) {
      const text = readFileSync(path.join(ROOT, dir, f), 'utf8');
      for (const m of text.matchAll(/'((?:V2|V1|WS|REGISTRY|ROUTER|LOAD)\.[A-Z0-9_.]+)'/g)) named.add(m[1]);
    }
  }
  for (const id of named) assert.ok(rules.has(id), `a spec names unknown rule ${id}`);
  // Judged by the contract validator from rule ids built at run time or named in the contract.
  const alwaysOn = new Set([
    'V2.CONTRACT.STATUS_DECLARED',
    'V2.CONTRACT.BODY',
    'V2.CONTRACT.HEADERS',
    'V2.CONTRACT.DOCUMENTED',
  ]);
  for (const r of rules.values()) {
    if (r.not_covered || alwaysOn.has(r.id)) continue;
    assert.ok(named.has(r.id), `${r.id} has no spec and no stated reason`);
  }
});
