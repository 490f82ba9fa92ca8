// Router faults of the contract, the common headers and the error bodies (seed R § Errors).
import type { FaultUnit } from '../unit.ts';
import { H } from '../../router/constants.ts';
import { errorAnswer, failureAnswer } from '../../router/answer.ts';
import { CANCEL, CAPACITY_DETAIL, COLLECT, ESTIMATE, RUN, SCHEMA, STATUS, dropSpendHeaders, isObj, onRouter, params, routerError } from './shared.ts';

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
    seenBy: { files: ['specs/router/errors.spec.ts'], why: 'the fault shows only on 502 answers, which the provider-error test of errors.spec.ts provokes' },
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
    description: '404 answers carry X-Comfy-Error-Type not_found while the body says model_not_found or request_not_found',
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
        if ((out.status === 200 || out.status === 202) && out.header('retry-after') !== undefined) out.setHeader('Retry-After', new Date(Date.now() + 1000).toUTCString());
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
        if (err !== undefined && out.status !== 422) out.body = { error: { code: err.error_type, message: err.detail } };
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
        err.error_type = 'invalid_input';
        out.setHeader(H.errorType, 'invalid_input');
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
        if (isObj(out.body) && Array.isArray(detail)) out.body = { detail: detail.map((e) => (isObj(e) ? String(e.msg) : '')).join('; ') };
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
        const first = Array.isArray(detail) ? detail[0] : undefined;
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
        if (out.status !== 404 || err?.error_type !== 'model_not_found' || String(err.detail).includes(' was retired on ')) return;
        const { provider, model } = params(out);
        out.status = 400;
        out.setHeader(H.errorType, 'invalid_input');
        out.body = { detail: `unknown model ${provider}/${model}`, error_type: 'invalid_input' };
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
        answer.kind === 'unparseable' ? errorAnswer(503, 'service_unavailable', 'the provider is unavailable') : failureAnswer(answer, model);
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
        if (out.status === 503 && String(routerError(out)?.detail).endsWith(CAPACITY_DETAIL)) out.setHeader('retry-after', undefined);
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
        if (err?.error_type === 'content_policy_violation') err.refusal_subject = err.refusal_subject === 'output' ? 'input' : 'output';
      });
    },
  },
  {
    name: 'router-upstream-detail-dropped',
    breaks: 'ROUTER.ERR.UPSTREAM_DETAIL',
    statements: ['R:80:3d30fc7a6bb8', 'R:219:68773d027aa2'],
    description: "the provider's reason for calling a request malformed is lost (neither X-Comfy-Upstream-Detail nor the member)",
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
        if (out.status === 400 && err?.error_type === 'invalid_input' && String(err.detail).includes('is not a registered provider')) err.upstream_detail = 'unknown provider';
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
        for (const [snake, camel] of [['refusal_subject', 'refusalSubject'], ['upstream_detail', 'upstreamDetail']] as const) {
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
] as const satisfies ReadonlyArray<FaultUnit>;
