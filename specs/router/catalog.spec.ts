// Seed R § Resources › Catalog entry, Catalog page; Endpoints › GET /v2/models and
// GET /v2/models/{provider}/{model}; Error body (retired models).
import { isDeepStrictEqual } from 'node:util';
import { test, rules } from '../../fixtures/test.ts';
import { check, notJudged } from '../../lib/check.ts';
import {
  entryId,
  factObjects,
  pageSizeOf,
  priceMembers,
  priceValues,
  quotedFigures,
  walkCatalog,
  type CatalogEntry,
  type CatalogPage,
} from '../../lib/router/catalog.ts';
import {
  alternatesOf,
  asRecord,
  checkRouterError,
  describe,
  detailOf,
  jsonOf,
  modelRef,
  path,
  schemaUrlMember,
} from '../../lib/router/models.ts';
import { imageBody } from '../../lib/router/bodies.ts';
import { readDocument } from '../../lib/router/schema-doc.ts';
import { formatScaled } from '../../lib/router/decimal.ts';
import { textOf } from '../../lib/values.ts';

test.describe('Catalog entry and page', () => {
  test(
    'a catalog entry carries its provider and model segments, the model ID {provider}/{model} and billing facts',
    rules('ROUTER.CATALOG.ENTRY', 'ROUTER.CATALOG.MEMBER_NAMES'),
    async ({ api }) => {
      const page = (await api.call('listModels', { query: { limit: 50 } })).json<CatalogPage>();
      check('ROUTER.CATALOG.ENTRY', page.data.length > 0, {
        what: 'the first catalog page',
        expected: 'at least one entry',
        received: page.data.length,
      });
      for (const e of page.data) {
        const id = entryId(e);
        // The seed shows no names for the ID and billing members (R:29:731595b672a6): judge them by their values.
        const idMembers = Object.entries(e)
          .filter(([, v]) => v === id)
          .map(([k]) => k);
        check('ROUTER.CATALOG.ENTRY', idMembers.length > 0, {
          what: `entry ${id}`,
          expected: `a member holding the model ID ${id}`,
          received: e,
        });
        const facts = factObjects(e);
        check('ROUTER.CATALOG.ENTRY', facts.length > 0, {
          what: `entry ${id}`,
          expected: 'a billing-facts object (whether a content-policy refusal is charged)',
          received: e,
        });
        // The names are public docs' word.
        if (idMembers.length > 0)
          check('ROUTER.CATALOG.MEMBER_NAMES', idMembers.includes('id'), {
            what: `the member holding the model ID of ${id}`,
            expected: 'id',
            received: idMembers,
          });
        else
          notJudged(
            'ROUTER.CATALOG.MEMBER_NAMES',
            `entry ${id} has no member holding its model ID (ROUTER.CATALOG.ENTRY judges that)`,
          );
        const billing = asRecord(e.billing);
        if (facts.length > 0)
          check('ROUTER.CATALOG.MEMBER_NAMES', typeof billing?.charges_on_policy_rejection === 'string', {
            what: `the billing facts of ${id}`,
            expected: 'billing.charges_on_policy_rejection (a string)',
            received: facts.map(([k, v]) => ({ [k]: v })),
          });
        else
          notJudged(
            'ROUTER.CATALOG.MEMBER_NAMES',
            `entry ${id} carries no billing facts at all (ROUTER.CATALOG.ENTRY judges that)`,
          );
      }
      // The page-size member too (R:29:731595b672a6: not shown; public docs: limit).
      const served = pageSizeOf(page, 50);
      if (served !== undefined)
        check('ROUTER.CATALOG.MEMBER_NAMES', served.member === 'limit', {
          what: 'the member holding the page size served',
          expected: 'limit',
          received: served.member,
        });
      else
        notJudged(
          'ROUTER.CATALOG.MEMBER_NAMES',
          'no member of the page holds the page size served (ROUTER.CATALOG.PAGE judges that)',
        );
    },
  );

  test(
    'the catalog carries no prices, in entries or details',
    rules('ROUTER.CATALOG.NO_PRICES'),
    async ({ api, target }) => {
      // The whole walk, not the first page: a price may sit on any entry.
      const { pages } = await walkCatalog(api, 100);
      const entries = pages.flatMap((p) => p.data);
      const named = entries.flatMap((e) => priceMembers(e).map((m) => `${entryId(e)}: ${m}`));
      check('ROUTER.CATALOG.NO_PRICES', named.length === 0, {
        what: `the ${entries.length} entries of the catalog walk`,
        expected: 'no member named like a price, at any depth',
        received: named.slice(0, 10),
      });
      // A price under any other name shows by its value: the figures the estimate route quotes for
      // the scenario models the suite has a body for (the seed names neither the members nor
      // their units, so each record is searched for the quote's own figures).
      const scenario = target.scenario;
      const priced: Array<[string, unknown]> = [
        [textOf(scenario.image_model ?? ''), scenario.image_body],
        [textOf(scenario.subcent_model ?? ''), scenario.image_body],
        [textOf(scenario.video_model ?? ''), scenario.video_body],
      ];
      const figures = new Map<string, bigint[]>();
      for (const [id, body] of priced) {
        if (id === '' || asRecord(body) === undefined || figures.has(id)) continue;
        const res = await api.call('estimateModel', {
          path: path(modelRef(id)),
          json: body as Record<string, unknown>,
        });
        const quote = res.status === 200 ? jsonOf(res) : undefined;
        if (quote !== undefined) figures.set(id, quotedFigures(quote));
      }
      if ([...figures.values()].every((f) => f.length === 0))
        notJudged(
          'ROUTER.CATALOG.NO_PRICES',
          'no scenario model was quoted a figure, so prices under names that do not say so are not looked for by value',
        );
      // Details: the first model of each provider on the walk, and the scenario models quoted above.
      const firstOfProvider = new Map<string, string>();
      for (const e of entries) if (!firstOfProvider.has(e.provider)) firstOfProvider.set(e.provider, entryId(e));
      const byId = new Map(entries.map((e) => [entryId(e), e] as const));
      for (const id of new Set([...figures.keys(), ...firstOfProvider.values()])) {
        const detail = await detailOf(api, modelRef(id));
        check('ROUTER.CATALOG.NO_PRICES', priceMembers(detail).length === 0, {
          what: `detail of ${id}`,
          expected: 'no member named like a price, at any depth',
          received: priceMembers(detail),
        });
        const quoted = figures.get(id) ?? [];
        if (quoted.length === 0) continue;
        const entry = byId.get(id);
        const found = [
          ...priceValues(detail, quoted).map((m) => `detail: ${m}`),
          ...(entry ? priceValues(entry, quoted).map((m) => `entry: ${m}`) : []),
        ];
        check('ROUTER.CATALOG.NO_PRICES', found.length === 0, {
          what: `the entry and detail of ${id}`,
          expected: `no member holding a figure its quote gives (${quoted.map(formatScaled).join(', ')})`,
          received: found,
        });
      }
    },
  );

  test(
    'a page carries data, has_more and the size served, with next_cursor while there is more',
    rules('ROUTER.CATALOG.PAGE'),
    async ({ api }) => {
      const page = (await api.call('listModels', { query: { limit: 3 } })).json<CatalogPage>();
      if (page.has_more)
        check('ROUTER.CATALOG.PAGE', typeof page.next_cursor === 'string', {
          what: 'a page with has_more true',
          expected: 'a next_cursor',
          received: page.next_cursor,
        });
      // The page-size member's name is not shown (R:29:731595b672a6): any member holding it counts.
      check(
        'ROUTER.CATALOG.PAGE',
        Array.isArray(page.data) && typeof page.has_more === 'boolean' && pageSizeOf(page, 3) !== undefined,
        {
          what: 'the page',
          expected: 'data, has_more and a member holding the page size served (an integer of 1 to 100)',
          received: page,
        },
      );
    },
  );

  test(
    'limit defaults to 20, is clamped to 100 and reported as served, and bounds data',
    rules('ROUTER.CATALOG.LIMIT'),
    async ({ api }) => {
      const cases: Array<[string, number | undefined, (served: number) => boolean, string, number]> = [
        ['no limit', undefined, (s) => s === 20, '20 (the default)', 20],
        ['limit 7', 7, (s) => s === 7, '7', 7],
        ['limit 250', 250, (s) => s === 100, '100 (clamped)', 100],
        ['limit 101', 101, (s) => s === 100, '100 (clamped)', 100],
      ];
      for (const [what, limit, ok, expected, want] of cases) {
        const page = (await api.call('listModels', { query: { limit } })).json<CatalogPage>();
        // Found by value: the seed does not show the member's name (public docs: limit).
        const served = pageSizeOf(page, want);
        check('ROUTER.CATALOG.LIMIT', served !== undefined && ok(served.value), {
          what: `the size served for ${what}`,
          expected,
          received: served ?? page,
        });
        if (served !== undefined)
          check('ROUTER.CATALOG.LIMIT', page.data.length <= served.value, {
            what: `data of the page for ${what}`,
            expected: `at most ${served.value} entries`,
            received: page.data.length,
          });
      }
    },
  );
});

