// Router faults of fallback_provider (seed R § Endpoints, fallback_provider rules 1 and 3),
// each the way a router's retry path is commonly got wrong. The older fallback faults sit
// with the synchronous runs (runs.ts).
import { createHash } from 'node:crypto';
import type { FaultUnit } from '../unit.ts';
import { canonical } from '../../router/partners.ts';
import { H } from '../../router/constants.ts';
import { RUN, answerError, isObj, onRouter } from './shared.ts';

export const FALLBACK_FAULTS = [
  {
    name: 'router-fallback-under-strict',
    breaks: 'ROUTER.FALLBACK.SKIPPED',
    statements: ['R:145:efded79376a2', 'R:157:d6b775bc7aa9'],
    description:
      'a strict_mode=true run whose named provider fails is retried on another leg, which serves it with the fallback header',
    install(s) {
      s.policy.router.fallbackSkipsStrict = false;
    },
  },
  {
    name: 'router-fallback-by-body',
    breaks: 'ROUTER.FALLBACK.ATTEMPTS',
    statements: ['R:155:9ff9444f1710'],
    description:
      'fallback picks the alternate by a hash of the request body (md5, as request-affinity sharding ' +
      'often does): sticky per request, spread over the eligible alternates, not the first of a fixed ' +
      'order',
    install(s) {
      s.policy.router.fallbackTries = (eligible, body) => {
        if (eligible.length === 0) return [];
        const h = createHash('md5').update(canonical(body)).digest();
        return [eligible[h[0] % eligible.length]];
      };
    },
  },
  {
    name: 'router-fallback-random',
    breaks: 'ROUTER.FALLBACK.ATTEMPTS',
    statements: ['R:155:9ff9444f1710'],
    description:
      'fallback picks one of the first two eligible alternates at random on each request (load spreading), not the first of a fixed order',
    install(s) {
      s.policy.router.fallbackTries = (eligible) => {
        if (eligible.length === 0) return [];
        return [eligible[Math.floor(Math.random() * Math.min(2, eligible.length))]];
      };
    },
  },
  {
    name: 'router-fallback-on-byok',
    breaks: 'ROUTER.FALLBACK.SKIPPED',
    statements: ['R:157:d6b775bc7aa9'],
    description:
      "a request that resolved the caller's own provider key falls back to an alternate like any other " +
      '(the skip list checks strict mode and edits, not the credential)',
    install(s) {
      s.policy.router.fallbackSkipsOwnKey = false;
    },
  },
  {
    name: 'router-fallback-skip-refused',
    breaks: 'ROUTER.FALLBACK.SKIPPED',
    statements: ['R:157:d6b775bc7aa9'],
    description:
      'where fallback does not apply (an edit), a failed first attempt is answered 409 invalid_input ' +
      'saying fallback is unavailable for the request, instead of the first failure unchanged',
    install(s) {
      onRouter(s, [RUN], (out) => {
        const body = out.request.body;
        if (!(out.status >= 500 || out.status === 402) || !isObj(body) || typeof body.image !== 'string') return;
        for (const h of [H.upstreamStatus, 'Retry-After']) out.setHeader(h, undefined);
        answerError(
          out,
          409,
          'invalid_input',
          'fallback_provider cannot serve an edit request; send without the image or retry later',
        );
      });
    },
  },
] as const satisfies ReadonlyArray<FaultUnit>;
