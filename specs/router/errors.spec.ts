// Seed R § Errors; Resources › Error body and Validation error body; Response headers.
// The body shape, the error-type and request-id headers, Retry-After and the pairing table
// are also judged on every answer by the api fixture; these tests provoke the answers.
import { randomUUID } from 'node:crypto';
import { test, rules } from '../../fixtures/test.ts';
import { check, notJudged, step } from '../../lib/check.ts';
import { refusedBody } from '../../lib/router/schema-doc.ts';
import type { ApiResponse } from '../../lib/api.ts';
import {
  asRecord,
  checkRouterError,
  describe,
  errorTypeOf,
  hdr,
  jsonOf,
  mirroringMembers,
  modelRef,
  path,
  uniqueKey,
  withKey,
} from '../../lib/router/models.ts';
import { imageBody } from '../../lib/router/bodies.ts';
import { retryAfterOf } from '../../lib/router/queue.ts';
import { RATE_LIMIT_MAX_RUNS, rateLimitMaxRuns } from '../../lib/router/limits.ts';
import { SuiteCountBound } from '../../lib/violations.ts';

const SUBJECTS = [
  'input',
  'output',
  'input_text',
  'input_image',
  'input_video',
  'input_audio',
  'output_text',
  'output_image',
  'output_video',
  'output_audio',
];

test.describe('Contract', () => {
  test(
    'every answer has a status, media type, body and headers the contract declares for its operation',
    rules('ROUTER.CONTRACT.STATUS_DECLARED', 'ROUTER.CONTRACT.BODY', 'ROUTER.CONTRACT.HEADERS'),
    async ({ api, requireScenario, target }) => {
      // The api fixture validates each answer; these are one of each operation.
      const m = modelRef(requireScenario('image_model', 'JSON model') as string);
      const body = imageBody(requireScenario);
      await api.call('listModels', { query: { limit: 2 } });
      await api.call('getModel', { path: path(m) });
      await api.call('getModelSchema', { path: path(m) });
      await api.call('runModel', { path: path(m), json: body });
      await api.call('estimateModel', { path: path(m), json: body });
      const submit = await api.call('submitModelRequest', { path: path(m), json: body });
      const handle = jsonOf(submit) ?? {};
      await api.follow(String(handle.status_url));
      await api.follow(String(handle.response_url));
      // Refusals each operation lists: a cursor the server never made (400), a retired model's
      // detail (404), a queued submit of a model that answers bytes (403 not_enabled).
      await api.call('listModels', { query: { limit: 1, cursor: 'conformance-never-issued' } });
      const { retired_model: retired, bytes_model: bytes, bytes_body: bytesBody } = target.scenario;
      if (typeof retired === 'string') await api.call('getModel', { path: path(modelRef(retired)) });
      if (typeof bytes === 'string' && asRecord(bytesBody) !== undefined)
        await api.call('submitModelRequest', { path: path(modelRef(bytes)), json: asRecord(bytesBody) });
    },
  );

  test(
    'every answer, successes included, carries X-Svc-Request-Id',
    rules('ROUTER.HEADER.REQUEST_ID'),
    async ({ api, requireScenario }) => {
      const m = modelRef(requireScenario('image_model', 'JSON model') as string);
      const body = imageBody(requireScenario);
      const answers: ApiResponse[] = [
        await api.call('listModels', { query: { limit: 2 } }),
        await api.call('getModel', { path: path(m) }),
        await api.call('getModelSchema', { path: path(m) }),
        await api.call('runModel', { path: path(m), json: body }),
        await api.call('estimateModel', { path: path(m), json: body }),
      ];
      const submit = await api.call('submitModelRequest', { path: path(m), json: body });
      answers.push(submit);
      const handle = jsonOf(submit) ?? {};
      for (const [k, method] of [
        ['status_url', 'GET'],
        ['response_url', 'GET'],
        ['cancel_url', 'PUT'],
      ] as const) {
        if (typeof handle[k] === 'string') answers.push(await api.follow(handle[k], { method }));
      }
      for (const res of answers)
        check('ROUTER.HEADER.REQUEST_ID', (res.header(hdr(api, 'request-id')) ?? '').trim() !== '', {
          what: `${hdr(api, 'request-id')} of the ${res.status} of ${res.operationId ?? res.url}`,
          expected: 'present (every answer carries it)',
          received: 'absent',
          on: res,
        });
    },
  );
});

