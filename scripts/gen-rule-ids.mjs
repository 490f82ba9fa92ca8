#!/usr/bin/env node
// Writes lib/rule-ids.ts from contracts/rules.yaml: the literal union of rule ids, so a
// check that names an unknown rule fails type checking (test/unit/rule-ids.test.ts
// proves the file is current). Run after editing rules.yaml: npm run rules:types
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';

const root = path.resolve(import.meta.dirname, '..');
export function ruleIdsSource(yamlText) {
  const ids = parse(yamlText).rules.map((r) => r.id);
  return [
    '// Generated from contracts/rules.yaml by scripts/gen-rule-ids.mjs (npm run rules:types); do not edit.',
    'export const RULE_IDS = [',
    ...ids.map((id) => `  '${id}',`),
    '] as const;',
    '',
    'export type RuleId = (typeof RULE_IDS)[number];',
    '',
  ].join('\n');
}
if (process.argv[1] === import.meta.filename) {
  writeFileSync(path.join(root, 'lib/rule-ids.ts'), ruleIdsSource(readFileSync(path.join(root, 'contracts/rules.yaml'), 'utf8')));
}
