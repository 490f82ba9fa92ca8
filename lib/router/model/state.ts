// The router state machine's model: what seed R fixes about queued requests and
// Idempotency-Keys, and nothing else (locators in contracts/seed-trace.yaml):
//   requests  a submit admits a run and hands out a handle (R:103:ba1b172aaf32); the status
//             is one of three values, one of them COMPLETED (R:99:64c869655d5a), the end of
//             every request, success, failure and cancellation alike (R:105-108); a finished
//             request stays as it is (R:106:b0ddf19e95e5); an unfinished poll carries
//             Retry-After (R:112:99d3346bc6dd); a collect of an unfinished request answers 202
//             (R:196:d6fd3b9cf281), of a request that produced a result that result, byte for
//             byte the synchronous answer to the same model and input (R:195:adc652f16295);
//             a cancel is asked (202 CANCELLATION_REQUESTED) or the request is already done
//             (ALREADY_COMPLETED; R:104, R:106, R:201).
//   keys      one workspace keyspace shared by its members (R:170:fbe5d04d02cd): the same key
//             and request are answered from the record, marked Idempotent-Replayed
//             (R:169:6f5647df6adb), by any member (R:170:583f5ec8e664); another request under
//             it is refused 409 invalid_input (R:165:954ec7a8c43e); while the original call
//             runs, 409 concurrency_limit_exceeded with Retry-After (R:164:21135e0ced7b); a
//             refusal before dispatch releases it (R:173:9444fff5531e).
// The names of the two unfinished statuses are not shown (R:110:e2aa1dbe54d9): any other
// name reads as unfinished. Whether a cancel takes effect is not promised (R:104), so the
// model does not assume it does; how long a request takes is not stated either.
import type { ApiClient } from '../../api.ts';
import type { Trace } from '../../model-run.ts';
import type { Handle } from '../queue.ts';
import type { ModelRef } from '../models.ts';

export type Member = 'caller' | 'teammate';
export type Route = 'submit' | 'run';

/** A synchronous answer of one model to one input (what a collect of the same input must equal). */
export interface SyncAnswer {
  status: number;
  contentType: string | undefined;
  bytes: Buffer;
}

export interface RequestModel {
  handle: Handle;
  model: 'image' | 'slow';
  /** Index into RouterModel.bodies. */
  body: number;
  key?: string;
  /**
   * Known to have finished: a COMPLETED status read, a collect with a result, or a cancel
   * answered ALREADY_COMPLETED. errorType: what its COMPLETED status carries (undefined: none;
   * null: not read yet).
   */
  finished?: { errorType: string | undefined | null; how: string };
  /** The cancels sent: `asked` (202 CANCELLATION_REQUESTED) and `done` (ALREADY_COMPLETED) once seen. */
  cancel: { asked: boolean; doneAfterFinish: boolean };
  /** The bytes a collect answered 200 with (every later collect answers them again). */
  collected?: SyncAnswer;
}

export interface KeyModel {
  key: string;
  route: Route;
  model: 'image' | 'slow';
  body: number;
  /** The request a submit under it admitted. */
  request?: string;
  /** The answer a run under it was given. */
  answer?: SyncAnswer;
  /** Any member has been answered from its record (a replay). */
  replayed: boolean;
}

/** A key a refusal before dispatch released, with the request that was refused. */
export interface ReleasedKey {
  key: string;
  route: Route;
}

export interface RouterModel {
  /** Bodies sent, each with a prompt of its own (the same index: the same input). */
  bodies: Array<Record<string, unknown>>;
  requests: RequestModel[];
  keys: KeyModel[];
  released: ReleasedKey[];
  /** What the last commands acted on, the last first (two of each): small draws act on them again (see pick). */
  recent: { requests: RequestModel[]; keys: KeyModel[] };
}

/** What the target offers the model, read once per test. */
export interface RouterFacts {
  image: ModelRef;
  /** Scenario input slow_model: requests that stay unfinished long enough to cancel. */
  slow?: ModelRef;
  /** A client of another member of the caller's workspace (scenario input teammate_token). */
  teammate?: ApiClient;
  baseBody: Record<string, unknown>;
  /**
   * Models whose output is the same for the same input (scenario input deterministic_models,
   * default image_model alone): only their collects are compared with a synchronous run.
   */
  deterministic: ReadonlySet<string>;
  /** The full profile also sends concurrent keyed runs to the slow model (each takes its run time). */
  full: boolean;
  nonce: string;
  /** Why a rule could not be judged, each said once per test. */
  said: Set<string>;
  /** Synchronous answers per model and body (JSON text), kept across runs of one test. */
  sync: Map<string, SyncAnswer>;
}

export interface RouterReal {
  api: ApiClient;
  facts: RouterFacts;
  trace: Trace;
  run: number;
  serial: number;
}

export function emptyModel(): RouterModel {
  return { bodies: [], requests: [], keys: [], released: [], recent: { requests: [], keys: [] } };
}

/**
 * The entry `n` points at (commands draw a number, the model resolves it to what exists):
 * draws 0-1 the last one acted on, 2-3 the one before it (states build up on one or two
 * things: a request and the one submitted next to it), the others spread over all.
 * Deterministic in the model, so a replay resolves the same.
 */
export function pick<T>(list: readonly T[], n: number, recent: readonly T[] = []): T {
  const near = n < 4 ? recent[n >> 1] : undefined;
  if (near !== undefined && list.includes(near)) return near;
  return list[n % list.length];
}

/** Puts `x` first among the recent ones (two kept). */
export function touch<T>(recent: T[], x: T): void {
  const at = recent.indexOf(x);
  if (at >= 0) recent.splice(at, 1);
  recent.unshift(x);
  recent.length = Math.min(recent.length, 2);
}
