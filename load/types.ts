// What a load profile is: one operation driven at a fixed arrival rate, the work it
// prepares first, how it judges each response, and the limits that decide the run.
// Every profile runs on the open model (load/drivers/open.ts) unless the run asks for
// autocannon's closed loop.
import type { ApiClient } from '../lib/api.ts';
import type { Family, Surface } from '../lib/families.ts';
import type { CheckResult } from '../lib/results.ts';
import type { RuleId } from '../lib/rule-ids.ts';
import type { SurfaceTarget } from '../lib/targets.ts';
import type { Method, NextRequest } from './drivers/types.ts';

export type { NextRequest } from './drivers/types.ts';
/** A load check's result is the result value every spec check yields (load/checks.ts builds it). */
export type { CheckResult } from '../lib/results.ts';

export interface LoadSettings {
  /** Requested arrival rate, requests per second across all connections. */
  rate: number;
  connections: number;
  /** Measured seconds (after the warm-up). */
  durationS: number;
  /** Seconds at the start whose responses are left out of every figure. */
  warmupS: number;
}

export interface Profile extends LoadSettings {
  name: string;
  title: string;
  description: string;
  /**
   * The surfaces the profile can load, in order of preference: it runs on the first of
   * them the target has (`--surface` picks another) and is skipped, with that reason,
   * on a target that has none of them.
   */
  surfaces: readonly Surface[];
  /** The contract family responses are validated against (undefined: no contract registered yet). */
  family: Family;
  /** k6-style limits (load/thresholds.ts) deciding the exit code. */
  thresholds: string[];
  /** Validate every n-th response against the contract (besides the first ones and each new status). */
  sampleEvery?: number;
  /** Closed model: seconds the load goes on after the measured part so its slow calls can finish (left out of the figures). */
  drainS?: number;
  /** Open model: a request sent later than this after its intended start counts late (default: one gap, at least 10 ms). */
  lateAfterMs?: number;
  /**
   * Scenario inputs that must differ between shards (an account whose limit the profile
   * measures): shard i of n > 1 reads `<key>_<i>` instead, e.g. `rate_limited_token_2`.
   */
  perShardScenario?: string[];
  /** Shortest duration that still judges the profile (smoke runs go no lower). */
  minDurationS?: number;
  /**
   * The rules the profile judges: their cells in conformance.json on the surface it loaded
   * (`run --load`, `load --conformance`); a skipped or stopped run marks them so.
   */
  rules: readonly RuleId[];
  /**
   * The smallest run that still judges every rule of the profile: what `run --load` uses under
   * the quick profile (and the self-test's smoke runs), a few seconds at a low rate.
   */
  quick: Pick<LoadSettings, 'rate' | 'durationS' | 'warmupS'>;
  prepare(ctx: PrepareContext): Promise<Workload | Skip>;
}

export interface PrepareContext {
  target: SurfaceTarget;
  /** Contract-validating client on the target's default credential (as the suite's `api`). */
  api: ApiClient;
  settings: LoadSettings;
  log(line: string): void;
}

export interface Skip {
  skip: string;
}

export interface Observation {
  path: string;
  status: number;
  /** Header names lower-cased. */
  headers: Record<string, string>;
  body: string;
  /** From the actual send to the answer. */
  latencyMs: number;
  /** ms since the load started: when the request was due (open model; the send on the closed one), sent, and answered. */
  intendedAt: number;
  sentAt: number;
  at: number;
  /** False during warm-up. */
  measured: boolean;
}

export interface Outcome {
  metrics?: Record<string, number>;
  checks?: CheckResult[];
  notes?: string[];
  /** Extra figures for the report (distributions, counts) that thresholds do not read. */
  figures?: Record<string, unknown>;
}

export interface Workload {
  method: Method;
  headers: Record<string, string>;
  next(nowMs: number): NextRequest;
  /** Statuses that are a normal answer for this profile; anything else counts as an error. */
  expected(status: number): boolean;
  /**
   * Statuses whose answers a check of the profile's own rule judges (every 429 of a rate
   * limit): they are not also sampled for LOAD.CONTRACT.UNDER_LOAD, so one broken answer
   * is one rule's failure.
   */
  judgesItself?(status: number): boolean;
  observe(o: Observation): void;
  /** Work beside the load (replenishing jobs, another account's probe); stops when the signal aborts. */
  during?(signal: AbortSignal): Promise<void>;
  /** After the load: closing probes, figures and checks. */
  finish(): Promise<Outcome>;
}
