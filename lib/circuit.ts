// The circuit breaker: when a target stops answering, the checks left on it end at once
// as errors ("target stopped answering at GET /api/v2/jobs/{id}") instead of each
// waiting out its own timeout — a stalled server took 785 s to judge before.
//
// Playwright starts a new worker after every failed test, so the count of consecutive
// timeouts and the open breaker live in files every worker of the run shares
// (CONFORMANCE_CIRCUIT_DIR, set by the config for the run); without it the state is
// this process's own. A response of any kind from the origin resets the count.
import { appendFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { runConfig } from './config/env.ts';

/** Consecutive timeouts on one origin that open its breaker (CONFORMANCE_CIRCUIT_TIMEOUTS). */
export const circuitTimeouts = (): number => runConfig().bounds.circuitTimeouts;

const memory = new Map<string, { timeouts: number; open?: string }>();

function dir(create = false): string | undefined {
  const d = runConfig().run.circuitDir;
  if (d && create) mkdirSync(d, { recursive: true });
  return d;
}

function key(origin: string): string {
  return origin.replace(/[^A-Za-z0-9]+/g, '_');
}

/** How every reason of an open breaker begins: a skip with it is a rule not judged, never a skip by choice. */
export const CIRCUIT_OPEN = 'target stopped answering at ';

/** Why the breaker for this origin is open (it stopped answering, or does not speak the API), or undefined when requests may go. */
export function openReason(origin: string): string | undefined {
  const notApi = notTheApiReason(origin);
  if (notApi) return notApi;
  const own = memory.get(origin)?.open;
  if (own) return own;
  const d = dir();
  if (!d) return undefined;
  const file = path.join(d, `${key(origin)}.open`);
  if (!existsSync(file)) return undefined;
  const reason = readFileSync(file, 'utf8');
  memory.set(origin, { timeouts: circuitTimeouts(), open: reason });
  return reason;
}

/** An answer came: the origin is alive, its count starts again. */
export function answered(origin: string): void {
  const m = memory.get(origin);
  if (m && m.timeouts > 0 && !m.open) m.timeouts = 0;
  const d = runConfig().run.circuitDir;
  if (!d) return;
  const file = path.join(d, `${key(origin)}.timeouts`);
  if (existsSync(file)) rmSync(file, { force: true });
}

/** No answer within the bound: counts towards opening the breaker; returns its reason once open. */
export function timedOut(origin: string, where: string, timeoutMs: number): string | undefined {
  const m = memory.get(origin) ?? { timeouts: 0 };
  memory.set(origin, m);
  let count = ++m.timeouts;
  const d = dir(true);
  if (d) {
    const file = path.join(d, `${key(origin)}.timeouts`);
    appendFileSync(file, `${where}\n`);
    count = readFileSync(file, 'utf8').split('\n').filter(Boolean).length;
  }
  if (count < circuitTimeouts()) return undefined;
  const reason = `${CIRCUIT_OPEN}${where} (${count} exchanges in a row with ${origin} got no answer within ${timeoutMs} ms)`;
  m.open = reason;
  if (d) writeFileSync(path.join(d, `${key(origin)}.open`), reason);
  return reason;
}

/** For tests: forget this process's state. */
export function resetCircuit(): void {
  memory.clear();
  streamStalled = undefined;
  api.clear();
}

// A target that does not speak the API at all (a web page to every request: the wrong
// port, a misrouted proxy) fails every test on its first answer; once the first answers of
// NOT_THE_API_AFTER different operations were all of that kind, and none ever was the
// API's, the rest of the run ends at once (fixtures/test.ts), its rules "not judged"
// naming this finding. One answer that is the API's (a JSON body where JSON is declared)
// rules it out for good.

/** How every reason of this finding begins (report/matrix.ts turns a skip with it into an error cell). */
export const NOT_THE_API = 'the target does not speak the API: ';
/** Different operations answered, none as the API, before the run ends. */
export const NOT_THE_API_AFTER = 3;

const api = new Map<string, { spoke: boolean; not: Map<string, string>; reason?: string }>();

function apiState(origin: string): { spoke: boolean; not: Map<string, string>; reason?: string } {
  let s = api.get(origin);
  if (!s) api.set(origin, (s = { spoke: false, not: new Map() }));
  return s;
}

/** An answer in the API's own form came from this origin: it speaks the API. */
export function spokeApi(origin: string): void {
  const s = apiState(origin);
  if (s.spoke) return;
  s.spoke = true;
  const d = dir(true);
  if (d) writeFileSync(path.join(d, `${key(origin)}.api-spoke`), '1');
}

/**
 * An answer that is not the API's (`what`: `getAsset 200 text/html "<!doctype…"`); returns the
 * finding once it stands: NOT_THE_API_AFTER operations alike, one at least an operation the seed
 * gives (`seedOperation`: its body contract is MUST, so the finding rests on a MUST failure the
 * run records, whichever operations a loaded run happens to reach first).
 */
export function notTheApi(origin: string, operation: string, what: string, seedOperation = true): string | undefined {
  const s = apiState(origin);
  const d = dir(true);
  if (s.spoke || (d && existsSync(path.join(d, `${key(origin)}.api-spoke`)))) {
    s.spoke = true;
    return undefined;
  }
  const mark = seedOperation ? 'seed' : 'docs';
  s.not.set(operation, `${mark}\t${what}`);
  let seen = [...s.not.values()];
  if (d) {
    const file = path.join(d, `${key(origin)}.not-api`);
    appendFileSync(file, `${operation}\t${mark}\t${what.replace(/\n/g, ' ')}\n`);
    const lines = readFileSync(file, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => {
        const [op, ...rest] = l.split('\t');
        return [op, rest.join('\t')] as [string, string];
      });
    seen = [...new Map(lines).values()];
  }
  if (seen.length < NOT_THE_API_AFTER || !seen.some((x) => x.startsWith('seed\t'))) return undefined;
  seen = seen.map((x) => x.slice(x.indexOf('\t') + 1));
  const reason = `${NOT_THE_API}${seen[0]} (and ${seen.length - 1} more operations alike, none answered as the API); the run ended early`;
  s.reason = reason;
  if (d && !existsSync(path.join(d, `${key(origin)}.not-api-open`)))
    writeFileSync(path.join(d, `${key(origin)}.not-api-open`), reason);
  return reason;
}

/** The finding that the target does not speak the API, once it stands. */
export function notTheApiReason(origin: string): string | undefined {
  const s = api.get(origin);
  if (s?.reason) return s.reason;
  const d = dir();
  const file = d ? path.join(d, `${key(origin)}.not-api-open`) : undefined;
  if (!file || !existsSync(file)) return undefined;
  const reason = readFileSync(file, 'utf8');
  apiState(origin).reason = reason;
  return reason;
}

// A v1 stream that left a finished prompt without its terminal message (lib/v1/run.ts) is
// likely to do so again: the run's later waits for a stream's end are cut to the grace, so a
// server that never ends its runs on the stream costs seconds per test, not a job deadline.
const STALLED_FILE = 'stream-without-terminal';
let streamStalled: string | undefined;

/** Notes that a stream left a finished prompt without its terminal message. */
export function noteStreamStalled(reason: string): void {
  streamStalled = reason;
  const d = dir(true);
  if (d) writeFileSync(path.join(d, STALLED_FILE), reason);
}

/** Why waits for a stream's end are cut short in this run, if a stream already stalled. */
export function streamStalledReason(): string | undefined {
  if (streamStalled) return streamStalled;
  const d = dir();
  const file = d ? path.join(d, STALLED_FILE) : undefined;
  if (file && existsSync(file)) streamStalled = readFileSync(file, 'utf8');
  return streamStalled;
}
