// Seed R § Endpoints › model_provider rules 1-7: aliases, refusals and their fixed order,
// translation with dropped-params disclosure, and strict mode.
import { test, rules } from '../../fixtures/test.ts';
import { check, notJudged } from '../../lib/check.ts';
import type { ApiClient, ApiResponse } from '../../lib/api.ts';
import { decodeDroppedParams } from '../../lib/checks/router.ts';
import { parseDecimal } from '../../lib/router/decimal.ts';
import type { Quote } from '../../lib/router/estimate.ts';
import {
  checkRouterError,
  describe,
  errorTypeOf,
  hdr,
  jsonOf,
  modelRef,
  nativeAliases,
  path,
  uniqueKey,
  withKey,
  type ModelRef,
} from '../../lib/router/models.ts';
import { imageBody } from '../../lib/router/bodies.ts';
import { modelDocument, validatorFor } from '../../lib/router/schema-doc.ts';
import { isJsonMedia } from '../../lib/contracts/validate.ts';
import { SuiteError } from '../../lib/violations.ts';
import { textOf } from '../../lib/values.ts';

const EDIT_PREFIX = "this request's `image` selects the edit operation";
const BYOK_PREFIX = 'this request resolved a BYOK credential';
const UNREGISTERED = 'conformance-unregistered-provider';

interface Setup {
  m: ModelRef;
  body: Record<string, unknown>;
  edit: Record<string, unknown>;
}

async function setup(api: ApiClient, requireScenario: (k: string, why: string) => unknown): Promise<Setup> {
  const m = modelRef(requireScenario('image_model', 'editable image model with alternates') as string);
  const body = imageBody(requireScenario);
  const edit = {
    ...body,
    image: requireScenario('edit_image_url', 'an input image URL (selects the edit operation)') as string,
  };
  return { m, body, edit };
}

/** Whether two answers carry the same top-level member names. */
function sameMembers(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  const [x, y] = [Object.keys(a).sort(), Object.keys(b).sort()];
  return x.length === y.length && x.every((k, i) => k === y[i]);
}

/** The corrected resend after a prefixed 409 runs afresh: 200, not a replay, not the 409 again. */
function checkCorrected(
  api: ApiClient,
  rule: 'ROUTER.PROVIDER.EDIT_UNSERVABLE' | 'ROUTER.PROVIDER.BYOK_CONFLICT',
  res: ApiResponse,
  what: string,
): void {
  const replay = res.header('idempotent-replayed')?.trim().toLowerCase() === 'true';
  check(rule, res.status === 200 && !replay, {
    what,
    expected: 'a fresh 200 (the 409 was raised before dispatch, so the key stays free)',
    received: `${describe(api, res)}, Idempotent-Replayed: ${res.header('idempotent-replayed') ?? 'absent'} ${JSON.stringify(detailOf(res).slice(0, 80))}`,
    on: res,
  });
}

function detailOf(res: ApiResponse): string {
  return textOf(jsonOf(res)?.detail ?? '');
}

