// The YAML cache (lib/yaml.ts) answers what the yaml package would, for every checked-in
// document, never keeps a document that failed to parse, and never reads a folder
// another user could write.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'yaml';
import { cacheEntryName, parseYaml } from '../../lib/yaml.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const documents = [
  ...readdirSync(path.join(ROOT, 'contracts'))
    .filter((n) => n.endsWith('.yaml'))
    .map((n) => path.join('contracts', n)),
  'targets.yaml',
];

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

// A fresh process with its own temp folder, holding a planted entry for `text`, reads it.
function readInFolder(mode: number, owner?: number): unknown {
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'yaml-cache-test-'));
  try {
    const text = `planted: false\n# ${Math.random()}\n`;
    const dir = path.join(tmp, `workflow-conformance-yaml-${process.getuid!()}`);
    mkdirSync(dir);
    writeFileSync(path.join(dir, cacheEntryName(text)), JSON.stringify({ planted: true }));
    chmodSync(dir, mode);
    if (owner !== undefined) chownSync(dir, owner, owner);
    const script = `import('${path.join(ROOT, 'lib/yaml.ts')}').then((m) => process.stdout.write(JSON.stringify(m.parseYaml(${JSON.stringify(text)}))))`;
    const run = spawnSync(process.execPath, ['--import', 'tsx', '-e', script], {
      cwd: ROOT,
      encoding: 'utf8',
      env: { ...process.env, TMPDIR: tmp },
    });
    assert.equal(run.status, 0, run.stderr);
    return JSON.parse(run.stdout);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

test(
  'a cache folder others may write is not read: a planted entry never becomes the parse',
  { skip: typeof process.getuid !== 'function' },
  () => {
    assert.deepEqual(
      readInFolder(0o700),
      { planted: true },
      "the user's own folder is read (so the next line can fail)",
    );
    assert.deepEqual(readInFolder(0o777), { planted: false }, 'a world-writable folder is ignored');
    assert.deepEqual(readInFolder(0o770), { planted: false }, 'a group-writable folder is ignored');
    // Only root can give a folder away; elsewhere this case is left to the code's own check.
    if (process.getuid!() === 0)
      assert.deepEqual(readInFolder(0o700, 65534), { planted: false }, 'a folder another user owns is ignored');
  },
);
