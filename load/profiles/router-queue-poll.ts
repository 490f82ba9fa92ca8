// Router queued-status polling (seed R § States and transitions, R:112:99d3346bc6dd: status
// and collect of a request still running say in Retry-After how many seconds to wait;
// § GET .../status). Many clients poll requests that really run, each honouring the
// Retry-After it was given; the run reports how often clients were told to wait and
// whether the hint was consistent.
import { checkStatus } from '../../lib/check.ts';
import { submitPastCap } from '../../lib/router/queue.ts';
import type { Profile } from '../types.ts';
import { bearer, missing, poolFor, scenarioObject, scenarioString, splitModel } from './common.ts';
import { PollPool, RetryAfterLedger, pathOnOrigin, retryAfterSeconds, statusOf } from './poll-pool.ts';

export const routerQueuePoll: Profile = {
  name: 'router-queue-poll',
  title: 'Router queued-status polling honouring Retry-After',
  description:
    'GET status_url of queued requests of a slow model at a fixed arrival rate; each request is polled again only after its Retry-After.',
  surfaces: ['router'],
  family: 'router',
  rate: 50,
  connections: 10,
  durationS: 20,
  warmupS: 3,
  minDurationS: 2,
  rules: ['LOAD.CONTRACT.UNDER_LOAD', 'LOAD.POLL.RETRY_AFTER'],
  // Above the 20 polls/s at which the reference's under-load faults switch on.
  quick: { rate: 30, durationS: 3, warmupS: 1 },
  // p99<250 is the team's latency budget, not the seeds' (they state no latency): a miss reads
  // "over your threshold" in the report, apart from the LOAD.* rule checks.
  thresholds: ['p99<250', 'errors<0.1%', 'contract_violations==0', 'retry_after_missing==0', 'early_polls<1%'],
  async prepare({ target, api, settings, log }) {
    const absent = missing(target, { slow_model: 'a model slow enough to poll', image_body: 'a valid body for it' });
    if (absent) return absent;
    const { provider, model } = splitModel(scenarioString(target, 'slow_model')!);
    const body = scenarioObject(target, 'image_body')!;
    const submit = async (): Promise<string> => {
      // A caller held at its spend or in-flight cap is told to wait (429), not refused (R:291).
      const res = await submitPastCap(
        () => api.call('submitModelRequest', { path: { provider, model }, json: body }),
        api.bounds,
        'a preparation submit',
      );
      checkStatus('ROUTER.QUEUE.HANDLE', res, [201]);
      return pathOnOrigin(res.json<{ status_url: string }>().status_url, target.baseUrl);
    };
    // Each request is unfinished for a few seconds and asks for about a second between polls.
    const pool = new PollPool(submit, poolFor(settings.rate, 1));
    log(`router-queue-poll: submitting ${pool.size} queued requests to ${provider}/${model}`);
    await pool.fill();
    const ledger = new RetryAfterLedger();
    let measuredPolls = 0;
    let earlyAtStart = 0;
    return {
      method: 'GET',
      headers: { accept: 'application/json', ...bearer(target.token) },
      next: (now) => ({ path: pool.next(now) }),
      expected: (status) => status === 200,
      observe(o) {
        if (o.measured && measuredPolls++ === 0) earlyAtStart = pool.early;
        const status = statusOf(o.body);
        // A body without a status is the contract's failure, not a poll of unfinished work.
        const unfinished = o.status === 200 && typeof status === 'string' && status !== 'COMPLETED';
        ledger.record(o, unfinished);
        if (o.status === 200 && status === 'COMPLETED') pool.finish(o.path);
        const ra = retryAfterSeconds(o.headers);
        if (ra !== undefined && Number.isFinite(ra)) pool.wait(o.path, ra, o.at);
      },
      during: (signal) => pool.replenish(signal),
      async finish() {
        const early = pool.early - earlyAtStart;
        return {
          metrics: {
            ...ledger.metrics(),
            early_polls: measuredPolls ? Math.round((10000 * early) / measuredPolls) / 100 : 0,
            requests_submitted: pool.submitted,
            requests_completed: pool.finished,
          },
          checks: [ledger.check('LOAD.POLL.RETRY_AFTER')],
          figures: { ...ledger.figures(), pool_size: pool.size, submit_failures: pool.submitFailures },
          notes: [
            `${ledger.told} of ${ledger.polls} measured polls were told to wait (Retry-After); ${early} polls went out before their hint elapsed`,
            ...(pool.submitFailures
              ? [`${pool.submitFailures} replacement submits failed: ${pool.lastSubmitError}`]
              : []),
          ],
        };
      },
    };
  },
};
