// What a load driver is given and what it hands back, whichever model drives the load:
// the open model (load/drivers/open.ts, the default) or autocannon's closed loop
// (load/drivers/closed.ts, kept for maximum-throughput runs).
import type { Hdr } from '../hdr.ts';
import type { Arrival } from './schedule.ts';

export type Model = 'open' | 'closed';

export const MODELS: readonly Model[] = ['open', 'closed'];

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface NextRequest {
  path: string;
  body?: string;
}

export interface Answer {
  path: string;
  status: number;
  /** Names lower-cased; repeated headers joined with ", ". */
  headers: Record<string, string>;
  /** Empty unless the driver was asked to keep bodies. */
  body: string;
  /** ms since the load started: intended start, actual send, answer complete. */
  intendedAt: number;
  sentAt: number;
  at: number;
  /** The intended start falls in the measured window (after the warm-up). */
  measured: boolean;
  /** Status and timing only: the driver lost the answer's headers and body (closed model). */
  incomplete?: boolean;
}

export interface Failure {
  path: string;
  error: Error;
  intendedAt: number;
  sentAt: number;
  at: number;
  measured: boolean;
}

export interface DriveOptions {
  /** Protocol, host and port only. */
  origin: string;
  /** Requests per second across all connections (fractions allowed on the open model). */
  rate: number;
  connections: number;
  warmupS: number;
  durationS: number;
  /** Per-request limit on the answer (and, on the open model, on waiting for a connection). */
  timeoutMs: number;
  method: Method;
  headers: Record<string, string>;
  /** Called at the actual send: what to request. */
  next(nowMs: number): NextRequest;
  keepBodies: boolean;
  onAnswer?(a: Answer): void;
  onFailure?(f: Failure): void;
  /** An arrival that could not be sent (open model only). */
  onDrop?(intendedAt: number, measured: boolean): void;
  /** Aborting stops new arrivals at once; the result says it was interrupted. */
  signal?: AbortSignal;
}

export interface OpenSettings {
  arrival: Arrival;
  seed?: number;
  /** A request sent later than this after its intended start is late (default: one gap, at least 10 ms). */
  lateAfterMs?: number;
}

export interface DriveCounts {
  /** Measured arrivals: intended starts inside the measured window. */
  scheduled: number;
  sent: number;
  /** Sent, but more than lateAfterMs after the intended start. */
  late: number;
  /** Never sent: no connection within the wait limit or before the run ended. */
  dropped: number;
  answered: number;
  /** Transport failures: refused connections, resets, timeouts. */
  failed: number;
  /** Sent but still unanswered when the run was cut. */
  unfinished: number;
}

export function emptyCounts(): DriveCounts {
  return { scheduled: 0, sent: 0, late: 0, dropped: 0, answered: 0, failed: 0, unfinished: 0 };
}

export interface DriveResult {
  model: Model;
  /** Measured requests, in µs: from intended start, from actual send, and send minus intended. */
  corrected: Hdr;
  uncorrected: Hdr;
  spacing: Hdr;
  counts: DriveCounts;
  /** NaN on the closed model, which has no intended starts to be late for. */
  lateAfterMs: number;
  /** ms from the start to when arrivals stopped: the schedule's end, or an interrupt. */
  loadEndMs: number;
  elapsedMs: number;
  interrupted: boolean;
}
