// The declared list of targets-file keys (lib/scenario-inputs.ts) cannot drift from the
// code: the sources are scanned for every read of a scenario input or capability (the
// access patterns the suite uses: `scenario.x`, `scenario['x']`, `requireScenario('x', …)`,
// the load profiles' `scenarioString(target, 'x')` and `missing(target, {x: …})`, …) and
// every key read must be declared; a read by a computed key must sit beside the literal
// keys it picks from (or be a registered accessor that takes its key from its callers).
// Conversely every declared key must be read somewhere: a declared key nothing reads
// would be accepted by the file check and still ignored.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { CAPABILITIES, ENTRY_KEYS, LOAD_KEYS, SCENARIO_INPUTS, SURFACE_KEYS } from '../../lib/scenario-inputs.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const DIRS = ['lib', 'specs', 'load', 'fixtures', 'cli', 'report', 'bench', 'scripts'];
/** The declaration and the validator name keys without reading them. */
const SELF = ['lib/scenario-inputs.ts', 'lib/target-keys.ts'];

function sources(): Array<{ file: string; text: string }> {
  const out: Array<{ file: string; text: string }> = [];
  const walk = (dir: string): void => {
    let names: string[];
    try {
      names = readdirSync(path.join(ROOT, dir));
    } catch {
      return;
    }
    for (const name of names) {
      const rel = path.posix.join(dir, name);
      if (statSync(path.join(ROOT, rel)).isDirectory()) walk(rel);
      else if (/\.(ts|mts|mjs)$/.test(name) && !SELF.includes(rel))
        out.push({ file: rel, text: readFileSync(path.join(ROOT, rel), 'utf8') });
    }
  };
  DIRS.forEach(walk);
  return out;
}

