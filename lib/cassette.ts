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
// request with no recorded answer ends in an error, "not in the recording: <method>
// <url>", never in a made-up answer, and never in a request to the network.
//
// WebSocket connections (the v1 stream) are recorded too: the upgrade's outcome and
// every frame received, each with its arrival time and the number of HTTP exchanges
// the test had completed when it arrived (`after`). A replay opens no socket: it hands
// the session the recorded outcome and delivers the frames in recorded order, each once
// the replayed test has completed as many exchanges as the recording had when the frame
// came, with its recorded arrival time. A frame is thus never seen before an answer that
// preceded it, and time-based checks (prompts running at once) judge the recorded times.
import { EventEmitter } from 'node:events';
import { appendFileSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { HttpRequest, HttpResponse } from './http-types.ts';
import type { TapeEntry, WsItem } from './tape.ts';
import { REDACTED, redactHeader, redactMessage } from './redact.ts';
import { SuiteError } from './violations.ts';
import { fromHar, type Har } from './har.ts';
import { seedRandomness } from './seeded-random.ts';
import { runConfig } from './config/env.ts';
import { UUID_RE } from './values.ts';

export type { TapeEntry, WsItem };

/** A line of a worker's tape: an exchange (TapeEntry), or something that happened on a recorded WebSocket. */
type TapeLine = TapeEntry | { ws_event: WsItem & { id: string } };

/** The key of a WebSocket connection: `WS /ws` (never an HTTP method's). */
function wsKeyOf(url: string): string {
  return `WS ${new URL(url).pathname}`;
}

/** A path segment that names one record rather than a route: a UUID, a hash, a number, a generated name. */
function isIdentity(segment: string): boolean {
  const s = decodeURIComponent(segment);
  if (/^\d+$/.test(s)) return true;
  if (UUID_RE.test(s)) return true;
  if (/^[0-9a-f]{16,}$/i.test(s)) return true;
  // Generated names and ids mix letters and digits and are long: `job_3f9a…`, `req-20240101…`.
  return s.length >= 12 && /\d/.test(s) && /[a-z]/i.test(s) && !/^v\d+$/.test(s);
}

/** `GET /api/v2/jobs/{}`: the method and the path with every identity segment reduced. */
export function templateOf(method: string, url: string): string {
  const u = new URL(url);
  return `${method.toUpperCase()} ${u.pathname
    .split('/')
    .map((seg) => (seg && isIdentity(seg) ? '{}' : seg))
    .join('/')}`;
}

// A redacted signed URL must stay a URL: the checks replayed against it validate
// `format: uri`, which `[REDACTED]` would break.
const scrub = (text: string): string => redactMessage(text).split(REDACTED).join('REDACTED');

const TEXTUAL = /json|text|xml|html|javascript|x-www-form-urlencoded|event-stream/i;

function bodyOf(buf: Buffer, contentType: string | undefined): { body: string; bodyEncoding?: 'base64' } {
  return TEXTUAL.test(contentType ?? '')
    ? { body: scrub(buf.toString('utf8')) }
    : { body: buf.toString('base64'), bodyEncoding: 'base64' };
}

function requestBody(req: HttpRequest): Pick<TapeEntry['request'], 'body' | 'bodyEncoding' | 'mimeType'> {
  if (req.json !== undefined) return { body: scrub(JSON.stringify(req.json)), mimeType: 'application/json' };
  if (req.form) {
    const text = req.form
      .map(([n, v]) =>
        typeof v === 'string' ? `${n}=${v}` : `${n}=<file ${v.filename}, ${v.contentType}, ${v.data.byteLength} bytes>`,
      )
      .join('\n');
    return { body: scrub(text), mimeType: 'multipart/form-data' };
  }
  if (req.rawBody !== undefined) {
    return typeof req.rawBody === 'string'
      ? { body: scrub(req.rawBody) }
      : { body: Buffer.from(req.rawBody).toString('base64'), bodyEncoding: 'base64' };
  }
  return {};
}

function redactedHeaders(h: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(h).map(([k, v]) => [k, redactHeader(k, v).split(REDACTED).join('REDACTED')]),
  );
}

