// The passive judge: every exchange a client made, judged as it passed with every check
// that needs no request of its own. Nothing here is a rule of its own: the contract and
// the always-on checks are lib/contracts/judge.ts (the api client's judgement), WebSocket
// messages lib/ws/session.ts's judgeReceived, and the stateful rules (lib/passive/state.ts)
// call the functions the specs call. The results land in a ResultLog as a test's would,
// so the report is built from result values by report/matrix.ts and report/summary.ts.
import { ApiResponse } from '../api.ts';
import { matchOperation, loadContract, type Contract, type OperationSpec } from '../contracts/loader.ts';
import { judgeAnswer } from '../contracts/judge.ts';
import { FAMILY_CONTRACTS, type ResponseCheck } from '../contracts/registry.ts';
import { familiesOn, type Family, type Surface } from '../families.ts';
import type { HttpRequest, HttpResponse } from '../http-types.ts';
import type { Exchange } from '../recorder.ts';
import { refOf } from '../repro.ts';
import { Redactor, useForMessages } from '../redact.ts';
import { activeLog, ResultLog, setActiveLog, type CheckResult, type ExchangeRef } from '../results.ts';
import { ruleOrThrow } from '../rules.ts';
import { judgeReceived } from '../ws/session.ts';
import { PassiveState } from './state.ts';
import type { Observed, ObservedWsMessage } from './observed.ts';

/** An answer a passive check reads: the api client's, with its exchange reference built once. */
export class ObservedAnswer extends ApiResponse {
  private cachedRef: ExchangeRef | undefined;
  constructor(
    operationId: string | undefined,
    method: string,
    url: string,
    raw: HttpResponse,
    parsed: unknown,
    private readonly ex: Exchange,
  ) {
    super(operationId, method, url, raw, parsed, ex);
  }
  override get ref(): ExchangeRef {
    this.cachedRef ??= refOf(this.ex);
    return this.cachedRef;
  }
}

export interface PassiveOptions {
  surface: Surface;
  /** The server's base URL: only exchanges under it are judged (for a HAR without it, any host whose paths match). */
  baseUrl?: string;
  brand?: string;
  /** The target's scenario inputs (job state names and the like), when a targets entry gave them. */
  scenario?: Readonly<Record<string, unknown>>;
}

/** Per rule: how many exchanges (a WebSocket connection counts once) exercised it, and its results by outcome. */
export interface RuleTally {
  exchanges: number;
  /** The exchange that last exercised it (results of one exchange come together). */
  lastSeq: number;
  held: number;
  broken: number;
  /** Results that could not judge it (not_judged, blocked). */
  notes: number;
}

/** An exchange the judge could not place: another host, or a path no operation of the surface has. */
export interface Unplaced {
  method: string;
  url: string;
  status?: number;
  why: string;
}

interface FamilyContract {
  family: Family;
  contract: Contract;
  checks: ReadonlyArray<ResponseCheck>;
}

const TEXTUAL = /json|text|xml|x-www-form-urlencoded|event-stream/i;
/** Request headers that carry a credential by name; their values are redacted everywhere. */
const CREDENTIAL_HEADERS =
  /^(authorization|x-api-key|cookie|proxy-authorization)$|secret|token|api-key|credential|password/i;
const UNPLACED_KEPT = 200;
/** Findings (and not-judged notes) kept as values per rule; the rest are counted. */
const KEPT_PER_RULE = 20;

export class PassiveJudge {
  readonly surface: Surface;
  readonly results: Array<CheckResult & { seq: number }> = [];
  readonly tally = new Map<string, RuleTally>();
  readonly unplaced: Unplaced[] = [];
  /** `operationId status` (and `… code`) pairs seen, for contract coverage. */
  readonly coverage = new Set<string>();
  exchanges = 0;
  judged = 0;
  unplacedCount = 0;
  private readonly families: FamilyContract[];
  private readonly base: URL | undefined;
  private readonly basePath: string;
  private readonly secrets = new Set<string>();
  private redactor = new Redactor([]);
  private readonly state: PassiveState;
  private readonly wsPrompts = new Map<number, Set<string>>();
  /** Called after each result is kept (the proxy's live line). */
  onResult?: (r: CheckResult) => void;

  constructor(opts: PassiveOptions) {
    this.surface = opts.surface;
    this.base = opts.baseUrl ? new URL(opts.baseUrl) : undefined;
    this.basePath = this.base ? this.base.pathname.replace(/\/+$/, '') : '';
    const brand = opts.brand ?? 'Comfy';
    this.families = familiesOn(opts.surface).flatMap((family) => {
      const c = FAMILY_CONTRACTS[family];
      return c ? [{ family, contract: loadContract(c.file, brand, c.rulePrefix), checks: c.checks }] : [];
    });
    this.state = new PassiveState(opts.scenario ?? {});
    useForMessages(this.redactor);
  }

