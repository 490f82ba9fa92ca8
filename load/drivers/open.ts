// The open-model driver: requests start at their intended times (constant or Poisson
// arrivals) whatever the server is doing, as k6's constant-arrival-rate executor and
// wrk2 do. Each answer is timed twice: from the intended start (corrected: what a user
// arriving then waited) and from the actual send (uncorrected: what a closed loop would
// report). An arrival that finds every connection busy waits for one, in order; if it
// is sent more than `lateAfterMs` after its intended start it is counted late, and if
// it cannot be sent at all (no connection before its wait limit or the end of the run)
// it is counted dropped. Nothing is skipped silently.
//
// A lean HTTP/1.1 client carries the requests to an http origin (load/drivers/h1.ts: about
// half undici's CPU a request, which on a shared machine is CPU the server keeps); undici's
// Pool carries them to an https one. The driver keeps its own count of requests in flight
// so it knows, at each intended start, whether a connection is free.
import { Pool, type Dispatcher } from 'undici';
import { H1Pool, type H1Handler } from './h1.ts';
import { newHdr, recordMs } from '../hdr.ts';
import { schedule } from './schedule.ts';
import { emptyCounts, type DriveOptions, type DriveResult, type OpenSettings } from './types.ts';

interface Waiting {
  intendedAt: number;
  measured: boolean;
}

/**
 * The answer's headers, read only for callers that look: undici hands raw lines (name, value,
 * name, value, ...), the lean client the header block (CRLF-separated `name: value` lines).
 */
