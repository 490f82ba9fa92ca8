#!/usr/bin/env -S npx tsx
// Writes lib/seeds/proofs.ts: for each seed statement (trace locator), the reference faults
// that break it and the rule each is caught under, read from the fault units' `statements`.
// The run's report reads it to tell a statement proven (judged here by a rule whose fault the
// self-test catches) from one merely judged, without loading the reference server.
// test/unit/fault-statements.test.ts proves the file is current. Run after adding or
// changing a fault's statements: npm run rules:proofs
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { FAULTS } from '../reference/faults.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
export const PROOFS_FILE = 'lib/seeds/proofs.ts';
const HEADER =
  "// Generated from the fault units' statements by scripts/gen-proofs.ts (npm run rules:proofs); do not edit.";

/** The generated file's text. */
export function proofSource(): string {
  const by = new Map<string, Array<{ fault: string; rule: string }>>();
  for (const f of FAULTS)
    for (const at of f.statements ?? [])
      (by.get(at) ?? by.set(at, []).get(at)!).push({ fault: f.name, rule: f.breaks });
  const order = (a: string) => {
    const [seed, line] = a.split(':');
    return `${seed}${String(line).padStart(5, '0')}${a}`;
  };
  const keys = [...by.keys()].sort((a, b) => order(a).localeCompare(order(b)));
  return [
    HEADER,
    '// Seed statement (contracts/seed-trace.yaml locator) -> the faults that break it, each with the rule it is caught under.',
    'export interface Proof {',
    '  readonly fault: string;',
    '  readonly rule: string;',
    '}',
    '',
    'export const STATEMENT_PROOFS: Readonly<Record<string, readonly Proof[]>> = {',
    ...keys.flatMap((k) => [
      `  '${k}': [`,
      ...by
        .get(k)!
        .sort((a, b) => a.fault.localeCompare(b.fault))
        .map((p) => `    { fault: '${p.fault}', rule: '${p.rule}' },`),
      '  ],',
    ]),
    '};',
    '',
  ].join('\n');
}

if (process.argv[1] === import.meta.filename) writeFileSync(path.join(ROOT, PROOFS_FILE), proofSource());
