// Two commands a user of the installed package has where the repository's tools were the
// only way: `run --rule ID` runs one rule's tests with the package's own configuration
// (a bare `npx playwright test --grep @ID` in the user's folder finds no test there), and
// `seeds [W|R]` lists the seed statements with their locators from the user's copy (as
// `npm run seed:statements` does in this repository). Both run from a folder of their own.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defaultSeedsDir } from '../../lib/seeds/statements.ts';
import { runConfig } from '../../lib/config/env.ts';
import { freePortBase } from '../support/ports.ts';
import { childEnv } from '../support/child-env.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const BIN = path.join(ROOT, 'bin/workflow-conformance.mjs');

function cli(args: string[], cwd: string, extra: Record<string, string> = {}) {
  const env = childEnv({
    drop: ['REFERENCE_FAULT', 'SEEDS_DIR', 'CONFORMANCE_SEEDS'],
    set: { NODE_NO_WARNINGS: '1', ...extra },
  });
  return spawnSync(process.execPath, [BIN, ...args], { cwd, encoding: 'utf8', env, timeout: 120_000 });
}

test('run --rule ID lists exactly the tests tagged with that rule, from any folder', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'cli-rule-'));
  const port = { REFERENCE_PORT: String(await freePortBase()) };
  const listed = (rule: string) => {
    const r = cli(['run', '--rule', rule, '--list', '--reports', path.join(dir, 'reports')], dir, port);
    assert.equal(r.status, 0, r.stderr + r.stdout);
    return r.stdout.split('\n').filter((l) => /\.spec\.ts:\d+/.test(l));
  };
  try {
    assert.ok(listed('V2.ASSET.FRESH_URL').length > 0);
    // One id that is the prefix of another selects only its own tests.
    const byHash = listed('V2.ASSET.BY_HASH');
    const scope = listed('V2.ASSET.BY_HASH_SCOPE');
    assert.ok(byHash.length > 0 && scope.length > 0);
    assert.deepEqual(
      byHash.filter((l) => scope.includes(l)),
      [],
      'V2.ASSET.BY_HASH does not select the tests of V2.ASSET.BY_HASH_SCOPE',
    );
    assert.equal(
      cli(['run', '--rule', 'V2.NO.SUCH_RULE', '--list', '--reports', path.join(dir, 'reports')], dir, port).status,
      2,
      'an unknown rule id is a usage error',
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test(
  'seeds lists the statements with their locators from the copy the README lays out',
  { skip: defaultSeedsDir(runConfig().seeds.dev) ? false : 'the seeds are not beside this checkout' },
  () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'cli-seeds-'));
    try {
      const r = cli(['seeds', 'W', '--section', 'Errors'], dir);
      assert.equal(r.status, 0, r.stderr);
      const lines = r.stdout.trim().split('\n');
      assert.ok(lines.length > 5);
      for (const l of lines) assert.match(l, /^W:\d+:[0-9a-f]{12} {2}\[[^\]]*Errors[^\]]*\] {2}\S/);
      const json = JSON.parse(cli(['seeds', 'R', '--json'], dir).stdout) as Array<{
        seed: string;
        line: number;
        sha: string;
      }>;
      assert.ok(json.length > 10 && json.every((s) => s.seed === 'R'));
      // Without any copy in reach it says where it looked, and exits 2.
      const none = cli(['seeds', '--seeds', path.join(dir, 'nowhere')], dir);
      assert.equal(none.status, 2);
      assert.match(none.stderr, /nowhere/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
);

test("the README and docs show the CLI for one rule's tests and for the statements, never a bare playwright or a repository-only script alone", () => {
  const docs = readdirSync(path.join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => path.join('docs', f));
  const readme = ['README.md', ...docs].map((f) => readFileSync(path.join(ROOT, f), 'utf8')).join('\n');
  assert.doesNotMatch(
    readme,
    /npx playwright test --grep @/,
    'npx playwright test finds no test in an installed package',
  );
  assert.match(readme, /workflow-conformance run --rule V2\.ASSET\.FRESH_URL/);
  assert.match(readme, /workflow-conformance seeds W/);
});