test.describe('Model detail', () => {
  test(
    "the detail repeats the entry and adds the HTTPS URL of the model's schema document",
    rules('ROUTER.CATALOG.DETAIL', 'ROUTER.CATALOG.MEMBER_NAMES'),
    async ({ api, requireScenario }) => {
      const page = (await api.call('listModels', { query: { limit: 100 } })).json<CatalogPage>();
      const sample = [
        page.data[0],
        page.data[Math.floor(page.data.length / 2)],
        page.data[page.data.length - 1],
      ].filter((e): e is CatalogEntry => e !== undefined);
      // The scenario's authored model too, so an authored schema is always among those judged.
      const authoredId = requireScenario('image_model', 'model with an authored schema') as string;
      const ids = [...new Set([authoredId, ...sample.map((e) => `${e.provider}/${e.model}`)])];
      for (const id of ids) {
        const m = modelRef(id);
        const entry = sample.find((e) => `${e.provider}/${e.model}` === id);
        const detail = await detailOf(api, m);
        if (entry)
          for (const [k, v] of Object.entries(entry))
            check('ROUTER.CATALOG.DETAIL', isDeepStrictEqual(detail[k], v), {
              what: `${k} of the detail of ${id}`,
              expected: JSON.stringify(v),
              received: detail[k],
            });
        const found = schemaUrlMember(detail, m);
        if (found === undefined) {
          // Public docs: absent when no schema is authored; the model's own document says which.
          const doc = await api.call('getModelSchema', { path: path(m) });
          const authored = doc.status === 200 ? readDocument(doc.json(), api.target.brand).authored : undefined;
          if (authored === false)
            notJudged(
              'ROUTER.CATALOG.DETAIL',
              `the detail of ${id} has no schema URL and its document is not authored (public docs allow the absence)`,
            );
          else
            check('ROUTER.CATALOG.DETAIL', false, {
              what: `the detail of ${id}, whose schema document is ${authored === true ? 'authored' : `answered ${describe(api, doc)}`}`,
              expected: "the HTTPS URL of the model's schema document",
              received: detail,
            });
          notJudged('ROUTER.CATALOG.MEMBER_NAMES', `the detail of ${id} has no schema URL to name`);
          continue;
        }
        const [member, url] = found;
        check('ROUTER.CATALOG.DETAIL', url.startsWith('https://') && url.length <= 2048, {
          what: `the schema URL of ${id} (${member})`,
          expected: 'an https URL of at most 2048 characters',
          received: url,
        });
        check('ROUTER.CATALOG.MEMBER_NAMES', member === 'input_schema_url', {
          what: `the member holding the schema URL of ${id}`,
          expected: 'input_schema_url',
          received: member,
        });
      }
    },
  );

  test(
    'every alternate the detail reports is registered and has a leg for the model',
    rules('ROUTER.CATALOG.DETAIL_LEGS'),
    async ({ api, requireScenario }) => {
      const m = modelRef(requireScenario('image_model', 'model with alternate providers') as string);
      const legs = alternatesOf(await detailOf(api, m));
      test.skip(
        legs === undefined,
        'not exercised: no member of the detail holds a list of provider names (the seed does not show the member)',
      );
      const body = imageBody(requireScenario);
      // The seed names none of the four registered alternates: registered and with a leg is
      // what model_provider itself says (rules 6.1 and 6.5 answer 400), whatever the names.
      for (const alt of legs?.providers ?? []) {
        const res = await api.call('estimateModel', { path: path(m), query: { model_provider: alt }, json: body });
        check('ROUTER.CATALOG.DETAIL_LEGS', res.status !== 400, {
          what: `an estimate of ${m.id} with model_provider=${alt}, which the detail lists`,
          expected: 'not the 400 of a provider without a leg',
          received: `${res.status} ${JSON.stringify(jsonOf(res)?.detail ?? '')}`,
        });
      }
    },
  );
});

