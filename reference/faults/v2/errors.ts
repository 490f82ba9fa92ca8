// v2 faults of the error envelope (seed W § Errors): each reshapes error answers on the
// way out, through a response hook that sees the error the answer was built from.
import type { FaultUnit } from '../unit.ts';
import { ApiError } from '../../errors.ts';
import { keyNotAllowed } from '../../surfaces/cloud.ts';
import { V2_SURFACES, errorObject } from './shared.ts';

export const ERROR_FAULTS = [
  {
    name: 'unrouted-plain-404',
    breaks: 'V2.ERR.ENVELOPE_UNROUTED',
    statements: ['W:198:f7c1d8f67073'],
    description: "a path under /api/v2 that no operation has is answered by the framework's plain-text 404, not the v2 error envelope",
    install(s) {
      s.respond({ surfaces: V2_SURFACES }, (out) => {
        if (out.error?.code !== 'not_found' || !out.error.message.startsWith('no route for') || !/\/api\/v2\//.test(out.request.url)) return;
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
    seenBy: { files: ['specs/v2/auth.spec.ts'], why: 'the fault shows only on 401 answers, which auth.spec.ts provokes' },
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
        if (inner !== undefined && out.error?.code === 'not_found' && entity !== null) inner.code = `${entity[1]}_not_found`;
      });
    },
  },
  {
    name: 'forbidden-as-unauthorized',
    breaks: 'V2.ERR.FORBIDDEN',
    statements: ['W:213:a4a409f683dc'],
    description: 'a valid key whose scopes exclude the workflow API is refused 401 unauthorized instead of 403 forbidden',
    install(s) {
      const notAllowed = keyNotAllowed().message;
      s.respond({ surfaces: V2_SURFACES }, (out) => {
        if (out.error?.code === 'forbidden' && out.error.message === notAllowed) out.fail(new ApiError('unauthorized', 'this key may not use the workflow API'));
      });
    },
  },
  {
    name: 'read-failure-untyped',
    breaks: 'V2.ERR.UPSTREAM_GENERIC',
    statements: ['W:225:9ad257bfa3ab'],
    description: 'a backing-service failure while reading (job read, job list, asset read) answers 500 internal_error: only submit and upload map it to upstream_error',
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
    description: 'a backing-service failure during an upload answers 500 with code internal_error instead of upstream_error',
    install(s) {
      s.respond({ routes: ['POST /api/v2/assets'] }, (out) => {
        const inner = errorObject(out);
        if (inner !== undefined && out.error?.code === 'upstream_error') inner.code = 'internal_error';
      });
    },
  },
] as const satisfies ReadonlyArray<FaultUnit>;
