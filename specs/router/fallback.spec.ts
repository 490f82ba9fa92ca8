// Seed R § Endpoints › fallback_provider rules 1-3; Cost estimate rule 5.
import { test, rules } from '../../fixtures/test.ts';
import type { ApiClient, ApiResponse } from '../../lib/api.ts';
import { check, ensure, notJudged } from '../../lib/check.ts';
import { parseDecimal } from '../../lib/router/decimal.ts';
import { creditsFigures, type Quote } from '../../lib/router/estimate.ts';
import { alternatesOf, describe, detailOf, hdr, isProviderName, modelRef, path } from '../../lib/router/models.ts';
import { imageBody } from '../../lib/router/bodies.ts';
import { SuiteError } from '../../lib/violations.ts';

/**
 * A provider failure reaching the caller: a 5xx (502, 503, 504), or 402, the request-level
 * failure the 402 row of R § Errors gives for a cause the model itself did not name; never a 2xx,
 * never a refusal of the request itself (a 409 or another 4xx).
 */
function providerFailure(res: ApiResponse): boolean {
  return res.status >= 500 || res.status === 402;
}

/** Scenario fallback_order_runs: how many runs of fallback_model may be compared for one order (default 20). */
function fallbackOrderRuns(raw: unknown): number {
  if (raw === undefined) return 20;
  if (typeof raw !== 'number' || !Number.isInteger(raw) || raw < 2)
    throw new SuiteError('scenario input fallback_order_runs must be a whole number of runs, at least 2');
  return raw;
}

/** The first failure reached the caller unchanged: a provider failure, no fallback header. */
function checkSkipped(api: ApiClient, res: ApiResponse, what: string): void {
  const by = res.header(hdr(api, 'router-fallback-provider'));
  check('ROUTER.FALLBACK.SKIPPED', providerFailure(res) && by === undefined, {
    what,
    expected: 'the first failure unchanged (a 5xx or the request-level 402, no fallback header; never a 409)',
    received: `${describe(api, res)}${by ? ` served by ${by}` : ''}`,
    on: res,
  });
}