function headerRecord(raw: Buffer[] | Buffer | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  const add = (name: string, value: string): void => {
    out[name] = name in out ? `${out[name]}, ${value}` : value;
  };
  if (!raw) return out;
  if (Buffer.isBuffer(raw)) {
    for (const line of raw.toString('latin1').split('\r\n')) {
      const colon = line.indexOf(':');
      if (colon > 0) add(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
    }
    return out;
  }
  for (let i = 0; i + 1 < raw.length; i += 2)
    add(raw[i].toString('latin1').toLowerCase(), raw[i + 1].toString('latin1'));
  return out;
}

/** The late limit used when a profile gives none: one inter-arrival gap, but at least 10 ms. */
export function defaultLateAfterMs(rate: number): number {
  return Math.max(10, 1000 / rate);
}

/** Arrivals a second above which the loop no longer spins between them (see tick). */
const SPIN_MAX_RATE = 2000;

export async function driveOpen(o: DriveOptions & OpenSettings): Promise<DriveResult> {
  const connectTimeoutMs = Math.min(o.timeoutMs, 10_000);
  const pool =
    new URL(o.origin).protocol === 'http:'
      ? new H1Pool(o.origin, {
          connections: o.connections,
          timeoutMs: o.timeoutMs,
          connectTimeoutMs,
          method: o.method,
          headers: o.headers,
        })
      : new Pool(o.origin, {
          connections: o.connections,
          pipelining: 1,
          headersTimeout: o.timeoutMs,
          bodyTimeout: o.timeoutMs,
          connectTimeout: connectTimeoutMs,
          keepAliveTimeout: 60_000,
        });
  const corrected = newHdr();
  const uncorrected = newHdr();
  const spacing = newHdr();
  const counts = emptyCounts();
  const lateAfterMs = o.lateAfterMs ?? defaultLateAfterMs(o.rate);
  const warmupMs = o.warmupS * 1000;
  const endMs = warmupMs + o.durationS * 1000;
  const arrivals = schedule(o.arrival, o.rate, o.seed);
  const waiting: Waiting[] = [];
  let head = 0;
  let inFlight = 0;
  let stopped = false;
  let interrupted = false;
  let nextAt = arrivals.next();
  /** Set when the run's time bound is reached: what is still open then is cut, not judged. */
  let cut = false;
  const t0 = performance.now();
  const now = (): number => performance.now() - t0;

  let settle: () => void = () => {};
  const finished = new Promise<void>((resolve) => (settle = resolve));

  /** One request on the wire. A class, not closures: at tens of thousands a second the allocations show. */
  class Exchange implements Dispatcher.DispatchHandler, H1Handler {
    status = 0;
    raw: Buffer[] | Buffer | undefined;
    chunks: Buffer[] | undefined;
    open = true;
    constructor(
      readonly path: string,
      readonly intendedAt: number,
      readonly sentAt: number,
      readonly measured: boolean,
    ) {}
    onConnect(): void {}
    onHeaders(statusCode: number, raw: Buffer[] | Buffer): boolean {
      this.status = statusCode;
      this.raw = raw;
      return true;
    }
    onData(chunk: Buffer): boolean {
      if (o.keepBodies) (this.chunks ??= []).push(chunk);
      return true;
    }
    onComplete(): void {
      if (!this.open) return;
      this.open = false;
      const at = now();
      if (!cut) {
        if (this.measured) {
          counts.answered += 1;
          recordMs(corrected, at - this.intendedAt);
          recordMs(uncorrected, at - this.sentAt);
        }
        if (o.onAnswer) {
          const body = this.chunks ? Buffer.concat(this.chunks).toString('utf8') : '';
          o.onAnswer({
            path: this.path,
            status: this.status,
            headers: headerRecord(this.raw),
            body,
            intendedAt: this.intendedAt,
            sentAt: this.sentAt,
            at,
            measured: this.measured,
          });
        }
      }
      inFlight -= 1;
      release();
    }
    onError(error: Error): void {
      if (!this.open) return;
      this.open = false;
      if (cut) {
        if (this.measured) counts.unfinished += 1;
      } else {
        if (this.measured) counts.failed += 1;
        o.onFailure?.({
          path: this.path,
          error,
          intendedAt: this.intendedAt,
          sentAt: this.sentAt,
          at: now(),
          measured: this.measured,
        });
      }
      inFlight -= 1;
      release();
    }
  }

  const send = (intendedAt: number, measured: boolean): void => {
    const sentAt = now();
    const req = o.next(sentAt);
    inFlight += 1;
    if (measured) {
      counts.sent += 1;
      const delay = sentAt - intendedAt;
      recordMs(spacing, delay);
      if (delay > lateAfterMs) counts.late += 1;
    }
    const exchange = new Exchange(req.path, intendedAt, sentAt, measured);
    if (pool instanceof H1Pool) pool.dispatch(req.path, req.body, exchange);
    else
      pool.dispatch(
        { path: req.path, method: o.method, headers: o.headers, ...(req.body !== undefined ? { body: req.body } : {}) },
        exchange,
      );
  };

  const drop = (w: Waiting): void => {
    if (w.measured) counts.dropped += 1;
    o.onDrop?.(w.intendedAt, w.measured);
  };

  /** Hands free connections to waiting arrivals, oldest first; those past their wait limit are dropped. */
  const release = (): void => {
    while (head < waiting.length && inFlight < o.connections) {
      const w = waiting[head++];
      if (now() - w.intendedAt > o.timeoutMs) drop(w);
      else send(w.intendedAt, w.measured);
    }
    if (head > 1024 && head * 2 > waiting.length) {
      waiting.splice(0, head);
      head = 0;
    }
    if (stopped && inFlight === 0 && head >= waiting.length) settle();
  };

  const arrive = (intendedAt: number): void => {
    const measured = intendedAt >= warmupMs && intendedAt < endMs;
    if (measured) counts.scheduled += 1;
    if (head >= waiting.length && inFlight < o.connections) send(intendedAt, measured);
    else waiting.push({ intendedAt, measured });
  };

  let timer: NodeJS.Timeout | undefined;
  let loadEndMs = NaN;
  const stop = (): void => {
    if (!stopped) loadEndMs = Math.min(now(), endMs);
    stopped = true;
    if (timer) clearTimeout(timer);
    release();
  };

  // Timers fire a millisecond or so late, so the loop sleeps until shortly before the
  // next arrival and spins (yielding to I/O each turn) for the last stretch. Above
  // SPIN_MAX_RATE the arrivals are under half a millisecond apart: spinning would keep a
  // core busy waiting (taken from the server when both share a machine), so the loop
  // wakes each millisecond and sends every arrival then due, as wrk2 does. Each send's
  // deviation from its intended time is still measured (spacing) and counted in the
  // corrected latency.
  const spin = o.rate <= SPIN_MAX_RATE;
  const tick = (): void => {
    timer = undefined;
    if (stopped) return;
    let t = now();
    while (nextAt <= t) {
      if (nextAt >= endMs) {
        stop();
        return;
      }
      arrive(nextAt);
      nextAt = arrivals.next();
      t = now();
    }
    const wait = nextAt - t;
    if (wait > 2) timer = setTimeout(tick, wait - 1.5);
    else if (spin) setImmediate(tick);
    else timer = setTimeout(tick, 1);
  };

  let interruptedAt = Infinity;
  const onAbort = (): void => {
    interrupted = true;
    interruptedAt = now();
    // Arrivals still waiting when the run is stopped are not the server's doing: they leave
    // the count rather than being called dropped.
    for (let i = head; i < waiting.length; i++) if (waiting[i].measured) counts.scheduled -= 1;
    waiting.length = 0;
    head = 0;
    stop();
  };
  if (o.signal?.aborted) onAbort();
  else o.signal?.addEventListener('abort', onAbort, { once: true });

  if (!stopped) tick();
  // Bounded: after the last arrival, every request has its timeout to be sent and
  // answered; an interrupted run gives the ones in flight one more second.
  const loadBound = endMs + o.timeoutMs + 1000;
  let guard: NodeJS.Timeout | undefined;
  const bound = new Promise<void>((resolve) => {
    const check = (): void => {
      const left = Math.min(loadBound, interruptedAt + 1000) - now();
      if (left <= 0) resolve();
      else guard = setTimeout(check, Math.min(left, 250));
    };
    check();
  });
  await Promise.race([finished, bound]);
  if (guard) clearTimeout(guard);
  cut = true;
  stop();
  while (head < waiting.length) drop(waiting[head++]);
  o.signal?.removeEventListener('abort', onAbort);
  const elapsedMs = now();
  await pool.destroy().catch(() => {});
  return { model: 'open', corrected, uncorrected, spacing, counts, lateAfterMs, loadEndMs, elapsedMs, interrupted };
}
