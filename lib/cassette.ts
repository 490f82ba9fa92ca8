// Cassettes: one run's exchanges kept as HAR 1.2 (credentials redacted), and a replay
// that answers the same specs from it, offline, with the current checks.
//
// Recording (CONFORMANCE_RECORD_DIR): each worker appends the exchanges send() made to
// a JSON-lines file of its own; `workflow-conformance run --record <file>` joins them
// into one HAR (lib/har.ts). Replaying (CONFORMANCE_REPLAY=<har>): send() asks the
// cassette instead of the network.
//
// Matching. A run's requests are not byte-identical to the recorded ones: the suite
// generates ids, names and keys afresh. A request is therefore matched by the test it
// belongs to (its scope), its method, its path with ids reduced to `{}` (the template),
// and its place in that sequence: the n-th `GET /api/v2/jobs/{}` of a test gets the
// n-th recorded answer. Among the unused answers of that sequence, one whose request
// body was identical wins (two concurrent submits may finish in another order). A
// request with no recorded answer ends in an error, "not in the cassette", never in a
// made-up answer.
import { appendFileSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { HttpRequest, HttpResponse } from './http.ts';
import { REDACTED, redactHeader, redactMessage } from './redact.ts';
import { SuiteError } from './violations.ts';
import { fromHar, type Har } from './har.ts';
import { seedRandomness } from './seeded-random.ts';

/** One exchange as a worker records it (before it becomes a HAR entry). */
export interface TapeEntry {
  scope: string;
  key: string;
  started: string;
  request: { method: string; url: string; headers: Record<string, string>; body?: string; bodyEncoding?: 'base64'; mimeType?: string };
  response?: { status: number; headers: Record<string, string>; body: string; bodyEncoding?: 'base64'; truncated: boolean; elapsedMs: number };
  error?: string;
}

/** A path segment that names one record rather than a route: a UUID, a hash, a number, a generated name. */
function isIdentity(segment: string): boolean {
  const s = decodeURIComponent(segment);
  if (/^\d+$/.test(s)) return true;
  if (/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(s)) return true;
  if (/^[0-9a-f]{16,}$/i.test(s)) return true;
  // Generated names and ids mix letters and digits and are long: `job_3f9a…`, `req-20240101…`.
  return s.length >= 12 && /\d/.test(s) && /[a-z]/i.test(s) && !/^v\d+$/.test(s);
}

/** `GET /api/v2/jobs/{}`: the method and the path with every identity segment reduced. */
export function templateOf(method: string, url: string): string {
  const u = new URL(url);
  return `${method.toUpperCase()} ${u.pathname.split('/').map((seg) => (seg && isIdentity(seg) ? '{}' : seg)).join('/')}`;
}

// A redacted signed URL must stay a URL: the checks replayed against it validate
// `format: uri`, which `[REDACTED]` would break.
const scrub = (text: string): string => redactMessage(text).split(REDACTED).join('REDACTED');

const TEXTUAL = /json|text|xml|html|javascript|x-www-form-urlencoded|event-stream/i;

function bodyOf(buf: Buffer, contentType: string | undefined): { body: string; bodyEncoding?: 'base64' } {
  return TEXTUAL.test(contentType ?? '') ? { body: scrub(buf.toString('utf8')) } : { body: buf.toString('base64'), bodyEncoding: 'base64' };
}

function requestBody(req: HttpRequest): Pick<TapeEntry['request'], 'body' | 'bodyEncoding' | 'mimeType'> {
  if (req.json !== undefined) return { body: scrub(JSON.stringify(req.json)), mimeType: 'application/json' };
  if (req.form) {
    const text = req.form.map(([n, v]) => (typeof v === 'string' ? `${n}=${v}` : `${n}=<file ${v.filename}, ${v.contentType}, ${v.data.byteLength} bytes>`)).join('\n');
    return { body: scrub(text), mimeType: 'multipart/form-data' };
  }
  if (req.rawBody !== undefined) {
    return typeof req.rawBody === 'string' ? { body: scrub(req.rawBody) } : { body: Buffer.from(req.rawBody).toString('base64'), bodyEncoding: 'base64' };
  }
  return {};
}

function redactedHeaders(h: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(h).map(([k, v]) => [k, redactHeader(k, v).split(REDACTED).join('REDACTED')]));
}

