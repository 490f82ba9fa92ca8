#!/usr/bin/env -S npx tsx
// Writes the rule catalog of contracts/rules.yaml as TypeScript: lib/rule-ids.ts (the
// literal union of rule ids, so a check or a fault naming an unknown rule fails type
// checking) and lib/rule-catalog.ts (every rule as a typed object: level, surfaces,
// source, summary, seed references...). The YAML is validated by lib/rules.ts first.
// test/unit/rule-ids.test.ts proves both files are current. Run after editing
// rules.yaml: npm run rules:types
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseRules, RULES_FILE } from '../lib/rules.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const HEADER =
  '// Generated from contracts/rules.yaml by scripts/gen-rule-types.ts (npm run rules:types); do not edit.';
const q = (s: string) =>
  `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n').replace(/\r/g, '\\r')}'`;

/** The generated files, repo-relative path → text. */
export function ruleTypeSources(yamlText: string): Record<string, string> {
  const rules = parseRules(yamlText);
  const ids = [
    HEADER,
    'export const RULE_IDS = [',
    ...rules.map((r) => `  ${q(r.id)},`),
    '] as const;',
    '',
    'export type RuleId = (typeof RULE_IDS)[number];',
    '',
  ].join('\n');
  const entry = (r: (typeof rules)[number]): string[] => [
    `  ${q(r.id)}: {`,
    `    id: ${q(r.id)},`,
    `    level: ${q(r.level)},`,
    `    surfaces: [${r.surfaces.map(q).join(', ')}],`,
    `    seed: ${q(r.seed)},`,
    `    summary: ${q(r.summary)},`,
    `    source: ${q(r.source)},`,
    ...(r.assumes !== undefined ? [`    assumes: ${q(r.assumes)},`] : []),
    ...(r.reading !== undefined ? [`    reading: ${q(r.reading)},`] : []),
    ...(r.not_covered !== undefined ? [`    not_covered: ${q(r.not_covered)},`] : []),
    r.seed_refs.length === 0
      ? '    seed_refs: [],'
      : [
          '    seed_refs: [',
          ...r.seed_refs.map(
            (s) => `      { seed: ${q(s.seed)}, section: ${q(s.section)}, line: ${s.line}, sha: ${q(s.sha)} },`,
          ),
          '    ],',
        ].join('\n'),
    '  },',
  ];
  const catalog = [
    HEADER,
    '// Every rule of the catalog as one typed object; lib/rules.ts reads it through rule(id).',
    "import type { Surface } from './families.ts';",
    "import type { RuleId } from './rule-ids.ts';",
    "import type { SeedRef } from './seeds/statements.ts';",
    '',
    'export interface CatalogRule<Id extends RuleId = RuleId> {',
    '  readonly id: Id;',
    "  readonly level: 'MUST' | 'SHOULD';",
    '  readonly surfaces: readonly Surface[];',
    '  readonly seed: string;',
    '  readonly summary: string;',
    "  readonly source: 'seed' | 'public-docs' | 'assumed';",
    '  readonly assumes?: string;',
    '  readonly reading?: string;',
    '  readonly not_covered?: string;',
    '  readonly seed_refs: ReadonlyArray<Readonly<SeedRef>>;',
    '}',
    '',
    'export const RULE_CATALOG = {',
    ...rules.flatMap(entry),
    '} as const satisfies { readonly [Id in RuleId]: CatalogRule<Id> };',
    '',
  ].join('\n');
  return { 'lib/rule-ids.ts': ids, 'lib/rule-catalog.ts': catalog };
}

if (process.argv[1] === import.meta.filename) {
  for (const [file, text] of Object.entries(ruleTypeSources(readFileSync(RULES_FILE, 'utf8'))))
    writeFileSync(path.join(ROOT, file), text);
}
