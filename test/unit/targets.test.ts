import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { REPO_ROOT, resolveTarget, TargetConfigError } from '../../lib/targets.ts';
import { unknownKeys } from '../../lib/target-keys.ts';
import { parseYaml } from '../../lib/yaml.ts';
import { SURFACES } from '../../lib/families.ts';
import { targetsFileText } from '../../cli/init.ts';
import { CLOUD_KEYS } from '../../reference/accounts.ts';

function file(text: string): string {
  const p = path.join(mkdtempSync(path.join(os.tmpdir(), 'targets-')), 'targets.yaml');
  writeFileSync(p, text);
  return p;
}

test('no target means the embedded reference, every surface on ports from REFERENCE_PORT', () => {
  const t = resolveTarget({ REFERENCE_PORT: '30000' });
  assert.equal(t.embedded, true);
  assert.deepEqual(t.surfaces.map((s) => [s.surface, s.baseUrl]).slice(0, 3), [
    ['local', 'http://127.0.0.1:30000'],
    ['cloud', 'http://127.0.0.1:30001'],
    ['serverless', 'http://127.0.0.1:30002/deployment/dep-ready'],
  ]);
  const serverless = t.surfaces.find((s) => s.surface === 'serverless')!;
  assert.equal(
    serverless.scenario.stopped_base_url,
    'http://127.0.0.1:30002/deployment/dep-stopped',
    'scenario URLs move with the reference',
  );
  const cloud = t.surfaces.find((s) => s.surface === 'cloud')!;
  assert.equal(cloud.token, CLOUD_KEYS.alice);
  assert.equal(cloud.scenario.other_account_token, CLOUD_KEYS.bob);
  assert.equal(cloud.capabilities.retention, true);
  assert.ok(t.secrets.includes(CLOUD_KEYS.tiny), 'development keys are redacted too');
});

test('an ad-hoc target comes from TARGET_SURFACE, TARGET_BASE_URL and TARGET_TOKEN', () => {
  const t = resolveTarget({
    TARGET_SURFACE: 'local',
    TARGET_BASE_URL: 'http://127.0.0.1:8189/',
    TARGET_TOKEN: 'tok-123456789',
  });
  assert.equal(t.embedded, false);
  assert.deepEqual(
    t.surfaces.map((s) => [s.surface, s.baseUrl, s.token]),
    [['local', 'http://127.0.0.1:8189', 'tok-123456789']],
  );
  assert.deepEqual(t.secrets, ['tok-123456789']);
});

test('TARGET picks a named entry; credentials come from the variables it names', () => {
  const f = file(
    `targets:\n  mine:\n    surface: cloud\n    base_url: https://c.example\n    token_env: MY_KEY\n    scenario:\n      other_account_token_env: MY_OTHER\n`,
  );
  const t = resolveTarget({ TARGETS_FILE: f, TARGET: 'mine', MY_KEY: 'comfyui-aaaa' });
  const s = t.surfaces[0];
  assert.equal(s.token, 'comfyui-aaaa');
  assert.equal(
    s.scenario.other_account_token,
    undefined,
    'an unset variable leaves the scenario input absent (checks skip with a reason)',
  );
  assert.equal(s.brand, 'Comfy');
});

test('configuration mistakes are named clearly', () => {
  assert.throws(
    () => resolveTarget({ TARGET: 'nope' }),
    (e: Error) => e instanceof TargetConfigError && /not in .*known: reference/.test(e.message),
  );
  assert.throws(() => resolveTarget({ TARGET_SURFACE: 'mars', TARGET_BASE_URL: 'http://x' }), /not one of/);
  assert.throws(() => resolveTarget({ TARGET_BASE_URL: 'http://x' }), /needs both/);
  assert.throws(() => resolveTarget({ TARGETS_FILE: '/nonexistent/t.yaml', TARGET: 'x' }), /cannot read targets file/);
});

test('TARGET_SURFACE narrows a multi-surface entry to one surface', () => {
  const t = resolveTarget({ TARGET: 'reference', TARGET_SURFACE: 'cloud' });
  assert.deepEqual(
    t.surfaces.map((s) => s.surface),
    ['cloud'],
  );
  assert.equal(t.embedded, false, 'TARGET=reference uses a reference started separately');
});

// Unknown keys: refused at every level with the nearest known key (issue #25 item 3).
const unknownKey = (re: RegExp) => (e: Error) => e instanceof TargetConfigError && re.test(e.message);

