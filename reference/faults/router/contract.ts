// Router faults of the contract, the common headers and the error bodies (seed R § Errors).
import type { FaultUnit } from '../unit.ts';
import { BRAND, H, PLATFORM_ASSET_ORIGIN } from '../../router/constants.ts';
import { errorAnswer, failureAnswer } from '../../router/answer.ts';
import {
  CANCEL,
  CAPACITY_DETAIL,
  COLLECT,
  DETAIL,
  ESTIMATE,
  LIST,
  QUEUE_URLS,
  RUN,
  SCHEMA,
  STATUS,
  SUBMIT,
  dropSpendHeaders,
  answerError,
  retypeError,
  isObj,
  onRouter,
  params,
  routerError,
} from './shared.ts';

export const CONTRACT_FAULTS = [
  {
    name: 'router-schema-203',
    breaks: 'ROUTER.CONTRACT.STATUS_DECLARED',
    description: 'the schema route answers its document with 203 instead of 200',
    install(s) {
      onRouter(s, [SCHEMA], (out) => {
        if (out.status === 200) out.status = 203;
      });
    },
  },
  {
    name: 'router-estimate-text-plain',
    breaks: 'ROUTER.CONTRACT.BODY',
    statements: ['R:177:85c6ea24f0e5'],
    description: 'estimates are sent as text/plain',
    install(s) {
      onRouter(s, [ESTIMATE], (out) => {
        if (out.status === 200) out.setHeader('content-type', 'text/plain; charset=utf-8');
      });
    },
  },
  {
    name: 'router-upstream-status-text',
    breaks: 'ROUTER.CONTRACT.HEADERS',
    statements: ['R:138:bc1b401a1951', 'R:220:d1cd500efb99'],
    description: 'X-Comfy-Upstream-Status on a 502 reads "n/a" instead of an integer',
    // A contract check: the test declaring the rule provokes no 502; the provider-error test of errors.spec.ts does.
    seenBy: {
      files: ['specs/router/errors.spec.ts'],
      why: 'the fault shows only on 502 answers, which the provider-error test of errors.spec.ts provokes',
    },
    install(s) {
      onRouter(s, undefined, (out) => {
        if (out.status === 502 && out.header(H.upstreamStatus) !== undefined) out.setHeader(H.upstreamStatus, 'n/a');
      });
    },
  },
  {
    name: 'router-no-request-id-on-errors',
    breaks: 'ROUTER.HEADER.REQUEST_ID',
    statements: ['R:116:7c1f0886b612', 'R:211:a3b757021292'],
    description: 'error responses lack X-Comfy-Request-Id',
    install(s) {
      onRouter(s, undefined, (out) => {
        if (out.status >= 400) out.setHeader(H.requestId, undefined);
      });
    },
  },
  {
    name: 'router-error-type-header-mismatch',
    breaks: 'ROUTER.HEADER.ERROR_TYPE',
    statements: ['R:116:7c1f0886b612', 'R:212:3569e3bba115', 'R:251:a8769909bd61'],
    description:
      '404 answers carry X-Comfy-Error-Type not_found while the body says model_not_found or request_not_found',
    install(s) {
      onRouter(s, undefined, (out) => {
        if (out.status === 404) out.setHeader(H.errorType, 'not_found');
      });
    },
  },
  {
    name: 'router-retry-after-date',
    breaks: 'ROUTER.HEADER.RETRY_AFTER',
    statements: ['R:112:99d3346bc6dd', 'R:215:49b76e9b4942'],
    description: 'queue polls give Retry-After as an HTTP date',
    install(s) {
      // Poll answers only: unfinished status reads and pending collects.
      onRouter(s, [STATUS, COLLECT], (out) => {
        if ((out.status === 200 || out.status === 202) && out.header('retry-after') !== undefined)
          out.setHeader('Retry-After', new Date(Date.now() + 1000).toUTCString());
      });
    },
  },
  {
    name: 'router-dropped-params-comma',
    breaks: 'ROUTER.HEADER.DROPPED_PARAMS_JSON',
    statements: ['R:217:ad954066757a'],
    description: 'X-Comfy-Router-Dropped-Params is a comma-joined list instead of a JSON array',
    install(s) {
      onRouter(s, undefined, (out) => {
        const dropped = out.header(H.dropped);
        if (dropped !== undefined) out.setHeader(H.dropped, (JSON.parse(dropped) as string[]).join(', '));
      });
    },
  },
  {
    name: 'router-v2-envelope',
    breaks: 'ROUTER.ERR.BODY',
    statements: ['R:80:3d30fc7a6bb8'],
    description: 'error bodies use the v2 envelope {error: {code, message}}',
    install(s) {
      onRouter(s, undefined, (out) => {
        const err = routerError(out);
        if (err !== undefined && out.status !== 422)
          out.body = { error: { code: err.error_type, message: err.detail } };
      });
    },
  },
  {
    name: 'router-model-not-found-400',
    breaks: 'ROUTER.ERR.CODE_STATUS',
    statements: ['R:264:8f883ef294f2'],
    description: 'model_not_found is sent with HTTP 400',
    install(s) {
      // Routes only: an unknown path keeps its 404.
      onRouter(s, undefined, (out) => {
        if (!out.request.is404 && routerError(out)?.error_type === 'model_not_found') out.status = 400;
      });
    },
  },
  {
    name: 'router-unknown-request-invalid-input',
    breaks: 'ROUTER.ERR.CODE_STATUS_PUBLIC',
    description: 'an unknown queued request is answered 404 with bucket invalid_input (public docs: request_not_found)',
    install(s) {
      onRouter(s, [STATUS, COLLECT, CANCEL], (out) => {
        const err = routerError(out);
        if (out.status !== 404 || err?.error_type !== 'request_not_found') return;
        retypeError(out, 'invalid_input');
      });
    },
  },
  {
    name: 'router-422-string-detail',
    breaks: 'ROUTER.ERR.VALIDATION_BODY',
    statements: ['R:86:bb89bcc02af0'],
    description: '422 bodies carry detail as one string',
    install(s) {
      onRouter(s, undefined, (out) => {
        const detail = out.status === 422 && isObj(out.body) ? out.body.detail : undefined;
        if (isObj(out.body) && Array.isArray(detail))
          out.body = { detail: detail.map((e) => (isObj(e) ? String(e.msg) : '')).join('; ') };
      });
    },
  },
  {
    name: 'router-loc-body-only',
    breaks: 'ROUTER.ERR.VALIDATION_LOC',
    statements: ['R:87:346b64b4e95a'],
    description: 'every 422 entry has loc ["body"]',
    install(s) {
      onRouter(s, undefined, (out) => {
        const detail = out.status === 422 && isObj(out.body) ? out.body.detail : undefined;
        if (Array.isArray(detail)) for (const e of detail) if (isObj(e)) e.loc = ['body'];
      });
    },
  },
  {
    name: 'router-array-body-400',
    breaks: 'ROUTER.ERR.NON_OBJECT_BODY',
    description: 'a JSON body that is not an object answers 400 invalid_input',
    install(s) {
      onRouter(s, undefined, (out) => {
        const detail = out.status === 422 && isObj(out.body) ? out.body.detail : undefined;
        const first: unknown = Array.isArray(detail) ? detail[0] : undefined;
        if (!isObj(first) || first.type !== 'dict_type') return;
        out.status = 400;
        out.body = { detail: 'the body must be a JSON object', error_type: 'invalid_input' };
      });
    },
  },
  {
    name: 'router-unknown-model-estimate-400',
    breaks: 'ROUTER.ERR.MODEL_NOT_FOUND',
    statements: ['R:264:8f883ef294f2'],
    description: 'the estimate of an unknown model answers 400 invalid_input',
    install(s) {
      onRouter(s, [ESTIMATE], (out) => {
        const err = routerError(out);
        if (
          out.status !== 404 ||
          err?.error_type !== 'model_not_found' ||
          String(err.detail).includes(' was retired on ')
        )
          return;
        const { provider, model } = params(out);
        answerError(out, 400, 'invalid_input', `unknown model ${provider}/${model}`);
      });
    },
  },
  {
    name: 'router-429-no-spend',
    breaks: 'ROUTER.ERR.RATE_LIMITED',
    statements: ['R:138:bc1b401a1951', 'R:166:9454d41e0a87', 'R:291:0042f822c462'],
    description: '429 answers lack the committed-spend headers',
    install(s) {
      onRouter(s, undefined, (out) => {
        if (out.status === 429 && routerError(out)?.error_type === 'rate_limited') dropSpendHeaders(out);
      });
    },
  },
  {
    name: 'router-provider-error-503',
    breaks: 'ROUTER.ERR.PROVIDER_ERROR',
    statements: ['R:271:254d70168aa4'],
    description: 'an unusable provider answer is 503 service_unavailable',
    install(s) {
      s.policy.router.providerFailure = (answer, model) =>
        answer.kind === 'unparseable'
          ? errorAnswer(503, 'service_unavailable', 'the provider is unavailable')
          : failureAnswer(answer, model);
    },
  },
  {
    name: 'router-capacity-no-retry-after',
    breaks: 'ROUTER.ERR.CAPACITY',
    statements: ['R:138:bc1b401a1951', 'R:215:49b76e9b4942'],
    description: 'capacity refusals lack Retry-After',
    install(s) {
      // The synchronous route only.
      onRouter(s, [RUN], (out) => {
        if (out.status === 503 && String(routerError(out)?.detail).endsWith(CAPACITY_DETAIL))
          out.setHeader('retry-after', undefined);
      });
    },
  },
  {
    name: 'router-deadline-no-retry-after',
    breaks: 'ROUTER.ERR.DEADLINE',
    statements: ['R:138:bc1b401a1951', 'R:215:49b76e9b4942'],
    description: '504 deadline_exceeded lacks Retry-After',
    install(s) {
      onRouter(s, undefined, (out) => {
        if (routerError(out)?.error_type === 'deadline_exceeded') out.setHeader('retry-after', undefined);
      });
    },
  },
  {
    name: 'router-refusal-subject-dropped',
    breaks: 'ROUTER.ERR.CONTENT_POLICY',
    statements: ['R:80:3d30fc7a6bb8'],
    description: 'the subject the provider named is lost: neither X-Comfy-Refusal-Subject nor the member',
    install(s) {
      onRouter(s, undefined, (out) => {
        const err = routerError(out);
        if (err?.error_type !== 'content_policy_violation') return;
        out.setHeader(H.refusalSubject, undefined);
        delete err.refusal_subject;
      });
    },
  },
  {
    name: 'router-refusal-subject-header-only',
    breaks: 'ROUTER.ERR.CONTENT_POLICY',
    statements: ['R:80:3d30fc7a6bb8'],
    description: 'the refusal subject is sent in the header but not mirrored in the body',
    install(s) {
      onRouter(s, undefined, (out) => {
        const err = routerError(out);
        if (err?.error_type === 'content_policy_violation') delete err.refusal_subject;
      });
    },
  },
  {
    name: 'router-refusal-subject-mismatch',
    breaks: 'ROUTER.ERR.CONTENT_POLICY',
    statements: ['R:80:3d30fc7a6bb8'],
    description: 'the body refusal_subject differs from X-Comfy-Refusal-Subject',
    install(s) {
      onRouter(s, undefined, (out) => {
        const err = routerError(out);
        if (err?.error_type === 'content_policy_violation')
          err.refusal_subject = err.refusal_subject === 'output' ? 'input' : 'output';
      });
    },
  },
  {
    name: 'router-upstream-detail-dropped',
    breaks: 'ROUTER.ERR.UPSTREAM_DETAIL',
    statements: ['R:80:3d30fc7a6bb8', 'R:219:68773d027aa2'],
    description:
      "the provider's reason for calling a request malformed is lost (neither X-Comfy-Upstream-Detail nor the member)",
    install(s) {
      onRouter(s, undefined, (out) => {
        const err = routerError(out);
        if (err === undefined) return;
        out.setHeader(H.upstreamDetail, undefined);
        delete err.upstream_detail;
      });
    },
  },
  {
    name: 'router-upstream-detail-on-router-400',
    breaks: 'ROUTER.ERR.UPSTREAM_DETAIL',
    statements: ['R:80:3d30fc7a6bb8'],
    description: 'the router-raised unregistered-provider 400 carries upstream_detail',
    install(s) {
      onRouter(s, undefined, (out) => {
        const err = routerError(out);
        if (
          out.status === 400 &&
          err?.error_type === 'invalid_input' &&
          String(err.detail).includes('is not a registered provider')
        )
          err.upstream_detail = 'unknown provider';
      });
    },
  },
  // R § Error body leaves the two optional members unnamed; public docs name them
  // refusal_subject and upstream_detail. A server whose error model is serialised in
  // camelCase still mirrors both values, only under other names.
  {
    name: 'router-error-members-camel-case',
    breaks: 'ROUTER.ERR.MEMBER_NAMES',
    description: 'the optional error members are serialised camelCase: refusalSubject and upstreamDetail',
    install(s) {
      onRouter(s, undefined, (out) => {
        const err = routerError(out);
        if (err === undefined) return;
        for (const [snake, camel] of [
          ['refusal_subject', 'refusalSubject'],
          ['upstream_detail', 'upstreamDetail'],
        ] as const) {
          if (!(snake in err)) continue;
          err[camel] = err[snake];
          delete err[snake];
        }
      });
    },
  },
  {
    name: 'router-upstream-detail-as-provider-message',
    breaks: 'ROUTER.ERR.MEMBER_NAMES',
    description: "the provider's reason is mirrored in the body as provider_message instead of upstream_detail",
    install(s) {
      onRouter(s, undefined, (out) => {
        const err = routerError(out);
        if (err === undefined || !('upstream_detail' in err)) return;
        err.provider_message = err.upstream_detail;
        delete err.upstream_detail;
      });
    },
  },
  // R § Endpoints › GET /v2/models/{provider}/{model}: its errors are 401, 403, 404, 503. A
  // framework mapping "gone" to its own status answers a retired model 410.
  {
    name: 'router-retired-detail-410',
    breaks: 'ROUTER.CONTRACT.STATUS_DECLARED',
    statements: ['R:122:342faba8f061'],
    description:
      'the detail of a retired model is answered 410 Gone (bucket model_not_found kept), a status the detail operation does not declare',
    install(s) {
      onRouter(s, [DETAIL], (out) => {
        if (out.status === 404 && String(routerError(out)?.detail).includes(' was retired on ')) out.status = 410;
      });
    },
  },
  // R § Endpoints › GET /v2/models: its errors are 400, 401, 403, 503. A framework that
  // validates query parameters itself refuses a cursor it cannot decode 422, in its own shape.
  {
    name: 'router-bad-cursor-422',
    breaks: 'ROUTER.CONTRACT.STATUS_DECLARED',
    statements: ['R:119:c6102c02ef04'],
    description:
      "a cursor the server did not produce is refused 422 with the framework's validation body (loc query.cursor), a status the catalog list does not declare",
    install(s) {
      onRouter(s, [LIST], (out) => {
        if (
          out.status !== 400 ||
          routerError(out)?.error_type !== 'invalid_input' ||
          (out.request.query as Record<string, unknown>).cursor === undefined
        )
          return;
        out.status = 422;
        out.body = {
          detail: [{ loc: ['query', 'cursor'], msg: 'cursor is malformed or expired', type: 'value_error' }],
        };
      });
    },
  },
  // R § Endpoints › queued submit: its errors are 400-404, 409, 413, 422, 503. A route table
  // that leaves POST off a bytes model's queue path answers the framework's 405.
  {
    name: 'router-bytes-submit-405',
    breaks: 'ROUTER.CONTRACT.STATUS_DECLARED',
    statements: ['R:189:8f1eb8ea4403'],
    description:
      'a queued submit to a model that answers bytes is refused 405 method_not_allowed (the route ' +
      'table has no POST there), a status the submit does not declare',
    install(s) {
      onRouter(s, [SUBMIT], (out) => {
        if (out.status !== 403 || routerError(out)?.error_type !== 'not_enabled') return;
        answerError(out, 405, 'method_not_allowed', 'this model cannot be queued');
      });
    },
  },
  // R § Queued request: the status answer carries the three URLs, request_id, status and
  // queue_position. A status view serialising the record without its id (it is in the path) drops it.
  {
    name: 'router-status-without-request-id',
    breaks: 'ROUTER.QUEUE.HANDLE',
    statements: ['R:74:6ebcff02673d'],
    description:
      'status answers leave request_id out (the status view serialises the record without the id the path carries)',
    install(s) {
      onRouter(s, [STATUS], (out) => {
        if (out.status === 200 && isObj(out.body)) delete out.body.request_id;
      });
    },
  },
  // R § Endpoints (every response), queued submit and collect (X-Svc-Request-Id). The queue
  // routes mounted outside the middleware that stamps the id send their successes without it.
  {
    name: 'router-queue-success-no-request-id',
    breaks: 'ROUTER.HEADER.REQUEST_ID',
    statements: ['R:188:cc76cfcb4a6b', 'R:195:80f61e986efa', 'R:211:a3b757021292'],
    description:
      "the queue's successful answers (submit 201, status, collect, cancel 202) lack " +
      'X-Comfy-Request-Id: those routes are mounted outside the middleware that stamps it, whose error ' +
      'handler still does',
    install(s) {
      onRouter(s, [SUBMIT, STATUS, COLLECT, CANCEL], (out) => {
        if (out.status < 400) out.setHeader(H.requestId, undefined);
      });
    },
  },
  // R § Errors: 400 pairs with content_policy_violation. A router reading the provider's
  // policy refusal as forbidden content answers 403.
  {
    name: 'router-policy-refusal-403',
    breaks: 'ROUTER.ERR.CONTENT_POLICY',
    statements: ['R:260:9b53add47cfb'],
    description:
      'a content-policy refusal is answered 403 forbidden (the refused content read as forbidden) instead of 400 content_policy_violation',
    install(s) {
      onRouter(s, undefined, (out) => {
        const err = routerError(out);
        if (out.status !== 400 || err?.error_type !== 'content_policy_violation') return;
        out.status = 403;
        retypeError(out, 'forbidden');
      });
    },
  },
  // R § Error body, Response headers: the refusal subject is one of ten machine codes, never
  // provider text. A router passing the provider's own word through sends that word.
  {
    name: 'router-subject-provider-word',
    breaks: 'ROUTER.ERR.CONTENT_POLICY',
    statements: ['R:221:facfc8e0e130'],
    description:
      "the refusal subject carries the provider's own word for it (prompt), header and body alike, instead of one of the ten subjects",
    install(s) {
      onRouter(s, undefined, (out) => {
        const err = routerError(out);
        if (err?.error_type !== 'content_policy_violation' || out.header(H.refusalSubject) === undefined) return;
        out.setHeader(H.refusalSubject, 'prompt');
        err.refusal_subject = 'prompt';
      });
    },
  },
  // R § Errors: 401 pairs with unauthorized. A framework validating the credential header as
  // part of the request refuses a request without one as malformed, 400.
  {
    name: 'router-unauthorized-400',
    breaks: 'ROUTER.ERR.CODE_STATUS',
    statements: ['R:261:eda8df0c725e'],
    description:
      'a request without credentials is refused 400 unauthorized (the missing header fails request validation first) instead of 401',
    install(s) {
      onRouter(s, undefined, (out) => {
        const anonymous =
          out.request.headers.authorization === undefined && out.request.headers['x-api-key'] === undefined;
        if (anonymous && out.status === 401 && routerError(out)?.error_type === 'unauthorized') out.status = 400;
      });
    },
  },
  // R § Errors: 409 pairs with a key conflict (invalid_input). A router raising the conflict
  // as a plain bad request answers 400.
  {
    name: 'router-key-conflict-400',
    breaks: 'ROUTER.ERR.CODE_STATUS',
    statements: ['R:265:f8f2f15b8db3'],
    description: 'an Idempotency-Key reused with another request is refused 400 invalid_input instead of 409',
    install(s) {
      onRouter(s, undefined, (out) => {
        const err = routerError(out);
        if (out.status === 409 && err?.error_type === 'invalid_input' && !String(err.detail).startsWith('this request'))
          out.status = 400;
      });
    },
  },
  // R § Errors: 429 pairs with rate_limited. A limiter reporting an exhausted allowance as a
  // permission failure answers 403.
  {
    name: 'router-rate-limited-403',
    breaks: 'ROUTER.ERR.RATE_LIMITED',
    statements: ['R:166:dcc51415a25e', 'R:269:7d2845441036'],
    description:
      'a caller past its request allowance is refused 403 quota_exceeded (quota exhaustion read as a permission failure) instead of 429 rate_limited',
    install(s) {
      onRouter(s, undefined, (out) => {
        const err = routerError(out);
        if (out.status !== 429 || err?.error_type !== 'rate_limited') return;
        out.status = 403;
        retypeError(out, 'quota_exceeded');
      });
    },
  },
  // R § Errors: 503 pairs with the router being briefly unavailable; a capacity refusal is a
  // 503 with Retry-After. A router treating capacity as throttling answers the throttle's 429.
  {
    name: 'router-capacity-429',
    breaks: 'ROUTER.ERR.CAPACITY',
    statements: ['R:138:bc1b401a1951', 'R:272:f85668f810ed'],
    description:
      'a capacity refusal is answered as throttling: 429 rate_limited with Retry-After and the committed-spend headers, instead of 503',
    install(s) {
      onRouter(s, [RUN], (out) => {
        const err = routerError(out);
        if (out.status !== 503 || !String(err?.detail).endsWith(CAPACITY_DETAIL)) return;
        answerError(out, 429, 'rate_limited', String(err?.detail));
        for (const [k, v] of Object.entries(out.ctx.router.spendHeaders('capacity'))) out.setHeader(k, v);
      });
    },
  },
  // R § Errors: 504 pairs with deadline_exceeded. A gateway that reports its own timeout of
  // the provider call as a bad gateway answers 502 provider_error.
  {
    name: 'router-deadline-502',
    breaks: 'ROUTER.ERR.DEADLINE',
    statements: ['R:273:3ef1c97d5441'],
    description:
      'a call past its deadline is answered 502 provider_error (the gateway timeout read as a bad upstream answer) instead of 504 deadline_exceeded',
    install(s) {
      onRouter(s, undefined, (out) => {
        const err = routerError(out);
        if (out.status !== 504 || err?.error_type !== 'deadline_exceeded') return;
        out.status = 502;
        retypeError(out, 'provider_error');
      });
    },
  },
  // R § Validation error body: each entry's msg is a human-readable string. An error model
  // serialised under another field name sends the text as message.
  {
    name: 'router-422-message-member',
    breaks: 'ROUTER.ERR.VALIDATION_BODY',
    statements: ['R:88:6edf2da92a67'],
    description: '422 entries carry their text as message instead of msg',
    install(s) {
      onRouter(s, undefined, (out) => {
        const detail = out.status === 422 && isObj(out.body) ? out.body.detail : undefined;
        if (Array.isArray(detail))
          for (const e of detail)
            if (isObj(e) && 'msg' in e) {
              e.message = e.msg;
              delete e.msg;
            }
      });
    },
  },
  // R § Validation error body: ctx is an object of bounds, left out when the type has none. A
  // serialiser writing every optional field sends ctx null there.
  {
    name: 'router-422-ctx-null',
    breaks: 'ROUTER.ERR.VALIDATION_BODY',
    statements: ['R:90:39e98cbd9298'],
    description: '422 entries whose type has no bound carry ctx: null instead of leaving ctx out',
    install(s) {
      onRouter(s, undefined, (out) => {
        const detail = out.status === 422 && isObj(out.body) ? out.body.detail : undefined;
        if (Array.isArray(detail)) for (const e of detail) if (isObj(e) && !('ctx' in e)) e.ctx = null;
      });
    },
  },
  // R § Validation error body (type vs the error-type header), Response headers: every error
  // carries X-Svc-Error-Type. A validation path answering outside the error middleware sends none.
  {
    name: 'router-422-no-error-type',
    breaks: 'ROUTER.HEADER.ERROR_TYPE',
    statements: ['R:89:b11e8e2619c1', 'R:212:3569e3bba115'],
    description: '422 validation answers carry no X-Comfy-Error-Type (built outside the error middleware that sets it)',
    install(s) {
      onRouter(s, undefined, (out) => {
        if (out.status === 422) out.setHeader(H.errorType, undefined);
      });
    },
  },
  // R § Opaque documents, synchronous run (body: an open object). A router that wraps any
  // other JSON value in an envelope for the partner re-envelopes the input.
  {
    name: 'router-non-object-body-wrapped',
    breaks: 'ROUTER.ERR.NON_OBJECT_BODY',
    statements: ['R:95:2f74232fb41f', 'R:134:13114c9a8e32'],
    description:
      'a JSON body that is not an object is wrapped as {input: <value>} and validated as such (a 422 ' +
      'naming the missing prompt) instead of refused as not an object',
    install(s) {
      s.request(
        { surfaces: ['router'], routes: [RUN, ESTIMATE, SUBMIT] },
        ({ request }) => {
          if (
            request.body !== undefined &&
            request.body !== null &&
            (typeof request.body !== 'object' || Array.isArray(request.body))
          )
            request.body = { input: request.body };
        },
        'preHandler',
      );
    },
  },
  // R § Versioning: router paths carry /v2. An app behind a gateway that strips the prefix
  // composes the handle's URLs from the path it saw.
  {
    name: 'router-handle-urls-unprefixed',
    breaks: 'ROUTER.VERSION.PREFIX',
    statements: ['R:295:be69f3450e28'],
    description:
      'the queue URLs a handle carries omit the /v2 prefix (composed from the path a prefix-stripping gateway forwarded)',
    install(s) {
      onRouter(s, undefined, (out) => {
        if (!isObj(out.body)) return;
        const base = out.ctx.router.baseUrl();
        for (const k of QUEUE_URLS) {
          const u = out.body[k];
          if (typeof u === 'string' && u.startsWith(`${base}/v2/`)) out.body[k] = `${base}${u.slice(base.length + 3)}`;
        }
      });
    },
  },
  // R § Result assets rule 3: only the native provider's runs are copied. A copier run on
  // every successful answer, whichever provider served it, rehosts an alternate's assets too.
  {
    name: 'router-alternate-assets-copied',
    breaks: 'ROUTER.ASSETS.COPYING',
    statements: ['R:231:6d38d26f8b5d', 'R:231:3fe97d8e9554'],
    description:
      'a run served by an alternate (by model_provider or by fallback) has its asset URLs copied onto ' +
      "platform storage: the copier runs on every answer, not only the native provider's",
    install(s) {
      onRouter(s, [RUN], (out) => {
        const mp = (out.request.query as Record<string, unknown>).model_provider;
        const alternate =
          (typeof mp === 'string' && mp !== '' && mp !== 'default' && !mp.startsWith(BRAND.toLowerCase())) ||
          out.header(H.fallback) !== undefined;
        if (out.status !== 200 || !alternate || !isObj(out.body)) return;
        const rehost = (v: unknown): unknown =>
          typeof v === 'string'
            ? v.replace(/^https:\/\/[^/]+\/out\//, `${PLATFORM_ASSET_ORIGIN}/router-assets/`)
            : Array.isArray(v)
              ? v.map(rehost)
              : isObj(v)
                ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, rehost(x)]))
                : v;
        out.body = rehost(out.body);
      });
    },
  },
] as const satisfies ReadonlyArray<FaultUnit>;
