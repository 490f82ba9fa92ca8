// Where a run finds the user's copy of the seeds to quote (never the project's: it ships
// none): --seeds / CONFORMANCE_SEEDS, SEEDS_DIR, a seeds/ folder beside the targets file
// (or the working folder), then ../shared/seeds beside the checkout, as docs/reading-a-report.md
// lays it out. The copies made here are in a temporary folder, read and removed by the test.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { findSeedsDir, quotedRefs } from '../../lib/seeds/runtime.ts';
import { defaultSeedsDir, loadSeeds } from '../../lib/seeds/statements.ts';
import { runConfig } from '../../lib/config/env.ts';
import { ruleOrThrow } from '../../lib/rules.ts';

const shared = defaultSeedsDir(runConfig().seeds.dev);

function copyTo(dir: string): string {
  mkdirSync(dir, { recursive: true });
  for (const f of readdirSync(shared!).filter((n) => /^00[01]_.*\.txt$/.test(n)))
    copyFileSync(path.join(shared!, f), path.join(dir, f));
  return dir;
}

test(
  'the seeds are found where docs/reading-a-report.md says, in its order',
  { skip: shared ? false : 'the seeds are not beside this checkout' },
  () => {
    const tmp = mkdtempSync(path.join(os.tmpdir(), 'seeds-lookup-'));
    try {
      const explicit = copyTo(path.join(tmp, 'mine'));
      const dev = copyTo(path.join(tmp, 'dev'));
      const project = path.join(tmp, 'project');
      const beside = copyTo(path.join(project, 'seeds'));
      const checkout = path.join(tmp, 'work', 'checkout');
      mkdirSync(checkout, { recursive: true });
      const sharedCopy = copyTo(path.join(tmp, 'work', 'shared', 'seeds'));
      const none = { packageRoot: path.join(tmp, 'nowhere', 'pkg') };
      assert.equal(findSeedsDir({ CONFORMANCE_SEEDS: explicit, SEEDS_DIR: dev }, { cwd: project, ...none }), explicit);
      assert.equal(findSeedsDir({ SEEDS_DIR: dev }, { cwd: project, ...none }), dev);
      assert.equal(findSeedsDir({ TARGETS_FILE: path.join(project, 'targets.yaml') }, { cwd: tmp, ...none }), beside);
      assert.equal(findSeedsDir({}, { cwd: project, ...none }), beside, 'a seeds/ folder in the working folder');
      assert.equal(
        findSeedsDir({}, { cwd: checkout, ...none }),
        sharedCopy,
        '../shared/seeds from the checkout one runs in',
      );
      assert.equal(
        findSeedsDir({}, { cwd: tmp, packageRoot: checkout }),
        sharedCopy,
        '../shared/seeds beside the installed suite',
      );
      assert.equal(findSeedsDir({}, { cwd: tmp, ...none }), undefined);
      // A folder without both documents is no copy of the seeds.
      const half = path.join(tmp, 'half');
      mkdirSync(half);
      assert.equal(findSeedsDir({ SEEDS_DIR: half }, { cwd: tmp, ...none }), undefined);
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  },
);

test(
  'the quoted statements are the ones a failure rests on: a missing member quotes its own row first',
  { skip: shared ? false : 'the seeds are not beside this checkout' },
  () => {
    const seeds = loadSeeds(shared!)!;
    const rule = ruleOrThrow('V2.ASSET.FIELDS');
    for (const member of ['id', 'url_expires_at', 'size_bytes']) {
      const refs = quotedRefs(
        rule,
        {
          what: 'postAssets 201: body breaks the contract schema',
          expected: `(root) must have required property '${member}'`,
          received: '{}',
        },
        seeds,
      );
      const first = seeds[refs[0].seed].find((s) => s.line === refs[0].line && s.sha === refs[0].sha)!;
      assert.match(
        first.text,
        new RegExp(`^\\|\\s*\`?${member}\`?\\s*\\|`),
        `the ${member} row is quoted first, not ${first.text.slice(0, 40)}`,
      );
      assert.ok(refs.length <= 3);
    }
    // With nothing to go by, the rule's first statements.
    assert.deepEqual(quotedRefs(rule, { what: 'x' }, seeds), rule.seed_refs.slice(0, 3));
  },
);
