// Check results as values. Every check of a rule yields one result; a test collects
// them in a ResultLog, and the reporter builds the rule x surface matrix from these
// values alone (never from message text). A broken check does not end its test: the
// checks after it still run, and the test fails at its end listing every broken rule.
// Only a step the rest truly needs (an upload, a submit, a response whose contract
// broke) stops the test, and the rules it leaves unjudged are reported blocked by it.

export type Outcome = 'held' | 'broken' | 'blocked' | 'not_judged';

/** The exchange a check looked at, as a server engineer reads it (credentials redacted). */
export interface ExchangeRef {
  operationId?: string;
  method: string;
  url: string;
  status?: number;
  /** The server's own error code and message, when the answer carried them. */
  code?: string;
  message?: string;
  /** A copy-paste reproduction. */
  curl?: string;
}

export interface CheckResult {
  rule: string;
  outcome: Outcome;
  /** What was looked at ("created_new on a second upload of the same bytes"). */
  what: string;
  expected?: string;
  received?: string;
  /** For `blocked`: the step the rule's checks needed, and why it did not complete. */
  step?: string;
  /** For `blocked`: the rules whose broken checks stopped that step, if that is what stopped it. */
  by?: string[];
  exchange?: ExchangeRef;
}

/** Thrown to end a test at a step the rest depends on; the step is already recorded. */
export class Stop extends Error {
  override name = 'Stop';
  constructor(
    readonly step: string,
    message: string,
  ) {
    super(message);
  }
}

export interface PropertyRun {
  title: string;
  seed: number;
  path?: string;
  planned: number;
  ran: number;
  interrupted: boolean;
}

export class ResultLog {
  readonly results: CheckResult[] = [];
  readonly properties: PropertyRun[] = [];
  /** The first step that stopped the test, if one did. */
  stoppedAt?: { step: string; why: string; by?: string[] };
  /**
   * Set by the fixture when a harness judges tests by their results alone (fixtures/harness.ts):
   * ends the test at its stopped step as skipped rather than failed, its results saying why,
   * so that Playwright keeps the worker. Throws.
   */
  endQuietly?: (why: string) => never;
  /** Whether the test ended through endQuietly. */
  endedQuietly = false;
  /** Inside a property's predicate a broken check throws, so fast-check sees the counterexample. */
  private strictDepth = 0;

  get strict(): boolean {
    return this.strictDepth > 0;
  }

  /**
   * Set when the test read past an answer whose contract broke (lib/api.ts ApiResponse):
   * the test stops there, and should a helper swallow that stop (a `try { res.json() }`),
   * nothing it judges after stands on an answer that cannot be relied on, so it is not
   * recorded, and the test still ends stopped at that answer (fixtures/evidence.ts).
   */
  readPastBroken?: string;

  /**
   * Set once the test's results went to the reporter (fixtures/evidence.ts): a check that
   * work the test left running makes later is the ended test's, and no other test's; it is
   * dropped here.
   */
  ended = false;

  record(result: CheckResult): void {
    if (this.readPastBroken !== undefined || this.ended) return;
    this.results.push(result);
  }

  noteStop(step: string, why: string, by?: string[]): void {
    this.stoppedAt ??= { step, why, ...(by?.length ? { by } : {}) };
  }

  async strictly<T>(fn: () => Promise<T>): Promise<T> {
    this.strictDepth++;
    try {
      return await fn();
    } finally {
      this.strictDepth--;
    }
  }

  broken(): CheckResult[] {
    return this.results.filter((r) => r.outcome === 'broken');
  }
}

const quietEnds = new WeakSet<object>();

/** The error that ends a test at a step already noted (`noteStop`): a Stop, or a quiet end (ResultLog.endQuietly). */
export function stopError(step: string, message: string): Error {
  const log = active;
  if (log?.endQuietly && !log.strict) {
    log.endedQuietly = true;
    try {
      log.endQuietly(message);
    } catch (end) {
      if (typeof end === 'object' && end !== null) quietEnds.add(end);
      return end as Error;
    }
  }
  return new Stop(step, message);
}

/** Whether `err` is a quiet end (stopError): pass it on untouched. */
export function isQuietEnd(err: unknown): boolean {
  return typeof err === 'object' && err !== null && quietEnds.has(err);
}

// One test runs at a time in a Playwright worker, so the log of the running test is
// process state, set and cleared by the fixture. Outside a test (unit tests, the load
// runner) there is no log, and a broken check throws at once.
let active: ResultLog | undefined;

export function activeLog(): ResultLog | undefined {
  return active;
}

export function setActiveLog(log: ResultLog | undefined): void {
  active = log;
}

/** Per-rule counts, the evidence a cell of the matrix stands on. */
export interface Evidence {
  held: number;
  broken: number;
  blocked: number;
}

/** What one test hands the reporter: a JSON attachment of this name and shape. */
export const RESULTS_ATTACHMENT = 'conformance-results.json';

export interface TestEvidence {
  results: CheckResult[];
  properties: PropertyRun[];
  /** `operationId status` pairs the test's exchanges covered. */
  coverage: string[];
}
