// v2 job polling by the job's embedded `self` URL (seed W § What the service does:
// clients follow the URLs a response embeds), at a fixed arrival rate while the jobs
// really run in the engine: finished jobs are replaced by new submits during the load.
// A job that embeds no urls.self (a public-docs name) is polled at the job read path. A
// job is finished at one of the target's terminal states (scenario input
// job_terminal_states, default the public documents' names; lib/v2/states.ts).
import { ensure } from '../../lib/check.ts';
import { classesFor, emptyImageWorkflow, slowWorkflow } from '../../lib/data/workflows.ts';
import { accepted, followable, jobUrl } from '../../lib/v2/jobs.ts';
import { jobStates } from '../../lib/v2/states.ts';
import type { Profile } from '../types.ts';
import { basePath, bearer, scenarioString } from './common.ts';
import { PollPool, pathOnOrigin, retryAfterSeconds, statusOf } from './poll-pool.ts';

const POOL = 12;
const SLEEP_S = 2;

export const v2JobPoll: Profile = {
  name: 'v2-job-poll',
  title: 'v2 job polling by the embedded self URL',
  description: `GET urls.self of ${POOL} running jobs (a ${SLEEP_S} s node each, replaced as they finish) at a fixed arrival rate.`,
  // Every surface that serves the v2 API; a self-hosted proxy (local) is where most teams start.
  surfaces: ['cloud', 'local', 'serverless'],
  family: 'v2',
  rate: 100,
  connections: 10,
  durationS: 20,
  warmupS: 3,
  minDurationS: 2,
  rules: ['LOAD.CONTRACT.UNDER_LOAD'],
  quick: { rate: 30, durationS: 3, warmupS: 1 },
  // p99<250 is the team's latency budget, not the seeds' (they state no latency): a miss reads
  // "over your threshold" in the report, apart from the LOAD.* rule checks.
  thresholds: ['p99<250', 'errors<0.1%', 'contract_violations==0', 'jobs_completed>0'],
  async prepare({ api, target, log }) {
    // Without a slow node class (a stock engine has none) the jobs are quick core-class ones
    // that finish at once: the load then reads finished jobs, and the report says so.
    const slow = scenarioString(target, 'slow_node_class');
    const workflow = slow
      ? slowWorkflow(slow, SLEEP_S)
      : emptyImageWorkflow(8, 8, 'conformance', classesFor(target.scenario));
    const terminal = jobStates(target.scenario).terminal;
    const submit = async (): Promise<string> => {
      const res = await api.call('postJobs', { json: { workflow } });
      ensure('V2.JOB.SUBMIT', accepted(res), {
        what: 'POST /api/v2/jobs of the polled workflow',
        expected: 'a success (2xx)',
        received: `${res.status}${res.errorCode ? ` ${res.errorCode}` : ''}`,
        on: res,
      });
      const job = followable(res);
      return pathOnOrigin(
        jobUrl(job, 'self') ?? `${basePath(target)}/api/v2/jobs/${encodeURIComponent(job.id)}`,
        target.baseUrl,
      );
    };
    const pool = new PollPool(submit, POOL);
    log(`v2-job-poll: submitting ${POOL} jobs`);
    await pool.fill();
    const seen = new Map<string, number>();
    return {
      method: 'GET',
      headers: { accept: 'application/json', ...bearer(target.token) },
      next: (now) => ({ path: pool.next(now) }),
      // Any success is a normal answer (the job read's status is the public documents'; another status than the documented one is a
      // SHOULD departure of the contract sample, not an error of the load).
      expected: (status) => status >= 200 && status < 300,
      observe(o) {
        if (o.status < 200 || o.status >= 300) return;
        const status = statusOf(o.body);
        if (typeof status === 'string') seen.set(status, (seen.get(status) ?? 0) + 1);
        if (typeof status === 'string' && terminal.has(status)) {
          pool.finish(o.path);
        }
        // v2 reads carry no poll hint in the seed; one that is sent is honoured all the same.
        const ra = retryAfterSeconds(o.headers);
        if (ra !== undefined && Number.isFinite(ra)) pool.wait(o.path, ra, o.at);
      },
      // Quick jobs are not replaced: resubmitting each as it finishes would load the engine, not the reads.
      ...(slow ? { during: (signal: AbortSignal) => pool.replenish(signal) } : {}),
      async finish() {
        return {
          metrics: { jobs_completed: pool.finished, jobs_submitted: pool.submitted },
          figures: {
            job_statuses_seen: Object.fromEntries(seen),
            pool_size: POOL,
            submit_failures: pool.submitFailures,
          },
          notes: [
            `${pool.submitted} jobs submitted, ${pool.finished} seen finishing while polled`,
            ...(slow
              ? []
              : [
                  `the target gave no slow_node_class (scenario input), so the ${POOL} jobs were quick ones ` +
                    `(empty image, saved) and most polls read a finished job; give it a node class that takes ` +
                    `\`seconds\` to poll jobs while they run`,
                ]),
            ...(pool.submitFailures
              ? [`${pool.submitFailures} replacement submits failed: ${pool.lastSubmitError}`]
              : []),
          ],
        };
      },
    };
  },
};
