// The explorer's walk of one operation: fast-check draws the requests (lib/explore/requests.ts)
// from a seed, each is sent through the contract-validating client (lib/api.ts judges every
// answer against the contract and the family's always-on checks, so no answer goes
// unjudged), and the family's invariants judge what the contract alone cannot: no 5xx for a
// mistake a rule says is refused, and the same status class for the same mistake.
//
// Every request is judged; the results are folded so that the report keeps one broken
// result per distinct failure (rule, mistake, status), with its reproduction: the curl of
// the first exchange that showed it and the seed and path that send it again
// (FC_SEED=<seed> FC_PATH=<run> FC_NUM_RUNS=1, narrowed to the operation with --grep).
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import type { TestInfo } from '@playwright/test';
import type { ApiClient, ApiResponse } from '../api.ts';
import { responseFor, type Contract } from '../contracts/loader.ts';
import { check } from '../check.ts';
import { activeLog, ResultLog, setActiveLog, Stop, type CheckResult } from '../results.ts';
import { ruleOrThrow } from '../rules.ts';
import type { RuleId } from '../rule-ids.ts';
import type { RunProfile } from '../profile.ts';
import type { Surface } from '../families.ts';
import { SuiteError } from '../violations.ts';
import type { RunConfig } from '../config/env.ts';
import { textOf } from '../values.ts';
import { cassette } from '../cassette.ts';
import { operationModel, requestCases, type Hints, type RequestCase } from './requests.ts';

/** What a rule says the answer to a request must be. */
export interface Expectation {
  rule: RuleId;
  ok: (res: ApiResponse) => boolean;
  expected: string;
  /** A 500 upstream_error (W:225:9ad257bfa3ab: any operation may fail so) is not judged against it. */
  toleratesUpstream?: boolean;
  /** Two status classes for the same mistake break this rule too. */
  sameClass?: boolean;
}

/** What a family prepared for one operation (lib/explore/families.ts). */
export interface Prepared {
  /** Why the operation is not walked here (paid and not opted in, not on this surface, ...). */
  skip?: string;
  hints?: Hints;
  /** The client to send with (the v1 family's key goes in X-API-Key). */
  client: ApiClient;
  /** Requests per operation: the profile's runs (paid operations: at most explore_paid_max). */
  runs: number;
  /** The budget is a ceiling (a paid operation): the base request and its mistakes do not raise it. */
  capped?: boolean;
  /** What a rule expects of one request's answer. */
  expectations: (c: RequestCase) => Expectation[];
  /** Answers no expectation judges, and why (a 501 not_implemented: the surface lacks the operation). */
  unjudged?: (res: ApiResponse) => string | undefined;
  /** A 5xx no expectation judged (the v2 family: a 500 not in the upstream_error form). */
  onServerError?: (c: RequestCase, res: ApiResponse) => void;
  /** Call options an operation needs (a stream read with a short bound). */
  callOptions?: { timeoutMs?: number; readUntil?: (body: Buffer) => boolean };
  /** Why the run is bounded as it is, for the report. */
  budgetNote?: string;
}

export interface Failure {
  rule: string;
  level: string;
  case: string;
  status?: number;
  what: string;
  expected?: string;
  received?: string;
  count: number;
  curl?: string;
  replay: string;
}

export interface OperationReport {
  family: string;
  surface: Surface;
  project: string;
  operation: string;
  skipped?: string;
  seed?: number;
  path?: string;
  planned: number;
  sent: number;
  valid: number;
  mistaken: number;
  /** Answers by status (`no answer` for exchanges that got none). */
  statuses: Record<string, number>;
  /** Answers by request case (`valid`, `<where> <kind>`) and status. */
  cases: Record<string, Record<string, number>>;
  failures: Failure[];
  /** Findings no rule states (two status classes for a mistake no rule fixes, exchanges without an answer). */
  observations: string[];
  interrupted: boolean;
  elapsedMs: number;
  budget?: string;
}

const classOf = (status: number) => `${String(status)[0]}xx`;

function upstreamForm(method: string, res: ApiResponse): boolean {
  // A HEAD answer has no body: its 500 cannot say more (the contract's HeadUpstreamError).
  return res.status === 500 && (method === 'HEAD' || res.errorCode === 'upstream_error');
}