// --- the test an exchange belongs to -------------------------------------------------

let scope = '';

/**
 * Set by the test fixture at the start of each test: `<project> › <title path>`. In a
 * recording or a replay it also seeds the randomness both share, from the scope and
 * `propertySeed` (the run's FC_SEED, which the fixture hands on).
 */
export function setCassetteScope(next: string, propertySeed?: number): void {
  scope = next;
  const t = cassette();
  if (!t) return;
  seedRandomness(`${propertySeed ?? ''}\0${next}`);
  t.enterScope(next);
}

/** How a WebSocket upgrade ended, as lib/ws/session.ts reports it. */
export type WsOutcome = { ok: true } | { ok: false; status: number | undefined; reason: string };

/** Where a recording WebSocket session reports what happens on it. */
export interface WsTap {
  sent(text: string): void;
  received(data: Buffer, isBinary: boolean, at: number): void;
  closed(code: number, reason: string): void;
  failed(message: string): void;
}

// --- recording -----------------------------------------------------------------------

class Recording {
  readonly mode = 'record' as const;
  private readonly file: string;
  /** HTTP exchanges completed in the current test. */
  private done = 0;
  private connections = 0;
  constructor(dir: string) {
    mkdirSync(dir, { recursive: true });
    this.file = path.join(dir, `worker-${process.pid}.jsonl`);
  }
  enterScope(): void {
    this.done = 0;
  }
  private write(line: TapeLine): void {
    appendFileSync(this.file, `${JSON.stringify(line)}\n`);
  }
  /** Records a WebSocket upgrade and its outcome; for an accepted one, returns where its frames are reported. */
  wsConnected(url: string, outcome: WsOutcome): WsTap | undefined {
    const id = `${process.pid}-${++this.connections}`;
    const opened = scope;
    this.write({
      scope,
      key: wsKeyOf(url),
      started: new Date().toISOString(),
      request: { method: 'GET', url: scrub(url), headers: {} },
      ...(outcome.ok
        ? { response: { status: 101, headers: {}, body: '', truncated: false, elapsedMs: 0 } }
        : outcome.status !== undefined
          ? { response: { status: outcome.status, headers: {}, body: '', truncated: false, elapsedMs: 0 } }
          : {}),
      ...(outcome.ok ? {} : { error: scrub(outcome.reason) }),
      ws: { id, items: [] },
    });
    if (!outcome.ok) return undefined;
    // A connection left open past its test records nothing more: its frames belong to no exchange count.
    const item = (x: Omit<WsItem, 'after' | 'at'> & { at?: number }): void => {
      if (scope === opened) this.write({ ws_event: { id, at: Date.now(), after: this.done, ...x } });
    };
    return {
      sent: (text) => item({ kind: 'send', opcode: 1, data: scrub(text) }),
      received: (data, isBinary, at) =>
        item({
          kind: 'receive',
          at,
          ...(isBinary
            ? { opcode: 2, data: data.toString('base64') }
            : { opcode: 1, data: scrub(data.toString('utf8')) }),
        }),
      closed: (code, reason) => item({ kind: 'close', code, reason: scrub(reason) }),
      failed: (message) => item({ kind: 'error', reason: scrub(message) }),
    };
  }
  keep(req: HttpRequest, res: HttpResponse | undefined, error?: string): void {
    this.done++;
    const entry: TapeEntry = {
      scope,
      key: templateOf(req.method, req.url),
      started: new Date(Date.now() - (res?.elapsedMs ?? 0)).toISOString(),
      request: { method: req.method, url: scrub(req.url), headers: redactedHeaders(req.headers), ...requestBody(req) },
      ...(res
        ? {
            response: {
              status: res.status,
              headers: redactedHeaders(res.headers),
              ...bodyOf(res.body, res.headers['content-type']),
              truncated: res.truncated,
              elapsedMs: Math.round(res.elapsedMs),
            },
          }
        : {}),
      ...(error ? { error: scrub(error) } : {}),
    };
    this.write(entry);
  }
  answer(): never {
    throw new Error('a recording cassette does not answer');
  }
}

