// Router faults of fallback_provider (seed R § Endpoints, fallback_provider rules 1 and 3),
// each the way a router's retry path is commonly got wrong. The older fallback faults sit
// with the synchronous runs (runs.ts).
import { createHash } from 'node:crypto';
import type { FaultUnit } from '../unit.ts';
import { canonical } from '../../router/partners.ts';

export const FALLBACK_FAULTS = [
  {
    name: 'router-fallback-under-strict',
    breaks: 'ROUTER.FALLBACK.SKIPPED',
    statements: ['R:145:efded79376a2', 'R:157:d6b775bc7aa9'],
    description: 'a strict_mode=true run whose named provider fails is retried on another leg, which serves it with the fallback header',
    install(s) {
      s.policy.router.fallbackSkipsStrict = false;
    },
  },
  {
    name: 'router-fallback-by-body',
    breaks: 'ROUTER.FALLBACK.ATTEMPTS',
    statements: ['R:155:9ff9444f1710'],
    description: 'fallback picks the alternate by a hash of the request body (md5, as request-affinity sharding often does): sticky per request, spread over the eligible alternates, not the first of a fixed order',
    install(s) {
      s.policy.router.fallbackTries = (eligible, body) => {
        if (eligible.length === 0) return [];
        const h = createHash('md5').update(canonical(body)).digest();
        return [eligible[h[0]! % eligible.length]!];
      };
    },
  },
  {
    name: 'router-fallback-random',
    breaks: 'ROUTER.FALLBACK.ATTEMPTS',
    statements: ['R:155:9ff9444f1710'],
    description: 'fallback picks one of the first two eligible alternates at random on each request (load spreading), not the first of a fixed order',
    install(s) {
      s.policy.router.fallbackTries = (eligible) => {
        if (eligible.length === 0) return [];
        return [eligible[Math.floor(Math.random() * Math.min(2, eligible.length))]!];
      };
    },
  },
] as const satisfies ReadonlyArray<FaultUnit>;
