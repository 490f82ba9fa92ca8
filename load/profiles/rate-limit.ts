// Rate limit under load (seed W § Errors and § Limits 5: 429 `rate_limited` with
// integer Retry-After, account-scoped; seed R § 409 and 429 rules 3 and § Response
// headers). One account is driven well above its allowance: every 429 must be a valid
// refusal with integer Retry-After, the admitted rate must match the configured
// allowance within a stated tolerance, a client that waits Retry-After must then get
// in, and another account calling at the same time must not be limited.
import { setTimeout as delay } from 'node:timers/promises';
import { checkStatus } from '../../lib/check.ts';
import { postAsset } from '../../lib/v2/assets.ts';
import type { ApiClient } from '../../lib/api.ts';
import { RuleViolation, SuiteError } from '../../lib/violations.ts';
import { send } from '../../lib/http.ts';
import type { SurfaceTarget } from '../../lib/targets.ts';
import type { CheckResult, Observation, Profile, PrepareContext, Skip, Workload } from '../types.ts';
import { basePath, bearer, missing, scenarioNumber, scenarioString } from './common.ts';
import { retryAfterSeconds } from './poll-pool.ts';
import { pollUntil } from '../../lib/time.ts';
import { errorOf } from '../../lib/repro.ts';
import { brandHeader } from '../../lib/checks/router.ts';
import { loadCheck } from '../checks.ts';

/** How far the admitted rate may stray from the configured allowance. */
const ALLOWANCE_TOLERANCE_PCT = 10;

export interface Admission {
  sentAt: number;
  admitted: boolean;
}

export interface AllowanceEstimate {
  /** Requests admitted over the measured span. */
  admitted: number;
  /** What the allowance admits over that span under sustained excess: allowance × span / window. */
  expected: number;
  /** The slack every limiter of that allowance may show at the span's two edges: one allowance. */
  edge: number;
  /** How far the admitted count lies outside expected ± edge, in percent of expected (0 inside). */
  accuracyPct: number;
  /** Windows the span holds. */
  windows: number;
}

/**
 * The admitted count against the allowance, fair to every limiting algorithm (seed W names
 * none): fixed windows (opened by a first request or aligned to the clock) admit their burst
 * at each window's start, a sliding log or counter as the oldest admissions age out, a token
 * bucket evenly as it refills. Under sustained excess each admits the allowance per window on
 * average; where the span's edges cut a window, or a bucket starts full, up to one allowance
 * more or fewer falls inside the span, depending only on when the run started. So the count
 * is judged against allowance × span / window with one allowance of slack, and only what lies
 * beyond that is the limiter's error (a reading of burst sizes or a mean rate would pass or
 * fail a correct fixed-window limiter by the phase of its windows).
 */
export function estimateAllowance(
  admissions: readonly Admission[],
  allowance: number,
  windowS: number,
  spanS: number,
): AllowanceEstimate {
  const admitted = admissions.filter((a) => a.admitted).length;
  const windows = Math.max(spanS, 0.001) / windowS;
  const expected = allowance * windows;
  const outside = Math.max(0, Math.abs(admitted - expected) - allowance);
  return {
    admitted,
    expected: round2(expected),
    edge: allowance,
    accuracyPct: round2((100 * outside) / expected),
    windows: round2(windows),
  };
}

function round2(n: number): number {
  return Math.round(n * 100) / 100;
}

/**
 * A 429 of the driven account, judged with the suite's own judgement of an answer (the
 * contract: the rate-limited response's integer Retry-After, the v2 envelope or router
 * error body and spend headers, the always-on checks), plus what the LOAD rules add:
 * the refusal is `rate_limited` (a v2 code or a router bucket), not some other 429.
 */