// --- replaying -----------------------------------------------------------------------

const realNow = Date.now.bind(Date);

/**
 * The socket a replayed WebSocket session reads: it emits the recorded frames
 * (`message` with data, isBinary and the recorded arrival time), `close` and `error`,
 * and sends nothing anywhere.
 */
export class ReplaySocket extends EventEmitter {
  open = true;
  terminate(): void {
    if (!this.open) return;
    this.open = false;
    setImmediate(() => this.emit('close', 1006, Buffer.alloc(0)));
  }
}

/** A recorded frame (or close, or error) waiting for its turn, with the connection it came on. */
interface Pending {
  entry: TapeEntry;
  item: WsItem;
}

/**
 * Which unused recorded exchange of the same path template answers a replayed request: one
 * made to the same URL first, then the one whose body is most like this request's (a body
 * holding a fresh random value differs from its recording only there), then the earliest.
 * Concurrent requests that share a template (two queued requests' status reads, two submits
 * to one model) may reach the replay in another order than they reached the server; this
 * keeps each with its own answer.
 */
export function recordedAnswerFor(candidates: TapeEntry[], req: HttpRequest): TapeEntry | undefined {
  const url = scrub(req.url);
  const body = requestBody(req).body;
  let best: TapeEntry | undefined;
  let bestScore = -1;
  for (const e of candidates) {
    const score = (e.request.url === url ? 2 : 0) + likeness(body, e.request.body);
    if (score > bestScore) [best, bestScore] = [e, score];
  }
  return best;
}

