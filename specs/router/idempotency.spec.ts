// Seed R § Endpoints › Idempotency rules 1-5; 409 and 429 rules 1-2.
import { test, rules } from '../../fixtures/test.ts';
import { check, ensure, notJudged, step } from '../../lib/check.ts';
import { modelDocument, refusedBody, validatorFor } from '../../lib/router/schema-doc.ts';
import { formatAjvErrors, isJsonMedia } from '../../lib/contracts/validate.ts';
import { SuiteError } from '../../lib/violations.ts';
import type { RuleId } from '../../lib/rule-ids.ts';
import type { ApiClient, ApiResponse } from '../../lib/api.ts';
import { honourRetryAfter } from '../../lib/time.ts';
import {
  checkRouterError,
  describe,
  hdr,
  jsonOf,
  modelRef,
  path,
  uniqueKey,
  withKey,
  type ModelRef,
} from '../../lib/router/models.ts';
import { imageBody, modelNamingBody, type Need } from '../../lib/router/bodies.ts';
import { retryAfterOf } from '../../lib/router/queue.ts';
import { textOf } from '../../lib/values.ts';

const REPLAYED = 'idempotent-replayed';
const PREFIXES = ["this request's `image` selects the edit operation", 'this request resolved a BYOK credential'];

function freshBody(need: Need, label: string): Record<string, unknown> {
  // A prompt of its own, so no other call in the workspace ever sent this body.
  return { ...imageBody(need), prompt: `conformance ${label} ${Date.now()} ${Math.random()}` };
}

function replayed(res: ApiResponse): boolean {
  return res.header(REPLAYED)?.trim().toLowerCase() === 'true';
}

