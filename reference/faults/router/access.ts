// Router faults of credits, body size and authentication (seed R § Authentication, § Errors).
import type { FaultUnit } from '../../faults.ts';
import { ROUTER_KEYS } from '../../accounts.ts';
import { resolvePrincipal } from '../../router/principals.ts';
import { MAX_BODY_BYTES } from '../../router/state.ts';

export const ACCESS_FAULTS = [
  {
    name: 'router-unfunded-runs',
    rule: 'ROUTER.ERR.INSUFFICIENT_CREDITS',
    description: 'an unfunded workspace is run',
    install(s) {
      s.policy.router.funded = () => true;
    },
  },
  {
    name: 'router-no-body-cap',
    rule: 'ROUTER.ERR.BODY_TOO_LARGE',
    description: 'the body size cap is 8 MiB instead of 1 MiB',
    install(s) {
      s.policy.router.bodyLimitBytes = 8 * MAX_BODY_BYTES;
    },
  },
  {
    name: 'router-catalog-open',
    rule: 'ROUTER.AUTH.REQUIRED',
    description: 'the catalog list answers without credentials',
    install(s) {
      // The catalog list answers an anonymous caller as the default one.
      s.policy.router.anonymousPrincipal = (request) =>
        request.method === 'GET' && request.url.split('?')[0] === '/v2/models' ? resolvePrincipal({ 'x-api-key': ROUTER_KEYS.alice }, false) : undefined;
    },
  },
  {
    name: 'router-bearer-wins',
    rule: 'ROUTER.AUTH.KEY_FORMS',
    description: 'Authorization takes precedence over X-API-Key',
    install(s) {
      s.policy.router.bearerFirst = true;
    },
  },
] as const satisfies ReadonlyArray<FaultUnit>;
