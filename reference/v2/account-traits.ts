// Scenario accounts of the reference: each makes one seed behaviour reachable.
// Their keys are in reference/accounts.ts and the reference entry of targets.yaml.

export interface AccountTraits {
  /** Jobs queued or running at once before a submit is refused 429 queue_full. */
  queueCapacity: number;
  /** Jobs of the account that run in parallel; the rest queue (seed W § v1 rule 3, § Limits 4). */
  concurrency: number;
  /** Submits are refused 402 insufficient_credits (cloud and serverless). */
  noCredits: boolean;
  /** Submits fail 500 upstream_error, as when a backing service is down. */
  upstreamFailure: boolean;
  /**
   * How long the account's jobs stay retrievable where the seed states no job retention (a
   * serverless deployment; the hosted cloud keeps its 30-day placeholder). Absent: that too.
   */
  jobRetentionMs?: number;
}

const DEFAULT: AccountTraits = { queueCapacity: 200, concurrency: 3, noCredits: false, upstreamFailure: false };

const SCENARIOS: Record<string, Partial<AccountTraits>> = {
  carol: { queueCapacity: 1, concurrency: 1 },
  broke: { noCredits: true },
  flaky: { upstreamFailure: true },
  gwen: { jobRetentionMs: 3_000 },
};

export function accountTraits(account: string): AccountTraits {
  return { ...DEFAULT, ...(SCENARIOS[account] ?? {}) };
}
