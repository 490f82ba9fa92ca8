// A control's self-test runs only on the families it varies (reference/controls.ts). For
// the controls guided by a contract extension, those are exactly the families whose
// contract carries it: a new family that declares one is never left out.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { CONTROLS } from '../../reference/controls.ts';
import { FAMILY_CONTRACTS } from '../../lib/contracts/registry.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const carrying = (extension: string) =>
  Object.entries(FAMILY_CONTRACTS)
    .filter(([, c]) => readFileSync(path.join(ROOT, 'contracts', c.file), 'utf8').includes(`${extension}:`))
    .map(([family]) => family)
    .sort();
const familiesOf = (name: string) =>
  [...(CONTROLS.find((c) => c.name === name) as { families?: readonly string[] }).families!].sort();

test('unknown in-flight status names are sent on every family whose contract has an open status vocabulary (x-terminal-values)', () => {
  assert.deepEqual(familiesOf('unknown-in-flight-status'), carrying('x-terminal-values'));
});

test('unknown error buckets are sent on every family whose contract states unpaired statuses (x-error-types-unpaired-statuses)', () => {
  assert.deepEqual(familiesOf('unknown-error-bucket'), carrying('x-error-types-unpaired-statuses'));
});

// The other family-scoped controls are consulted by name where the reference serves a
// family (`ctx.isControl('<name>')`): each must be consulted only in the folders of the
// families it declares, or its self-test would skip a family it changes.
const sources = (dir: string): string[] =>
  readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? e.name === 'faults'
        ? []
        : sources(path.join(dir, e.name))
      : e.name.endsWith('.ts')
        ? [path.join(dir, e.name)]
        : [],
  );
const consulted = new Map<string, Set<string>>();
for (const file of sources('reference')) {
  for (const m of readFileSync(path.join(ROOT, file), 'utf8').matchAll(/isControl\('([a-z0-9-]+)'\)/g)) {
    (consulted.get(m[1]) ?? consulted.set(m[1], new Set()).get(m[1])!).add(file);
  }
}

test('a control consulted by name is consulted only where the families it declares are served', () => {
  const scoped = CONTROLS.filter((c) => consulted.has(c.name));
  assert.ok(scoped.length >= 6, `controls consulted by name: ${scoped.map((c) => c.name).join(', ')}`);
  for (const c of scoped) {
    const families = (c as { families?: readonly string[] }).families;
    assert.ok(families, `${c.name} is consulted in ${[...consulted.get(c.name)!].join(', ')} but declares no families`);
    for (const file of consulted.get(c.name)!) {
      assert.ok(
        families.some((f) => file.startsWith(path.join('reference', f) + path.sep)),
        `${c.name} is consulted in ${file}, outside reference/{${families.join(',')}}/`,
      );
    }
  }
});