test.describe('Idempotency', () => {
  test(
    'a retry with the same key and request is answered from the record, byte for byte, marked Idempotent-Replayed, without dispatching or charging again',
    rules('ROUTER.IDEM.REPLAY'),
    async ({ api, requireScenario, target }) => {
      const m = modelRef(requireScenario('image_model', 'JSON model') as string);
      const body = freshBody(requireScenario, 'replay');
      const key = uniqueKey('replay');
      const first = await api.call('runModel', withKey(key, { path: path(m), json: body }));
      ensureRan(api, first);
      check('ROUTER.IDEM.REPLAY', !replayed(first), {
        what: 'the first keyed run',
        expected: 'not marked replayed',
        received: first.header(REPLAYED),
      });
      const again = await api.call('runModel', withKey(key, { path: path(m), json: body }));
      check('ROUTER.IDEM.REPLAY', again.status === 200 && replayed(again), {
        what: 'the retry with the same key',
        expected: '200 with Idempotent-Replayed: true',
        received: `${again.status}, Idempotent-Replayed: ${again.header(REPLAYED) ?? 'absent'}`,
      });
      check('ROUTER.IDEM.REPLAY', again.body.equals(first.body), {
        what: 'the replayed body',
        expected: 'the recorded bytes',
        received: `${again.body.length} bytes that differ`,
      });
      checkCreditsReplayed(api, first, again);
      // Nothing is dispatched for a replay (R:169:6f5647df6adb), so nothing holds the key: two
      // retries at once of a slow model's recorded call are both answered from the record, never
      // one of them refused as if the original were still running.
      const slow = target.scenario.slow_model;
      if (typeof slow !== 'string')
        notJudged(
          'ROUTER.IDEM.REPLAY',
          'the target gives no slow_model, so retries that would overlap a dispatch are not sent',
        );
      else {
        const sm = modelRef(slow);
        const slowKey = uniqueKey('replay-slow');
        const slowBody = freshBody(requireScenario, 'replay-slow');
        const original = await api.call('runModel', withKey(slowKey, { path: path(sm), json: slowBody }));
        ensureRan(api, original);
        const retries = await Promise.all(
          [0, 1].map(() => api.call('runModel', withKey(slowKey, { path: path(sm), json: slowBody }))),
        );
        for (const [i, r] of retries.entries()) {
          check('ROUTER.IDEM.REPLAY', r.status === 200 && replayed(r) && r.body.equals(original.body), {
            what: `retry ${i + 1} of two sent at once with the key of a finished call to ${sm.id}`,
            expected:
              'the recorded answer (200, Idempotent-Replayed: true, the same bytes): nothing is dispatched, so nothing is running',
            received:
              `${describe(api, r)}, Idempotent-Replayed: ${r.header(REPLAYED) ?? 'absent'}` +
              (r.status === 200 && !r.body.equals(original.body) ? ', other bytes' : ''),
            on: r,
          });
          if (r.status === 200) checkCreditsReplayed(api, original, r);
        }
      }
      // The queued submit answers its handle again: the same request.
      const submitKey = uniqueKey('replay-submit');
      const admitted = await api.call('submitModelRequest', withKey(submitKey, { path: path(m), json: body }));
      const readmitted = await api.call('submitModelRequest', withKey(submitKey, { path: path(m), json: body }));
      check(
        'ROUTER.IDEM.REPLAY',
        readmitted.status === admitted.status &&
          replayed(readmitted) &&
          jsonOf(readmitted)?.request_id === jsonOf(admitted)?.request_id,
        {
          what: 'a submit retried with the same key',
          expected: `${admitted.status}, the same request_id, Idempotent-Replayed: true`,
          received: `${readmitted.status}, ${String(jsonOf(readmitted)?.request_id)}, ${readmitted.header(REPLAYED) ?? 'absent'}`,
        },
      );
    },
  );

  test(
    'the same key with a different request is refused 409 invalid_input',
    rules('ROUTER.IDEM.CONFLICT'),
    async ({ api, requireScenario }) => {
      const m = modelRef(requireScenario('image_model', 'JSON model') as string);
      const key = uniqueKey('conflict');
      const first = await api.call(
        'runModel',
        withKey(key, { path: path(m), json: freshBody(requireScenario, 'conflict-a') }),
      );
      ensureRan(api, first);
      const other = await api.call(
        'runModel',
        withKey(key, { path: path(m), json: freshBody(requireScenario, 'conflict-b') }),
      );
      checkRouterError(
        api,
        'ROUTER.IDEM.CONFLICT',
        other,
        [409],
        'invalid_input',
        `the same key with another body answered ${describe(api, other)}`,
      );
      const detail = textOf(jsonOf(other)?.detail ?? '');
      check('ROUTER.IDEM.CONFLICT', !PREFIXES.some((p) => detail.startsWith(p)), {
        what: 'detail of the key conflict',
        expected: 'not one of the two model_provider prefixes',
        received: detail,
      });
    },
  );

  test(
    'the same key while the original runs is refused 409 concurrency_limit_exceeded with Retry-After, then answered from the record',
    rules('ROUTER.IDEM.IN_FLIGHT'),
    async ({ api, requireScenario }) => {
      const m = modelRef(requireScenario('slow_model', 'a model slow enough to be in flight') as string);
      const body = freshBody(requireScenario, 'in-flight');
      const key = uniqueKey('in-flight');
      const send = () => api.call('runModel', withKey(key, { path: path(m), json: body }));
      // Two at once: whichever arrives second finds the first still running.
      const [a, b] = await Promise.all([send(), send()]);
      const done = [a, b].find((r) => r.status === 200);
      const refused = [a, b].find((r) => r.status !== 200);
      ensure('ROUTER.IDEM.IN_FLIGHT', done !== undefined, {
        what: 'two concurrent calls with one key',
        expected: 'one of them answered 200 (the original call)',
        received: `${describe(api, a)} and ${describe(api, b)}`,
      });
      ensure('ROUTER.IDEM.IN_FLIGHT', refused !== undefined, {
        what: 'two concurrent calls with one key',
        expected: 'one answered, the other refused 409 while it ran',
        received: `${describe(api, a)} and ${describe(api, b)}`,
      });
      checkRouterError(api, 'ROUTER.IDEM.IN_FLIGHT', refused, [409], 'concurrency_limit_exceeded');
      const wait = retryAfterOf(refused);
      ensure('ROUTER.IDEM.IN_FLIGHT', wait !== undefined, {
        what: 'the 409 concurrency_limit_exceeded',
        expected: 'a Retry-After',
        received: refused.header('retry-after') ?? 'absent',
      });
      await honourRetryAfter(wait, { ceilingMs: api.bounds.retryAfterMaxMs });
      let later = await send();
      for (let i = 0; i < 5 && later.status === 409 && errorTypeIs(api, later, 'concurrency_limit_exceeded'); i++) {
        await honourRetryAfter(retryAfterOf(later) ?? 1, { ceilingMs: api.bounds.retryAfterMaxMs });
        later = await send();
      }
      // How the record is replayed is ROUTER.IDEM.REPLAY's question; here: no longer refused.
      check('ROUTER.IDEM.IN_FLIGHT', later.status === 200, {
        what: 'the same key after waiting Retry-After',
        expected: 'the original answer (200)',
        received: describe(api, later),
      });
    },
  );

  test(
    'keys are scoped to the workspace: a teammate gets the record, another workspace runs afresh',
    rules('ROUTER.IDEM.SCOPE'),
    async ({ api, requireScenario }) => {
      const m = modelRef(requireScenario('image_model', 'JSON model') as string);
      const teammate = api.as({
        bearer: requireScenario('teammate_token', 'key of another member of the same workspace') as string,
      });
      const outsider = api.as({
        bearer: requireScenario('other_workspace_token', 'key of another workspace') as string,
      });
      // Queued submits: an answer from the record names the same request, a fresh admission a new one.
      const body = freshBody(requireScenario, 'scope');
      const key = uniqueKey('scope');
      const submit = (client: ApiClient) =>
        client.call('submitModelRequest', withKey(key, { path: path(m), json: body }));
      const first = await submit(api);
      ensure('ROUTER.QUEUE.HANDLE', first.status === 201, {
        what: 'a keyed submit of a valid body',
        expected: '201',
        received: describe(api, first),
        on: first,
      });
      const id = jsonOf(first)?.request_id;
      const mate = await submit(teammate);
      check('ROUTER.IDEM.SCOPE', mate.status === 201 && jsonOf(mate)?.request_id === id, {
        what: "a teammate's submit with the same key and request",
        expected: `the recorded answer (request ${textOf(id)})`,
        received: `${describe(api, mate)} ${textOf(jsonOf(mate)?.request_id ?? '')}`,
      });
      // R:170:583f5ec8e664: the same key with a request that differs is refused 409, for a teammate too,
      // before and after the key's maker has been answered from the record again (a replay cache
      // filled by that retry must still compare each request with the recorded one).
      const teammateDiffers = async (when: string) => {
        const differs = await teammate.call(
          'submitModelRequest',
          withKey(key, { path: path(m), json: freshBody(requireScenario, 'scope-other') }),
        );
        checkRouterError(
          api,
          'ROUTER.IDEM.SCOPE',
          differs,
          [409],
          'invalid_input',
          `a teammate's submit with the same key and another request, ${when}, answered ${describe(api, differs)}`,
        );
      };
      await teammateDiffers('before anyone retried the key');
      // The maker's own retry (how it is answered is ROUTER.IDEM.REPLAY's question, judged elsewhere).
      await submit(api);
      await teammateDiffers("after the key's maker was answered from the record again");
      const other = await submit(outsider);
      check('ROUTER.IDEM.SCOPE', other.status === 201 && jsonOf(other)?.request_id !== id, {
        what: "another workspace's submit with the same key",
        expected: 'a fresh admission (another request)',
        received: `${describe(api, other)} ${textOf(jsonOf(other)?.request_id ?? '')}`,
      });
    },
  );

  test(
    'an idempotency-keyed request from an unauthenticated caller gets 401, even if a record is stored under the key',
    rules('ROUTER.IDEM.AUTH_401'),
    async ({ api, requireScenario }) => {
      const m = modelRef(requireScenario('image_model', 'JSON model') as string);
      const body = freshBody(requireScenario, 'anonymous');
      const key = uniqueKey('anonymous');
      await api.call('runModel', withKey(key, { path: path(m), json: body }));
      checkRouterError(
        api,
        'ROUTER.IDEM.AUTH_401',
        await api.as('none').call('runModel', withKey(key, { path: path(m), json: body })),
        [401],
        'unauthorized',
      );
      checkRouterError(
        api,
        'ROUTER.IDEM.AUTH_401',
        await api.as('none').call('runModel', withKey(uniqueKey('anonymous-new'), { path: path(m), json: body })),
        [401],
        'unauthorized',
      );
    },
  );

  test(
    'an answer recorded but not replayable keeps its key consumed: every retry is 409 invalid_input',
    rules('ROUTER.IDEM.NOT_REPLAYABLE'),
    async ({ api, requireScenario }) => {
      const m = modelRef(requireScenario('oversize_model', 'model answering above the replay size cap') as string);
      const body = freshBody(requireScenario, 'oversize');
      const key = uniqueKey('oversize');
      const first = await api.call('runModel', withKey(key, { path: path(m), json: body }));
      ensureRan(api, first);
      for (const attempt of [1, 2]) {
        const retry = await api.call('runModel', withKey(key, { path: path(m), json: body }));
        checkRouterError(
          api,
          'ROUTER.IDEM.NOT_REPLAYABLE',
          retry,
          [409],
          'invalid_input',
          `retry ${attempt} of a key holding an oversize answer: ${describe(api, retry)}`,
        );
      }
    },
  );

  test(
    'a refusal raised before dispatch releases the key: the corrected request with the same key runs afresh',
    rules('ROUTER.IDEM.RELEASED_ON_REFUSAL'),
    async ({ api, requireScenario, target }) => {
      const m = modelRef(requireScenario('image_model', 'JSON model') as string);
      const disabled = requireScenario('disabled_provider', 'a provider not turned on for the default key') as string;
      const gated = modelRef(
        requireScenario('disabled_provider_model', 'a model that provider has a leg for') as string,
      );
      // Each refusal is another rule's answer; a server answering otherwise breaks that rule.
      const refusals: Array<[string, number, ModelRef, RuleId]> = [
        ['schema rejection', 422, m, 'ROUTER.ERR.VALIDATION_LOC'],
        ['unknown model', 404, m, 'ROUTER.ERR.MODEL_NOT_FOUND'],
        ['malformed request (unregistered provider)', 400, m, 'ROUTER.PROVIDER.UNREGISTERED'],
        ['provider not enabled', 403, gated, 'ROUTER.PROVIDER.GATE'],
      ];
      for (const [what, status, target, owner] of refusals) {
        const key = uniqueKey('released');
        const body = freshBody(requireScenario, 'released');
        const bad =
          status === 422
            ? await api.call(
                'runModel',
                withKey(key, {
                  path: path(target),
                  json: (await step(`read the input schema of ${target.id}`, () => refusedBody(api, target, body)))
                    .body,
                }),
              )
            : status === 404
              ? await api.call(
                  'runModel',
                  withKey(key, {
                    path: { provider: target.provider, model: `conformance-missing-${Date.now()}` },
                    json: body,
                  }),
                )
              : status === 400
                ? await api.call(
                    'runModel',
                    withKey(key, {
                      path: path(target),
                      query: { model_provider: 'conformance-unregistered-provider' },
                      json: body,
                    }),
                  )
                : await api.call(
                    'runModel',
                    withKey(key, { path: path(target), query: { model_provider: disabled }, json: body }),
                  );
        checkRouterError(api, owner, bad, [status], undefined, `the ${what} answered ${describe(api, bad)}`);
        const fixed = await api.call('runModel', withKey(key, { path: path(target), json: body }));
        check('ROUTER.IDEM.RELEASED_ON_REFUSAL', fixed.status === 200 && !replayed(fixed), {
          what: `the corrected request with the key of a ${what} (${status})`,
          expected: 'a fresh 200',
          received: `${describe(api, fixed)}, Idempotent-Replayed: ${fixed.header(REPLAYED) ?? 'absent'}`,
        });
      }
      // Two more of R:173:9444fff5531e's refusals: not entitled (403) and a body naming another
      // model (422). Each is corrected by sending the same key where the request can run.
      const more: Array<{
        what: string;
        status: number;
        owner: RuleId;
        refused: ModelRef;
        fixed: ModelRef;
        body: Record<string, unknown>;
        bad: Record<string, unknown>;
      }> = [];
      const forbidden = target.scenario.forbidden_model;
      if (typeof forbidden === 'string') {
        const body = freshBody(requireScenario, 'released');
        more.push({
          what: 'not-entitled refusal (a model the caller may not use)',
          status: 403,
          owner: 'ROUTER.AUTH.FORBIDDEN',
          refused: modelRef(forbidden),
          fixed: m,
          body,
          bad: body,
        });
      } else
        notJudged(
          'ROUTER.IDEM.RELEASED_ON_REFUSAL',
          'the target gives no forbidden_model, so a not-entitled 403 is not sent',
        );
      const named = await modelNamingBody(api);
      if (named !== undefined) {
        const { m: vm, body } = named;
        more.push({
          what: 'refusal of a body naming another model',
          status: 422,
          owner: 'ROUTER.RUN.MODEL_MISMATCH',
          refused: vm,
          fixed: vm,
          body,
          bad: { ...body, model: 'conformance-some-other-model' },
        });
      } else
        notJudged(
          'ROUTER.IDEM.RELEASED_ON_REFUSAL',
          'no scenario model with a body has a schema declaring a model member, so a model-mismatch 422 is not sent',
        );
      for (const r of more) {
        const key = uniqueKey('released');
        const bad = await api.call('runModel', withKey(key, { path: path(r.refused), json: r.bad }));
        checkRouterError(api, r.owner, bad, [r.status], undefined, `the ${r.what} answered ${describe(api, bad)}`);
        const fixed = await api.call('runModel', withKey(key, { path: path(r.fixed), json: r.body }));
        check('ROUTER.IDEM.RELEASED_ON_REFUSAL', fixed.status === 200 && !replayed(fixed), {
          what: `the corrected request (to ${r.fixed.id}) with the key of a ${r.what} (${r.status})`,
          expected: 'a fresh 200',
          received: `${describe(api, fixed)}, Idempotent-Replayed: ${fixed.header(REPLAYED) ?? 'absent'}`,
          on: fixed,
        });
      }
    },
  );

  test(
    "an answer that carries the partner's own asset link is replayed by a same-key retry a moment later",
    rules('ROUTER.IDEM.PROVIDER_LINK_WINDOW'),
    async ({ api, requireScenario }) => {
      const m = modelRef(requireScenario('image_model', 'JSON model with alternates') as string);
      // A run served by an alternate answers with that provider's own URLs, not copied (R:231:3fe97d8e9554).
      // Such an answer is replayed for a few minutes (R:172:012b38b74594): a retry a moment later is inside that window.
      const alt = (requireScenario('translation', 'an alternate of image_model') as { provider: string }).provider;
      const key = uniqueKey('partner-link');
      const body = freshBody(requireScenario, 'partner-link');
      const first = await api.call(
        'runModel',
        withKey(key, { path: path(m), query: { model_provider: alt }, json: body }),
      );
      ensure('ROUTER.PROVIDER.TRANSLATION', first.status === 200, {
        what: `a keyed run of ${m.id} on ${alt}`,
        expected: '200',
        received: describe(api, first),
        on: first,
      });
      // The window is in play only if the answer holds a link of the alternate's own: an https
      // origin the native answer to the same body does not use (a copied asset would sit where the
      // native run's copies do, R:231:6d38d26f8b5d).
      const native = await api.call('runModel', { path: path(m), json: body });
      const nativeOrigins = new Set(native.status === 200 ? origins(native.body.toString('utf8')) : []);
      const own = origins(first.body.toString('utf8')).filter((o) => !nativeOrigins.has(o));
      if (native.status !== 200 || own.length === 0) {
        notJudged(
          'ROUTER.IDEM.PROVIDER_LINK_WINDOW',
          native.status !== 200
            ? `the native run of the same body answered ${describe(api, native)}, so the alternate's own links cannot be told from copies`
            : `the run on ${alt} holds no https link outside the origins of the native answer ` +
                `(${[...nativeOrigins].join(', ') || 'none'}), so no partner link is replayed and the ` +
                `window is not in play`,
        );
        return;
      }
      const again = await api.call(
        'runModel',
        withKey(key, { path: path(m), query: { model_provider: alt }, json: body }),
      );
      check('ROUTER.IDEM.PROVIDER_LINK_WINDOW', again.status === 200 && again.body.equals(first.body), {
        what: `the same-key retry, a moment later, of a run of ${m.id} served by ${alt} (its own asset links at ${own.join(', ')})`,
        expected: 'the recorded answer (200, the same bytes): inside the few minutes such an answer is replayed',
        received: `${describe(api, again)}${again.status === 200 && !again.body.equals(first.body) ? ', other bytes' : ''}`,
        on: again,
      });
    },
  );

  test(
    "a submit-and-poll model's call cut off mid-generation keeps its key: the same-key retry collects the original result",
    rules('ROUTER.IDEM.PROVIDER_LINK_WINDOW'),
    async ({ api, requireScenario }) => {
      // R:172:095fab30ad8d: no replay window there; the key holds the generation and the retry collects it.
      const cut = requireScenario(
        'polled_cutoff',
        'a submit-and-poll model and a body whose call is cut off mid-generation',
      ) as { model: string; body: Record<string, unknown> };
      const pm = modelRef(cut.model);
      const key = uniqueKey('cutoff');
      const send = () => api.call('runModel', withKey(key, { path: path(pm), json: cut.body }));
      const first = await send();
      if (first.status < 500) {
        notJudged(
          'ROUTER.IDEM.PROVIDER_LINK_WINDOW',
          `the call of ${pm.id} with polled_cutoff's body answered ${describe(api, first)}, not cut off (a 5xx), so there is nothing to collect`,
        );
        return;
      }
      // Still generating: the original keyed call counts as running (409 concurrency_limit_exceeded); wait as it says.
      let retry = first;
      for (let i = 0; i < 6; i++) {
        await honourRetryAfter(retryAfterOf(retry) ?? 1, { ceilingMs: api.bounds.retryAfterMaxMs });
        retry = await send();
        if (!(retry.status === 409 && errorTypeIs(api, retry, 'concurrency_limit_exceeded'))) break;
      }
      check('ROUTER.IDEM.PROVIDER_LINK_WINDOW', retry.status === 200 && replayed(retry), {
        what: `the same-key retry of a call to ${pm.id} cut off mid-generation (${describe(api, first)})`,
        expected: "200 with the generation's result, answered from the key's record (Idempotent-Replayed: true)",
        received: `${describe(api, retry)}, Idempotent-Replayed: ${retry.header(REPLAYED) ?? 'absent'}`,
        on: retry,
      });
      if (retry.status !== 200)
        return notJudged(
          'ROUTER.IDEM.PROVIDER_LINK_WINDOW',
          `the retry answered ${describe(api, retry)} (judged above), so no later retry is compared with it`,
        );
      // Not any 200: the generation's result, the same bytes on every later retry, charged once.
      const again = await send();
      check(
        'ROUTER.IDEM.PROVIDER_LINK_WINDOW',
        again.status === 200 && replayed(again) && again.body.equals(retry.body),
        {
          what: 'a second same-key retry of the cut-off call',
          expected: `the same ${retry.body.length} bytes, Idempotent-Replayed: true`,
          received:
            `${describe(api, again)}${again.status === 200 && !again.body.equals(retry.body) ? ', other bytes' : ''}, ` +
            `Idempotent-Replayed: ${again.header(REPLAYED) ?? 'absent'}`,
          on: again,
        },
      );
      if (again.status === 200) checkCreditsReplayed(api, retry, again);
      const doc = await modelDocument(api, pm).catch((err: unknown) => {
        if (err instanceof SuiteError) return undefined;
        throw err;
      });
      const authored = doc?.output.find((o) => isJsonMedia(o.mediaType) && o.schema !== undefined);
      if (authored === undefined)
        notJudged(
          'ROUTER.IDEM.PROVIDER_LINK_WINDOW',
          `${pm.id}'s document authors no JSON output schema, so whether the collected answer is a result of the model is not judged`,
        );
      else {
        const validate = validatorFor(authored.schema!);
        check(
          'ROUTER.IDEM.PROVIDER_LINK_WINDOW',
          isJsonMedia(retry.header('content-type')) && validate(jsonOf(retry) ?? null),
          {
            what: `the answer the same-key retry collected for ${pm.id}`,
            expected: "the generation's result: valid against the model's authored output schema",
            received: formatAjvErrors(validate.errors) || retry.header('content-type'),
            on: retry,
          },
        );
      }
    },
  );

  test(
    'a content-policy refusal is recorded and replayed to the same key',
    rules('ROUTER.IDEM.POLICY_REPLAYED'),
    async ({ api, requireScenario }) => {
      const m = modelRef(requireScenario('image_model', 'JSON model') as string);
      const body = requireScenario('policy_body', 'a body the provider refuses on content-policy grounds') as Record<
        string,
        unknown
      >;
      const key = uniqueKey('policy');
      const first = await api.call('runModel', withKey(key, { path: path(m), json: body }));
      checkRouterError(api, 'ROUTER.ERR.CONTENT_POLICY', first, [400], 'content_policy_violation');
      const again = await api.call('runModel', withKey(key, { path: path(m), json: body }));
      check('ROUTER.IDEM.POLICY_REPLAYED', again.status === 400 && replayed(again), {
        what: 'the retry of a content-policy refusal with the same key',
        expected: '400 with Idempotent-Replayed: true',
        received: `${describe(api, again)}, Idempotent-Replayed: ${again.header(REPLAYED) ?? 'absent'}`,
      });
    },
  );
});

