// v1 job status polling (seed W § v1 job status, § v1 cloud operations): many clients
// poll GET /api/job/{prompt_id}/status of running prompts at a fixed arrival rate,
// honouring Retry-After whenever one is sent, until a terminal status appears. The v1
// rules do not promise a Retry-After, so the run reports how often clients were told
// to wait without failing on its absence. A target without the v1 routes is skipped.
import { send, type HttpResponse } from '../../lib/http.ts';
import { slowWorkflow, v1Classes } from '../../lib/v1/workflows.ts';
import { pollUntil } from '../../lib/time.ts';
import { SuiteError } from '../../lib/violations.ts';
import type { CheckResult, Profile } from '../types.ts';
import { loadCheck } from '../checks.ts';
import { basePath, missing, scenarioNumber, scenarioString } from './common.ts';
import { PollPool, RetryAfterLedger, retryAfterSeconds, statusOf } from './poll-pool.ts';

/** Terminal v1 statuses in either vocabulary; any other value is in flight. */
const TERMINAL = new Set(['success', 'error', 'non_retryable_error', 'lost', 'cancelled', 'completed', 'failed']);
const POOL = 12;
const SLEEP_S = 2;

export const v1JobStatus: Profile = {
  name: 'v1-job-status',
  title: 'v1 job status polling honouring Retry-After',
  description:
    `GET /api/job/{prompt_id}/status of up to ${POOL} running prompts (no more than the ` +
    `account's declared concurrency_limit; a ${SLEEP_S} s node each, replaced as they finish) ` +
    `at a fixed arrival rate.`,
  surfaces: ['cloud'],
  family: 'v1',
  rate: 50,
  connections: 10,
  durationS: 20,
  warmupS: 3,
  minDurationS: 2,
  rules: ['LOAD.CONTRACT.UNDER_LOAD'],
  quick: { rate: 30, durationS: 3, warmupS: 1 },
  // p99<250 is the team's latency budget, not the seeds' (they state no latency): a miss reads
  // "over your threshold" in the report, apart from the LOAD.* rule checks.
  thresholds: ['p99<250', 'errors<0.1%', 'contract_violations==0', 'jobs_completed>0'],
  async prepare({ target, api, log }) {
    const absent = missing(target, {
      slow_node_class: 'a node class that takes `seconds` (prompts that run while polled)',
    });
    if (absent) return absent;
    const prefix = basePath(target);
    const key = target.token;
    if (!key) return { skip: 'not exercised: the target has no credential for the v1 X-API-Key header' };
    const headers = { accept: 'application/json', 'x-api-key': key };
    const call = (method: string, path: string, json?: unknown): Promise<HttpResponse> =>
      send({
        method,
        url: new URL(`${prefix}${path}`, target.baseUrl).toString(),
        headers,
        ...(json !== undefined ? { json } : {}),
        timeoutMs: 15_000,
        maxBodyBytes: 1 << 20,
      });
    // Each prompt is new work (its own image colour), so no engine finishes one from another's
    // cached result, and every class is the target's (scenario inputs).
    const slow = scenarioString(target, 'slow_node_class')!;
    const classes = v1Classes(target.scenario);
    let made = 0;
    const workflow = () => slowWorkflow(classes, slow, SLEEP_S, `conformance-load-v1-${made++}`);
    // The account runs only its tier's number of prompts at once (concurrency_limit, when the
    // target declares it): more would only wait in its queue, behind whatever else it runs.
    const limit = scenarioNumber(target, 'concurrency_limit');
    const size = limit !== undefined && limit > 0 ? Math.min(POOL, limit) : POOL;

    // Probe the routes first, so a target without v1 is skipped with a clear reason.
    const first = await call('POST', '/api/prompt', { prompt: workflow() });
    if (first.status === 404 || first.status === 405)
      return { skip: `not exercised: the target does not serve v1 POST /api/prompt (answered ${first.status})` };
    const idOf = (res: HttpResponse): string => {
      let body: { prompt_id?: unknown; error?: unknown } = {};
      try {
        body = JSON.parse(res.body.toString('utf8')) as typeof body;
      } catch {
        /* judged below */
      }
      if (res.status !== 200 || body.error !== undefined || typeof body.prompt_id !== 'string') {
        throw new SuiteError(
          `v1 POST /api/prompt answered ${res.status} ${res.body.subarray(0, 200).toString('utf8')}; expected 200 with a prompt_id and no error`,
        );
      }
      return body.prompt_id;
    };
    const firstId = idOf(first);
    const probe = await call('GET', `/api/job/${encodeURIComponent(firstId)}/status`);
    if (probe.status === 404 || probe.status === 405)
      return {
        skip: `not exercised: the target lacks v1 GET /api/job/{prompt_id}/status (answered ${probe.status} for a prompt it just accepted)`,
      };

    let handedFirst = false;
    const submit = async (): Promise<string> => {
      const id = handedFirst
        ? idOf(await call('POST', '/api/prompt', { prompt: workflow() }))
        : ((handedFirst = true), firstId);
      return `${prefix}/api/job/${encodeURIComponent(id)}/status`;
    };
    const pool = new PollPool(submit, size);
    log(
      `v1-job-status: submitting ${size} prompts${limit !== undefined ? ` (the account's declared concurrency_limit is ${limit})` : ''}`,
    );
    await pool.fill();
    // Jobs another profile left on the account (queued slow work) hold its slots first: the
    // measured phase starts once the first prompt of this profile has finished, so its prompts
    // really run while polled, within the job deadline.
    const firstEnd = await pollUntil(
      async () => {
        const res = await call('GET', `/api/job/${encodeURIComponent(firstId)}/status`);
        const status = res.status >= 200 && res.status < 300 ? statusOf(res.body.toString('utf8')) : undefined;
        return typeof status === 'string' && TERMINAL.has(status) ? status : undefined;
      },
      { deadlineMs: api.bounds.jobDeadlineMs, intervalMs: 250 },
    );
    if (firstEnd === undefined)
      throw new SuiteError(
        `v1-job-status: the first prompt (${firstId}) did not finish within ` +
          `${api.bounds.jobDeadlineMs / 1000} s before the measured phase: the account's slots stayed taken by ` +
          `earlier work (concurrency_limit ${limit ?? 'not declared'})`,
      );
    const ledger = new RetryAfterLedger();
    const statuses = new Map<string, number>();
    let badBodies = 0;
    const badExamples: string[] = [];
    return {
      method: 'GET',
      headers,
      next: (now) => ({ path: pool.next(now) }),
      // Any success is a normal answer (v1 statuses are not shown, W:234; another status than the documented one is a
      // SHOULD departure of the contract sample, not an error of the load).
      expected: (status) => status >= 200 && status < 300,
      observe(o) {
        if (o.status < 200 || o.status >= 300) return;
        const status = statusOf(o.body);
        if (typeof status !== 'string') {
          badBodies += 1;
          if (badExamples.length < 3) badExamples.push(o.body.slice(0, 160));
          return;
        }
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
        const terminal = TERMINAL.has(status);
        ledger.record(o, !terminal);
        if (terminal) pool.finish(o.path);
        const ra = retryAfterSeconds(o.headers);
        if (ra !== undefined && Number.isFinite(ra)) pool.wait(o.path, ra, o.at);
      },
      during: (signal) => pool.replenish(signal),
      async finish() {
        const checks: CheckResult[] = [
          loadCheck(
            'LOAD.CONTRACT.UNDER_LOAD',
            badBodies === 0,
            'every v1 status answer under load is JSON with a string status',
            'JSON bodies with a string status',
            badBodies === 0
              ? 'all status answers carried a string status'
              : `${badBodies} answers without a string status: ${badExamples.join(' | ')}`,
          ),
        ];
        return {
          metrics: { jobs_completed: pool.finished, told_to_wait: ledger.metrics().told_to_wait },
          checks,
          figures: { v1_statuses_seen: Object.fromEntries(statuses), ...ledger.figures() },
          notes: [
            `${ledger.told} of ${ledger.polls} measured polls carried Retry-After (v1 does not promise one; sent hints were honoured)`,
            ...(pool.submitFailures
              ? [`${pool.submitFailures} replacement submits failed: ${pool.lastSubmitError}`]
              : []),
          ],
        };
      },
    };
  },
};
