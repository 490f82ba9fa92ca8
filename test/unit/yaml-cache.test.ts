// The YAML cache (lib/yaml.ts) answers what the yaml package would, for every checked-in
// document, and never keeps a document that failed to parse.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { parseYaml } from '../../lib/yaml.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const documents = [...readdirSync(path.join(ROOT, 'contracts')).filter((n) => n.endsWith('.yaml')).map((n) => path.join('contracts', n)), 'targets.yaml'];

test('every checked-in YAML document reads the same through the cache, the first time and again', () => {
  for (const rel of documents) {
    const text = readFileSync(path.join(ROOT, rel), 'utf8');
    assert.deepEqual(parseYaml(text), parse(text), rel);
    assert.deepEqual(parseYaml(text), parse(text), `${rel}, from the cache`);
  }
});

test('a caller changing what it got does not change what the next caller gets', () => {
  const text = `a:\n  b: [1, 2]\n# ${Math.random()}\n`;
  (parseYaml(text) as { a: { b: number[] } }).a.b.push(3);
  assert.deepEqual(parseYaml(text), { a: { b: [1, 2] } });
});

test('invalid YAML throws the yaml package error, every time', () => {
  const text = `a: [1, 2\n# ${Math.random()}\n`;
  assert.throws(() => parseYaml(text), /Flow sequence|flow collection|Missing/i);
  assert.throws(() => parseYaml(text), /Flow sequence|flow collection|Missing/i);
});