export function judge429(
  client: ApiClient,
  family: 'v2' | 'router',
  path: string,
  o: Pick<Observation, 'status' | 'headers' | 'body'>,
): string | undefined {
  const response = {
    status: o.status,
    headers: o.headers,
    body: Buffer.from(o.body, 'utf8'),
    truncated: false,
    elapsedMs: 0,
  };
  const findings = client.judgeRaw('GET', path, response);
  if (findings === undefined) return `${path} matches no operation of the contract`;
  if (findings.length > 0)
    return findings.map((f) => `${f.rule}: ${f.summary} (expected ${f.expected}, received ${f.received})`).join('; ');
  // Seed W gives every v2 429 a Retry-After; seed R lists none on a router 429 (R § Response
  // headers names capacity 503s, queue reads, 409 and 504), so there the contract judges
  // one only where it is sent.
  if (family === 'v2' && o.headers['retry-after'] === undefined) return 'no Retry-After on the 429';
  const { code } = errorOf(response.body, o.headers['content-type']);
  // The router's bucket set is open, but R:166:dcc51415a25e and R:269:7d2845441036 name the two
  // a 429 carries: rate_limited (the allowance) and concurrency_limit_exceeded (calls in flight,
  // which a driven account may meet too). Any other name is no refusal a client knows to wait out.
  if (family === 'router') {
    const bucket = code ?? o.headers[brandHeader({ brand: client.target.brand }, 'error-type').toLowerCase()];
    return bucket === 'rate_limited' || bucket === 'concurrency_limit_exceeded'
      ? undefined
      : `a 429 under the bucket ${bucket ?? '(none)'}, not rate_limited (or concurrency_limit_exceeded)`;
  }
  return code === 'rate_limited' ? undefined : `a 429 refused as ${code ?? 'no code'}, not rate_limited`;
}

interface RateLimitSpec {
  name: string;
  title: string;
  surfaces: Array<'cloud' | 'serverless' | 'router'>;
  family: 'v2' | 'router';
  otherTokenKey: string;
  /** Prepares what one account reads: a path on the target that answers 200 to it. */
  pathFor(api: ApiClient, target: SurfaceTarget): Promise<string>;
}