const KEY = '([a-z][a-z0-9_]*)';
/** Reads naming their key literally. */
const DIRECT: RegExp[] = [
  new RegExp(`\\bscenario\\??\\.${KEY}`, 'g'),
  new RegExp(`\\bscenario\\??\\[\\s*['"]${KEY}['"]\\s*\\]`, 'g'),
  new RegExp(`\\b(?:requireScenario|need)\\(\\s*['"]${KEY}['"]`, 'g'),
  new RegExp(`\\bscenario(?:String|Number|Object)\\(\\s*[\\w.]+\\s*,\\s*['"]${KEY}['"]`, 'g'),
  // lib/v2/states.ts names(scenario, 'x', …); lib/router/bodies.ts body(need, 'x', …)
  new RegExp(`\\((?:scenario|need)\\s*,\\s*['"]${KEY}['"]`, 'g'),
  // the input a suite-chosen value comes from (lib/data/workflows.ts, SuiteError opts)
  new RegExp(`\\binput:\\s*['"]${KEY}['"]`, 'g'),
  // load profiles: the second account of a rate-limit profile, per-shard accounts
  new RegExp(`\\botherTokenKey:\\s*['"]${KEY}['"]`, 'g'),
];
/** Lists of keys: load profiles' `missing(target, {…})` and `perShardScenario: […]`. */
const LISTS: Array<[RegExp, RegExp]> = [
  [/\bmissing\(\s*\w+\s*,\s*\{([\s\S]*?)\}\s*\)/g, /(?:^|[{,\s])([a-z][a-z0-9_]*)\s*:/g],
  [/\bperShardScenario:\s*\[([^\]]*)\]/g, /['"]([a-z][a-z0-9_]*)['"]/g],
];
/** Reads by a computed key. */
const COMPUTED = [
  /\bscenario\??\[\s*(?!['"\s])/,
  /\b(?:requireScenario|need)\(\s*(?!['"\s])[\w$]/,
  /\bscenario(?:String|Number|Object)\(\s*[\w.]+\s*,\s*(?!['"\s])/,
];
/** The identifier a computed read uses as its key. */
const NAMED_KEY = [
  /\bscenario\??\[\s*([A-Za-z_$][\w$]*)\s*\]/,
  /\b(?:requireScenario|need)\(\s*([A-Za-z_$][\w$]*)\s*[,)]/,
  /\bscenario(?:String|Number|Object)\(\s*[\w.]+\s*,\s*([A-Za-z_$][\w$]*)\s*\)/,
];
/** Accessors that take the key from their callers (whose calls DIRECT finds). */
const ACCESSORS = [
  'fixtures/test.ts',
  'load/profiles/common.ts',
  'load/shard.ts',
  'lib/router/bodies.ts',
  'lib/v2/states.ts',
  'lib/data/workflows.ts',
];
/** Literals beside a computed read that are not inputs (the answers expected of each case). */
const NOT_INPUTS: Record<string, string[]> = {
  'specs/v2/serverless.spec.ts': ['deployment_not_ready', 'deployment_unavailable', 'deployment_stopped'],
};
/** Messages naming an input for the user to set: "scenario input x", "scenario inputs x, y_env". */
const NAMED = /scenario inputs?\s+((?:"?[a-z][a-z0-9_]*"?(?:,\s*|\s+and\s+)?)+)/g;

const DECLARED = new Map(SCENARIO_INPUTS.map((i) => [i.name, i]));
const declared = (key: string): boolean =>
  DECLARED.has(key) || (key.endsWith('_env') && DECLARED.has(key.slice(0, -4)));
const lineOf = (text: string, index: number): number => text.slice(0, index).split('\n').length;

interface Read {
  key: string;
  at: string;
}

interface Computed {
  at: string;
  file: string;
  /** The snake_case literals within 8 lines before the read. */
  window: string[];
}

function scan(files: Array<{ file: string; text: string }>): { reads: Read[]; computed: Computed[]; named: Read[] } {
  const reads: Read[] = [];
  const computed: Computed[] = [];
  const named: Read[] = [];
  for (const { file, text } of files) {
    for (const re of DIRECT)
      for (const m of text.matchAll(re)) reads.push({ key: m[1], at: `${file}:${lineOf(text, m.index)}` });
    for (const [outer, inner] of LISTS) {
      for (const m of text.matchAll(outer))
        for (const k of m[1].matchAll(inner)) reads.push({ key: k[1], at: `${file}:${lineOf(text, m.index)}` });
    }
    for (const m of text.matchAll(NAMED)) {
      for (const word of m[1].split(/[\s,"]+/))
        if (word.includes('_')) named.push({ key: word, at: `${file}:${lineOf(text, m.index)}` });
    }
    const lines = text.split('\n');
    lines.forEach((line, i) => {
      if (!COMPUTED.some((re) => re.test(line))) return;
      // A key held in a constant of the same file (`const RATE_LIMIT_MAX_RUNS = 'rate_limit_max_runs'`) is read by name.
      const ident = NAMED_KEY.map((re) => re.exec(line)?.[1]).find((x) => x !== undefined);
      const value = ident
        ? new RegExp(`\\b(?:const|let)\\s+${ident.replace(/\$/g, '\\$')}\\s*(?::[^=]+)?=\\s*['"]${KEY}['"]`).exec(
            text,
          )?.[1]
        : undefined;
      if (value !== undefined) {
        reads.push({ key: value, at: `${file}:${i + 1}` });
        return;
      }
      const window = lines.slice(Math.max(0, i - 8), i + 1).join('\n');
      computed.push({
        at: `${file}:${i + 1}`,
        file,
        window: [...window.matchAll(/['"]([a-z][a-z0-9]*(?:_[a-z0-9]+)+)['"]/g)].map((m) => m[1]),
      });
    });
  }
  return { reads, computed, named };
}

/** What the checks below find wrong in these sources (empty = none). */
function problems(files: Array<{ file: string; text: string }>): string[] {
  const { reads, computed, named } = scan(files);
  const out: string[] = [];
  for (const r of reads)
    if (!DECLARED.has(r.key))
      out.push(
        `${r.at} reads scenario input ${r.key}, which lib/scenario-inputs.ts does not declare (add ` +
          `it to SCENARIO_INPUTS: name, type, what it unlocks, default)`,
      );
  for (const c of computed) {
    for (const k of c.window) {
      if (!declared(k) && !(NOT_INPUTS[c.file] ?? []).includes(k))
        out.push(
          `${c.at} reads a scenario input by a computed key; beside it, '${k}' is not a declared ` +
            `input (declare it, or list it in NOT_INPUTS if it is not an input)`,
        );
    }
    if (!ACCESSORS.includes(c.file) && !c.window.some(declared)) {
      out.push(
        `${c.at} reads a scenario input by a computed key with no literal key beside it: keep the ` +
          `keys it picks from within 8 lines, or register the file in ACCESSORS if it takes the key ` +
          `from its callers`,
      );
    }
  }
  for (const n of named)
    if (!declared(n.key)) out.push(`${n.at} tells the user to set scenario input ${n.key}, which is not declared`);
  return out;
}

const { reads, computed, named } = scan(sources());

test('the scan finds the reads it is built for (a broken pattern cannot pass silently)', () => {
  const keys = new Set(reads.map((r) => r.key));
  for (const k of [
    'slow_node_class',
    'image_model',
    'node_id',
    'upload_file_path',
    'job_terminal_states',
    'load_image_class',
    'image_body',
    'rate_limited_token',
    'other_account_token',
    'concurrency_limited_token',
  ]) {
    assert.ok(keys.has(k), `the scan no longer finds ${k}`);
  }
  assert.ok(computed.length >= 5, 'the computed reads are found');
  assert.ok(
    named.some((n) => n.key === 'upload_file_path'),
    'the messages naming inputs are found',
  );
});

test('every scenario input the code reads, or a message names, is declared in lib/scenario-inputs.ts', () => {
  assert.deepEqual(problems(sources()), []);
});

test('the scan refuses a misspelt read, an undeclared key beside a computed read, and a computed read with no keys beside it', () => {
  const found = problems([
    { file: 'specs/x.spec.ts', text: "const slow = requireScenario('slow_node_clas', 'a slow class');" },
    {
      file: 'specs/y.spec.ts',
      text: "for (const key of ['image_model', 'imagee_model']) {\n  const m = requireScenario(key, 'model');\n}",
    },
    { file: 'specs/z.spec.ts', text: 'const v = target.scenario[someKey];' },
    { file: 'lib/w.ts', text: "throw new Error('set scenario input slow_node_clas');" },
    { file: 'load/profiles/p.ts', text: "const absent = missing(target, { slow_modl: 'a slow model' });" },
    { file: 'lib/v.ts', text: "export const MAX = 'max_runz';\n\n\n\n\n\n\n\n\n\nconst n = scenario[MAX];" },
  ]);
  assert.equal(found.length, 6, found.join('\n'));
  assert.match(found.join('\n'), /lib\/v\.ts:11 reads scenario input max_runz/);
  assert.match(found.join('\n'), /specs\/x\.spec\.ts:1 reads scenario input slow_node_clas/);
  assert.match(found.join('\n'), /specs\/y\.spec\.ts:2 .*'imagee_model' is not a declared input/);
  assert.match(found.join('\n'), /specs\/z\.spec\.ts:1 .*no literal key beside it/);
  assert.match(found.join('\n'), /lib\/w\.ts:1 tells the user to set scenario input slow_node_clas/);
  assert.match(found.join('\n'), /load\/profiles\/p\.ts:1 reads scenario input slow_modl/);
});

test('every declared scenario input is read somewhere (a declared key nothing reads would still be ignored)', () => {
  const read = new Set([...reads.map((r) => r.key), ...computed.flatMap((c) => c.window)]);
  assert.deepEqual(
    SCENARIO_INPUTS.map((i) => i.name).filter((n) => !read.has(n)),
    [],
  );
});

test('the members read from a scenario mapping of fixed shape are declared', () => {
  const seen = new Set<string>();
  for (const { file, text } of sources()) {
    for (const m of text.matchAll(/\brequireScenario\(\s*'([a-z][a-z0-9_]*)'[^)]*\)\s*as\s*\{([^}]*)\}/g)) {
      const input = DECLARED.get(m[1]);
      const members = [...m[2].matchAll(/([a-z][a-z0-9_]*)\s*:/g)].map((x) => x[1]);
      assert.ok(input?.members, `${file}: ${m[1]} is read as a mapping of fixed shape; declare its members`);
      for (const member of members) {
        assert.ok(input.members.includes(member), `${file}: ${m[1]}.${member} is read but not a declared member`);
        seen.add(`${m[1]}.${member}`);
      }
    }
  }
  for (const i of SCENARIO_INPUTS)
    for (const m of i.members ?? []) assert.ok(seen.has(`${i.name}.${m}`), `${i.name}.${m} is declared but never read`);
});

test('every capability read is declared, and every declared one is read', () => {
  const read = new Set<string>();
  for (const { file, text } of sources()) {
    for (const m of text.matchAll(/\bcapabilities\??\.([a-z][a-z0-9_]*)/g)) read.add(m[1]);
    assert.ok(!/\bcapabilities\??\[/.test(text), `${file} reads a capability by a computed key; read it by name`);
  }
  const names = CAPABILITIES.map((c) => c.name);
  assert.deepEqual(
    [...read].filter((k) => !names.includes(k)),
    [],
    'declare these in CAPABILITIES',
  );
  assert.deepEqual(
    names.filter((k) => !read.has(k)),
    [],
    'declared but never read',
  );
});

test('the entry, surface and load keys the resolver reads are declared', () => {
  const known = new Set([...ENTRY_KEYS, ...SURFACE_KEYS, ...LOAD_KEYS].map((k) => k.name));
  // Set by the resolver itself for the embedded reference, never written in a file.
  const internal = ['embedded'];
  const read = new Set<string>();
  for (const file of ['lib/targets.ts', 'load/target.ts']) {
    const text = readFileSync(path.join(ROOT, file), 'utf8');
    for (const m of text.matchAll(/\b(?:entry|raw|written|l)\??\.([a-z][a-z0-9_]*)\b(?!\()/g)) read.add(m[1]);
  }
  assert.deepEqual(
    [...read].filter((k) => !known.has(k) && !internal.includes(k)),
    [],
    'declare these in lib/scenario-inputs.ts',
  );
});

test("the docs' table of scenario inputs names declared keys only", () => {
  const readme = readFileSync(path.join(ROOT, 'docs/gating-your-server.md'), 'utf8');
  const start = readme.indexOf('| scenario input | unlocks |');
  assert.ok(start >= 0, 'the table is found');
  const rows = readme.slice(start).split('\n\n')[0].split('\n').slice(2);
  const other = new Set([...SURFACE_KEYS, ...CAPABILITIES].map((k) => k.name));
  const keys = rows.flatMap((row) => [...row.split('|')[1].matchAll(/`([a-z][a-z0-9_]*)`/g)].map((m) => m[1]));
  assert.ok(keys.length > 10);
  assert.deepEqual(
    keys.filter((k) => !declared(k) && !other.has(k) && !other.has(`${k}_env`)),
    [],
  );
});
