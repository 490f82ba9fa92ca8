// The fault matrix's spec selection (test/support/spec-map.ts): learnt from Playwright's
// own listing of the project (the rule tags of each test), never from the test source.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { selectionFor, specMap, specMapFromListing, type ListingReport } from '../support/spec-map.ts';
import { FAULTS, SUITE_FAULTS } from '../../reference/faults.ts';
import { loadRules } from '../../lib/rules.ts';
import type { Surface } from '../../lib/families.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const started = Date.now();
const map = await specMap(ROOT);
const listingMs = Date.now() - started;
const all = new Set<Surface>(['local', 'cloud', 'serverless', 'router', 'registry']);

test('the listing is taken once per process, and quickly', async () => {
  console.log(`# playwright test --list: ${listingMs} ms`);
  assert.ok(listingMs < 60_000, `listing took ${listingMs} ms`);
  const again = Date.now();
  assert.equal(await specMap(ROOT), map);
  assert.ok(Date.now() - again < 50);
});

test('a listing maps each rule tag to the spec files of its family, and keeps the rules each test declares together', () => {
  const listing: ListingReport = {
    config: { rootDir: path.join(ROOT, 'specs') },
    suites: [
      {
        specs: [
          // The JSON reporter writes tags without their `@`.
          {
            file: 'v2/a.spec.ts',
            title: 'one',
            tags: ['V2.ASSET.DEDUP', 'V2.ASSET.FIELDS', 'slow'],
            tests: [{ projectName: 'v2-local' }, { projectName: 'v2-cloud' }],
          },
          { file: 'v2/a.spec.ts', title: 'two', tags: ['V2.JOB.CANCEL'], tests: [{ projectName: 'v2-local' }] },
        ],
        suites: [
          {
            specs: [
              {
                file: 'v2/b.spec.ts',
                title: 'nested',
                tags: ['V2.ASSET.DEDUP', 'ROUTER.AUTH.JWT'],
                tests: [{ projectName: 'v2-serverless' }],
              },
            ],
          },
        ],
      },
      { specs: [{ file: 'router/c.spec.ts', title: 'three', tags: [], tests: [{ projectName: 'router' }] }] },
    ],
  };
  const m = specMapFromListing(listing, ROOT);
  assert.deepEqual(m.declared.get('V2.ASSET.DEDUP'), ['specs/v2/a.spec.ts', 'specs/v2/b.spec.ts']);
  assert.deepEqual(m.declared.get('V2.JOB.CANCEL'), ['specs/v2/a.spec.ts']);
  assert.equal(
    m.declared.get('ROUTER.AUTH.JWT'),
    undefined,
    'a router rule tagged on a v2 test is no router selection',
  );
  assert.deepEqual(m.declarations.get('specs/v2/a.spec.ts'), [
    ['V2.ASSET.DEDUP', 'V2.ASSET.FIELDS'],
    ['V2.JOB.CANCEL'],
  ]);
  assert.deepEqual(m.specs.get('v2'), ['specs/v2/a.spec.ts', 'specs/v2/b.spec.ts']);
  assert.deepEqual(m.specs.get('router'), ['specs/router/c.spec.ts']);
});

test('a rule declared by tests maps to their spec files and tag, on the surfaces the rule applies to', () => {
  const sel = selectionFor('V2.JOB.LABELS_EXACT', all, { map });
  assert.ok(sel.files.includes('specs/v2/jobs.spec.ts'), sel.why);
  assert.ok(!sel.files.includes('specs/v2/assets.spec.ts'));
  assert.equal(sel.tag, '@V2.JOB.LABELS_EXACT');
  const surfaces = loadRules().get('V2.JOB.LABELS_EXACT')!.surfaces;
  assert.deepEqual(
    sel.projects,
    surfaces.filter((s) => ['local', 'cloud', 'serverless'].includes(s)).map((s) => `--project=v2-${s}`),
  );
});

test('tests the explorer generates are in the listing with their rule tags', () => {
  assert.ok(
    map.declared.get('V2.CONTRACT.BODY')?.includes('specs/v2/explore.spec.ts'),
    'the harness runs include the explorer specs',
  );
});

test('a rule no test declares (judged on every answer only) falls back to the whole family', () => {
  // Every such rule is declared by a test today, so the map is the real one with its declarations removed.
  const declared = new Map(map.declared);
  declared.delete('ROUTER.HEADER.RETRY_AFTER');
  const sel = selectionFor('ROUTER.HEADER.RETRY_AFTER', all, { map: { ...map, declared } });
  assert.deepEqual(sel.files, []);
  assert.equal(sel.tag, undefined);
  assert.deepEqual(sel.projects, ['--project=router']);
});

test('a fault that shows only where other tests provoke it widens its selection to whole files (seenBy)', () => {
  const fault = FAULTS.find((f) => f.name === 'org-id-on-unauthorized')!;
  assert.ok(fault.seenBy);
  const sel = selectionFor(fault.breaks, all, { map, seenBy: fault.seenBy });
  assert.equal(sel.tag, undefined);
  assert.ok(sel.files.includes('specs/v2/auth.spec.ts'), sel.why);
  for (const f of map.declared.get(fault.breaks) ?? []) assert.ok(sel.files.includes(f), `${f} declares the rule`);
  assert.deepEqual(selectionFor(fault.breaks, all, { map, seenBy: { files: 'family', why: 'test' } }).files, []);
});

test('surfaces the target lacks get no project; a rule with none left is refused', () => {
  const sel = selectionFor('V2.JOB.LABELS_EXACT', new Set<Surface>(['cloud']), { map });
  assert.deepEqual(sel.projects, ['--project=v2-cloud']);
  assert.throws(
    () => selectionFor('ROUTER.HEADER.RETRY_AFTER', new Set<Surface>(['cloud']), { map }),
    /applies to no surface/,
  );
});

test('every suite fault has a selection, every mapped file exists, and every seenBy names real spec files and says why', () => {
  for (const fault of SUITE_FAULTS) {
    const sel = selectionFor(fault.breaks, all, { map, ...(fault.seenBy ? { seenBy: fault.seenBy } : {}) });
    assert.ok(sel.projects.length > 0, fault.name);
    for (const f of sel.files) assert.ok(existsSync(path.join(ROOT, f)), `${fault.name}: ${f}`);
    if (!fault.seenBy) continue;
    assert.ok(fault.seenBy.why.length > 10, `${fault.name}: seenBy says why`);
    if (fault.seenBy.files !== 'family')
      for (const f of fault.seenBy.files)
        assert.ok(f.startsWith('specs/') && existsSync(path.join(ROOT, f)), `${fault.name}: ${f}`);
  }
});
