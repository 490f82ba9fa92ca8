// The closed-loop driver: autocannon at `overallRate`, which meters requests per
// connection per one-second window. Kept for maximum-throughput runs (`--model closed`);
// it cannot see coordinated omission: a request is timed from when it was actually sent,
// and a stalled connection simply sends less. So corrected and uncorrected are the same
// figure here, and late or dropped arrivals are not measured.
import autocannon from 'autocannon';
import { newHdr, recordMs } from '../hdr.ts';
import { emptyCounts, type DriveOptions, type DriveResult } from './types.ts';

function lowerHeaders(h: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h))
    if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : String(v);
  return out;
}

export async function driveClosed(o: DriveOptions & { drainS: number }): Promise<DriveResult> {
  const corrected = newHdr();
  const uncorrected = newHdr();
  const counts = emptyCounts();
  const warmupMs = o.warmupS * 1000;
  const endMs = warmupMs + o.durationS * 1000;
  const totalS = o.warmupS + o.durationS;
  let pending: { status: number; headers: Record<string, string>; body: string; path: string } | undefined;
  let interrupted = false;
  const t0 = performance.now();
  // Without a callback autocannon returns its event emitter, made thenable.
  const instance = autocannon({
    url: o.origin,
    connections: o.connections,
    overallRate: Math.max(1, Math.round(o.rate)),
    // Requests sent during the drain are left out: it only lets the measured ones finish.
    duration: totalS + o.drainS,
    timeout: Math.ceil(o.timeoutMs / 1000),
    requests: [
      {
        method: o.method,
        headers: o.headers,
        setupRequest: (req: autocannon.Request, context: object) => {
          const next = o.next(performance.now() - t0);
          (context as { path?: string }).path = next.path;
          return { ...req, path: next.path, ...(next.body !== undefined ? { body: next.body } : {}) };
        },
        onResponse: (
          status: number,
          body: string,
          context: object,
          headers?: Record<string, string | string[] | undefined>,
        ) => {
          pending = {
            status,
            body,
            headers: lowerHeaders(headers ?? {}),
            path: (context as { path?: string }).path ?? '/',
          };
        },
      },
    ],
  }) as unknown as autocannon.Instance & PromiseLike<autocannon.Result>;

  instance.on('response', (_client: unknown, statusCode: number, _bytes: number, responseTime: number) => {
    const p = pending;
    pending = undefined;
    const at = performance.now() - t0;
    // A response belongs to the second its request was sent in: autocannon meters the
    // rate per one-second window, so sends (not completions) line up with the rate.
    const sentAt = Math.max(0, at - responseTime);
    const measured = sentAt >= warmupMs && sentAt < endMs;
    if (measured) {
      counts.scheduled += 1;
      counts.sent += 1;
      counts.answered += 1;
      recordMs(corrected, responseTime);
      recordMs(uncorrected, responseTime);
    }
    o.onAnswer?.({
      path: p?.path ?? '/',
      status: p?.status ?? statusCode,
      headers: p?.headers ?? {},
      body: p?.body ?? '',
      intendedAt: sentAt,
      sentAt,
      at,
      measured,
      ...(p ? {} : { incomplete: true }),
    });
  });
  instance.on('reqError', (err: Error) => {
    const at = performance.now() - t0;
    const measured = at >= warmupMs && at < endMs;
    if (measured) {
      counts.scheduled += 1;
      counts.sent += 1;
      counts.failed += 1;
    }
    o.onFailure?.({ path: '/', error: err, intendedAt: at, sentAt: at, at, measured });
  });

  // Bounded even if autocannon stalls: stop it a little after its own end.
  const guard = setTimeout(() => instance.stop(), (totalS + o.drainS + 15) * 1000);
  let loadEndMs = NaN;
  const onAbort = (): void => {
    interrupted = true;
    loadEndMs = performance.now() - t0;
    instance.stop();
  };
  if (o.signal?.aborted) onAbort();
  else o.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    await instance;
  } finally {
    clearTimeout(guard);
    o.signal?.removeEventListener('abort', onAbort);
  }
  const elapsedMs = performance.now() - t0;
  return {
    model: 'closed',
    corrected,
    uncorrected,
    spacing: newHdr(),
    counts,
    lateAfterMs: NaN,
    loadEndMs: Number.isNaN(loadEndMs) ? Math.min(elapsedMs, endMs) : loadEndMs,
    elapsedMs,
    interrupted,
  };
}