function rateLimitProfile(spec: RateLimitSpec): Profile {
  return {
    name: spec.name,
    title: spec.title,
    description: `Drives the rate-limited account at several times its allowance: 429s, admitted rate, waiting Retry-After, and another account alongside.`,
    surfaces: spec.surfaces,
    family: spec.family,
    rate: 20,
    connections: 4,
    durationS: 20,
    warmupS: 2,
    // Four of the reference's 2 s windows: the one allowance of slack at the edges is then a quarter of the count.
    minDurationS: 8,
    rules: [
      'LOAD.CONTRACT.UNDER_LOAD',
      'LOAD.RATE_LIMIT.ENVELOPE',
      'LOAD.RATE_LIMIT.ALLOWANCE',
      'LOAD.RATE_LIMIT.RETRY_SUCCEEDS',
      'LOAD.RATE_LIMIT.ACCOUNT_SCOPED',
    ],
    // Four 2 s windows of the reference's small allowance.
    quick: { rate: 12, durationS: 8, warmupS: 1 },
    // Each shard must drive its own limited account, or each would see a fraction of the admissions.
    perShardScenario: ['rate_limited_token'],
    thresholds: ['errors<0.1%', `rate_limit_accuracy<${ALLOWANCE_TOLERANCE_PCT}%`, 'contract_violations==0'],
    async prepare(ctx: PrepareContext): Promise<Workload | Skip> {
      const { target, api, settings } = ctx;
      const absent = missing(target, {
        rate_limited_token: 'a key with a small request-rate allowance',
        rate_limit_allowance: 'that allowance in requests per window',
        rate_limit_window_seconds: 'the window of that allowance',
        [spec.otherTokenKey]: 'a second account',
      });
      if (absent) return absent;
      const limitedToken = scenarioString(target, 'rate_limited_token')!;
      const otherToken = scenarioString(target, spec.otherTokenKey)!;
      const allowance = scenarioNumber(target, 'rate_limit_allowance')!;
      const windowS = scenarioNumber(target, 'rate_limit_window_seconds')!;
      if (settings.rate < (2 * allowance) / windowS)
        return { skip: `rate ${settings.rate}/s does not exceed twice the allowance (${allowance} per ${windowS} s)` };
      const limited = api.as({ bearer: limitedToken });
      const other = api.as({ bearer: otherToken });
      const limitedPath = await spec.pathFor(limited, target);
      const otherPath = await spec.pathFor(other, target);

      const admissions: Admission[] = [];
      const bad429: string[] = [];
      let refused = 0;
      let invalid429 = 0;
      const retryValues = new Map<number, number>();
      const otherStatuses = new Map<string, number>();
      const otherProblems: string[] = [];

      return {
        method: 'GET',
        headers: { accept: 'application/json', ...bearer(limitedToken) },
        next: () => ({ path: limitedPath }),
        expected: (status) => status === 200 || status === 429,
        judgesItself: (status) => status === 429,
        observe(o: Observation) {
          if (o.status === 429) {
            refused += 1;
            const ra = retryAfterSeconds(o.headers);
            if (ra !== undefined && Number.isFinite(ra)) retryValues.set(ra, (retryValues.get(ra) ?? 0) + 1);
            const problem = judge429(limited, spec.family, limitedPath, o);
            if (problem) {
              invalid429 += 1;
              if (bad429.length < 3) bad429.push(`${problem} (at ${(o.at / 1000).toFixed(1)} s)`);
            }
          }
          if (o.measured) admissions.push({ sentAt: o.sentAt, admitted: o.status !== 429 });
        },
        async during(signal) {
          // Another account at a modest pace the whole time: it must never be limited.
          while (!signal.aborted) {
            try {
              const res = await other.follow(new URL(otherPath, target.baseUrl).toString());
              otherStatuses.set(String(res.status), (otherStatuses.get(String(res.status)) ?? 0) + 1);
              if (res.status === 429 && otherProblems.length < 3)
                otherProblems.push(`429 ${res.errorCode ?? ''} for the other account`);
            } catch (err) {
              if (!(err instanceof RuleViolation || err instanceof SuiteError)) throw err;
              otherStatuses.set('invalid', (otherStatuses.get('invalid') ?? 0) + 1);
              if (otherProblems.length < 3) otherProblems.push(err.message.split('\n')[0]);
            }
            await delay(400, undefined, { signal }).catch(() => {});
          }
        },
        async finish() {
          const estimate = estimateAllowance(admissions, allowance, windowS, settings.durationS);
          const retry = await waitAndRetry(target, spec.family, limitedPath, limitedToken, allowance);
          const otherTotal = [...otherStatuses.values()].reduce((s, n) => s + n, 0);
          const otherLimited = otherStatuses.get('429') ?? 0;
          const checks: CheckResult[] = [
            loadCheck(
              'LOAD.RATE_LIMIT.ENVELOPE',
              refused > 0 && invalid429 === 0,
              'every 429 under load is a valid refusal (an integer Retry-After on every v2 429)',
              spec.family === 'v2'
                ? '429s, each rate_limited with an integer Retry-After'
                : '429s, each the router error body with spend headers under rate_limited or concurrency_limit_exceeded',
              refused === 0
                ? 'no 429 was answered: the allowance was never exceeded'
                : invalid429 === 0
                  ? `${refused} refusals, all valid`
                  : `${invalid429} of ${refused} refusals were not valid: ${bad429.join('; ')}`,
            ),
            loadCheck(
              'LOAD.RATE_LIMIT.ALLOWANCE',
              estimate.accuracyPct < ALLOWANCE_TOLERANCE_PCT,
              `admitted count within ${ALLOWANCE_TOLERANCE_PCT}% of what the configured allowance admits over the run, whatever the limiting algorithm`,
              `${estimate.expected} admitted over ${settings.durationS} s (${allowance} per ${windowS} ` +
                `s), give or take ${estimate.edge} at the run's edges, within ${ALLOWANCE_TOLERANCE_PCT}% ` +
                `beyond that`,
              `admitted ${estimate.admitted} over ${settings.durationS} s against ${estimate.expected} ± ${estimate.edge}: ` +
                (estimate.accuracyPct === 0 ? 'inside' : `off by ${estimate.accuracyPct}% beyond the edges`),
            ),
            loadCheck(
              'LOAD.RATE_LIMIT.RETRY_SUCCEEDS',
              retry.ok,
              'a client that waits Retry-After then gets in',
              'a 2xx once the Retry-After of a 429 has passed',
              retry.detail,
            ),
            loadCheck(
              'LOAD.RATE_LIMIT.ACCOUNT_SCOPED',
              otherTotal > 0 && otherLimited === 0 && !otherStatuses.has('invalid'),
              'another account calling at the same time is not limited',
              'no 429 (and no broken answer) for the other account',
              otherTotal === 0
                ? 'the other account made no call'
                : `other account: ${[...otherStatuses.entries()].map(([k, v]) => `${k} ×${v}`).join(', ')}` +
                    `${otherProblems.length ? `; ${otherProblems.join('; ')}` : ''}`,
            ),
          ];
          return {
            metrics: {
              rate_limit_accuracy: estimate.accuracyPct,
              refused: refused,
              admitted: admissions.filter((a) => a.admitted).length,
            },
            checks,
            figures: {
              allowance: { requests: allowance, window_s: windowS },
              estimate,
              retry_after_values: Object.fromEntries(
                [...retryValues.entries()].sort((a, b) => a[0] - b[0]).map(([k, v]) => [`${k}s`, v]),
              ),
              other_account: Object.fromEntries(otherStatuses),
            },
            notes: [
              `${refused} requests refused 429 during the run; admitted ${estimate.admitted} over ` +
                `${settings.durationS} s against ${estimate.expected} ± ${estimate.edge} (${allowance} per ` +
                `${windowS} s)`,
            ],
          };
        },
      };
    },
  };
}