test.describe('model_provider', () => {
  test(
    'default and the two brand-named aliases name no override: the native leg, as without model_provider',
    rules('ROUTER.PROVIDER.ALIASES'),
    async ({ api, requireScenario }) => {
      const { m, body } = await setup(api, requireScenario);
      const native = (await api.call('estimateModel', { path: path(m), json: body })).json<Quote>();
      // The brand-named aliases follow the target's brand (scenario input brand_aliases).
      for (const alias of nativeAliases(api)) {
        const run = await api.call('runModel', { path: path(m), query: { model_provider: alias }, json: body });
        check('ROUTER.PROVIDER.ALIASES', run.status === 200, {
          what: `a run with model_provider=${alias}`,
          expected: '200 (native dispatch)',
          received: describe(api, run),
        });
        check(
          'ROUTER.PROVIDER.ALIASES',
          run.header(hdr(api, 'router-dropped-params')) === undefined &&
            run.header(hdr(api, 'router-fallback-provider')) === undefined,
          {
            what: `a run with model_provider=${alias}`,
            expected: 'no translation and no fallback disclosed',
            received: run.header(hdr(api, 'router-dropped-params')) ?? run.header(hdr(api, 'router-fallback-provider')),
          },
        );
        const q = (
          await api.call('estimateModel', { path: path(m), query: { model_provider: alias }, json: body })
        ).json<Quote>();
        const same =
          typeof q.amount === 'string' && typeof native.amount === 'string'
            ? parseDecimal(q.amount) === parseDecimal(native.amount)
            : q.source === native.source;
        check('ROUTER.PROVIDER.ALIASES', same, {
          what: `the quote with model_provider=${alias}`,
          expected: `the native quote (${String(native.amount ?? native.source)})`,
          received: q.amount ?? q.source,
        });
      }
    },
  );

  test(
    'a value that is not a registered provider is refused 400 invalid_input',
    rules('ROUTER.PROVIDER.UNREGISTERED'),
    async ({ api, requireScenario }) => {
      const { m, body } = await setup(api, requireScenario);
      for (const value of [UNREGISTERED, 'conformance-provider-2']) {
        checkRouterError(
          api,
          'ROUTER.PROVIDER.UNREGISTERED',
          await api.call('runModel', { path: path(m), query: { model_provider: value }, json: body }),
          [400],
          'invalid_input',
          `a run with model_provider=${JSON.stringify(value)}`,
        );
      }
      checkRouterError(
        api,
        'ROUTER.PROVIDER.UNREGISTERED',
        await api.call('estimateModel', { path: path(m), query: { model_provider: UNREGISTERED }, json: body }),
        [400],
        'invalid_input',
      );
    },
  );

  test(
    'a registered provider with no leg for the model is refused 400 invalid_input',
    rules('ROUTER.PROVIDER.NO_LEG'),
    async ({ api, requireScenario }) => {
      const { m, body } = await setup(api, requireScenario);
      const provider = requireScenario('no_leg_provider', 'a turned-on provider with no leg for image_model') as string;
      checkRouterError(
        api,
        'ROUTER.PROVIDER.NO_LEG',
        await api.call('runModel', { path: path(m), query: { model_provider: provider }, json: body }),
        [400],
        'invalid_input',
      );
    },
  );

  test(
    'an edit the named translator cannot serve is refused 409 invalid_input with the stable edit prefix; a leg that carries the media runs',
    rules('ROUTER.PROVIDER.EDIT_UNSERVABLE'),
    async ({ api, requireScenario }) => {
      const { m, edit } = await setup(api, requireScenario);
      const unservable = requireScenario(
        'edit_unservable_provider',
        'a provider whose translator cannot carry the edit media',
      ) as string;
      let key = '';
      for (const attempt of [1, 2]) {
        key = uniqueKey('edit');
        const res = await api.call(
          'runModel',
          withKey(key, { path: path(m), query: { model_provider: unservable }, json: edit }),
        );
        checkRouterError(
          api,
          'ROUTER.PROVIDER.EDIT_UNSERVABLE',
          res,
          [409],
          'invalid_input',
          `edit with model_provider=${unservable}, attempt ${attempt} with a new key: ${describe(api, res)}`,
        );
        check('ROUTER.PROVIDER.EDIT_UNSERVABLE', detailOf(res).startsWith(EDIT_PREFIX), {
          what: 'detail of the 409',
          expected: `begins "${EDIT_PREFIX}"`,
          received: detailOf(res),
        });
      }
      // R:152:0b3be116b11f: the fix is to drop model_provider; a refusal before dispatch leaves the key free (R:173).
      checkCorrected(
        api,
        'ROUTER.PROVIDER.EDIT_UNSERVABLE',
        await api.call('runModel', withKey(key, { path: path(m), json: edit })),
        'the edit resent without model_provider, under the key of the last 409',
      );
      const servable = requireScenario(
        'edit_servable_provider',
        'a provider whose translator carries the edit media',
      ) as string;
      const ok = await api.call('runModel', { path: path(m), query: { model_provider: servable }, json: edit });
      check('ROUTER.PROVIDER.EDIT_UNSERVABLE', ok.status === 200, {
        what: `edit with model_provider=${servable}`,
        expected: '200 (the leg carries the media)',
        received: describe(api, ok),
      });
    },
  );

  test(
    'an own-key request naming model_provider is refused 409 invalid_input with the stable BYOK prefix, whether or not the provider serves the model',
    rules('ROUTER.PROVIDER.BYOK_CONFLICT'),
    async ({ api, requireScenario }) => {
      const { m, body } = await setup(api, requireScenario);
      const byok = api.as({
        bearer: requireScenario('byok_token', "credential resolving an own key for image_model's provider") as string,
      });
      const serving = requireScenario('edit_servable_provider', 'a provider with a leg for image_model') as string;
      const notServing = requireScenario('no_leg_provider', 'a provider with no leg for image_model') as string;
      let key = '';
      for (const provider of [serving, notServing, serving]) {
        key = uniqueKey('byok');
        const res = await byok.call(
          'runModel',
          withKey(key, { path: path(m), query: { model_provider: provider }, json: body }),
        );
        checkRouterError(
          api,
          'ROUTER.PROVIDER.BYOK_CONFLICT',
          res,
          [409],
          'invalid_input',
          `an own-key run with model_provider=${provider} and a new key: ${describe(api, res)}`,
        );
        check('ROUTER.PROVIDER.BYOK_CONFLICT', detailOf(res).startsWith(BYOK_PREFIX), {
          what: 'detail of the 409',
          expected: `begins "${BYOK_PREFIX}"`,
          received: detailOf(res),
        });
      }
      // R:152:0b3be116b11f: the fix is to drop model_provider; a refusal before dispatch leaves the key free (R:173).
      checkCorrected(
        api,
        'ROUTER.PROVIDER.BYOK_CONFLICT',
        await byok.call('runModel', withKey(key, { path: path(m), json: body })),
        'the own-key run resent without model_provider, under the key of the last 409',
      );
    },
  );

  test(
    'a provider not turned on for the caller is refused 403 not_enabled, and 503 when the gate cannot be evaluated',
    rules('ROUTER.PROVIDER.GATE'),
    async ({ api, requireScenario }) => {
      const disabled = requireScenario('disabled_provider', 'a provider not turned on for the default key') as string;
      const m = modelRef(requireScenario('disabled_provider_model', 'a model that provider has a leg for') as string);
      const body = imageBody(requireScenario);
      checkRouterError(
        api,
        'ROUTER.PROVIDER.GATE',
        await api.call('runModel', { path: path(m), query: { model_provider: disabled }, json: body }),
        [403],
        'not_enabled',
      );
      const gateDown = api.as({
        bearer: requireScenario(
          'gate_unavailable_token',
          'credential whose provider gate cannot be evaluated',
        ) as string,
      });
      const image = modelRef(requireScenario('image_model', 'model with alternates') as string);
      const serving = requireScenario('edit_servable_provider', 'a provider with a leg for image_model') as string;
      checkRouterError(
        api,
        'ROUTER.PROVIDER.GATE',
        await gateDown.call('runModel', {
          path: path(image),
          query: { model_provider: serving },
          json: imageBody(requireScenario),
        }),
        [503],
        'service_unavailable',
      );
    },
  );

  test(
    'the refusals apply in the fixed order: a request meeting all of them, with the earliest removed one at a time, gets the earliest remaining one',
    rules('ROUTER.PROVIDER.REFUSAL_ORDER'),
    async ({ api, requireScenario }) => {
      const { m, body, edit } = await setup(api, requireScenario);
      const byok = api.as({ bearer: requireScenario('byok_token', 'own-key credential') as string });
      const unservable = requireScenario('edit_unservable_provider', 'provider that cannot serve the edit') as string;
      const serving = requireScenario('edit_servable_provider', 'provider with a leg') as string;
      const disabled = requireScenario('disabled_provider', 'provider not turned on') as string;
      const gatedModel = modelRef(
        requireScenario('disabled_provider_model', 'a model the disabled provider has a leg for') as string,
      );
      // One registered provider meeting the edit, gate and no-leg refusals for image_model at once.
      const chain = requireScenario(
        'refusal_chain_provider',
        'a provider whose translator cannot carry the edit, not turned on, with no leg for image_model',
      ) as string;
      type Expect = { status: number; prefix?: string };
      const matches = (res: ApiResponse, e: Expect): boolean =>
        res.status === e.status &&
        (e.status !== 409 || errorTypeOf(api, res) === 'invalid_input') &&
        (e.prefix === undefined || detailOf(res).startsWith(e.prefix));
      // Step k meets refusals k..5 (the unregistered value stands in for 4 and 5, which need a
      // registered one); `alone` meets refusal k only, to show that refusal works by itself. The
      // last refusal (no leg) has nothing after it: ROUTER.PROVIDER.NO_LEG judges it.
      const steps: Array<{
        refusal: string;
        later: string;
        expect: Expect;
        all: () => Promise<ApiResponse>;
        alone: () => Promise<ApiResponse>;
      }> = [
        {
          refusal: 'unregistered',
          later: 'edit and own key',
          expect: { status: 400 },
          all: () => byok.call('runModel', { path: path(m), query: { model_provider: UNREGISTERED }, json: edit }),
          alone: () => api.call('runModel', { path: path(m), query: { model_provider: UNREGISTERED }, json: body }),
        },
        {
          refusal: 'edit',
          later: 'own key, gate and no leg',
          expect: { status: 409, prefix: EDIT_PREFIX },
          all: () => byok.call('runModel', { path: path(m), query: { model_provider: chain }, json: edit }),
          alone: () => api.call('runModel', { path: path(m), query: { model_provider: unservable }, json: edit }),
        },
        {
          refusal: 'own key',
          later: 'gate and no leg',
          expect: { status: 409, prefix: BYOK_PREFIX },
          all: () => byok.call('runModel', { path: path(m), query: { model_provider: chain }, json: body }),
          alone: () => byok.call('runModel', { path: path(m), query: { model_provider: serving }, json: body }),
        },
        {
          refusal: 'gate',
          later: 'no leg',
          expect: { status: 403 },
          all: () => api.call('runModel', { path: path(m), query: { model_provider: chain }, json: body }),
          alone: () =>
            api.call('runModel', {
              path: path(gatedModel),
              query: { model_provider: disabled },
              json: imageBody(requireScenario),
            }),
        },
      ];
      for (const step of steps) {
        // The order is judgeable only where the refusal works on its own; its own rule judges it otherwise.
        const alone = await step.alone();
        if (!matches(alone, step.expect)) {
          notJudged(
            'ROUTER.PROVIDER.REFUSAL_ORDER',
            `the ${step.refusal} refusal alone answered ${describe(api, alone)}, not as the seed says, so its place in the order cannot be judged`,
          );
          continue;
        }
        const res = await step.all();
        check('ROUTER.PROVIDER.REFUSAL_ORDER', matches(res, step.expect), {
          what: `a request meeting the ${step.refusal} refusal and the later ${step.later}`,
          expected: `the ${step.refusal} refusal: ${step.expect.status}${step.expect.prefix ? ` "${step.expect.prefix}…"` : ''}`,
          received: `${describe(api, res)} ${JSON.stringify(detailOf(res).slice(0, 80))}`,
          on: res,
        });
      }
    },
  );

  test(
    'with an alternate and strict_mode false, a field the provider cannot express is named in X-Svc-Router-Dropped-Params, a JSON-encoded array',
    rules('ROUTER.PROVIDER.TRANSLATION', 'ROUTER.HEADER.DROPPED_PARAMS_JSON'),
    async ({ api, requireScenario }) => {
      const m = modelRef(requireScenario('image_model', 'model with alternates') as string);
      const t = requireScenario('translation', 'an alternate, a body and the native field it cannot express') as {
        provider: string;
        dropped_field: string;
        body: Record<string, unknown>;
      };
      const res = await api.call('runModel', { path: path(m), query: { model_provider: t.provider }, json: t.body });
      check('ROUTER.PROVIDER.TRANSLATION', res.status === 200, {
        what: `a translated run on ${t.provider}`,
        expected: '200',
        received: describe(api, res),
      });
      const raw = res.header(hdr(api, 'router-dropped-params'));
      const list = raw === undefined ? undefined : decodeDroppedParams(raw);
      check('ROUTER.PROVIDER.TRANSLATION', list !== undefined && list.some((s) => s.includes(t.dropped_field)), {
        what: `${hdr(api, 'router-dropped-params')} of the run`,
        expected: `a sentence naming ${t.dropped_field}`,
        received: raw ?? 'absent',
      });
    },
  );

  test(
    "an alternate's answer is the model's native output or the alternate's own answer; with strict_mode=true it is the alternate's own, unchanged",
    rules('ROUTER.PROVIDER.ANSWER'),
    async ({ api, requireScenario }) => {
      const m = modelRef(requireScenario('image_model', 'model with alternates') as string);
      const s = requireScenario('strict_body', "a body written in the alternate provider's schema") as {
        provider: string;
        body: Record<string, unknown>;
        answer_members: unknown;
      };
      const named =
        Array.isArray(s.answer_members) && s.answer_members.every((k) => typeof k === 'string')
          ? s.answer_members
          : undefined;
      // The alternate's own answer, as strict mode forwards it (R:145:efded79376a2).
      const strict = await api.call('runModel', {
        path: path(m),
        query: { model_provider: s.provider, strict_mode: true },
        json: s.body,
      });
      const own = strict.status === 200 ? jsonOf(strict) : undefined;
      if (own === undefined)
        notJudged(
          'ROUTER.PROVIDER.ANSWER',
          `the strict-mode run on ${s.provider} answered ${describe(api, strict)} without a JSON ` +
            `object, so there is no answer of ${s.provider}'s own to judge or compare with`,
        );
      else if (named === undefined)
        notJudged(
          'ROUTER.PROVIDER.ANSWER',
          `the target names no strict_body.answer_members, so whether the strict-mode answer of ${s.provider} is its own, unchanged, is not judged`,
        );
      // Unchanged: exactly the members the target says the alternate answers, none added or lost.
      else
        check('ROUTER.PROVIDER.ANSWER', sameMembers(own, Object.fromEntries(named.map((k) => [k, true]))), {
          what: `the strict-mode answer of ${s.provider}`,
          expected: `${s.provider}'s own answer, unchanged: exactly the members ${named.join(', ')} (scenario strict_body.answer_members)`,
          received: Object.keys(own),
          on: strict,
        });
      // Without strict mode the answer is mapped back to the native contract, or else is the alternate's raw answer (R:144:8f87a4ad1340).
      const res = await api.call('runModel', {
        path: path(m),
        query: { model_provider: s.provider },
        json: imageBody(requireScenario),
      });
      const out = res.status === 200 ? jsonOf(res) : undefined;
      if (out === undefined) {
        notJudged(
          'ROUTER.PROVIDER.ANSWER',
          `a run on ${s.provider} without strict mode answered ${describe(api, res)} without a JSON object (ROUTER.PROVIDER.TRANSLATION judges the run)`,
        );
        return;
      }
      const doc = await modelDocument(api, m).catch((err: unknown) => {
        if (err instanceof SuiteError) return undefined;
        throw err;
      });
      const authored = doc?.output.find((o) => isJsonMedia(o.mediaType) && o.schema !== undefined);
      const native = authored === undefined ? undefined : validatorFor(authored.schema!)(out);
      const ownMembers = named ?? (own === undefined ? undefined : Object.keys(own));
      const raw =
        ownMembers === undefined ? undefined : sameMembers(out, Object.fromEntries(ownMembers.map((k) => [k, true])));
      if (native === true || raw === true || (native === false && raw === false)) {
        check('ROUTER.PROVIDER.ANSWER', native === true || raw === true, {
          what: `the answer of a run on ${s.provider} without strict mode`,
          expected: `${m.id}'s native output (valid against its authored output schema) or ${s.provider}'s own answer (members ${ownMembers!.join(', ')})`,
          received: Object.keys(out),
          on: res,
        });
      } else {
        notJudged(
          'ROUTER.PROVIDER.ANSWER',
          `${m.id}'s document authors ` +
            (authored === undefined ? 'no JSON output schema' : 'an output schema the answer does not meet') +
            ', and ' +
            (ownMembers === undefined
              ? `no answer of ${s.provider}'s own is known`
              : `the answer is not shaped as ${s.provider}'s own`) +
            ': which of the two it is cannot be told',
        );
      }
    },
  );

  test(
    "with strict_mode=true a body in the alternate's own schema is forwarded without native validation and " +
      'without a dropped-params header; without model_provider strict_mode changes nothing',
    rules('ROUTER.PROVIDER.STRICT_MODE'),
    async ({ api, requireScenario }) => {
      const m = modelRef(requireScenario('image_model', 'model with alternates') as string);
      const s = requireScenario('strict_body', "a body written in the alternate provider's schema") as {
        provider: string;
        body: Record<string, unknown>;
      };
      const res = await api.call('runModel', {
        path: path(m),
        query: { model_provider: s.provider, strict_mode: true },
        json: s.body,
      });
      check('ROUTER.PROVIDER.STRICT_MODE', res.status === 200, {
        what: `a strict-mode run on ${s.provider} with its own schema`,
        expected: '200 (native validation skipped)',
        received: describe(api, res),
      });
      check('ROUTER.PROVIDER.STRICT_MODE', res.header(hdr(api, 'router-dropped-params')) === undefined, {
        what: 'the strict-mode run',
        expected: 'no dropped-params header',
        received: res.header(hdr(api, 'router-dropped-params')),
      });
      // strict_mode is only meaningful with model_provider: alone it leaves native validation on.
      const alone = await api.call('runModel', { path: path(m), query: { strict_mode: true }, json: s.body });
      check('ROUTER.PROVIDER.STRICT_MODE', alone.status === 422, {
        what: `strict_mode=true without model_provider, with a body invalid for ${m.id}'s native schema`,
        expected: '422 (native validation, as without strict_mode)',
        received: describe(api, alone),
        on: alone,
      });
    },
  );
});