function received(res: ApiResponse): string {
  return `${res.status}${res.errorCode ? ` ${res.errorCode}` : ''}`;
}

/** Whether a rule applies on the surface under test (a result elsewhere would be misplaced). */
function applies(rule: string, surface: Surface): boolean {
  return ruleOrThrow(rule).surfaces.includes(surface);
}

export interface ExploreInput {
  contract: Contract;
  operation: string;
  surface: Surface;
  family: string;
  project: string;
  profile: RunProfile;
  testInfo: TestInfo;
  prepared: Prepared;
}

/** Walks one operation, records its results in the test's log, and returns its report. */
export async function exploreOperation(input: ExploreInput): Promise<OperationReport> {
  const { contract, operation, surface, prepared, profile, testInfo } = input;
  const started = Date.now();
  const report: OperationReport = {
    family: input.family,
    surface,
    project: input.project,
    operation,
    planned: prepared.runs,
    sent: 0,
    valid: 0,
    mistaken: 0,
    statuses: {},
    cases: {},
    failures: [],
    observations: [],
    interrupted: false,
    elapsedMs: 0,
    ...(prepared.budgetNote ? { budget: prepared.budgetNote } : {}),
  };
  const log = activeLog();
  if (prepared.skip || !prepared.hints) {
    report.skipped = prepared.skip ?? 'nothing to send';
    return finish(report, started);
  }
  const spec = contract.operations.get(operation)!;
  const model = operationModel(contract, operation);
  const cases = requestCases(contract, model, prepared.hints);
  const seed = profile.seed ?? (Date.now() ^ (Math.random() * 0x7fffffff)) | 0;
  // The base request and each of its mistakes once, then drawn requests while the budget lasts;
  // only a paid operation's budget is a ceiling the systematic part must fit in.
  const examples = cases.examples(seed, prepared.capped ? prepared.runs : Number.MAX_SAFE_INTEGER);
  // A replay (FC_PATH) sends exactly the runs asked for (FC_NUM_RUNS=1: the one request a failure names).
  const numRuns = profile.path ? prepared.runs : Math.max(prepared.runs, examples.length);
  report.planned = numRuns;
  report.seed = seed;
  if (profile.path) report.path = profile.path;
  const replay = (run: number) => `FC_SEED=${seed} FC_PATH=${run} FC_NUM_RUNS=1 (with --grep '${operation}')`;

  const held = new Map<string, CheckResult>();
  const notJudged = new Map<string, CheckResult>();
  const broken = new Map<string, { result: CheckResult; count: number; run: number; label: string }>();
  // Status classes per mistake, and the rule (if any) that fixes that mistake's answer.
  const classes = new Map<
    string,
    { byClass: Map<string, { count: number; result?: ApiResponse; run: number }>; rules: Expectation[] }
  >();
  let consecutiveErrors = 0;
  let run = profile.path ? Number(profile.path.split(':')[0]) || 0 : 0;

  // A finding of the contract or the always-on checks is about the answer, whatever was asked:
  // one per rule, status and expectation. An expectation of the explorer's own is about the
  // mistake: one per request case too.
  const fold = (results: CheckResult[], label: string, runIndex: number, perCase = true) => {
    for (const r of results) {
      if (r.outcome === 'held') {
        if (!held.has(r.rule)) held.set(r.rule, r);
      } else if (r.outcome === 'not_judged') {
        if (!notJudged.has(r.rule)) notJudged.set(r.rule, r);
      } else if (r.outcome === 'broken') {
        const key = [r.rule, perCase ? label : '', r.exchange?.status ?? '', r.expected ?? ''].join('\0');
        const seen = broken.get(key);
        if (seen) seen.count++;
        else broken.set(key, { result: r, count: 1, run: runIndex, label });
      }
    }
  };

  const predicate = async (c: RequestCase): Promise<boolean> => {
    const runIndex = run++;
    const tmp = new ResultLog();
    setActiveLog(tmp);
    let res: ApiResponse | undefined;
    let byClient: number;
    try {
      try {
        res = await prepared.client.call(operation, {
          path: c.path,
          query: c.query,
          headers: c.headers,
          ...(c.json !== undefined && c.hasBody ? { json: c.json } : {}),
          ...(c.form && c.hasBody ? { form: c.form } : {}),
          ...(prepared.callOptions ?? {}),
        });
        consecutiveErrors = 0;
      } catch (err) {
        if (err instanceof Stop) {
          // The client stopped on a contract finding it already recorded; the answer is in the recorder.
          consecutiveErrors = 0;
        } else if (err instanceof SuiteError) {
          consecutiveErrors++;
          report.statuses['no answer'] = (report.statuses['no answer'] ?? 0) + 1;
          report.observations.push(
            `run ${runIndex} (${c.label}): no answer: ${err.message.split('\n')[0].slice(0, 200)}`,
          );
          // A credential refused, the target stopped answering: the rest would say the same.
          if (/answered 401 to|stopped answering/.test(err.message) || consecutiveErrors >= 3) throw err;
        } else throw err;
      }
      byClient = tmp.results.length;
      report.sent++;
      if (c.mistake) report.mistaken++;
      else report.valid++;
      const status = res?.status ?? lastStatus(tmp);
      if (status !== undefined) {
        report.statuses[String(status)] = (report.statuses[String(status)] ?? 0) + 1;
        const byCase = (report.cases[c.label] ??= {});
        byCase[String(status)] = (byCase[String(status)] ?? 0) + 1;
      }
      if (res && !res.notOffered) judge(c, res, runIndex);
    } finally {
      setActiveLog(log);
    }
    fold(tmp.results.slice(0, byClient), c.label, runIndex, false);
    fold(tmp.results.slice(byClient), c.label, runIndex);
    return true;
  };

  const judge = (c: RequestCase, res: ApiResponse, runIndex: number) => {
    if (res.status === 429) return; // account-scoped, for any request (W:111:60ee272be59d, R § Endpoints › 409 and 429 rules)
    // An undeclared status is the contract's finding (recorded by the client): not judged twice.
    if (!responseFor(spec, res.status)) return;
    if (prepared.unjudged?.(res)) return;
    const upstream = upstreamForm(model.method, res);
    const exps = prepared.expectations(c).filter((e) => applies(e.rule, surface));
    let judged = false;
    for (const e of exps) {
      if (upstream && e.toleratesUpstream) continue;
      judged = true;
      check(e.rule, e.ok(res), {
        what: `${operation} with ${c.mistake ? `${c.mistake.where}: ${c.mistake.note}` : 'a valid request'} (${c.label})`,
        expected: e.expected,
        received: received(res),
        on: res,
      });
    }
    if (!judged && res.status >= 500) prepared.onServerError?.(c, res);
    if (c.mistake?.exact && !(upstream && exps.every((e) => e.toleratesUpstream))) {
      const entry = classes.get(c.label) ?? {
        byClass: new Map<string, { count: number; result?: ApiResponse; run: number }>(),
        rules: exps.filter((e) => e.sameClass),
      };
      classes.set(c.label, entry);
      const k = classOf(res.status);
      const seen = entry.byClass.get(k);
      if (seen) seen.count++;
      else entry.byClass.set(k, { count: 1, result: res, run: runIndex });
    }
  };

  const details = await fc.check(fc.asyncProperty(cases.arbitrary, predicate), {
    numRuns,
    seed,
    examples: examples.map((c) => [c] as [RequestCase]),
    ...(profile.path ? { path: profile.path } : {}),
    // Not in a recorded run: its replay must draw exactly the cases the recording holds (lib/model-run.ts).
    ...(cassette() ? {} : { interruptAfterTimeLimit: Math.max(30_000, testInfo.timeout - 30_000) }),
    markInterruptAsFailure: false,
    // A predicate fails only when the exploration cannot go on: no shrinking, no more requests.
    endOnFailure: true,
  });
  // fast-check keeps what the predicate threw; an Error is thrown as it is, anything else named in one.
  if (details.failed && details.errorInstance)
    throw details.errorInstance instanceof Error ? details.errorInstance : new Error(textOf(details.errorInstance));
  report.interrupted = details.interrupted;
  log?.properties.push({
    title: `${testInfo.titlePath.slice(1).join(' › ')}`,
    seed,
    ...(profile.path ? { path: profile.path } : {}),
    planned: numRuns,
    ran: details.numRuns,
    interrupted: details.interrupted,
  });

  // The same mistake, two status classes: broken under the rule that fixes its answer, else an observation.
  const tmp = new ResultLog();
  setActiveLog(tmp);
  try {
    for (const [label, { byClass, rules }] of classes) {
      if (byClass.size < 2) continue;
      const counts = [...byClass].map(([k, v]) => `${k} ×${v.count}`).join(', ');
      const minority = [...byClass.values()].sort((a, b) => a.count - b.count)[0];
      const rule = rules[0];
      const alreadyBroken = rule && [...broken.values()].some((b) => b.label === label && b.result.rule === rule.rule);
      if (rule && !alreadyBroken) {
        check(rule.rule, false, {
          what: `${operation}: the same mistake (${label}) answered in ${byClass.size} status classes`,
          expected: 'one status class for one mistake',
          received: counts,
          on: minority.result,
        });
        fold(tmp.results.splice(0), label, minority.run);
      } else if (!rule) {
        report.observations.push(
          `${label}: answered in ${byClass.size} status classes (${counts}); no rule fixes this mistake's answer, so it is reported, not judged`,
        );
      }
    }
  } finally {
    setActiveLog(log);
  }

  for (const r of held.values()) log?.record(r);
  for (const r of notJudged.values()) if (!held.has(r.rule)) log?.record(r);
  for (const { result, count, run: at, label } of broken.values()) {
    const again = replay(at);
    log?.record({ ...result, what: `${result.what} — ${label}, seen ${count} time(s); replay: ${again}` });
    report.failures.push({
      rule: result.rule,
      level: ruleOrThrow(result.rule).level,
      case: label,
      ...(result.exchange?.status !== undefined ? { status: result.exchange.status } : {}),
      what: result.what,
      ...(result.expected !== undefined ? { expected: result.expected } : {}),
      ...(result.received !== undefined ? { received: result.received } : {}),
      count,
      ...(result.exchange?.curl ? { curl: result.exchange.curl } : {}),
      replay: again,
    });
  }
  return finish(report, started);
}