/** Calls until refused, waits the Retry-After it was given, and calls once more. */
async function waitAndRetry(
  target: SurfaceTarget,
  family: 'v2' | 'router',
  path: string,
  token: string,
  allowance: number,
): Promise<{ ok: boolean; detail: string }> {
  const url = new URL(path, target.baseUrl).toString();
  const call = () =>
    send({
      method: 'GET',
      url,
      headers: { accept: 'application/json', ...bearer(token) },
      timeoutMs: 10_000,
      maxBodyBytes: 1 << 20,
    });
  for (let i = 0; i < allowance * 2 + 5; i++) {
    const res = await call();
    if (res.status !== 429) continue;
    const ra = retryAfterSeconds(res.headers);
    if (ra === undefined && family === 'router') return pollUntilAdmitted(call);
    if (ra === undefined || Number.isNaN(ra))
      return {
        ok: false,
        detail: `the 429 carried no integer Retry-After (${res.headers['retry-after'] ?? 'absent'})`,
      };
    if (ra > 60) return { ok: false, detail: `Retry-After ${ra} s is beyond what this probe waits (60 s)` };
    await delay(ra * 1000);
    const again = await call();
    return again.status === 429
      ? { ok: false, detail: `waited the ${ra} s Retry-After and was refused 429 again` }
      : {
          ok: again.status >= 200 && again.status < 300,
          detail: `waited the ${ra} s Retry-After, then answered ${again.status}`,
        };
  }
  return {
    ok: false,
    detail: `${allowance * 2 + 5} calls in a row were never refused, so there was no Retry-After to wait`,
  };
}

/** A router 429 without Retry-After (the seed gives it none): a client that keeps asking, once a second for up to a minute, gets in. */
async function pollUntilAdmitted(call: () => Promise<{ status: number }>): Promise<{ ok: boolean; detail: string }> {
  const start = Date.now();
  const answer = await pollUntil(
    async () => {
      const again = await call();
      return again.status === 429 ? undefined : again.status;
    },
    { deadlineMs: 60_000, intervalMs: 1000 },
  );
  const waited = Math.round((Date.now() - start) / 1000);
  if (answer === undefined)
    return {
      ok: false,
      detail: 'the 429 carried no Retry-After, and a call once a second for 60 s was refused every time',
    };
  return {
    ok: answer >= 200 && answer < 300,
    detail: `the 429 carried no Retry-After; after ${waited} s of asking again the call answered ${answer}`,
  };
}

export const rateLimit = rateLimitProfile({
  name: 'rate-limit',
  title: 'v2 rate limit under load (account-scoped 429 rate_limited)',
  // The seed gives serverless deployments the same account-scoped 429 as the cloud.
  surfaces: ['cloud', 'serverless'],
  family: 'v2',
  otherTokenKey: 'other_account_token',
  async pathFor(api, target) {
    const { res } = await postAsset(api);
    checkStatus('V2.ASSET.CREATE', res, [200, 201, 202]);
    return `${basePath(target)}/api/v2/assets/${res.json<{ id: string }>().id}`;
  },
});

export const routerRateLimit = rateLimitProfile({
  name: 'router-rate-limit',
  title: 'Router rate limit under load (429 rate_limited with spend headers)',
  surfaces: ['router'],
  family: 'router',
  otherTokenKey: 'other_workspace_token',
  async pathFor(_api, target) {
    const model = scenarioString(target, 'image_model');
    if (!model)
      throw new SuiteError(
        'target gave no image_model (scenario input "image_model") for the router rate-limit profile',
      );
    return `${basePath(target)}/v2/models/${model}`;
  },
});
