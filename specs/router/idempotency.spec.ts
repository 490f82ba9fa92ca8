// Seed R § Endpoints › Idempotency rules 1-5; 409 and 429 rules 1-2.
import { test, rules } from '../../fixtures/test.ts';
import { check, ensure, step } from '../../lib/check.ts';
import { refusedBody } from '../../lib/router/schema-doc.ts';
import type { RuleId } from '../../lib/rule-ids.ts';
import type { ApiClient, ApiResponse } from '../../lib/api.ts';
import { honourRetryAfter } from '../../lib/time.ts';
import { checkRouterError, describe, jsonOf, modelRef, path, uniqueKey, withKey, type ModelRef } from '../../lib/router/models.ts';
import { imageBody, type Need } from '../../lib/router/bodies.ts';
import { retryAfterOf } from '../../lib/router/queue.ts';

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
  test('a retry with the same key and request is answered from the record, byte for byte, marked Idempotent-Replayed', rules('ROUTER.IDEM.REPLAY'), async ({ api, requireScenario }) => {
    const m = modelRef(requireScenario('image_model', 'JSON model') as string);
    const body = freshBody(requireScenario, 'replay');
    const key = uniqueKey('replay');
    const first = await api.call('runModel', withKey(key, { path: path(m), json: body }));
    ensureRan(api, first);
    check('ROUTER.IDEM.REPLAY', !replayed(first), 'the first keyed run', 'not marked replayed', first.header(REPLAYED));
    const again = await api.call('runModel', withKey(key, { path: path(m), json: body }));
    check('ROUTER.IDEM.REPLAY', again.status === 200 && replayed(again), 'the retry with the same key', '200 with Idempotent-Replayed: true', `${again.status}, Idempotent-Replayed: ${again.header(REPLAYED) ?? 'absent'}`);
    check('ROUTER.IDEM.REPLAY', again.body.equals(first.body), 'the replayed body', 'the recorded bytes', `${again.body.length} bytes that differ`);
    // The queued submit answers its handle again: the same request.
    const submitKey = uniqueKey('replay-submit');
    const admitted = await api.call('submitModelRequest', withKey(submitKey, { path: path(m), json: body }));
    const readmitted = await api.call('submitModelRequest', withKey(submitKey, { path: path(m), json: body }));
    check('ROUTER.IDEM.REPLAY', readmitted.status === admitted.status && replayed(readmitted) && jsonOf(readmitted)?.request_id === jsonOf(admitted)?.request_id, 'a submit retried with the same key', `${admitted.status}, the same request_id, Idempotent-Replayed: true`, `${readmitted.status}, ${String(jsonOf(readmitted)?.request_id)}, ${readmitted.header(REPLAYED) ?? 'absent'}`);
  });

  test('the same key with a different request is refused 409 invalid_input', rules('ROUTER.IDEM.CONFLICT'), async ({ api, requireScenario }) => {
    const m = modelRef(requireScenario('image_model', 'JSON model') as string);
    const key = uniqueKey('conflict');
    const first = await api.call('runModel', withKey(key, { path: path(m), json: freshBody(requireScenario, 'conflict-a') }));
    ensureRan(api, first);
    const other = await api.call('runModel', withKey(key, { path: path(m), json: freshBody(requireScenario, 'conflict-b') }));
    checkRouterError(api, 'ROUTER.IDEM.CONFLICT', other, [409], 'invalid_input', `the same key with another body answered ${describe(api, other)}`);
    const detail = String(jsonOf(other)?.detail ?? '');
    check('ROUTER.IDEM.CONFLICT', !PREFIXES.some((p) => detail.startsWith(p)), 'detail of the key conflict', 'not one of the two model_provider prefixes', detail);
  });

  test('the same key while the original runs is refused 409 concurrency_limit_exceeded with Retry-After, then answered from the record', rules('ROUTER.IDEM.IN_FLIGHT'), async ({ api, requireScenario }) => {
    const m = modelRef(requireScenario('slow_model', 'a model slow enough to be in flight') as string);
    const body = freshBody(requireScenario, 'in-flight');
    const key = uniqueKey('in-flight');
    const send = () => api.call('runModel', withKey(key, { path: path(m), json: body }));
    // Two at once: whichever arrives second finds the first still running.
    const [a, b] = await Promise.all([send(), send()]);
    const done = [a, b].find((r) => r.status === 200);
    const refused = [a, b].find((r) => r.status !== 200);
    ensure('ROUTER.IDEM.IN_FLIGHT', done !== undefined, 'two concurrent calls with one key', 'one of them answered 200 (the original call)', `${describe(api, a)} and ${describe(api, b)}`);
    ensure('ROUTER.IDEM.IN_FLIGHT', refused !== undefined, 'two concurrent calls with one key', 'one answered, the other refused 409 while it ran', `${describe(api, a)} and ${describe(api, b)}`);
    checkRouterError(api, 'ROUTER.IDEM.IN_FLIGHT', refused!, [409], 'concurrency_limit_exceeded');
    const wait = retryAfterOf(refused!);
    ensure('ROUTER.IDEM.IN_FLIGHT', wait !== undefined, 'the 409 concurrency_limit_exceeded', 'a Retry-After', refused!.header('retry-after') ?? 'absent');
    await honourRetryAfter(wait!);
    let later = await send();
    for (let i = 0; i < 5 && later.status === 409 && errorTypeIs(api, later, 'concurrency_limit_exceeded'); i++) {
      await honourRetryAfter(retryAfterOf(later) ?? 1);
      later = await send();
    }
    // How the record is replayed is ROUTER.IDEM.REPLAY's question; here: no longer refused.
    check('ROUTER.IDEM.IN_FLIGHT', later.status === 200, 'the same key after waiting Retry-After', 'the original answer (200)', describe(api, later));
  });

  test('keys are scoped to the workspace: a teammate gets the record, another workspace runs afresh', rules('ROUTER.IDEM.SCOPE'), async ({ api, requireScenario }) => {
    const m = modelRef(requireScenario('image_model', 'JSON model') as string);
    const teammate = api.as({ bearer: requireScenario('teammate_token', 'key of another member of the same workspace') as string });
    const outsider = api.as({ bearer: requireScenario('other_workspace_token', 'key of another workspace') as string });
    // Queued submits: an answer from the record names the same request, a fresh admission a new one.
    const body = freshBody(requireScenario, 'scope');
    const key = uniqueKey('scope');
    const submit = (client: ApiClient) => client.call('submitModelRequest', withKey(key, { path: path(m), json: body }));
    const first = await submit(api);
    ensure('ROUTER.QUEUE.HANDLE', first.status === 201, 'a keyed submit of a valid body', '201', describe(api, first), first);
    const id = jsonOf(first)?.request_id;
    const mate = await submit(teammate);
    check('ROUTER.IDEM.SCOPE', mate.status === 201 && jsonOf(mate)?.request_id === id, "a teammate's submit with the same key and request", `the recorded answer (request ${String(id)})`, `${describe(api, mate)} ${String(jsonOf(mate)?.request_id ?? '')}`);
    const other = await submit(outsider);
    check('ROUTER.IDEM.SCOPE', other.status === 201 && jsonOf(other)?.request_id !== id, "another workspace's submit with the same key", 'a fresh admission (another request)', `${describe(api, other)} ${String(jsonOf(other)?.request_id ?? '')}`);
  });

  test('a keyed request without an authenticated caller is refused 401, even when the key holds a record', rules('ROUTER.IDEM.AUTH_401'), async ({ api, requireScenario }) => {
    const m = modelRef(requireScenario('image_model', 'JSON model') as string);
    const body = freshBody(requireScenario, 'anonymous');
    const key = uniqueKey('anonymous');
    await api.call('runModel', withKey(key, { path: path(m), json: body }));
    checkRouterError(api, 'ROUTER.IDEM.AUTH_401', await api.as('none').call('runModel', withKey(key, { path: path(m), json: body })), [401], 'unauthorized');
    checkRouterError(api, 'ROUTER.IDEM.AUTH_401', await api.as('none').call('runModel', withKey(uniqueKey('anonymous-new'), { path: path(m), json: body })), [401], 'unauthorized');
  });

  test('an answer recorded but not replayable keeps its key consumed: every retry is 409 invalid_input', rules('ROUTER.IDEM.NOT_REPLAYABLE'), async ({ api, requireScenario }) => {
    const m = modelRef(requireScenario('oversize_model', 'model answering above the replay size cap') as string);
    const body = freshBody(requireScenario, 'oversize');
    const key = uniqueKey('oversize');
    const first = await api.call('runModel', withKey(key, { path: path(m), json: body }));
    ensureRan(api, first);
    for (const attempt of [1, 2]) {
      const retry = await api.call('runModel', withKey(key, { path: path(m), json: body }));
      checkRouterError(api, 'ROUTER.IDEM.NOT_REPLAYABLE', retry, [409], 'invalid_input', `retry ${attempt} of a key holding an oversize answer: ${describe(api, retry)}`);
    }
  });

  test('a refusal raised before dispatch releases the key: the corrected request with the same key runs afresh', rules('ROUTER.IDEM.RELEASED_ON_REFUSAL'), async ({ api, requireScenario }) => {
    const m = modelRef(requireScenario('image_model', 'JSON model') as string);
    const disabled = requireScenario('disabled_provider', 'a provider not turned on for the default key') as string;
    const gated = modelRef(requireScenario('disabled_provider_model', 'a model that provider has a leg for') as string);
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
          ? await api.call('runModel', withKey(key, { path: path(target), json: (await step(`read the input schema of ${target.id}`, () => refusedBody(api, target, body))).body }))
          : status === 404
            ? await api.call('runModel', withKey(key, { path: { provider: target.provider, model: `conformance-missing-${Date.now()}` }, json: body }))
            : status === 400
              ? await api.call('runModel', withKey(key, { path: path(target), query: { model_provider: 'conformance-unregistered-provider' }, json: body }))
              : await api.call('runModel', withKey(key, { path: path(target), query: { model_provider: disabled }, json: body }));
      checkRouterError(api, owner, bad, [status], undefined, `the ${what} answered ${describe(api, bad)}`);
      const fixed = await api.call('runModel', withKey(key, { path: path(target), json: body }));
      check('ROUTER.IDEM.RELEASED_ON_REFUSAL', fixed.status === 200 && !replayed(fixed), `the corrected request with the key of a ${what} (${status})`, 'a fresh 200', `${describe(api, fixed)}, Idempotent-Replayed: ${fixed.header(REPLAYED) ?? 'absent'}`);
    }
  });

  test('a content-policy refusal is recorded and replayed to the same key', rules('ROUTER.IDEM.POLICY_REPLAYED'), async ({ api, requireScenario }) => {
    const m = modelRef(requireScenario('image_model', 'JSON model') as string);
    const body = requireScenario('policy_body', 'a body the provider refuses on content-policy grounds') as Record<string, unknown>;
    const key = uniqueKey('policy');
    const first = await api.call('runModel', withKey(key, { path: path(m), json: body }));
    checkRouterError(api, 'ROUTER.ERR.CONTENT_POLICY', first, [400], 'content_policy_violation');
    const again = await api.call('runModel', withKey(key, { path: path(m), json: body }));
    check('ROUTER.IDEM.POLICY_REPLAYED', again.status === 400 && replayed(again), 'the retry of a content-policy refusal with the same key', '400 with Idempotent-Replayed: true', `${describe(api, again)}, Idempotent-Replayed: ${again.header(REPLAYED) ?? 'absent'}`);
  });
});

function errorTypeIs(api: ApiClient, res: ApiResponse, type: string): boolean {
  return jsonOf(res)?.error_type === type || res.header(`x-${api.target.brand.toLowerCase()}-error-type`) === type;
}

/** A keyed run of a valid body to a JSON model answers 200; anything else breaks ROUTER.RUN.NATIVE. */
function ensureRan(api: ApiClient, res: ApiResponse): void {
  ensure('ROUTER.RUN.NATIVE', res.status === 200, 'a keyed run of a valid body', '200', describe(api, res), res);
}
