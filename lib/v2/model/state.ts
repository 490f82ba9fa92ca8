// The v2 state machine's model: what the seed fixes about the state behind the answers, and
// nothing else. Seed W design rules and § Asset, § Job metadata (locators in
// contracts/seed-trace.yaml):
//   assets    records over immutable blobs; identical bytes are not stored twice (created_new
//             false on a create of bytes already held); the hash, once filled, is the blake3
//             of the bytes; every read hands out a url that serves them; an asset no job made
//             has no job, an output names the job that made it and shows its labels as sent
//             (or none: the surface may keep none, W:53).
//   jobs      one job per Idempotency-Key, whichever reading of a retry the server takes (a
//             refusal 422 idempotency_key_reuse, or the first job again: lib/v2/idempotency.ts);
//             a cancel ends in a terminal state (names are scenario inputs, lib/v2/states.ts);
//             a complete walk of the job list (public documents) lists every job once.
// Job state names, times and orders the seed does not give are not modelled.
import type { ApiClient } from '../../api.ts';
import type { Surface } from '../../families.ts';
import type { Trace } from '../../model-run.ts';
import type { Job, SubmitBody } from '../jobs.ts';
import type { JobStates } from '../states.ts';

export type Labels = Record<string, string>;

export interface BlobModel {
  bytes: Buffer;
  /** blake3:<hex> of the bytes, computed here as a client would. */
  hash: string;
  /** The file paths it was sent under, in order. */
  paths: string[];
}

export interface AssetModel {
  id: string;
  origin: 'upload' | 'from-hash' | 'output';
  /** Index into blobs (uploads and assets minted from a hash). */
  blob?: number;
  /** The bytes it serves, once known (an output's are learnt at its first read). */
  bytes?: Buffer;
  /** The job that produced it (outputs). */
  job?: string;
  /** The labels that job was sent with (null: none). */
  labels?: Labels | null;
}

export interface JobModel {
  id: string;
  /** The last record read. */
  record: Job;
  labels?: Labels;
  /** The terminal status once seen (a scenario-input name). */
  terminal?: string;
  canceled: boolean;
  outputsKnown: boolean;
}

export interface KeyModel {
  key: string;
  job: string;
  /** The request first sent under it. */
  body: SubmitBody;
}

export interface WalkModel {
  limit: number;
  /** The run's jobs in the walk's scope when it started: each must be listed once. */
  expected: Set<string>;
  seen: Map<string, number>;
  cursors: Set<string>;
  cursor?: string;
  pages: number;
  idle: number;
}

export interface V2Model {
  blobs: BlobModel[];
  assets: AssetModel[];
  jobs: JobModel[];
  keys: KeyModel[];
  walk?: WalkModel;
  /** What the last commands acted on: a command drawing a small number acts on it again (recency, see pick). */
  recent: { blob?: number; asset?: AssetModel; job?: JobModel };
}

/** What the surface does, probed once per test (lib/v2/model/facts.ts). */
export interface SurfaceFacts {
  surface: Surface;
  hosted: boolean;
  /** The surface takes job labels (a surface may keep none and refuse them, W:221). */
  labels: boolean;
  /** How the job list is walked where V2.JOB.LIST_WALK applies: by the run's label, the whole list, or not at all. */
  listing: 'scoped' | 'unscoped' | 'none';
  /** Ranged content reads are judged (V2.ASSET.CONTENT_RANGE applies and the content endpoint streams). */
  range: boolean;
  /** Scenario input slow_node_class: a node that takes `seconds` (cancel of a running job). */
  slowClass?: string;
  states: JobStates;
  /** Whether the server takes the public documents' create-from-hash request; learnt at its first use. */
  fromHash: 'unknown' | 'taken' | 'refused';
  /** Unique to this test: prefixes keys and labels. */
  nonce: string;
  /** Why a rule could not be judged, each said once per test. */
  said: Set<string>;
}

export interface V2Real {
  api: ApiClient;
  facts: SurfaceFacts;
  trace: Trace;
  /** The value of the `mrun` label of this run's labelled jobs (the walk's scope). */
  runLabel: string;
  /** Counter for names unique within the run. */
  serial: number;
}

export const RUN_LABEL_KEY = 'mrun';

export function emptyModel(): V2Model {
  return { blobs: [], assets: [], jobs: [], keys: [], recent: {} };
}

/** Draws below this act on what was acted on last (states build up on one thing), the others spread over all. */
const RECENT_DRAWS = 4;

/**
 * The entry `n` points at (commands draw a number, the model resolves it to what exists): the
 * recent one for a small draw, when it is in the list. Deterministic in the model, so a
 * replay resolves the same.
 */
export function pick<T>(list: readonly T[], n: number, recent?: T): T {
  if (n < RECENT_DRAWS && recent !== undefined && list.includes(recent)) return recent;
  return list[n % list.length];
}
