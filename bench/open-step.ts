// One step of the bench's open-model search (bench/run.ts), in a process of its own:
// the load runner drives the open model from a fresh process, and a bench process that
// has just run the closed-loop series carries their heap into every pause of its
// collector, which shows as late arrivals that are not the open model's own.
//   node --import tsx bench/open-step.ts <url> <rate> <seconds> <headers-json>
// prints one line of JSON: the step's counts and figures (OpenStep).
import { driveOpen } from '../load/drivers/open.ts';
import { summarizeHdr } from '../load/hdr.ts';

/** Enough that a free connection is never what limits the open model at these rates. */
export const OPEN_CONNECTIONS = 64;
/** A rate is held when fewer than this share of arrivals are late and none is dropped or fails. */
export const LATE_LIMIT = 0.01;

export interface OpenStep {
  rate: number;
  held: boolean;
  latePct: number;
  dropped: number;
  failed: number;
  spacingP99: number;
  p99: number;
  uncorrectedP99: number;
}

export async function openStepHere(
  url: string,
  headers: Record<string, string>,
  rate: number,
  durationS: number,
): Promise<OpenStep> {
  const u = new URL(url);
  const r = await driveOpen({
    origin: u.origin,
    rate,
    connections: OPEN_CONNECTIONS,
    warmupS: 1,
    durationS,
    arrival: 'constant',
    timeoutMs: 10_000,
    method: 'GET',
    headers,
    next: () => ({ path: u.pathname }),
    keepBodies: false,
  });
  const c = r.counts;
  const latePct = c.scheduled ? (100 * c.late) / c.scheduled : 100;
  return {
    rate,
    held: c.scheduled > 0 && latePct < 100 * LATE_LIMIT && c.dropped === 0 && c.failed === 0 && c.unfinished === 0,
    latePct,
    dropped: c.dropped,
    failed: c.failed + c.unfinished,
    spacingP99: summarizeHdr(r.spacing).p99,
    p99: summarizeHdr(r.corrected).p99,
    uncorrectedP99: summarizeHdr(r.uncorrected).p99,
  };
}

if (process.argv[1] && import.meta.filename === process.argv[1]) {
  const [url, rate, seconds, headers] = process.argv.slice(2);
  const step = await openStepHere(
    url,
    JSON.parse(headers ?? '{}') as Record<string, string>,
    Number(rate),
    Number(seconds),
  );
  process.stdout.write(`${JSON.stringify(step)}\n`);
  process.exit(0);
}