/** How alike two request bodies are, 0 to 1: the share of the longer one their common start and end cover (1: equal). */
function likeness(a: string | undefined, b: string | undefined): number {
  if (a === undefined || b === undefined) return a === b ? 1 : 0;
  if (a === b) return 1;
  const n = Math.min(a.length, b.length);
  let head = 0;
  while (head < n && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < n - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  // Below 1 for any two bodies that differ, so an equal body always wins.
  return (head + tail) / (Math.max(a.length, b.length) + 1);
}

/** A replay that sees no exchange happen for this long lets the next recorded frame through anyway (the test is waiting for it). */
const QUIET_RELEASE_MS = 1_500;

/** `GET /api/v2/jobs/…?…` with every secret the run knows replaced. */
const shown = (method: string, url: string): string => `${method.toUpperCase()} ${scrub(url)}`;

class Replay {
  readonly mode = 'replay' as const;
  private readonly byScope = new Map<string, TapeEntry[]>();
  private readonly used = new Set<TapeEntry>();
  /** HTTP exchanges answered in the current test. */
  private answered = 0;
  /** The current test's recorded frames not yet delivered, in arrival order. */
  private pending: Pending[] = [];
  private readonly sockets = new Map<TapeEntry, ReplaySocket>();
  private quiet: NodeJS.Timeout | undefined;
  private releaseSoon = false;
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
    const entries = this.byScope.get(name) ?? [];
    const first = entries[0];
    const offset = first ? realNow() - Date.parse(first.started) : 0;
    Date.now = () => realNow() - offset;
    this.answered = 0;
    for (const socket of this.sockets.values()) socket.terminate();
    this.sockets.clear();
    // Stable: items of one connection keep their order, connections interleave by time.
    this.pending = entries
      .flatMap((entry) =>
        (entry.ws?.items ?? []).filter((item) => item.kind !== 'send').map((item) => ({ entry, item })),
      )
      .sort((a, b) => a.item.at - b.item.at);
    if (this.quiet) clearTimeout(this.quiet);
    this.quiet = undefined;
  }

  keep(): void {}

  answer(req: HttpRequest): HttpResponse {
    const key = templateOf(req.method, req.url);
    const candidates = (this.byScope.get(scope) ?? []).filter((e) => e.key === key && !e.ws && !this.used.has(e));
    const entry = recordedAnswerFor(candidates, req);
    if (!entry)
      throw new SuiteError(
        `not in the recording: ${shown(req.method, req.url)} (test "${scope}" has no recorded answer left for ${key})`,
      );
    this.used.add(entry);
    // Frames that came before this exchange was answered reach the test before its answer does.
    this.release(false);
    this.answered++;
    this.schedule();
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

  /**
   * The recorded outcome of the test's next WebSocket upgrade to this path, and for an
   * accepted one the socket its frames will arrive on. No socket is opened.
   */
  connectWs(url: string): { outcome: WsOutcome; socket?: ReplaySocket } {
    const key = wsKeyOf(url);
    const mine = (this.byScope.get(scope) ?? []).filter((e) => e.ws);
    const entry = mine.find((e) => e.key === key && !this.used.has(e));
    if (!entry) {
      throw new SuiteError(
        `not in the recording: ${shown('GET', url)} (test "${scope}": ` +
          (mine.length === 0
            ? 'the recording holds no WebSocket connection of this test'
            : `its ${mine.length} recorded WebSocket connection(s) are used up`) +
          ')',
      );
    }
    this.used.add(entry);
    const status = entry.response?.status;
    if (status !== 101)
      return { outcome: { ok: false, status, reason: entry.error ?? `the upgrade was answered ${status}` } };
    const socket = new ReplaySocket();
    this.sockets.set(entry, socket);
    this.schedule();
    return { outcome: { ok: true }, socket };
  }

  /**
   * Delivers the recorded frames whose turn has come, in order: a frame waits for the
   * exchanges that preceded it, and for its connection to be opened; one whose
   * connection the test already closed is dropped. `anyway` lets the next step of the
   * recording through (the frames that came at the same count) whatever the count: the
   * test has been waiting for them. True when something was delivered.
   */
  private release(anyway: boolean): boolean {
    let delivered = false;
    let step: number | undefined;
    while (this.pending.length > 0) {
      const { entry, item } = this.pending[0];
      const socket = this.sockets.get(entry);
      if (!socket) {
        if (this.used.has(entry)) {
          this.pending.shift();
          continue;
        }
        return delivered;
      }
      if (!socket.open) {
        this.pending.shift();
        continue;
      }
      if (item.after > this.answered && !(anyway && (step === undefined || step === item.after))) return delivered;
      step = item.after;
      delivered = true;
      this.pending.shift();
      if (item.kind === 'receive') {
        const data = item.opcode === 2 ? Buffer.from(item.data ?? '', 'base64') : Buffer.from(item.data ?? '', 'utf8');
        socket.emit('message', data, item.opcode === 2, item.at);
      } else if (item.kind === 'close') {
        socket.open = false;
        socket.emit('close', item.code ?? 1005, Buffer.from(item.reason ?? ''));
      } else {
        socket.emit('error', new Error(item.reason ?? 'the recorded connection failed'));
      }
    }
    return delivered;
  }

  /** Delivers what is due once the test's current step has run, and watches for a test left waiting. */
  private schedule(): void {
    if (!this.releaseSoon) {
      this.releaseSoon = true;
      setImmediate(() => {
        this.releaseSoon = false;
        this.release(false);
      });
    }
    if (this.quiet) clearTimeout(this.quiet);
    this.quiet = undefined;
    if (this.pending.length === 0) return;
    this.quiet = setTimeout(() => {
      this.quiet = undefined;
      if (this.release(true)) this.schedule();
    }, QUIET_RELEASE_MS);
    this.quiet.unref();
  }
}

let active: Recording | Replay | undefined;
let decided = false;

/** The cassette of this run, if it records or replays; undefined for an ordinary run. */
export function cassette(): Recording | Replay | undefined {
  if (decided) return active;
  decided = true;
  const { replay, recordDir } = runConfig().run;
  if (replay) {
    active = new Replay(readTape(replay));
  } else if (recordDir) {
    active = new Recording(recordDir);
  }
  return active;
}

// --- what stands in for a credential on replay ------------------------------------------

const b64url = (text: string): string => Buffer.from(text).toString('base64url');

/**
 * The stand-in for one credential variable on replay: no part of the secret, only its
 * form, so a replay takes the same paths as the recording (a bearer with the API-key
 * prefix is sent as an API key, a JWT as a JWT). A compact JWT becomes an unsigned one;
 * a value starting with a prefix the target declares (`api_key_prefix`, or one of
 * `prefixes`) keeps that prefix; anything else is a plain placeholder.
 */
export function placeholderFor(variable: string, value: string, prefixes: string[]): string {
  const name = `replayed-placeholder-${variable.toLowerCase()}`;
  if (/^eyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/.test(value)) {
    return `${b64url(JSON.stringify({ alg: 'none', typ: 'JWT' }))}.${b64url(JSON.stringify({ sub: name }))}.${b64url(name)}`;
  }
  const prefix = prefixes.filter((p) => p !== '' && value.startsWith(p)).sort((a, b) => b.length - a.length)[0];
  return prefix ? `${prefix}${name}` : name;
}

type Raw = Record<string, unknown>;

/** Each credential variable's value, read back from a resolved target: the surface entry as written beside what it resolved to. */
function valuesOf(raw: Raw, resolved: Raw, out: Record<string, string>): void {
  for (const [key, value] of Object.entries(raw)) {
    if (key.endsWith('_env') && typeof value === 'string') {
      const got = resolved[key.slice(0, -4)];
      if (typeof got === 'string') out[value] = got;
    } else if (value && typeof value === 'object' && !Array.isArray(value)) {
      const inner = resolved[key];
      if (inner && typeof inner === 'object' && !Array.isArray(inner)) valuesOf(value as Raw, inner as Raw, out);
    }
  }
}

/** The stand-in of every credential variable a target used, for a recording's `placeholders`. */
export function placeholdersOf(
  target: {
    surfaces: Array<{ surface: string; token?: string; scenario: Raw }>;
    recipe: { entry: Raw; variables: string[] };
  },
  defaultPrefixes: string[],
): Record<string, string> {
  const values: Record<string, string> = {};
  const written = (target.recipe.entry.surfaces ?? {}) as Record<string, Raw>;
  for (const s of target.surfaces) valuesOf(written[s.surface] ?? {}, { token: s.token, scenario: s.scenario }, values);
  const prefixes = [
    ...defaultPrefixes,
    ...target.surfaces.flatMap((s) =>
      typeof s.scenario.api_key_prefix === 'string' ? [s.scenario.api_key_prefix] : [],
    ),
  ];
  return Object.fromEntries(target.recipe.variables.map((v) => [v, placeholderFor(v, values[v] ?? '', prefixes)]));
}

/** A recording's entries from the workers' tape lines: each WebSocket event joins its connection. */
export function joinTape(lines: string[]): TapeEntry[] {
  const entries: TapeEntry[] = [];
  const connections = new Map<string, TapeEntry>();
  for (const line of lines) {
    const x = JSON.parse(line) as TapeLine;
    if ('ws_event' in x) {
      const { id, ...item } = x.ws_event;
      connections.get(id)?.ws?.items.push(item);
      continue;
    }
    entries.push(x);
    if (x.ws) connections.set(x.ws.id, x);
  }
  return entries;
}

/** The exchanges of a HAR file written by `--record` (lib/har.ts). */
function readTape(file: string): TapeEntry[] {
  return fromHar(JSON.parse(readFileSync(file, 'utf8')) as Har);
}