test('a misspelt key is refused at every level of a targets file, naming the nearest known key', () => {
  const cases: Array<[string, RegExp]> = [
    [
      'targts:\n  t:\n    surface: local\n    base_url: http://127.0.0.1:8189\n',
      /unknown key `targts` at the top of the file; did you mean `targets`\?/,
    ],
    [
      'targets:\n  t:\n    surface: local\n    base_url: http://127.0.0.1:8189\n    scenaro:\n      slow_node_class: Sleep\n',
      /unknown key `scenaro` in target `t`; did you mean `scenario`\?/,
    ],
    [
      'targets:\n  t:\n    surface: local\n    base_url: http://127.0.0.1:8189\n    scenario:\n      slow_node_clas: Sleep\n',
      /unknown key `slow_node_clas` in target `t` \(scenario\); did you mean `slow_node_class`\?/,
    ],
    [
      'targets:\n  t:\n    surface: cloud\n    base_url: https://c.example\n    scenario:\n      other_acount_token_env: OTHER\n',
      /unknown key `other_acount_token_env` in target `t` \(scenario\); did you mean `other_account_token_env`\?/,
    ],
    [
      'targets:\n  t:\n    surfaces:\n      local:\n        base_url: http://127.0.0.1:8189\n        scenario:\n          hash_deadline_secnds: 5\n',
      /unknown key `hash_deadline_secnds` in target `t` \(surfaces\.local\.scenario\); did you mean `hash_deadline_seconds`\?/,
    ],
    [
      'targets:\n  t:\n    surfaces:\n      local:\n        base_ur: http://127.0.0.1:8189\n',
      /unknown key `base_ur` in target `t` \(surfaces\.local\); did you mean `base_url`\?/,
    ],
    [
      'targets:\n  t:\n    surfaces:\n      clod:\n        base_url: https://c.example\n',
      /unknown surface `clod` in target `t` \(surfaces\); did you mean `cloud`\?/,
    ],
    [
      'targets:\n  t:\n    surface: cloud\n    base_url: https://c.example\n    capabilities:\n      retension: true\n',
      /unknown key `retension` in target `t` \(capabilities\); did you mean `retention`\?/,
    ],
    [
      'targets:\n  t:\n    surface: router\n    base_url: https://r.example\n    load: {allow: true, max_rate: 5, max_duraton_s: 10}\n',
      /unknown key `max_duraton_s` in target `t` \(load\); did you mean `max_duration_s`\?/,
    ],
    [
      'targets:\n  t:\n    surface: router\n    base_url: https://r.example\n    scenario:\n      translation: {provider: p, droped_field: f, body: {}}\n',
      /unknown key `droped_field` in target `t` \(scenario\.translation\); did you mean `dropped_field`\?/,
    ],
    [
      'targets:\n  t:\n    surfaces:\n      local:\n        base_url: http://127.0.0.1:8189\n    scenario:\n      slow_node_class: Sleep\n',
      /key `scenario` in target `t` is read per surface .*move it under surfaces/,
    ],
    [
      'targets:\n  t:\n    surface: local\n    base_url: http://127.0.0.1:8189\n    surfaces: {}\n',
      /gives both `surface` and `surfaces`/,
    ],
    [
      'targets:\n  t:\n    surface: local\n    base_url: http://127.0.0.1:8189\n    credentials_from: reference_dev\n',
      /credentials_from in target `t` is "reference_dev"; its one value is `reference-dev`/,
    ],
  ];
  for (const [text, re] of cases)
    assert.throws(() => resolveTarget({ TARGETS_FILE: file(text), TARGET: 't' }), unknownKey(re), text);
  // Every unknown key is named, one line each, and a key far from any known one says where the list is.
  const many = file(
    'targets:\n  t:\n    surface: local\n    base_url: http://127.0.0.1:8189\n    scenario:\n      slow_node_clas: Sleep\n      zzqqxxyy: 1\n',
  );
  assert.throws(
    () => resolveTarget({ TARGETS_FILE: many, TARGET: 't' }),
    (e: Error) =>
      e.message.split('\n').length === 2 && /`zzqqxxyy`.*lib\/scenario-inputs\.ts lists them/.test(e.message),
  );
  // An entry other than the one selected is checked too: the file is one configuration.
  const other = file(
    'targets:\n  t:\n    surface: local\n    base_url: http://127.0.0.1:8189\n  u:\n    surface: local\n    base_url: http://127.0.0.1:8189\n    scenaro: {}\n',
  );
  assert.throws(() => resolveTarget({ TARGETS_FILE: other, TARGET: 't' }), unknownKey(/`scenaro` in target `u`/));
});

