// Properties of the catalog walk (seed R § Resources › Catalog page; Identifiers › page
// cursor): any limit visits every model and ends only on has_more false (none twice, assumed);
// cursors are opaque, and (public docs) a cursor the server did not produce is refused.
import fc from 'fast-check';
import { test, rules } from '../../fixtures/test.ts';
import { check, ensure, notJudged } from '../../lib/check.ts';
import { assertProperty } from '../../fixtures/property.ts';
import { CURSOR_PATTERN, forgedCursor, mutatedCursor } from '../../lib/arbitraries/router.ts';
import { walkCatalog, type CatalogPage } from '../../lib/router/catalog.ts';
import { checkRouterError } from '../../lib/router/models.ts';

test.describe('Catalog page', () => {
  // R:38:d5bbac65ae84 says to walk while has_more is true; that no entry comes twice is assumed
  // (R:25:8ca9c6fc742c: a rebuilt catalog may shift cursors), so it is a SHOULD.
  test(
    'following next_cursor while has_more visits every model, whatever the limit, and (assumed) none twice',
    rules('ROUTER.CATALOG.WALK', 'ROUTER.CATALOG.WALK_UNIQUE'),
    async ({ api, profile }, testInfo) => {
      const reference = await walkCatalog(api, 100);
      const all = new Set(reference.ids);
      check('ROUTER.CATALOG.WALK_UNIQUE', all.size === reference.ids.length, {
        what: `a walk at limit 100 (${reference.ids.length} entries)`,
        expected: 'no entry twice',
        received: `${reference.ids.length - all.size} repeated`,
      });
      // Each walk costs about (catalog size / limit) requests: small limits are drawn less often.
      const limit = fc.oneof(
        { weight: 1, arbitrary: fc.integer({ min: 1, max: 9 }) },
        { weight: 4, arbitrary: fc.integer({ min: 10, max: 150 }) },
      );
      // Repeats are the SHOULD's: noted in the property and judged after it, so they never cut the MUST's runs short.
      const repeated: string[] = [];
      await assertProperty(
        testInfo,
        { ...profile, numRuns: Math.max(3, Math.ceil(profile.numRuns / 3)) },
        limit,
        async (n) => {
          const walk = await walkCatalog(api, n);
          const seen = new Set(walk.ids);
          if (seen.size !== walk.ids.length) repeated.push(`${walk.ids.length - seen.size} at limit ${n}`);
          const missing = [...all].filter((id) => !seen.has(id));
          check('ROUTER.CATALOG.WALK', missing.length === 0, {
            what: `a walk at limit ${n}`,
            expected: `the ${all.size} models of the walk at limit 100`,
            received: `${seen.size} models; missing ${missing.slice(0, 3).join(', ')}`,
          });
        },
      );
      check('ROUTER.CATALOG.WALK_UNIQUE', repeated.length === 0, {
        what: 'the walks at the other limits',
        expected: 'no entry twice',
        received: `repeated entries: ${repeated.join('; ')}`,
      });
    },
  );

  test(
    'next_cursor is opaque: 1 to 512 characters, and not the offset of the next entry',
    rules('ROUTER.CATALOG.CURSOR_OPAQUE'),
    async ({ api }) => {
      // Pages of one entry, so a catalog of only a few models still yields cursors; the seed
      // gives a catalog no minimum size, and one that fits one page has none to judge.
      const first = (await api.call('listModels', { query: { limit: 1 } })).json<CatalogPage>();
      const second =
        first.has_more && typeof first.next_cursor === 'string'
          ? (await api.call('listModels', { query: { limit: 1, cursor: first.next_cursor } })).json<CatalogPage>()
          : undefined;
      const served: Array<[string | undefined, number]> = [];
      if (first.has_more) served.push([first.next_cursor, first.data.length]);
      if (second?.has_more) served.push([second.next_cursor, first.data.length + second.data.length]);
      if (served.length === 0)
        notJudged(
          'ROUTER.CATALOG.CURSOR_OPAQUE',
          `the catalog fits one page of one entry (${first.data.length} listed), so no cursor is served`,
        );
      // R:25:8ca9c6fc742c: opaque, 1 to 512 characters, not an offset. What a cursor is made of is not stated.
      for (const [c, offset] of served) {
        check('ROUTER.CATALOG.CURSOR_OPAQUE', typeof c === 'string' && c.length >= 1 && c.length <= 512, {
          what: 'next_cursor',
          expected: '1 to 512 characters',
          received: c,
        });
        check('ROUTER.CATALOG.CURSOR_OPAQUE', c !== String(offset), {
          what: `the next_cursor after ${offset} entries`,
          expected: 'not that offset',
          received: c,
        });
      }
    },
  );

  test(
    'a mutated or forged cursor is refused 400 invalid_input, never served as a page; cursors use the public alphabet',
    rules('ROUTER.CATALOG.CURSOR_REFUSED'),
    async ({ api, profile }, testInfo) => {
      // Pages of one entry: a small catalog still serves a cursor to mutate.
      const first = (await api.call('listModels', { query: { limit: 1 } })).json<CatalogPage>();
      const cursor = first.next_cursor;
      if (!first.has_more) {
        notJudged(
          'ROUTER.CATALOG.CURSOR_REFUSED',
          `the catalog fits one page of one entry (${first.data.length} listed), so no served cursor can be mutated`,
        );
        return;
      }
      ensure('ROUTER.CATALOG.WALK', typeof cursor === 'string', {
        what: 'a first page of 1 that says has_more',
        expected: 'a next_cursor',
        received: cursor,
      });
      // Public docs give the alphabet; the seed says only "opaque".
      check('ROUTER.CATALOG.CURSOR_REFUSED', CURSOR_PATTERN.test(cursor), {
        what: 'next_cursor',
        expected: `the public alphabet ${CURSOR_PATTERN.source}`,
        received: cursor,
      });
      const arbitrary = fc.oneof(mutatedCursor(cursor), forgedCursor());
      await assertProperty(testInfo, profile, arbitrary, async (bad) => {
        const res = await api.call('listModels', { query: { limit: 1, cursor: bad } });
        checkRouterError(
          api,
          'ROUTER.CATALOG.CURSOR_REFUSED',
          res,
          [400],
          'invalid_input',
          `a page asked for with a cursor the server did not produce (${JSON.stringify(bad.slice(0, 40))})`,
        );
      });
    },
  );
});
