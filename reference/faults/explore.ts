// Faults only the contract-driven explorer (lib/explore/, specs/*/explore.spec.ts) finds:
// each breaks its rule on a request no hand-written check sends (a member of another type
// where no check puts one, an oversized query value, a value outside an enum on an operation
// whose hand-written checks never send one). The self-test runs the explorer tests for
// them because those tests declare the rule (test/support/spec-map.ts).
import type { FaultUnit } from './unit.ts';
import { H } from '../router/constants.ts';
import { ESTIMATE, isObj, onRouter, routerError } from './router/shared.ts';
import { GENERIC_500 } from './v2/shared.ts';

export const EXPLORE_FAULTS = [
  {
    // W:217:ae18d5395772 answers a badly formed from-hash field 422 invalid_request. A
    // server that computes the retention deadline from `expires_in` without checking its type
    // crashes on a string there, and its framework answers its own 500. The hand-written
    // INVALID_UPLOAD checks send a from-hash body without a hash and one with a bad hash, and
    // every other from-hash check sends an integer expires_in: only the explorer's
    // "body.expires_in type" mistake reaches it.
    name: 'from-hash-expires-type-500',
    breaks: 'V2.ASSET.INVALID_UPLOAD',
    statements: ['W:217:ae18d5395772'],
    description:
      'an asset-from-hash body whose expires_in is not an integer answers 500 internal_error (caught by the explorer only)',
    install(s) {
      s.request(
        { routes: ['POST /api/v2/assets/from-hash'] },
        async ({ request, reply }) => {
          const body = request.body;
          if (!isObj(body) || !('expires_in' in body) || Number.isInteger(body.expires_in)) return;
          await reply
            .code(500)
            .type('application/json; charset=utf-8')
            .send({ error: { code: 'internal_error', message: GENERIC_500 } });
        },
        'preHandler',
      );
    },
  },
  {
    // W § Endpoints: every answer of a v2 operation is one the contract declares, its body of a
    // declared media type (V2.CONTRACT.BODY). A server whose cursor decoder refuses an
    // over-long cursor on its own path answers the right status and envelope under
    // application/problem+json, a media type the list's 400 does not declare. Hand-written
    // cursor checks change one character of a served cursor or send another account's: only
    // the explorer's oversized cursor (thousands of characters) reaches it.
    name: 'list-cursor-oversized-problem-json',
    breaks: 'V2.CONTRACT.BODY',
    description:
      'the job list refuses a cursor longer than 1024 characters with 400 invalid_cursor under ' +
      'Content-Type application/problem+json (caught by the explorer only)',
    install(s) {
      s.respond({ routes: ['GET /api/v2/jobs'] }, (out) => {
        const cursor = (out.request.query as Record<string, unknown> | undefined)?.cursor;
        if (out.error?.code === 'invalid_cursor' && typeof cursor === 'string' && cursor.length > 1024)
          out.setHeader('content-type', 'application/problem+json');
      });
    },
  },
  {
    // R § Endpoints › estimate (R:177:1232d32690e0): the estimate's statuses leave out 500, which the router
    // contract declares for the schema document alone (ROUTER.CONTRACT.STATUS_DECLARED). A
    // server that looks the rate up by an enum member before validating crashes on a value
    // outside the enum. The hand-written estimate checks send valid bodies and one member of
    // another type; the body properties send broken bodies to the synchronous run only: only
    // the explorer's "outside the enum" mistake on the estimate reaches it.
    name: 'estimate-enum-500',
    breaks: 'ROUTER.CONTRACT.STATUS_DECLARED',
    statements: ['R:177:1232d32690e0'],
    description:
      'an estimate whose body holds a value outside an enum of the model schema answers 500 internal_error instead of the 422 (caught by the explorer only)',
    install(s) {
      onRouter(s, [ESTIMATE], (out) => {
        const entries = out.status === 422 && isObj(out.body) && Array.isArray(out.body.detail) ? out.body.detail : [];
        if (!entries.some((e) => isObj(e) && e.type === 'enum') || routerError(out)) return;
        out.status = 500;
        out.body = { detail: 'internal error while pricing the request', error_type: 'internal_error' };
        out.setHeader(H.errorType, 'internal_error');
      });
    },
  },
] as const satisfies ReadonlyArray<FaultUnit>;