test.describe('Errors', () => {
  test(
    'every refusal has the error body and request id, mirrors its bucket in X-Svc-Error-Type ' +
      'and pairs it with a status the seed (or, for the rest, public docs) allows',
    rules(
      'ROUTER.ERR.BODY',
      'ROUTER.ERR.CODE_STATUS',
      'ROUTER.ERR.CODE_STATUS_PUBLIC',
      'ROUTER.HEADER.ERROR_TYPE',
      'ROUTER.HEADER.REQUEST_ID',
    ),
    async ({ api, requireScenario }) => {
      const m = modelRef(requireScenario('image_model', 'JSON model') as string);
      const body = imageBody(requireScenario);
      const key = uniqueKey('errors');
      await api.call('runModel', withKey(key, { path: path(m), json: body }));
      const answers: ApiResponse[] = [
        await api.call('getModel', { path: { provider: 'conformance', model: `missing-${randomUUID()}` } }),
        await api.call('runModel', {
          path: path(m),
          query: { model_provider: 'conformance-unregistered' },
          json: body,
        }),
        await api.call('runModel', withKey(key, { path: path(m), json: { ...body, prompt: 'conformance other' } })),
        await api.as('none').call('listModels'),
        await api.call('getModelRequestStatus', { path: { ...path(m), request_id: randomUUID() } }),
      ];
      // R:265:f8f2f15b8db3 pairs a key reused for another request with 409 invalid_input.
      const conflict = answers[2];
      check('ROUTER.ERR.CODE_STATUS', conflict.status === 409 && errorTypeOf(api, conflict) === 'invalid_input', {
        what: 'a keyed run reusing a key for another body',
        expected: '409 invalid_input (a key conflict)',
        received: describe(api, conflict),
        on: conflict,
      });
      for (const res of answers) {
        // An answer that is not a refusal is another rule's question.
        if (res.status < 400) continue;
        const b = jsonOf(res);
        check('ROUTER.ERR.BODY', typeof b?.detail === 'string' && typeof b?.error_type === 'string', {
          what: `the ${res.status} of ${res.operationId}`,
          expected: '{detail: string, error_type: string}',
          received: b,
        });
        check('ROUTER.HEADER.ERROR_TYPE', res.header(hdr(api, 'error-type')) === b?.error_type, {
          what: `${hdr(api, 'error-type')} of the ${res.status}`,
          expected: String(b?.error_type),
          received: res.header(hdr(api, 'error-type')) ?? 'absent',
        });
        check('ROUTER.HEADER.REQUEST_ID', (res.header(hdr(api, 'request-id')) ?? '') !== '', {
          what: `${hdr(api, 'request-id')} of the ${res.status}`,
          expected: 'present',
          received: 'absent',
        });
      }
    },
  );

  test(
    'a 422 is the validation body, one entry per failing field, with the bucket in X-Svc-Error-Type',
    rules('ROUTER.ERR.VALIDATION_BODY', 'ROUTER.HEADER.ERROR_TYPE'),
    async ({ api, requireScenario }) => {
      const m = modelRef(requireScenario('image_model', 'model with an authored schema') as string);
      // Two fields of another JSON type than the model's own schema document declares.
      const { body, fields } = await step(`read the input schema of ${m.id}`, () =>
        refusedBody(api, m, imageBody(requireScenario), 2),
      );
      const res = await api.call('runModel', { path: path(m), json: body });
      check('ROUTER.ERR.VALIDATION_BODY', res.status === 422, {
        what: `a run with ${fields.length} fields of the wrong type (${fields.join(', ')})`,
        expected: '422',
        received: describe(api, res),
      });
      const detail = jsonOf(res)?.detail;
      check('ROUTER.ERR.VALIDATION_BODY', Array.isArray(detail) && detail.length >= fields.length, {
        what: 'detail of the 422',
        expected: `one entry per failing field (${fields.length} here)`,
        received: detail,
      });
      check('ROUTER.HEADER.ERROR_TYPE', (res.header(hdr(api, 'error-type')) ?? '') !== '', {
        what: `${hdr(api, 'error-type')} of the 422`,
        expected: 'the coarse bucket',
        received: 'absent',
      });
    },
  );

  test(
    'a JSON body that is not an object is refused 422 dict_type at loc ["body"]',
    rules('ROUTER.ERR.NON_OBJECT_BODY'),
    async ({ api, requireScenario }) => {
      const m = modelRef(requireScenario('image_model', 'model') as string);
      for (const value of [[1, 2, 3], 'a string', 42]) {
        const res = await api.call('runModel', { path: path(m), json: value });
        const first = ((jsonOf(res)?.detail as Array<{ loc?: unknown; type?: unknown }> | undefined) ?? [])[0];
        check(
          'ROUTER.ERR.NON_OBJECT_BODY',
          res.status === 422 && JSON.stringify(first?.loc) === '["body"]' && first?.type === 'dict_type',
          {
            what: `a run with the body ${JSON.stringify(value)}`,
            expected: '422, type dict_type at loc ["body"]',
            received: `${describe(api, res)} ${JSON.stringify(first ?? null)}`,
          },
        );
      }
    },
  );

  test(
    'every model operation on an unknown model answers 404 model_not_found',
    rules('ROUTER.ERR.MODEL_NOT_FOUND'),
    async ({ api }) => {
      const p = { provider: 'conformance', model: `missing-${randomUUID()}` };
      const json = { prompt: 'conformance' };
      for (const [op, opts] of [
        ['getModel', {}],
        ['getModelSchema', {}],
        ['runModel', { json }],
        ['estimateModel', { json }],
        ['submitModelRequest', { json }],
      ] as const) {
        checkRouterError(
          api,
          'ROUTER.ERR.MODEL_NOT_FOUND',
          await api.call(op, { path: p, ...opts }),
          [404],
          'model_not_found',
        );
      }
    },
  );

  test(
    'an unfunded caller is refused on runs and submits, never run; the refusal is 402 insufficient_credits',
    rules('ROUTER.ERR.INSUFFICIENT_CREDITS', 'ROUTER.ERR.INSUFFICIENT_CREDITS_402'),
    async ({ api, requireScenario }) => {
      const m = modelRef(requireScenario('image_model', 'model') as string);
      const broke = api.as({
        bearer: requireScenario('unfunded_token', 'credential of a workspace without credits') as string,
      });
      const body = imageBody(requireScenario);
      for (const op of ['runModel', 'submitModelRequest'] as const) {
        const res = await broke.call(op, { path: path(m), json: body });
        const refused = res.status >= 400 && res.status < 500;
        check('ROUTER.ERR.INSUFFICIENT_CREDITS', refused, {
          what: `${op} by an unfunded caller`,
          expected: 'a 4xx refusal (never run)',
          received: describe(api, res),
          on: res,
        });
        // Which status and bucket is public docs' word; judged only on a refusal (the rule above judges running it).
        if (refused)
          check(
            'ROUTER.ERR.INSUFFICIENT_CREDITS_402',
            res.status === 402 && errorTypeOf(api, res) === 'insufficient_credits',
            {
              what: `the refusal of ${op} by an unfunded caller`,
              expected: '402 insufficient_credits',
              received: describe(api, res),
              on: res,
            },
          );
        else
          notJudged(
            'ROUTER.ERR.INSUFFICIENT_CREDITS_402',
            `${op} by an unfunded caller was not refused (${describe(api, res)}); ROUTER.ERR.INSUFFICIENT_CREDITS judges that`,
          );
      }
    },
  );

  test(
    'a body above the size cap is refused 413',
    rules('ROUTER.ERR.BODY_TOO_LARGE'),
    async ({ api, requireScenario }) => {
      const m = modelRef(requireScenario('image_model', 'model') as string);
      const cap = Number(requireScenario('max_body_bytes', 'the request-body size cap'));
      const res = await api.call('runModel', { path: path(m), json: { prompt: 'x'.repeat(cap + 1024) } });
      check('ROUTER.ERR.BODY_TOO_LARGE', res.status === 413, {
        what: `a run with a ${cap + 1024}-byte prompt`,
        expected: '413',
        received: describe(api, res),
      });
    },
  );

  test(
    'a caller past its allowance is refused 429 with the committed-spend headers',
    rules('ROUTER.ERR.RATE_LIMITED'),
    async ({ api, requireScenario, target }) => {
      const limited = api.as({
        bearer: requireScenario('rate_limited_token', 'credential with a small request allowance') as string,
      });
      const m = modelRef(requireScenario('image_model', 'JSON model') as string);
      const body = imageBody(requireScenario);
      // Synchronous runs: of the router's operations only the run lists 429 (R § Endpoints; the
      // catalog's errors are 400, 401, 403 and 503). Each run may be paid for, so the burst is the
      // suite's own bound (scenario rate_limit_max_runs); no 429 within it is that bound's error.
      const tries = rateLimitMaxRuns(target.scenario);
      let refused: ApiResponse | undefined;
      for (let i = 0; i < tries && !refused; i++) {
        const res = await limited.call('runModel', { path: path(m), json: body });
        // The first refusal is the allowance's, whatever its status (the body and key run otherwise).
        if (res.status >= 400) refused = res;
      }
      if (refused === undefined)
        throw new SuiteCountBound(
          `${tries} rapid runs of ${m.id} from the key with a small allowance (scenario rate_limited_token) were never refused 429`,
          tries,
          'runs',
          `scenario input ${RATE_LIMIT_MAX_RUNS}`,
        );
      checkRouterError(api, 'ROUTER.ERR.RATE_LIMITED', refused, [429]);
      const type = jsonOf(refused)?.error_type;
      check('ROUTER.ERR.RATE_LIMITED', type === 'rate_limited' || type === 'concurrency_limit_exceeded', {
        what: 'error_type of the 429',
        expected: 'rate_limited or concurrency_limit_exceeded',
        received: type,
      });
      for (const k of ['limit', 'current', 'remaining'])
        check('ROUTER.ERR.RATE_LIMITED', refused.header(`x-committed-spend-${k}`) !== undefined, {
          what: 'the 429',
          expected: `X-Committed-Spend-${k[0].toUpperCase()}${k.slice(1)}`,
          received: 'absent',
        });
    },
  );

  test(
    'a provider answer that cannot become a result is 502 provider_error with X-Svc-Upstream-Status',
    rules('ROUTER.ERR.PROVIDER_ERROR'),
    async ({ api, requireScenario }) => {
      const m = modelRef(requireScenario('broken_output_model', 'model whose partner answer cannot be used') as string);
      const res = await api.call('runModel', { path: path(m), json: imageBody(requireScenario) });
      checkRouterError(api, 'ROUTER.ERR.PROVIDER_ERROR', res, [502], 'provider_error');
      check('ROUTER.ERR.PROVIDER_ERROR', res.header(hdr(api, 'upstream-status')) !== undefined, {
        what: 'the 502',
        expected: hdr(api, 'upstream-status'),
        received: 'absent',
      });
    },
  );

  test(
    'a capacity refusal is 503 with Retry-After (any bucket)',
    rules('ROUTER.ERR.CAPACITY'),
    async ({ api, requireScenario }) => {
      const m = modelRef(requireScenario('busy_model', 'model at capacity') as string);
      const res = await api.call('runModel', { path: path(m), json: imageBody(requireScenario) });
      // R:272:f85668f810ed gives the 503 two readings and names no bucket for a capacity refusal.
      checkRouterError(api, 'ROUTER.ERR.CAPACITY', res, [503]);
      check('ROUTER.ERR.CAPACITY', retryAfterOf(res) !== undefined, {
        what: 'the capacity 503',
        expected: 'Retry-After',
        received: res.header('retry-after') ?? 'absent',
      });
      // The estimate may refuse the same model for capacity (R:177:1232d32690e0 lists that 503), or quote it.
      const est = await api.call('estimateModel', { path: path(m), json: imageBody(requireScenario) });
      if (est.status === 503)
        check('ROUTER.ERR.CAPACITY', retryAfterOf(est) !== undefined, {
          what: `an estimate of ${m.id}, at capacity, refused 503`,
          expected: 'Retry-After (a capacity refusal)',
          received: est.header('retry-after') ?? 'absent',
          on: est,
        });
      else
        notJudged(
          'ROUTER.ERR.CAPACITY',
          `the estimate of ${m.id}, at capacity, answered ${describe(api, est)}: not a capacity refusal (quoting it is allowed)`,
        );
    },
  );

  test(
    'a call past its deadline is 504 deadline_exceeded with Retry-After',
    rules('ROUTER.ERR.DEADLINE'),
    async ({ api, requireScenario }) => {
      const m = modelRef(requireScenario('deadline_model', 'model that passes its deadline') as string);
      const res = await api.call('runModel', { path: path(m), json: imageBody(requireScenario) });
      checkRouterError(api, 'ROUTER.ERR.DEADLINE', res, [504], 'deadline_exceeded');
      check('ROUTER.ERR.DEADLINE', retryAfterOf(res) !== undefined, {
        what: 'the 504',
        expected: 'Retry-After',
        received: res.header('retry-after') ?? 'absent',
      });
      // X-Svc-Upstream-Status is the provider's own status (R:220:d1cd500efb99): a deadline the
      // router's clock ended has none to give, so its absence is not judged (its form, when sent, is the contract's).
    },
  );

  test(
    'a content-policy refusal is 400 content_policy_violation; the subject the provider named is in X-Svc-Refusal-Subject and mirrored in the body',
    rules('ROUTER.ERR.CONTENT_POLICY', 'ROUTER.ERR.MEMBER_NAMES'),
    async ({ api, requireScenario, target }) => {
      const m = modelRef(requireScenario('image_model', 'model') as string);
      const res = await api.call('runModel', {
        path: path(m),
        json: requireScenario('policy_body', 'a body refused on content-policy grounds') as Record<string, unknown>,
      });
      checkRouterError(api, 'ROUTER.ERR.CONTENT_POLICY', res, [400], 'content_policy_violation');
      const name = hdr(api, 'refusal-subject');
      const subject = res.header(name);
      const body = jsonOf(res);
      // The subject is present only when the provider named one; the target says whether it does.
      const named = target.scenario.policy_subject;
      if (typeof named === 'string')
        check('ROUTER.ERR.CONTENT_POLICY', subject === named, {
          what: `${name} of a refusal whose provider named the subject`,
          expected: named,
          received: subject ?? 'absent',
          on: res,
        });
      else if (subject === undefined)
        notJudged(
          'ROUTER.ERR.CONTENT_POLICY',
          `no ${name} on the refusal, and the target gave no policy_subject saying the provider names one`,
        );
      if (subject === undefined) {
        notJudged('ROUTER.ERR.MEMBER_NAMES', `no ${name} on the refusal, so no member mirrors it`);
        return;
      }
      check('ROUTER.ERR.CONTENT_POLICY', SUBJECTS.includes(subject), {
        what: name,
        expected: SUBJECTS.join(', '),
        received: subject,
        on: res,
      });
      // The seed does not show the member's name: any member holding the header's value mirrors it.
      const mirrors = mirroringMembers(body, subject);
      check('ROUTER.ERR.CONTENT_POLICY', mirrors.length > 0, {
        what: `the body of a refusal carrying ${name}: ${subject}`,
        expected: 'a member mirroring the header',
        received: body,
        on: res,
      });
      if (mirrors.length > 0)
        check('ROUTER.ERR.MEMBER_NAMES', mirrors.includes('refusal_subject'), {
          what: 'the body member mirroring the refusal subject',
          expected: 'refusal_subject',
          received: mirrors,
          on: res,
        });
      else
        notJudged(
          'ROUTER.ERR.MEMBER_NAMES',
          'no body member mirrors the refusal subject (ROUTER.ERR.CONTENT_POLICY judges that)',
        );
    },
  );

  test(
    "a provider's reason for calling a request malformed reaches the caller in X-Svc-Upstream-Detail and the body; router-raised refusals carry none",
    rules('ROUTER.ERR.UPSTREAM_DETAIL', 'ROUTER.ERR.MEMBER_NAMES'),
    async ({ api, requireScenario }) => {
      const m = modelRef(requireScenario('image_model', 'model') as string);
      // The scenario body is one the provider calls malformed and says why: the reason must reach the caller.
      const malformed = await api.call('runModel', {
        path: path(m),
        json: requireScenario('malformed_body', 'a body the provider calls malformed, saying why') as Record<
          string,
          unknown
        >,
      });
      checkRouterError(api, 'ROUTER.ERR.UPSTREAM_DETAIL', malformed, [400], 'invalid_input');
      const upstream = Number(malformed.header(hdr(api, 'upstream-status')));
      check('ROUTER.ERR.UPSTREAM_DETAIL', (upstream >= 400 && upstream < 500) || (upstream >= 200 && upstream < 300), {
        what: `${hdr(api, 'upstream-status')} of the provider's malformed-request refusal`,
        expected: 'a provider 4xx or 2xx',
        received: malformed.header(hdr(api, 'upstream-status')) ?? 'absent',
        on: malformed,
      });
      const reason = malformed.header(hdr(api, 'upstream-detail'));
      check('ROUTER.ERR.UPSTREAM_DETAIL', reason !== undefined && reason.trim() !== '', {
        what: `${hdr(api, 'upstream-detail')} of the provider's malformed-request refusal`,
        expected: "the provider's reason",
        received: reason ?? 'absent',
        on: malformed,
      });
      if (reason !== undefined) {
        // The seed does not show the member's name: any member holding the header's value mirrors it.
        const mirrors = mirroringMembers(jsonOf(malformed), reason);
        check('ROUTER.ERR.UPSTREAM_DETAIL', mirrors.length > 0, {
          what: `the body of the refusal carrying ${hdr(api, 'upstream-detail')}`,
          expected: 'a member mirroring the header',
          received: jsonOf(malformed),
          on: malformed,
        });
        if (mirrors.length > 0)
          check('ROUTER.ERR.MEMBER_NAMES', mirrors.includes('upstream_detail'), {
            what: "the body member mirroring the provider's reason",
            expected: 'upstream_detail',
            received: mirrors,
            on: malformed,
          });
        else
          notJudged(
            'ROUTER.ERR.MEMBER_NAMES',
            "no body member mirrors the provider's reason (ROUTER.ERR.UPSTREAM_DETAIL judges that)",
          );
      } else notJudged('ROUTER.ERR.MEMBER_NAMES', `no ${hdr(api, 'upstream-detail')}, so no member mirrors it`);
      // Raised by the router before any provider call: no provider reason, so neither the header nor the member.
      const unregistered = await api.call('runModel', {
        path: path(m),
        query: { model_provider: 'conformance-unregistered' },
        json: imageBody(requireScenario),
      });
      check(
        'ROUTER.ERR.UPSTREAM_DETAIL',
        jsonOf(unregistered)?.upstream_detail === undefined &&
          unregistered.header(hdr(api, 'upstream-detail')) === undefined,
        {
          what: `the ${describe(api, unregistered)}`,
          expected: 'no upstream_detail and no upstream-detail header (the router refused it before any provider call)',
          received: jsonOf(unregistered)?.upstream_detail ?? unregistered.header(hdr(api, 'upstream-detail')),
          on: unregistered,
        },
      );
      // A content-policy refusal is a provider's rejection: the header may carry its reason (R:219:68773d027aa2),
      // but the body member comes only with invalid_input (R:80:3d30fc7a6bb8), so no member mirrors it.
      const policy = await api.call('runModel', {
        path: path(m),
        json: requireScenario('policy_body', 'a content-policy body') as Record<string, unknown>,
      });
      const policyReason = policy.header(hdr(api, 'upstream-detail'));
      const policyMirrors = [
        ...new Set([
          ...(jsonOf(policy)?.upstream_detail !== undefined ? ['upstream_detail'] : []),
          ...(policyReason !== undefined ? mirroringMembers(jsonOf(policy), policyReason) : []),
        ]),
      ];
      check('ROUTER.ERR.UPSTREAM_DETAIL', policyMirrors.length === 0, {
        what: `the ${describe(api, policy)}`,
        expected: `no body member holding the provider's reason (it comes only with invalid_input; ${hdr(api, 'upstream-detail')} itself may be sent)`,
        received: policyMirrors,
        on: policy,
      });
    },
  );
});