  /** The redactor of everything this judge writes: the credentials seen so far, and every credential-shaped value. */
  get redact(): Redactor {
    return this.redactor;
  }

  /** Credentials a request carried, so no report, curl or line shows them. */
  private learnSecrets(ex: Observed): void {
    const found: string[] = [];
    for (const [name, value] of Object.entries(ex.requestHeaders)) {
      if (!CREDENTIAL_HEADERS.test(name)) continue;
      found.push(value, value.replace(/^(Bearer|Basic|Token)\s+/i, ''));
    }
    try {
      for (const [k, v] of new URL(ex.url).searchParams) if (/token|key|secret|signature/i.test(k)) found.push(v);
    } catch {
      // not a URL: nothing to learn
    }
    const fresh = found.filter((v) => v.length >= 4 && !this.secrets.has(v));
    if (fresh.length === 0) return;
    for (const v of fresh) this.secrets.add(v);
    this.redactor = new Redactor(this.secrets);
    useForMessages(this.redactor);
  }

  /** The path of a URL relative to the server's base, or why it is not the server's. */
  private place(url: string): { path: string } | { why: string } {
    let u: URL;
    try {
      u = new URL(url);
    } catch {
      return { why: 'not an absolute URL' };
    }
    if (!this.base) return { path: u.pathname };
    if (u.origin !== this.base.origin) return { why: `another host (${u.origin})` };
    if (this.basePath && !(u.pathname === this.basePath || u.pathname.startsWith(`${this.basePath}/`)))
      return { why: `outside the base path ${this.basePath}` };
    return { path: u.pathname.slice(this.basePath.length) || '/' };
  }

  private operationFor(method: string, path: string): { fc: FamilyContract; op: OperationSpec } | undefined {
    for (const fc of this.families) {
      const op = matchOperation(fc.contract, method, path);
      if (op && (!op.surfaces || op.surfaces.includes(this.surface))) return { fc, op };
    }
    return undefined;
  }

  private exchangeOf(ex: Observed, op: OperationSpec | undefined): Exchange {
    const body = ex.requestBody;
    const textual =
      body !== undefined && body.length <= 64 * 1024 && TEXTUAL.test(ex.requestHeaders['content-type'] ?? '');
    const request: HttpRequest = {
      method: ex.method,
      url: ex.url,
      headers: ex.requestHeaders,
      ...(body !== undefined && body.length > 0
        ? { rawBody: textual ? body.toString('utf8') : new Uint8Array(body) }
        : {}),
      timeoutMs: 0,
      maxBodyBytes: 0,
    };
    return {
      ...(op ? { operationId: op.id } : {}),
      request,
      ...(ex.response ? { response: { ...ex.response } } : {}),
      ...(ex.error ? { error: ex.error } : {}),
    };
  }

  private noteUnplaced(ex: Observed, why: string): void {
    this.unplacedCount++;
    if (this.unplaced.length < UNPLACED_KEPT)
      this.unplaced.push({
        method: ex.method,
        url: this.redactor.text(ex.url),
        ...(ex.response ? { status: ex.response.status } : {}),
        why,
      });
  }

  /** Runs checks with a log of their own and keeps what they recorded, each result tied to this exchange. */
  private collect(seq: number, fallback: ExchangeRef | undefined, fn: () => void): void {
    const previous = activeLog();
    const log = new ResultLog();
    setActiveLog(log);
    try {
      fn();
    } finally {
      setActiveLog(previous);
    }
    for (const r of log.results)
      this.keep({ ...r, ...(r.exchange || !fallback || r.outcome === 'held' ? {} : { exchange: fallback }) }, seq);
  }

  private keep(r: CheckResult, seq: number): void {
    let t = this.tally.get(r.rule);
    if (!t) this.tally.set(r.rule, (t = { exchanges: 0, lastSeq: -1, held: 0, broken: 0, notes: 0 }));
    // A proxy may run for hours: every result is counted (the tally), but only the first
    // held result of a rule, and its first findings, are kept as values (the report's cells
    // take their evidence counts from the tally). A held result needs no reproduction.
    const keptOfRule = r.outcome === 'held' ? t.held : r.outcome === 'broken' ? t.broken : t.notes;
    if (keptOfRule < (r.outcome === 'held' ? 1 : KEPT_PER_RULE))
      this.results.push({ ...(r.outcome === 'held' ? { rule: r.rule, outcome: r.outcome, what: r.what } : r), seq });
    if (t.lastSeq !== seq) t.exchanges++;
    t.lastSeq = seq;
    if (r.outcome === 'held') t.held++;
    if (r.outcome === 'broken') t.broken++;
    if (r.outcome !== 'held' && r.outcome !== 'broken') t.notes++;
    this.onResult?.(r);
  }

