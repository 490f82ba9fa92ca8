// v2 faults of the error envelope (seed W § Errors): each reshapes error answers on the
// way out, through a response hook that sees the error the answer was built from.
import type { FaultUnit, StatementAt } from '../unit.ts';
import { ApiError } from '../../errors.ts';
import { keyNotAllowed } from '../../surfaces/cloud.ts';
import { V2_SURFACES, errorObject } from './shared.ts';

/**
 * A fault of one row of the error table (V2.ERR.CODE_STATUS): the condition keeps its code
 * but goes out with another HTTP status, as a layer or a framework default picks its own.
 */
function rowStatus(
  name: string,
  code: string,
  status: number,
  statement: StatementAt,
  why: string,
  opts: { bodiesOnly?: boolean } = {},
): FaultUnit {
  return {
    name,
    breaks: 'V2.ERR.CODE_STATUS',
    statements: [statement],
    description: `${code} errors are sent with HTTP ${status}: ${why}`,
    install(s) {
      s.respond({ surfaces: V2_SURFACES }, (out) => {
        if (out.error?.code === code && !(opts.bodiesOnly && out.request.method === 'HEAD')) out.status = status;
      });
    },
  };
}

export const ERROR_FAULTS = [
  {
    name: 'unrouted-plain-404',
    breaks: 'V2.ERR.ENVELOPE_UNROUTED',
    statements: ['W:198:f7c1d8f67073'],
    description:
      "a path under /api/v2 that no operation has is answered by the framework's plain-text 404, not the v2 error envelope",
    install(s) {
      s.respond({ surfaces: V2_SURFACES }, (out) => {
        if (
          out.error?.code !== 'not_found' ||
          !out.error.message.startsWith('no route for') ||
          !/\/api\/v2\//.test(out.request.url)
        )
          return;
        out.setHeader('content-type', 'text/plain; charset=utf-8');
        out.payload = '404 page not found';
      });
    },
  },
  {
    name: 'missing-retry-after',
    breaks: 'V2.ERR.RETRY_AFTER',
    statements: ['W:209:87254be6d3b3', 'W:227:0191ef88740b', 'W:242:2face0321cd0', 'W:111:60ee272be59d'],
    description: '429 answers omit the Retry-After header',
    install(s) {
      s.respond({ surfaces: V2_SURFACES }, (out) => {
        if (out.error?.retryAfterSeconds !== undefined) out.setHeader('retry-after', undefined);
      });
    },
  },
  {
    name: 'retry-after-http-date',
    breaks: 'V2.ERR.RETRY_AFTER',
    statements: ['W:227:a5a269db3d00'],
    description:
      "429 answers give Retry-After as an HTTP-date (the framework's other form), not an integer number of seconds",
    install(s) {
      s.respond({ surfaces: V2_SURFACES }, (out) => {
        const seconds = out.error?.retryAfterSeconds;
        if (seconds !== undefined && out.header('retry-after') !== undefined)
          out.setHeader('retry-after', new Date(Date.now() + seconds * 1000).toUTCString());
      });
    },
  },
  {
    name: 'message-is-code',
    breaks: 'V2.ERR.ENVELOPE',
    statements: ['W:198:2511ff7c405a'],
    description:
      'error messages repeat the code (an error mapper that fills message from the enum name), so nothing in the answer is written for people',
    install(s) {
      s.respond({ surfaces: V2_SURFACES }, (out) => {
        const inner = errorObject(out);
        if (inner !== undefined && typeof inner.code === 'string') inner.message = inner.code;
      });
    },
  },
  {
    name: 'flat-error-envelope',
    breaks: 'V2.ERR.ENVELOPE',
    statements: ['W:198:f7c1d8f67073'],
    description: 'error bodies carry code and message at top level instead of under "error"',
    install(s) {
      s.respond({ surfaces: V2_SURFACES }, (out) => {
        const inner = errorObject(out);
        if (inner !== undefined) out.body = inner;
      });
    },
  },
  {
    name: 'rate-limit-as-queue-full',
    breaks: 'V2.ERR.RATE_LIMITED',
    statements: ['W:209:87254be6d3b3', 'W:242:2face0321cd0'],
    description: 'a key past its request-rate allowance is refused 429 queue_full instead of rate_limited',
    install(s) {
      // Still a code 429 pairs with, but not the one a request rate earns.
      s.respond({ surfaces: V2_SURFACES }, (out) => {
        const inner = errorObject(out);
        if (inner !== undefined && out.error?.code === 'rate_limited') inner.code = 'queue_full';
      });
    },
  },
  {
    name: 'not-found-as-400',
    breaks: 'V2.ERR.CODE_STATUS',
    statements: ['W:211:da3c48062a69', 'W:111:60ee272be59d'],
    description: 'not_found errors are sent with HTTP 400',
    install(s) {
      s.respond({ surfaces: V2_SURFACES }, (out) => {
        if (out.error?.code === 'not_found') out.status = 400;
      });
    },
  },
  {
    name: 'org-id-on-unauthorized',
    breaks: 'V2.ERR.ORG_ID_ONLY_SSO',
    statements: ['W:198:0a870126a233'],
    description: 'unauthorized errors carry organization_id too',
    // An always-on check: the test declaring the rule provokes no 401; auth.spec.ts does.
    seenBy: {
      files: ['specs/v2/auth.spec.ts'],
      why: 'the fault shows only on 401 answers, which auth.spec.ts provokes',
    },
    install(s) {
      s.respond({ surfaces: V2_SURFACES }, (out) => {
        const inner = errorObject(out);
        if (inner === undefined || out.error?.code !== 'unauthorized' || out.error.organizationId !== undefined) return;
        const { code, message, ...rest } = inner;
        out.body = { error: { code, message, organization_id: 'org_ref_leaked', ...rest } };
      });
    },
  },
  {
    name: 'entity-not-found-codes',
    breaks: 'V2.ERR.NOT_FOUND_CODE',
    statements: ['W:211:da3c48062a69'],
    description: '404s carry asset_not_found / job_not_found (as the live services do) instead of not_found',
    install(s) {
      s.respond({ surfaces: V2_SURFACES }, (out) => {
        const inner = errorObject(out);
        const entity = /^(asset|job) not found$/.exec(out.error?.message ?? '');
        if (inner !== undefined && out.error?.code === 'not_found' && entity !== null)
          inner.code = `${entity[1]}_not_found`;
      });
    },
  },
  {
    name: 'forbidden-as-unauthorized',
    breaks: 'V2.ERR.FORBIDDEN',
    statements: ['W:213:a4a409f683dc'],
    description:
      'a valid key whose scopes exclude the workflow API is refused 401 unauthorized instead of 403 forbidden',
    install(s) {
      const notAllowed = keyNotAllowed().message;
      s.respond({ surfaces: V2_SURFACES }, (out) => {
        if (out.error?.code === 'forbidden' && out.error.message === notAllowed)
          out.fail(new ApiError('unauthorized', 'this key may not use the workflow API'));
      });
    },
  },
  {
    name: 'read-failure-untyped',
    breaks: 'V2.ERR.UPSTREAM_GENERIC',
    statements: ['W:225:9ad257bfa3ab'],
    description:
      'a backing-service failure while reading (job read, job list, asset read) answers 500 internal_error: only submit and upload map it to upstream_error',
    install(s) {
      s.respond({ routes: ['GET /api/v2/jobs/:id', 'GET /api/v2/jobs', 'GET /api/v2/assets/:id'] }, (out) => {
        const inner = errorObject(out);
        if (inner !== undefined && out.error?.code === 'upstream_error') inner.code = 'internal_error';
      });
    },
  },
  {
    name: 'upload-failure-untyped',
    breaks: 'V2.ERR.UPSTREAM_GENERIC',
    statements: ['W:225:9ad257bfa3ab'],
    description:
      'a backing-service failure during an upload answers 500 with code internal_error instead of upstream_error',
    install(s) {
      s.respond({ routes: ['POST /api/v2/assets'] }, (out) => {
        const inner = errorObject(out);
        if (inner !== undefined && out.error?.code === 'upstream_error') inner.code = 'internal_error';
      });
    },
  },
  // V2.ERR.CODE_STATUS: one fault per row of the table a server can send with another status.
  rowStatus(
    'invalid-workflow-400',
    'invalid_workflow',
    400,
    'W:202:f224c451d6d5',
    "graph validation raises the framework's generic bad-request status",
  ),
  rowStatus(
    'workflow-format-ui-400',
    'workflow_format_ui',
    400,
    'W:203:6ba0e92fee12',
    'the format sniffer rejects the body before validation, with a bad-request status',
  ),
  rowStatus(
    'missing-asset-404',
    'missing_asset',
    404,
    'W:204:758f07a4358d',
    "the asset lookup's not-found status propagates out of the submit",
  ),
  rowStatus(
    'hash-mismatch-422',
    'hash_mismatch',
    422,
    'W:205:ab835388c387',
    'the upload validator answers every refused upload with its own status',
  ),
  rowStatus(
    'blob-not-found-410',
    'blob_not_found',
    410,
    'W:206:296d6be987e6',
    'the blob store reports a missing blob as Gone',
  ),
  rowStatus(
    'idempotency-reuse-409',
    'idempotency_key_reuse',
    409,
    'W:207:65c2b70e7bc8',
    'key reuse is answered Conflict, as many APIs pair it',
  ),
  // HEAD refusals carry no body (W:116:01f04bbd4dcd), so no code: the renderer of error bodies is where the status goes wrong.
  rowStatus(
    'rate-limited-503',
    'rate_limited',
    503,
    'W:209:87254be6d3b3',
    "the renderer of error bodies maps the limiter's refusal to its overload status (Retry-After kept)",
    { bodiesOnly: true },
  ),
  rowStatus(
    'insufficient-credits-403',
    'insufficient_credits',
    403,
    'W:210:ab64fb47dea9',
    'the billing check runs in the permission layer, which answers 403',
  ),
  rowStatus(
    'unauthorized-403',
    'unauthorized',
    403,
    'W:212:ea35fad56b1a',
    "a gateway's default status for a failed credential check",
  ),
  rowStatus(
    'forbidden-401',
    'forbidden',
    401,
    'W:213:a4a409f683dc',
    'the scope check lives in the authentication middleware, which answers 401',
  ),
  rowStatus(
    'deployment-not-ready-503',
    'deployment_not_ready',
    503,
    'W:214:8f06ae686dfb',
    "a load balancer's status for a warming backend (Retry-After kept)",
  ),
  rowStatus(
    'deployment-unavailable-503',
    'deployment_unavailable',
    503,
    'W:215:bc704bdd471a',
    "the GPU provider's own 503 is passed through (Retry-After kept)",
  ),
  rowStatus(
    'deployment-stopped-503',
    'deployment_stopped',
    503,
    'W:216:688cbaf926cc',
    'a proxy marks a stopped upstream unavailable',
  ),
  rowStatus(
    'invalid-request-400',
    'invalid_request',
    400,
    'W:217:ae18d5395772',
    "the framework's default status for a request that fails validation",
  ),
  rowStatus(
    'content-blocked-403',
    'content_blocked',
    403,
    'W:218:96c1e20e9439',
    'moderation refusals reuse the forbidden path',
  ),
  rowStatus(
    'sso-required-401',
    'sso_required',
    401,
    'W:219:23d45a94621a',
    'the SSO check sits in the authentication layer, which answers 401',
  ),
  rowStatus(
    'metadata-invalid-400',
    'metadata_invalid',
    400,
    'W:220:7eb6baa5b560',
    'the label validator raises a generic bad request',
  ),
  rowStatus(
    'invalid-cursor-422',
    'invalid_cursor',
    422,
    'W:223:eb707c12e701',
    "the list's query validation answers with the framework's validation status",
  ),
  rowStatus(
    'upstream-error-502',
    'upstream_error',
    502,
    'W:225:9ad257bfa3ab',
    "the gateway's Bad Gateway for a failing backend",
  ),
] as const satisfies ReadonlyArray<FaultUnit>;
