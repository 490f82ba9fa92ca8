// A control's self-test runs only on the families it varies (reference/controls.ts). For
// the controls guided by a contract extension, those are exactly the families whose
// contract carries it: a new family that declares one is never left out.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { CONTROLS } from '../../reference/controls.ts';
import { FAMILY_CONTRACTS } from '../../lib/contracts/registry.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const carrying = (extension: string) =>
  Object.entries(FAMILY_CONTRACTS)
    .filter(([, c]) => readFileSync(path.join(ROOT, 'contracts', c!.file), 'utf8').includes(`${extension}:`))
    .map(([family]) => family)
    .sort();
const familiesOf = (name: string) => [...(CONTROLS.find((c) => c.name === name) as { families?: readonly string[] }).families!].sort();

test('unknown in-flight status names are sent on every family whose contract has an open status vocabulary (x-terminal-values)', () => {
  assert.deepEqual(familiesOf('unknown-in-flight-status'), carrying('x-terminal-values'));
});

test('unknown error buckets are sent on every family whose contract states unpaired statuses (x-error-types-unpaired-statuses)', () => {
  assert.deepEqual(familiesOf('unknown-error-bucket'), carrying('x-error-types-unpaired-statuses'));
});