  /** Judges one HTTP exchange (or a WebSocket upgrade, whose messages come through `wsMessage`). */
  exchange(ex: Observed): void {
    this.exchanges++;
    this.learnSecrets(ex);
    const placed = this.place(ex.url);
    if ('why' in placed) return this.noteUnplaced(ex, placed.why);
    if (ex.ws) {
      if (this.families.some((f) => f.family === 'v1') && placed.path === '/ws') {
        this.judged++;
        this.wsPrompts.set(ex.seq, new Set());
        this.state.wsOpened(ex.seq, ex.started);
        return;
      }
      return this.noteUnplaced(ex, 'a WebSocket on a path this surface serves none on');
    }
    const found = this.operationFor(ex.method, placed.path);
    if (!found)
      return this.noteUnplaced(ex, `no operation of the ${this.surface} surface has ${ex.method} ${placed.path}`);
    const { fc, op } = found;
    if (!ex.response) return this.noteUnplaced(ex, `no answer: ${ex.error ?? 'the exchange ended before its answer'}`);
    const response = ex.response;
    // A body cut short (by its size, or by a reader that went away) is no body to judge a
    // contract on; what it carries may still feed the stateful rules (an event stream).
    const whole = ex.cut === undefined && !response.truncated;
    const exchange = this.exchangeOf(ex, op);
    this.judged++;
    this.coverage.add(`${op.id} ${response.status}`);
    // An operation only the public documents give may be missing: the server does not offer it.
    if (
      op.mayBeAbsent &&
      (response.status === 405 || (response.status === 404 && !/json/i.test(response.headers['content-type'] ?? '')))
    )
      return;
    let answer: ObservedAnswer | undefined;
    this.collect(ex.seq, undefined, () => {
      if (whole) {
        const judged = judgeAnswer(fc.contract, fc.checks, op, ex.method, response);
        answer = new ObservedAnswer(op.id, ex.method, ex.url, response, judged.json, exchange);
        const code = answer.errorCode;
        if (code && response.status >= 400) this.coverage.add(`${op.id} ${response.status} ${code}`);
        for (const rule of judged.held)
          activeLog()!.record({ rule, outcome: 'held', what: `the contract of ${op.id} ${response.status}` });
        for (const f of judged.findings) {
          ruleOrThrow(f.rule);
          const what = f.summary.startsWith(`${op.id} `) ? f.summary : `${op.id} ${response.status}: ${f.summary}`;
          activeLog()!.record({
            rule: f.rule,
            outcome: 'broken',
            what,
            expected: f.expected,
            received: f.received,
            exchange: answer.ref,
          });
        }
        // An answer whose contract broke in a way that leaves it unusable is not read further.
        if (judged.findings.some((f) => !f.usable && ruleOrThrow(f.rule).level === 'MUST')) return;
      } else {
        answer = new ObservedAnswer(op.id, ex.method, ex.url, response, undefined, exchange);
      }
      this.state.answer(fc.family, op, answer, ex, whole);
    });
  }

  /** Judges one WebSocket message of connection `seq` (an upgrade `exchange` placed first). */
  wsMessage(seq: number, upgrade: Observed, m: ObservedWsMessage): void {
    const prompts = this.wsPrompts.get(seq);
    if (!prompts || m.dir !== 'receive') return;
    const ref = this.exchangeRefOf(upgrade);
    this.collect(seq, ref, () => {
      const judged = judgeReceived(m.data, m.binary, m.at);
      if (judged.received?.kind === 'text') this.state.wsText(seq, judged.received.message, m.at);
    });
  }

  /** A WebSocket connection ended: its prompts' streams are complete. */
  wsClosed(seq: number, upgrade: Observed): void {
    if (!this.wsPrompts.has(seq)) return;
    this.wsPrompts.delete(seq);
    this.collect(seq, this.exchangeRefOf(upgrade), () => this.state.wsClosed(seq));
  }

  /** The end of the run: judges what only the whole run shows (streams still open are complete as far as they went). */
  finish(): void {
    this.collect(0, undefined, () => this.state.finish());
  }

  private exchangeRefOf(ex: Observed): ExchangeRef {
    return refOf(this.exchangeOf(ex, undefined));
  }

  /** Rules judged so far (held or broken at least once), and how many findings. */
  counts(): { rules: number; findings: number; must: number } {
    let findings = 0;
    let must = 0;
    for (const [rule, t] of this.tally) {
      if (t.broken === 0) continue;
      findings += t.broken;
      if (ruleOrThrow(rule).level === 'MUST') must += t.broken;
    }
    return { rules: [...this.tally.values()].filter((t) => t.held + t.broken > 0).length, findings, must };
  }
}