// --- the test an exchange belongs to -------------------------------------------------

let scope = '';

/** Set by the test fixture at the start of each test: `<project> › <title path>`. */
export function setCassetteScope(next: string): void {
  scope = next;
  const t = cassette();
  if (!t) return;
  seedRandomness(`${process.env.FC_SEED ?? ''}\0${next}`);
  if (t.mode === 'replay') t.enterScope(next);
}

// --- recording -----------------------------------------------------------------------

class Recording {
  readonly mode = 'record' as const;
  private readonly file: string;
  constructor(dir: string) {
    mkdirSync(dir, { recursive: true });
    this.file = path.join(dir, `worker-${process.pid}.jsonl`);
  }
  keep(req: HttpRequest, res: HttpResponse | undefined, error?: string): void {
    const entry: TapeEntry = {
      scope,
      key: templateOf(req.method, req.url),
      started: new Date(Date.now() - (res?.elapsedMs ?? 0)).toISOString(),
      request: { method: req.method, url: scrub(req.url), headers: redactedHeaders(req.headers), ...requestBody(req) },
      ...(res
        ? { response: { status: res.status, headers: redactedHeaders(res.headers), ...bodyOf(res.body, res.headers['content-type']), truncated: res.truncated, elapsedMs: Math.round(res.elapsedMs) } }
        : {}),
      ...(error ? { error: scrub(error) } : {}),
    };
    appendFileSync(this.file, `${JSON.stringify(entry)}\n`);
  }
  answer(): never {
    throw new Error('a recording cassette does not answer');
  }
}

// --- replaying -----------------------------------------------------------------------

const realNow = Date.now.bind(Date);

class Replay {
  readonly mode = 'replay' as const;
  private readonly byScope = new Map<string, TapeEntry[]>();
  private readonly used = new Set<TapeEntry>();
  constructor(entries: TapeEntry[]) {
    for (const e of entries) {
      const list = this.byScope.get(e.scope) ?? [];
      list.push(e);
      this.byScope.set(e.scope, list);
    }
  }

  // Checks compare server times (expires_at, signed URL expiry) with the clock; in a
  // replay the clock is set back to when the test was recorded, so they judge the
  // answers as they judged them then.
  enterScope(name: string): void {
    const first = this.byScope.get(name)?.[0];
    const offset = first ? realNow() - Date.parse(first.started) : 0;
    Date.now = () => realNow() - offset;
  }

  keep(): void {}

  answer(req: HttpRequest): HttpResponse {
    const key = templateOf(req.method, req.url);
    const candidates = (this.byScope.get(scope) ?? []).filter((e) => e.key === key && !this.used.has(e));
    const body = requestBody(req).body;
    const entry = candidates.find((e) => body !== undefined && e.request.body === body) ?? candidates[0];
    if (!entry) throw new SuiteError(`not in the cassette: ${key} (test "${scope}") has no recorded answer left`);
    this.used.add(entry);
    if (!entry.response) throw new SuiteError(entry.error ?? `the recorded exchange ${key} had no answer`);
    const r = entry.response;
    return {
      status: r.status,
      headers: { ...r.headers },
      body: r.bodyEncoding === 'base64' ? Buffer.from(r.body, 'base64') : Buffer.from(r.body, 'utf8'),
      truncated: r.truncated,
      elapsedMs: r.elapsedMs,
    };
  }
}

let active: Recording | Replay | undefined;
let decided = false;

/** The cassette of this run, if it records or replays; undefined for an ordinary run. */
export function cassette(): Recording | Replay | undefined {
  if (decided) return active;
  decided = true;
  if (process.env.CONFORMANCE_REPLAY) {
    active = new Replay(readTape(process.env.CONFORMANCE_REPLAY));
  } else if (process.env.CONFORMANCE_RECORD_DIR) {
    active = new Recording(process.env.CONFORMANCE_RECORD_DIR);
  }
  return active;
}

export function replaying(): boolean {
  return !!process.env.CONFORMANCE_REPLAY;
}

/** The exchanges of a HAR file written by `--record` (lib/har.ts). */
export function readTape(file: string): TapeEntry[] {
  return fromHar(JSON.parse(readFileSync(file, 'utf8')) as Har);
}
