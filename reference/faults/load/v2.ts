// Load faults of the v2 surfaces: each shows only while many requests arrive at once,
// so only the v2 load profiles (load/profiles/rate-limit.ts, v2-job-poll.ts) see them.
import type { FaultUnit } from '../unit.ts';
import { ArrivalMeter } from '../arrival-meter.ts';
import { HOSTED, errorObject, record } from '../v2/shared.ts';

/**
 * Refusals per second of one account above which the overload path takes over. The smoke
 * run drives the limited account at 12/s against 5 per 2 s (about 9 refusals a second);
 * the suite's own rate-limit probes stay below.
 */
const REFUSALS_UNDER_LOAD = 4;

export const V2_LOAD_FAULTS = [
  {
    name: 'load-v2-429-queue-full',
    breaks: 'LOAD.RATE_LIMIT.ENVELOPE',
    statements: ['W:209:87254be6d3b3', 'W:242:2face0321cd0'],
    description:
      'while one account draws more than 4 refusals a second, its v2 429s say queue_full (the overload path) instead of rate_limited; Retry-After is kept',
    caughtBy: { load: 'rate-limit' },
    install(s) {
      const refusals = new Map<string, ArrivalMeter>();
      s.respond({ surfaces: HOSTED }, (out) => {
        const err = errorObject(out);
        if (out.status !== 429 || err?.code !== 'rate_limited') return;
        const caller = out.request.headers.authorization ?? '';
        const meter = refusals.get(caller) ?? refusals.set(caller, new ArrivalMeter()).get(caller)!;
        if (!meter.hit(REFUSALS_UNDER_LOAD)) return;
        err.code = 'queue_full';
        err.message = 'too many requests are waiting; retry later';
      });
    },
  },
  {
    name: 'load-v2-poll-no-expires-at',
    breaks: 'LOAD.CONTRACT.UNDER_LOAD',
    statements: ['W:7:93fc661d1cd2'],
    description:
      'v2 job reads are answered from a summary cache without expires_at while more than 20 reads arrived in the last second',
    caughtBy: { load: 'v2-job-poll' },
    install(s) {
      const meter = new ArrivalMeter();
      s.respond({ surfaces: HOSTED, routes: ['GET /api/v2/jobs/:id'] }, (out) => {
        if (meter.hit()) delete record(out)?.expires_at;
      });
    },
  },
] as const satisfies ReadonlyArray<FaultUnit>;
