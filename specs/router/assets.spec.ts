// Seed R § Result assets (rule 3: only the native provider's runs are copied) and
// § Versioning (rule 1: router paths carry /v2).
import { test, rules } from '../../fixtures/test.ts';
import { check, notJudged } from '../../lib/check.ts';
import type { ApiClient, ApiResponse } from '../../lib/api.ts';
import { describe, hdr, jsonOf, modelRef, path } from '../../lib/router/models.ts';
import { imageBody } from '../../lib/router/bodies.ts';
import { SuiteError } from '../../lib/violations.ts';

/** Every string of a JSON answer that is an absolute URL, with where it sits. */
function urlsIn(value: unknown, at = ''): Array<[string, string]> {
  if (typeof value === 'string') return /^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? [[at || '(body)', value]] : [];
  if (Array.isArray(value)) return value.flatMap((v, i) => urlsIn(v, `${at}[${i}]`));
  if (value !== null && typeof value === 'object')
    return Object.entries(value).flatMap(([k, v]) => urlsIn(v, at ? `${at}.${k}` : k));
  return [];
}

test.describe('Result assets', () => {
  test(
    "a run served by another provider than the model's own returns that provider's URLs, none on platform storage",
    rules('ROUTER.ASSETS.COPYING'),
    async ({ api, requireScenario, target }) => {
      // Which assets are copied is the model's affair, and nothing marks a copy: only the storage
      // origin (a scenario input) tells a copied URL from a provider's.
      const origin = new URL(
        String(
          requireScenario('platform_asset_origin', 'the origin of the platform storage copied assets are served from'),
        ),
      ).origin;
      const m = modelRef(requireScenario('image_model', 'JSON image model with alternates') as string);
      const alt = requireScenario('edit_servable_provider', 'an alternate of image_model') as string;
      const served: Array<[string, ApiResponse]> = [
        [
          `a run of ${m.id} with model_provider=${alt}`,
          await api.call('runModel', {
            path: path(m),
            query: { model_provider: alt },
            json: imageBody(requireScenario),
          }),
        ],
      ];
      // A fallback that lands on an alternate is served by that provider too (R:231:3fe97d8e9554).
      const fb = target.scenario.fallback_model;
      if (typeof fb === 'string') {
        const res = await api.call('runModel', { path: path(modelRef(fb)), json: imageBody(requireScenario) });
        const by = res.header(hdr(api, 'router-fallback-provider'));
        if (res.status === 200 && by !== undefined && by !== modelRef(fb).provider)
          served.push([`a run of ${fb} served by fallback on ${by}`, res]);
        else
          notJudged(
            'ROUTER.ASSETS.COPYING',
            `the run of ${fb} answered ${describe(api, res)} without a fallback to another provider, so no fallback-served answer is judged`,
          );
      }
      for (const [what, res] of served) {
        if (res.status !== 200)
          throw new SuiteError(`${what} answered ${describe(api, res)}, not a result whose URLs could be read`);
        const json = jsonOf(res);
        const urls = urlsIn(json);
        if (json === undefined || urls.length === 0) {
          notJudged('ROUTER.ASSETS.COPYING', `${what} answered no JSON with asset URLs`);
          continue;
        }
        const copied = urls.filter(([, u]) => u.startsWith(`${origin}/`) || u === origin);
        check('ROUTER.ASSETS.COPYING', copied.length === 0, {
          what,
          expected: `the provider's own URLs, none on the platform storage ${origin} (only the native provider's runs are copied)`,
          received: copied.map(([at, u]) => `${at}: ${u}`),
          on: res,
        });
      }
    },
  );
});

test.describe('Versioning', () => {
  test(
    'router paths carry /v2: the queue URLs a handle gives are under the prefix',
    rules('ROUTER.VERSION.PREFIX'),
    async ({ api, requireScenario }) => {
      const m = modelRef(requireScenario('image_model', 'JSON model') as string);
      const submit = await api.call('submitModelRequest', { path: path(m), json: imageBody(requireScenario) });
      if (submit.status !== 201)
        throw new SuiteError(
          `a queued submit of ${m.id} answered ${describe(api, submit)}, so no handle URLs could be read`,
        );
      checkPrefixed(api, jsonOf(submit) ?? {}, submit);
    },
  );
});

/** Each queue URL of a handle is a path under the router base address that starts /v2/. */
function checkPrefixed(api: ApiClient, handle: Record<string, unknown>, res: ApiResponse): void {
  const base = new URL(api.target.baseUrl).pathname.replace(/\/+$/, '');
  for (const k of ['status_url', 'response_url', 'cancel_url']) {
    const u = handle[k];
    if (typeof u !== 'string') {
      notJudged('ROUTER.VERSION.PREFIX', `the handle has no ${k} (ROUTER.QUEUE.HANDLE judges that)`);
      continue;
    }
    let pathname: string | undefined;
    try {
      pathname = new URL(u, api.target.baseUrl).pathname;
    } catch {
      pathname = undefined;
    }
    check('ROUTER.VERSION.PREFIX', pathname !== undefined && pathname.startsWith(`${base}/v2/`), {
      what: `${k} of the handle`,
      expected: `a path under ${base || ''}/v2/`,
      received: u,
      on: res,
    });
  }
}