test('known spellings pass: credentials by variable, any input by variable, per-shard accounts, free-form bodies', () => {
  const f = file(
    [
      'targets:',
      '  t:',
      '    brand: Svc',
      '    load: {allow: true, max_rate: 5, max_duration_s: 10}',
      '    surfaces:',
      '      router:',
      '        base_url: https://r.example',
      '        token_env: K',
      '        scenario:',
      '          rate_limited_token_env: K',
      '          rate_limited_token_2_env: K',
      '          concurrency_limited_token_3_env: K',
      '          image_model_env: K',
      '          image_body: {prompt: x, anything_goes: [1]}',
      '          strict_body: {provider: p, body: {text: x}}',
      '        capabilities: {schema_snapshots: true}',
      '',
    ].join('\n'),
  );
  const t = resolveTarget({ TARGETS_FILE: f, TARGET: 't', K: 'comfyui-k' });
  assert.equal(t.surfaces[0].scenario.rate_limited_token_2, 'comfyui-k');
  // A literal credential is still refused for what it is, not as an unknown key.
  const literal = file(
    'targets:\n  t:\n    surface: cloud\n    base_url: https://c.example\n    token: comfyui-abcdef0123456789\n',
  );
  assert.throws(
    () => resolveTarget({ TARGETS_FILE: literal, TARGET: 't' }),
    /targets\.t\.token holds a literal credential/,
  );
});

const KEY_LINE = /^\s*[a-z_][a-z0-9_-]*:(\s|$)/;

/** A commented-out key line uncommented (`#   # key: v` too); prose comments stay as they are. */
function uncomment(line: string): string {
  const m = /^(\s*)# ?(.*)$/.exec(line);
  if (!m) return line;
  const inner = `${m[1]}${m[2]}`;
  if (KEY_LINE.test(inner)) return inner;
  const deeper = uncomment(inner);
  return deeper !== inner && KEY_LINE.test(deeper) ? deeper : line;
}

/** A targets file with every commented-out key after `targets:` uncommented. */
function uncommented(text: string): string {
  const lines = text.split('\n');
  const start = lines.findIndex((l) => /^targets:/.test(l));
  return lines.map((line, i) => (i <= start ? line : uncomment(line))).join('\n');
}

test("the repository's targets.yaml passes, its commented examples and keys uncommented too", () => {
  const text = readFileSync(path.join(REPO_ROOT, 'targets.yaml'), 'utf8');
  assert.deepEqual(unknownKeys(parseYaml(text)), []);
  const all = parseYaml(uncommented(text)) as { targets: Record<string, unknown> };
  for (const name of ['local-proxy', 'cloud', 'serverless', 'router', 'registry'])
    assert.ok(name in all.targets, `the example ${name} was uncommented`);
  assert.ok(
    'job_terminal_states' in
      (all.targets.reference as Record<string, Record<string, Record<string, Record<string, unknown>>>>).surfaces.local
        .scenario,
  );
  assert.deepEqual(unknownKeys(all), []);
});

test('init writes a targets file that passes, with every commented input uncommented too', () => {
  for (const surface of SURFACES) {
    const text = targetsFileText(surface, 'mine', 'https://x.example');
    assert.deepEqual(unknownKeys(parseYaml(text)), [], surface);
    const open = uncommented(text);
    assert.match(open, /\n {4}scenario:\n/, `${surface}: its scenario block was uncommented`);
    assert.deepEqual(unknownKeys(parseYaml(open)), [], `${surface}, uncommented`);
  }
});

test('every targets file under examples/ passes', () => {
  // None today; a targets file added there (a CI or Kubernetes example) is held to the same check.
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const p = path.join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (/\.ya?ml$/.test(name)) {
        const doc = parseYaml(readFileSync(p, 'utf8')) as Record<string, unknown> | null;
        if (doc && typeof doc === 'object' && 'targets' in doc) assert.deepEqual(unknownKeys(doc), [], p);
      }
    }
  };
  walk(path.join(REPO_ROOT, 'examples'));
});