test.describe('fallback_provider', () => {
  test(
    'a provider failure is retried on an alternate, and the success names it; only the literal false turns fallback off',
    rules('ROUTER.FALLBACK.SERVED'),
    async ({ api, requireScenario }) => {
      const m = modelRef(requireScenario('fallback_model', 'model whose native provider fails') as string);
      const body = imageBody(requireScenario);
      // The alternates the detail lists; when it lists none readably, any provider name (the seed names no alternate).
      const listed = alternatesOf(await detailOf(api, m))?.providers;
      const allowedName = (v: string | undefined): boolean =>
        v !== undefined && (listed === undefined ? isProviderName(v) : listed.includes(v));
      const expected = listed === undefined ? 'a provider name' : `one of ${listed.join(', ')}`;
      for (const value of [undefined, 'False', '0', 'no', 'true']) {
        const res = await api.call('runModel', { path: path(m), query: { fallback_provider: value }, json: body });
        const served = res.header(hdr(api, 'router-fallback-provider'));
        const what = `a run of ${m.id}${value === undefined ? '' : ` with fallback_provider=${value}`}`;
        check('ROUTER.FALLBACK.SERVED', res.status === 200, {
          what,
          expected: '200 (served by fallback)',
          received: describe(api, res),
        });
        check('ROUTER.FALLBACK.SERVED', allowedName(served), {
          what: `${hdr(api, 'router-fallback-provider')} of ${what}`,
          expected,
          received: served ?? 'absent',
        });
      }
    },
  );

  test(
    'fallback_provider=false lets the first failure reach the caller, without a fallback header',
    rules('ROUTER.FALLBACK.OFF'),
    async ({ api, requireScenario }) => {
      const m = modelRef(requireScenario('fallback_model', 'model whose native provider fails') as string);
      const res = await api.call('runModel', {
        path: path(m),
        query: { fallback_provider: 'false' },
        json: imageBody(requireScenario),
      });
      check('ROUTER.FALLBACK.OFF', providerFailure(res), {
        what: `a run of ${m.id} with fallback_provider=false`,
        expected: 'the first failure (a 5xx, or the request-level 402)',
        received: describe(api, res),
      });
      check('ROUTER.FALLBACK.OFF', res.header(hdr(api, 'router-fallback-provider')) === undefined, {
        what: 'the failure',
        expected: 'no fallback header',
        received: res.header(hdr(api, 'router-fallback-provider')),
      });
    },
  );

  test(
    'fallback is skipped, never refused, for own-key requests and edit bodies',
    rules('ROUTER.FALLBACK.SKIPPED'),
    async ({ api, requireScenario }) => {
      const m = modelRef(requireScenario('fallback_model', 'model whose native provider fails') as string);
      const body = imageBody(requireScenario);
      const byok = api.as({
        bearer: requireScenario(
          'byok_token',
          "credential resolving an own key for fallback_model's provider",
        ) as string,
      });
      const image = requireScenario('edit_image_url', 'an input image URL') as string;
      // fallback_model's native provider fails while its alternates serve: a router that fell back would be served.
      const cases: Array<[string, () => ReturnType<typeof api.call>]> = [
        ['an own-key run', () => byok.call('runModel', { path: path(m), json: body })],
        ['an edit', () => api.call('runModel', { path: path(m), json: { ...body, image } })],
      ];
      for (const [what, send] of cases) {
        const res = await send();
        checkSkipped(api, res, `${what} of ${m.id} whose first attempt fails`);
      }
    },
  );

  test(
    'fallback is skipped under strict mode: a body only the named alternate fails on reaches the caller as that failure',
    rules('ROUTER.FALLBACK.SKIPPED'),
    async ({ api, requireScenario }) => {
      // R:145, R:157: strict mode turns fallback off. The body fails on the named provider alone, on
      // image_model whose other legs serve it, so any fallback would be served and seen.
      const m = modelRef(requireScenario('image_model', 'model whose other legs serve the strict body') as string);
      const strict = requireScenario(
        'strict_failing_body',
        "a body in an alternate's own schema that only that alternate fails on",
      ) as { provider: string; body: Record<string, unknown> };
      const res = await api.call('runModel', {
        path: path(m),
        query: { model_provider: strict.provider, strict_mode: true },
        json: strict.body,
      });
      checkSkipped(
        api,
        res,
        `a strict-mode run of ${m.id} on ${strict.provider}, with a body only ${strict.provider} fails on`,
      );
    },
  );

  test(
    'fallback retries once, on the first eligible alternate of a fixed order, ' +
      "and never for the request's own failure or a generation that may have been submitted",
    rules('ROUTER.FALLBACK.ATTEMPTS'),
    async ({ api, requireScenario, target }) => {
      const name = hdr(api, 'router-fallback-provider');
      // A fixed order: every request of one caller falling back lands on the same alternate, the
      // first eligible one. The bodies differ (in their prompt), so an order that depends on the
      // request is seen. A pick at random between two alternates passes n runs with chance 2^(1-n)
      // (2^-n against fallback_alternate): scenario fallback_order_runs bounds n (each run may be
      // paid for), by default 20, about one in half a million. The runs stop at the first
      // disagreement: only a router that keeps one order pays for all of them.
      const m = modelRef(requireScenario('fallback_model', 'model whose native provider fails') as string);
      const body = imageBody(requireScenario);
      const served: string[] = [];
      const runs = fallbackOrderRuns(target.scenario.fallback_order_runs);
      const first = target.scenario.fallback_alternate;
      for (let i = 0; i < runs; i++) {
        const json =
          typeof body.prompt === 'string' ? { ...body, prompt: `${body.prompt} (fallback order ${i + 1})` } : body;
        const res = await api.call('runModel', { path: path(m), json });
        const by = res.header(name);
        if (res.status === 200 && by !== undefined) served.push(by);
        if (new Set(served).size > 1 || (typeof first === 'string' && by !== undefined && by !== first)) break;
      }
      if (served.length < 2)
        notJudged(
          'ROUTER.FALLBACK.ATTEMPTS',
          `only ${served.length} of ${runs} runs of ${m.id} were served by fallback (ROUTER.FALLBACK.SERVED judges that), so there is no order to compare`,
        );
      else
        check('ROUTER.FALLBACK.ATTEMPTS', new Set(served).size === 1, {
          what: `${name} of ${served.length} runs of ${m.id} that fell back, with bodies differing in their prompt`,
          expected: 'the same alternate every time (the first eligible one in a fixed order)',
          received: served,
        });
      // Which alternate is first is the target's to say (the seed states no order): given, every fallback lands there.
      if (typeof first !== 'string')
        notJudged(
          'ROUTER.FALLBACK.ATTEMPTS',
          `the target gives no fallback_alternate (the first eligible alternate of ${m.id} for the ` +
            `default key), so which alternate serves is not judged, only that it is always the same`,
        );
      else if (served.length > 0)
        check(
          'ROUTER.FALLBACK.ATTEMPTS',
          served.every((p) => p === first),
          {
            what: `${name} of the runs of ${m.id} that fell back`,
            expected: `${first} every time (scenario fallback_alternate: the first eligible alternate)`,
            received: served,
          },
        );

      // Failures that must reach the caller unchanged although an alternate would serve the body.
      const im = modelRef(requireScenario('image_model', 'model with alternates') as string);
      const cases: Array<[string, string]> = [
        ['native_malformed_body', "a request the native provider calls malformed (the request's own failure)"],
        ['native_timeout_body', 'a call that passed its deadline after the generation was submitted'],
        [
          'first_alternate_failing_body',
          'a run whose native provider and first eligible alternate both fail (one retry only)',
        ],
      ];
      for (const [key, what] of cases) {
        const input = target.scenario[key];
        if (typeof input !== 'object' || input === null || Array.isArray(input)) {
          notJudged('ROUTER.FALLBACK.ATTEMPTS', `the target gives no scenario input ${key} (${what})`);
          continue;
        }
        const res = await api.call('runModel', { path: path(im), json: input });
        const by = res.header(name);
        // A header on the failure itself is ROUTER.FALLBACK.FAILED_NO_HEADER's to judge.
        check('ROUTER.FALLBACK.ATTEMPTS', res.status >= 400, {
          what: `${what} on ${im.id} (scenario ${key})`,
          expected: 'the failure reaches the caller (not a success served by another alternate)',
          received: `${describe(api, res)}${by === undefined ? '' : `, ${name}: ${by}`}`,
          on: res,
        });
      }
    },
  );

  test(
    'a failed fallback attempt does not carry the fallback header',
    rules('ROUTER.FALLBACK.FAILED_NO_HEADER'),
    async ({ api, requireScenario }) => {
      const m = modelRef(requireScenario('fallback_model', 'model with alternates') as string);
      const failing = requireScenario('failing_body', 'a body every provider fails on') as Record<string, unknown>;
      const res = await api.call('runModel', { path: path(m), json: failing });
      if (!providerFailure(res)) {
        notJudged(
          'ROUTER.FALLBACK.FAILED_NO_HEADER',
          `the scenario's failing_body answered ${describe(api, res)}, not a provider failure, so no fallback attempt failed`,
        );
        return;
      }
      check('ROUTER.FALLBACK.FAILED_NO_HEADER', res.header(hdr(api, 'router-fallback-provider')) === undefined, {
        what: `a run of ${m.id} where every provider fails`,
        expected: 'no fallback header',
        received: res.header(hdr(api, 'router-fallback-provider')),
      });
    },
  );

  test(
    "a run served by fallback is charged at the serving provider's rate",
    rules('ROUTER.FALLBACK.RATE'),
    async ({ api, requireScenario }) => {
      const m = modelRef(requireScenario('fallback_model', 'model whose native provider fails') as string);
      const body = imageBody(requireScenario);
      const res = await api.call('runModel', { path: path(m), json: body });
      const served = res.header(hdr(api, 'router-fallback-provider'));
      // The scenario model's native provider fails: by default an alternate serves the call.
      ensure('ROUTER.FALLBACK.SERVED', res.status === 200 && served !== undefined, {
        what: `a run of ${m.id}, whose native provider fails`,
        expected: `200 with ${hdr(api, 'router-fallback-provider')}`,
        received: `${describe(api, res)}, ${hdr(api, 'router-fallback-provider')}: ${served ?? 'absent'}`,
        on: res,
      });
      const quote = (
        await api.call('estimateModel', { path: path(m), query: { model_provider: served }, json: body })
      ).json<Quote>();
      if (quote.source !== 'exact') {
        notJudged(
          'ROUTER.FALLBACK.RATE',
          `the quote of the ${served} leg is ${String(quote.source)}, not exact, so there is no figure to compare the charge with`,
        );
        return;
      }
      // For an exact quote the credits-used header carries the figure (seed R § Cost estimate, credits).
      const header = res.header(hdr(api, 'credits-used'));
      const charged = header === undefined ? undefined : parseDecimal(header.trim());
      const expected = creditsFigures(quote);
      check(
        'ROUTER.FALLBACK.RATE',
        charged !== undefined && expected !== undefined && expected.figures.includes(charged),
        {
          what: `${hdr(api, 'credits-used')} of the fallback run served by ${served}`,
          expected: `${expected?.shown ?? 'the credits of the exact quote'} (the ${served} leg's quote)`,
          received: header ?? 'absent',
          on: res,
        },
      );
    },
  );
});
