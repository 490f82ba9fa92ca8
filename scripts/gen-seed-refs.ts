// Writes each rule's seed_refs in contracts/rules.yaml from contracts/seed-trace.yaml:
// a rule points at exactly the statements whose trace entry names it. Edit the trace,
// then run this (npm run rules:refs); test/unit/seed-trace.test.ts fails while they differ.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { loadTrace } from '../lib/seeds/trace.ts';
import type { SeedRef } from '../lib/seeds/statements.ts';

const FILE = path.resolve(import.meta.dirname, '../contracts/rules.yaml');

// A fingerprint of digits alone (or digits around one e) would read as a YAML number.
const shaYaml = (sha: string) => (/^\d*e?\d*$/.test(sha) ? `"${sha}"` : sha);

export function withSeedRefs(text: string, refs: Map<string, SeedRef[]>): string {
  const out: string[] = [];
  let id: string | undefined;
  let skipping = false;
  for (const line of text.split('\n')) {
    const idMatch = /^ {2}- id: (\S+)/.exec(line);
    if (idMatch) id = idMatch[1];
    if (skipping) {
      if (/^ {6}- /.test(line)) continue;
      skipping = false;
    }
    if (/^ {4}seed_refs:/.test(line)) {
      skipping = true;
      continue;
    }
    out.push(line);
    if (id && /^ {4}seed: /.test(line)) {
      const list = refs.get(id) ?? [];
      if (list.length)
        out.push(
          '    seed_refs:',
          ...list.map(
            (r) =>
              `      - {seed: ${r.seed}, section: ${JSON.stringify(r.section)}, line: ${r.line}, sha: ${shaYaml(r.sha)}}`,
          ),
        );
    }
  }
  return out.join('\n');
}

if (process.argv[1] === import.meta.filename) {
  const refs = new Map<string, SeedRef[]>();
  for (const e of loadTrace())
    for (const id of e.rules)
      refs.set(id, [...(refs.get(id) ?? []), { seed: e.seed, section: e.section, line: e.line, sha: e.sha }]);
  writeFileSync(FILE, withSeedRefs(readFileSync(FILE, 'utf8'), refs));
  console.log(`seed_refs written for ${refs.size} rules`);
}
