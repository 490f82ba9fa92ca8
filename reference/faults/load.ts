// Faults only a load profile can see: each shows up when many clients call at once
// (or over a run long enough to measure a rate), so the conformance suite, which
// sends one request at a time, skips them; each names the profile that catches it
// (`caughtBy: { load }`), and `npm run load` and test/load/faults.test.ts prove it
// fails. These act on the router; the v2 ones are in reference/faults/load/v2.ts.
import type { FaultUnit } from './unit.ts';
import { routerAllowance } from '../router/principals.ts';
import { H } from '../router/constants.ts';
import { STATUS, dropSpendHeaders, isObj, onRouter, retypeError, routerError } from './router/shared.ts';
import { ArrivalMeter } from './arrival-meter.ts';
import { V2_LOAD_FAULTS } from './load/v2.ts';

export { ArrivalMeter, UNDER_LOAD_PER_SECOND } from './arrival-meter.ts';

export const LOAD_FAULTS = [
  {
    name: 'load-poll-no-retry-after',
    breaks: 'LOAD.POLL.RETRY_AFTER',
    statements: ['R:112:99d3346bc6dd', 'R:205:60e287b9f0a0'],
    description:
      'queue status polls of unfinished requests lose Retry-After while more than 20 polls arrived in the last second',
    caughtBy: { load: 'router-queue-poll' },
    install(s) {
      const meter = new ArrivalMeter();
      onRouter(s, [STATUS], (out) => {
        if (out.status === 200 && meter.hit()) out.setHeader('retry-after', undefined);
      });
    },
  },
  {
    name: 'load-poll-invalid-body',
    breaks: 'LOAD.CONTRACT.UNDER_LOAD',
    description: 'queue status answers drop their status field while more than 20 polls arrived in the last second',
    caughtBy: { load: 'router-queue-poll' },
    install(s) {
      const meter = new ArrivalMeter();
      onRouter(s, [STATUS], (out) => {
        if (out.status === 200 && meter.hit() && isObj(out.body)) delete out.body.status;
      });
    },
  },
  {
    name: 'load-limiter-double',
    breaks: 'LOAD.RATE_LIMIT.ALLOWANCE',
    description: "the router's request limiter lets twice each caller's allowance through per window",
    caughtBy: { load: 'router-rate-limit' },
    install(s) {
      s.policy.router.callerAllowance = (caller) => {
        const allowance = routerAllowance(caller);
        return { ...allowance, requests: allowance.requests * 2 };
      };
    },
  },
  {
    name: 'load-429-no-detail',
    breaks: 'LOAD.RATE_LIMIT.ENVELOPE',
    description: "the router's 429 rate_limited bodies lack detail (only error_type)",
    caughtBy: { load: 'router-rate-limit' },
    install(s) {
      onRouter(s, undefined, (out) => {
        const err = routerError(out);
        if (out.status === 429 && err?.error_type === 'rate_limited') delete err.detail;
      });
    },
  },
  {
    name: 'load-429-burst-bucket',
    breaks: 'LOAD.RATE_LIMIT.ENVELOPE',
    statements: ['R:269:7d2845441036', 'R:166:dcc51415a25e'],
    description:
      "a caller refused again within a second of a 429 rate_limited is refused by the router's burst " +
      'guard: 429 under a bucket of its own, too_many_requests, instead of rate_limited',
    caughtBy: { load: 'router-rate-limit' },
    install(s) {
      // The first refusal of a burst is the limiter's own; the ones after it come from the guard.
      const lastRefused = new Map<string, number>();
      onRouter(s, undefined, (out) => {
        const err = routerError(out);
        if (out.status !== 429 || err?.error_type !== 'rate_limited') return;
        const who = String(out.request.headers['x-api-key'] ?? out.request.headers.authorization ?? '');
        const now = Date.now();
        const last = lastRefused.get(who);
        lastRefused.set(who, now);
        if (last === undefined || now - last > 1000) return;
        retypeError(out, 'too_many_requests');
      });
    },
  },
  {
    name: 'load-limit-spills-over',
    breaks: 'LOAD.RATE_LIMIT.ACCOUNT_SCOPED',
    statements: ['R:291:0042f822c462'],
    description: 'for a second after the router refuses one caller 429, every other caller is refused too',
    caughtBy: { load: 'router-rate-limit' },
    install(s) {
      // The caller the limiter last refused, and when.
      let last = { caller: '', at: -Infinity };
      s.policy.router.rateDecision = (caller, decision) => {
        if (!decision.allowed) last = { caller, at: Date.now() };
        else if (caller !== last.caller && Date.now() - last.at < 1000) return { allowed: false, retryAfterSeconds: 1 };
        return decision;
      };
    },
  },
  {
    name: 'load-retry-after-short',
    breaks: 'LOAD.RATE_LIMIT.RETRY_SUCCEEDS',
    statements: ['R:166:dcc51415a25e'],
    description: "the router's 429 Retry-After is one second shorter than the time left in the window (down to 0)",
    caughtBy: { load: 'router-rate-limit' },
    install(s) {
      // The wait is understated (down to 0), so a client that obeys it comes back too early.
      onRouter(s, undefined, (out) => {
        const err = routerError(out);
        const given = out.header('retry-after');
        if (out.status !== 429 || err?.error_type !== 'rate_limited' || given === undefined) return;
        const shorter = Math.max(0, Number(given) - 1);
        out.setHeader('Retry-After', String(shorter));
        err.detail = `request allowance used up; retry in ${shorter} s`;
      });
    },
  },
  {
    name: 'load-concurrency-off-by-one',
    breaks: 'LOAD.CONCURRENCY.LIMIT',
    statements: ['R:291:0042f822c462'],
    description: 'the router admits one synchronous call more than the in-flight limit',
    caughtBy: { load: 'router-concurrency' },
    install(s) {
      s.policy.router.inFlightLimit = (limit) => limit + 1;
    },
  },
  {
    name: 'load-concurrency-no-spend',
    breaks: 'LOAD.CONCURRENCY.SPEND_HEADERS',
    statements: ['R:166:9454d41e0a87', 'R:291:0042f822c462'],
    description: '429 concurrency_limit_exceeded answers lack the committed-spend headers',
    caughtBy: { load: 'router-concurrency' },
    install(s) {
      onRouter(s, undefined, (out) => {
        if (out.status === 429 && routerError(out)?.error_type === 'concurrency_limit_exceeded') dropSpendHeaders(out);
      });
    },
  },
  {
    name: 'load-poll-no-request-id',
    breaks: 'LOAD.CONTRACT.UNDER_LOAD',
    statements: ['R:116:7c1f0886b612'],
    description:
      'queue status polls answered from the edge cache lose X-Comfy-Request-Id while more than 20 polls arrived in the last second',
    caughtBy: { load: 'router-queue-poll' },
    install(s) {
      const meter = new ArrivalMeter();
      onRouter(s, [STATUS], (out) => {
        if (out.status === 200 && meter.hit()) out.setHeader(H.requestId, undefined);
      });
    },
  },
  {
    name: 'load-spend-headers-dollars',
    breaks: 'LOAD.CONCURRENCY.SPEND_HEADERS',
    statements: ['R:222:2af63df563cf', 'R:223:90870014739f', 'R:224:0786d6198ee4'],
    description:
      "429 concurrency_limit_exceeded answers write the committed-spend headers in dollars with two decimals (the billing service's unit), not integer cents",
    caughtBy: { load: 'router-concurrency' },
    install(s) {
      onRouter(s, undefined, (out) => {
        if (out.status !== 429 || routerError(out)?.error_type !== 'concurrency_limit_exceeded') return;
        for (const h of ['X-Committed-Spend-Limit', 'X-Committed-Spend-Current', 'X-Committed-Spend-Remaining']) {
          const cents = out.header(h);
          if (cents !== undefined && /^\d+$/.test(cents)) out.setHeader(h, (Number(cents) / 100).toFixed(2));
        }
      });
    },
  },
  {
    name: 'load-v1-status-no-status',
    breaks: 'LOAD.CONTRACT.UNDER_LOAD',
    statements: ['W:135:02ac9ea4d6c7'],
    description:
      'v1 job status reads are answered from a summary cache as {} (no status) while more than 20 reads arrived in the last second',
    caughtBy: { load: 'v1-job-status' },
    install(s) {
      const meter = new ArrivalMeter();
      s.respond({ surfaces: ['cloud'], routes: ['GET /api/job/:id/status'] }, (out) => {
        if (out.status === 200 && meter.hit() && isObj(out.body)) delete out.body.status;
      });
    },
  },
  ...V2_LOAD_FAULTS,
] as const satisfies ReadonlyArray<FaultUnit>;