function lastStatus(log: ResultLog): number | undefined {
  for (let i = log.results.length - 1; i >= 0; i--) {
    const s = log.results[i].exchange?.status;
    if (s !== undefined) return s;
  }
  return undefined;
}

function finish(report: OperationReport, started: number): OperationReport {
  report.elapsedMs = Date.now() - started;
  return report;
}

/** Where the per-operation reports go: <reports>/explore/<project>/<operation>.json. */
function exploreReportDir(reportsDir: string, project: string): string {
  return path.join(reportsDir, 'explore', project);
}

/**
 * Writes and attaches one operation's report, and prints its one-line summary with the seed
 * (`settings`, the run's: REPORTS_DIR, and CONFORMANCE_QUIET, which keeps the console quiet).
 */
export async function publish(
  report: OperationReport,
  testInfo: TestInfo,
  settings: Pick<RunConfig, 'reportsDir' | 'quiet'>,
): Promise<void> {
  const body = JSON.stringify(report, null, 1);
  await testInfo.attach(`explore ${report.operation}.json`, { body, contentType: 'application/json' });
  const dir = exploreReportDir(settings.reportsDir, report.project);
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, `${report.operation}.json`), `${body}\n`);
  if (!settings.quiet) process.stdout.write(`${summaryLine(report)}\n`);
}

function summaryLine(r: OperationReport): string {
  if (r.skipped) return `explore ${r.project} ${r.operation}: skipped (${r.skipped})`;
  const statuses = Object.entries(r.statuses)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([s, n]) => `${s}×${n}`)
    .join(' ');
  return (
    `explore ${r.project} ${r.operation}: ${r.sent} requests (${r.valid} valid, ${r.mistaken} ` +
    `mistaken) -> ${statuses}; ${r.failures.length} distinct failure(s); seed ${r.seed}${r.interrupted ? ' (cut short by its time limit)' : ''}`
  );
}
