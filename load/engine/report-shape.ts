// The load report (load-report/2) and a run's options: the shapes every part of the
// engine, the report writers, `load merge` and `load compare` share.
import type { Arrival } from '../drivers/schedule.ts';
import type { Model } from '../drivers/types.ts';
import type { RawFigures } from '../figures.ts';
import type { Progress } from '../progress.ts';
import type { Violation } from '../sampler.ts';
import type { Shard } from '../shard.ts';
import type { Histogram } from '../stats.ts';
import type { ThresholdResult } from '../thresholds.ts';
import type { Second } from '../timeline.ts';
import type { CheckResult, LoadSettings } from '../types.ts';
import type { RunningReference } from '../../reference/server.ts';

export const REPORT_SCHEMA = 'load-report/2';

export interface RunOptions {
  /** Measured seconds instead of the profile's. */
  durationS?: number;
  /** Arrival rate instead of the profile's (the whole run's; a shard takes its part). */
  rate?: number;
  warmupS?: number;
  env?: Record<string, string | undefined>;
  /** A reference fault to switch on (embedded reference only). */
  fault?: string;
  progress?: Progress;
  /** Thresholds instead of the profile's (smoke runs on a busy CI machine relax the latency ones). */
  thresholds?: string[];
  /** The thresholds the team set itself (--threshold): the profile's budgets decide nothing unless set here (load/thresholds.ts). */
  yourThresholds?: string[];
  /** Default open. */
  model?: Model;
  /** Open model: default constant. */
  arrival?: Arrival;
  /** Seed of Poisson arrivals. */
  seed?: number;
  shard?: Shard;
  /** Aborting (Ctrl-C) stops the load; the report's verdict is then `interrupted`. */
  signal?: AbortSignal;
  /** An embedded reference already running in this process, loaded instead of a fresh one. */
  reference?: RunningReference;
  /** Said before the run starts: caps applied to what was asked. */
  notice?(line: string): void;
}

export type Verdict = 'pass' | 'fail' | 'skipped' | 'interrupted';

export interface ModelInfo {
  name: Model;
  /** Open model: how arrivals were spaced. */
  arrival?: Arrival;
  seed?: number;
  /** Open model: a send later than this after its intended start counted late. */
  late_after_ms?: number;
  summary: string;
}

export interface LoadReport {
  schema: typeof REPORT_SCHEMA;
  verdict: Verdict;
  skipReason?: string;
  profile: {
    name: string;
    title: string;
    description: string;
    /** The surfaces the profile can load, in order of preference (`cloud, local, serverless`). */
    surface: string;
    family: string;
    thresholds: string[];
    requested: LoadSettings;
    /** What ran on this machine (a shard's part of the rate). */
    effective: LoadSettings;
    ceiling: string;
  };
  model: ModelInfo;
  /** Set when this run is one shard of several; on a merge, index 0 and `merged` shards. */
  shard?: Shard & { merged?: number };
  target: { name: string; surface: string; baseUrl: string; embedded: boolean; fault?: string };
  environment: Record<string, string | number>;
  startedAt: string;
  finishedAt: string;
  metrics: Record<string, number>;
  thresholds: ThresholdResult[];
  /** The rule checks, as the result values spec checks yield (lib/results.ts). */
  checks: CheckResult[];
  /** violations: sampled responses that broke a MUST rule; should: those that departed from SHOULD rules only. */
  contract: {
    family: string;
    sampled: number;
    violations: number;
    should?: number;
    unmatched: number;
    byRule: Record<string, number>;
    examples: Violation[];
  };
  statusCodes: Record<string, number>;
  timeline: Second[];
  histogram: Histogram;
  figures: Record<string, unknown>;
  notes: string[];
  /** The counts and HDR histograms the metrics come from; `load:merge` adds shards' raw figures. */
  raw?: RawFigures;
}

/** The parts of a report known before any load is sent. */
export type ReportBase = Pick<
  LoadReport,
  'schema' | 'profile' | 'model' | 'shard' | 'target' | 'environment' | 'startedAt'
>;