/**
 * X-Svc-Credits-Used of a replay: nothing is charged again (R:169:6f5647df6adb), so it repeats
 * the recorded figure, or reports nothing or zero (both readings of "the cost of the run" for
 * an answer that cost nothing now); another figure says the retry was charged anew.
 */
function checkCreditsReplayed(api: ApiClient, original: ApiResponse, replay: ApiResponse): void {
  const name = hdr(api, 'credits-used');
  const was = original.header(name)?.trim();
  const now = replay.header(name)?.trim();
  const zero = now !== undefined && /^0+(\.0+)?$/.test(now);
  // The original named no figure: there is none to repeat, and any figure on the replay is its own reading.
  if (was !== undefined)
    check('ROUTER.IDEM.REPLAY', now === undefined || zero || Number(now) === Number(was), {
      what: `${name} of a replay`,
      expected: `${was} (the recorded answer's), absent or 0: not charged again`,
      received: now ?? 'absent',
      on: replay,
    });
}

/** The https origins of the URLs a text holds. */
function origins(text: string): string[] {
  return [...new Set([...text.matchAll(/https:\/\/[^\s"'/]+/g)].map((m) => m[0]))];
}

function errorTypeIs(api: ApiClient, res: ApiResponse, type: string): boolean {
  return jsonOf(res)?.error_type === type || res.header(`x-${api.target.brand.toLowerCase()}-error-type`) === type;
}

/** A keyed run of a valid body to a JSON model answers 200; anything else breaks ROUTER.RUN.NATIVE. */
function ensureRan(api: ApiClient, res: ApiResponse): void {
  ensure('ROUTER.RUN.NATIVE', res.status === 200, {
    what: 'a keyed run of a valid body',
    expected: '200',
    received: describe(api, res),
    on: res,
  });
}