test.describe('Retired and sunset models', () => {
  test(
    'a retired model answers 404 model_not_found, and a successor it names is a live catalog ID',
    rules('ROUTER.CATALOG.RETIRED'),
    async ({ api, requireScenario }) => {
      for (const key of ['retired_model', 'retired_with_successor_model']) {
        const m = modelRef(requireScenario(key, 'retired model') as string);
        const res = await api.call('getModel', { path: path(m) });
        checkRouterError(api, 'ROUTER.CATALOG.RETIRED', res, [404], 'model_not_found');
        const run = await api.call('runModel', { path: path(m), json: { prompt: 'conformance' } });
        checkRouterError(api, 'ROUTER.CATALOG.RETIRED', run, [404], 'model_not_found');
        const successor = /; use (\S+)$/.exec(textOf(jsonOf(res)?.detail ?? ''))?.[1];
        if (successor !== undefined) {
          const live = await api.call('getModel', { path: path(modelRef(successor)) });
          check('ROUTER.CATALOG.RETIRED', live.status === 200, {
            what: `the successor ${successor} named for ${m.id}`,
            expected: 'a live catalog ID (200)',
            received: live.status,
          });
        } else {
          // A successor shows only in the detail's wording, which carries no compatibility guarantee.
          notJudged(
            'ROUTER.CATALOG.RETIRED',
            `the 404 of ${m.id} names no successor in the documented wording, so no successor could be ` +
              `looked up${key === 'retired_with_successor_model' ? ' (ROUTER.CATALOG.RETIRED_DETAIL judges the wording)' : ''}`,
          );
        }
      }
    },
  );

  test(
    'the retired-model detail reads "<id> was retired on <YYYY-MM-DD>" with "; use <successor>" when one is recorded',
    rules('ROUTER.CATALOG.RETIRED_DETAIL'),
    async ({ api, requireScenario }) => {
      for (const [key, withSuccessor] of [
        ['retired_model', false],
        ['retired_with_successor_model', true],
      ] as const) {
        const m = modelRef(requireScenario(key, 'retired model') as string);
        const res = await api.call('getModel', { path: path(m) });
        if (res.status !== 404) {
          notJudged(
            'ROUTER.CATALOG.RETIRED_DETAIL',
            `${m.id} answered ${describe(api, res)}, not the 404 whose wording this rule reads (ROUTER.CATALOG.RETIRED judges the status)`,
          );
          continue;
        }
        const detail = textOf(jsonOf(res)?.detail ?? '');
        const escaped = m.id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
        const pattern = withSuccessor
          ? new RegExp(`^${escaped} was retired on \\d{4}-\\d{2}-\\d{2}; use [a-z0-9._-]+/[a-z0-9._-]+$`)
          : new RegExp(`^${escaped} was retired on \\d{4}-\\d{2}-\\d{2}$`);
        check('ROUTER.CATALOG.RETIRED_DETAIL', pattern.test(detail), {
          what: `detail of retired ${m.id}`,
          expected: withSuccessor
            ? `${m.id} was retired on <YYYY-MM-DD>; use <successor>`
            : `${m.id} was retired on <YYYY-MM-DD>`,
          received: detail,
        });
      }
    },
  );

  test(
    'a model whose sunset date is in the future stays listed, readable and runnable',
    rules('ROUTER.CATALOG.SUNSET_LISTED'),
    async ({ api, requireScenario }) => {
      const m = modelRef(requireScenario('sunset_model', 'model with a future sunset date') as string);
      const detail = await api.call('getModel', { path: path(m) });
      check('ROUTER.CATALOG.SUNSET_LISTED', detail.status === 200, {
        what: `the detail of ${m.id}`,
        expected: '200',
        received: detail.status,
      });
      const walk = await walkCatalog(api, 100);
      check('ROUTER.CATALOG.SUNSET_LISTED', walk.ids.includes(m.id), {
        what: `a walk of the catalog (${walk.ids.length} models)`,
        expected: `${m.id} listed`,
        received: 'not listed',
      });
      const run = await api.call('runModel', { path: path(m), json: imageBody(requireScenario) });
      check('ROUTER.CATALOG.SUNSET_LISTED', run.status === 200, {
        what: `a run of ${m.id}`,
        expected: '200',
        received: run.status,
      });
    },
  );
});
