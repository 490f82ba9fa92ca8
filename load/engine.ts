// Runs one profile: prepare its work, drive the operation with autocannon at a fixed
// arrival rate (`overallRate`), judge every response, validate a sample against the
// contract, then evaluate the thresholds. Warm-up responses are validated but left out
// of every figure.
import autocannon from 'autocannon';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { ApiClient } from '../lib/api.ts';
import { loadContract } from '../lib/contracts/loader.ts';
import { FAMILY_CONTRACTS } from '../lib/contracts/registry.ts';
import { Recorder } from '../lib/recorder.ts';
import { Redactor } from '../lib/redact.ts';
import { RuleViolation, SuiteError } from '../lib/violations.ts';
import { ContractSampler, type Violation } from './sampler.ts';
import { histogram, summarize, Timeline, round, type Histogram, type Second } from './stats.ts';
import { evaluate, parseThreshold, type ThresholdResult } from './thresholds.ts';
import { HARD_MAX_CONNECTIONS, openTarget } from './target.ts';
import { isSkip, type CheckResult, type LoadSettings, type Observation, type Profile } from './types.ts';
import type { Progress } from './progress.ts';

export const REPORT_SCHEMA = 'load-report/1';

export interface RunOptions {
  /** Measured seconds instead of the profile's. */
  durationS?: number;
  /** Arrival rate instead of the profile's. */
  rate?: number;
  warmupS?: number;
  env?: Record<string, string | undefined>;
  /** A reference fault to switch on (embedded reference only). */
  fault?: string;
  progress?: Progress;
  /** Thresholds instead of the profile's (smoke runs on a busy CI machine relax the latency ones). */
  thresholds?: string[];
}

export type Verdict = 'pass' | 'fail' | 'skipped';

export interface LoadReport {
  schema: typeof REPORT_SCHEMA;
  verdict: Verdict;
  skipReason?: string;
  profile: {
    name: string;
    title: string;
    description: string;
    surface: string;
    family: string;
    thresholds: string[];
    requested: LoadSettings;
    effective: LoadSettings;
    ceiling: string;
  };
  target: { name: string; surface: string; baseUrl: string; embedded: boolean; fault?: string };
  environment: Record<string, string | number>;
  startedAt: string;
  finishedAt: string;
  metrics: Record<string, number>;
  thresholds: ThresholdResult[];
  checks: CheckResult[];
  contract: { family: string; sampled: number; violations: number; unmatched: number; byRule: Record<string, number>; examples: Violation[] };
  statusCodes: Record<string, number>;
  timeline: Second[];
  histogram: Histogram;
  figures: Record<string, unknown>;
  notes: string[];
}

function autocannonVersion(): string {
  try {
    const pkg = JSON.parse(readFileSync(new URL('../node_modules/autocannon/package.json', import.meta.url), 'utf8')) as { version?: string };
    return pkg.version ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

export function environment(): Record<string, string | number> {
  const cpus = os.cpus();
  return {
    node: process.version,
    platform: `${os.platform()} ${os.release()}`,
    arch: os.arch(),
    cpus: cpus.length,
    cpu_model: cpus[0]?.model ?? 'unknown',
    memory_gb: round(os.totalmem() / 2 ** 30, 1),
    loadavg_1m: round(os.loadavg()[0] ?? 0, 2),
    autocannon: autocannonVersion(),
  };
}

function lowerHeaders(h: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : String(v);
  return out;
}

function clampSettings(profile: Profile, opts: RunOptions, ceiling: { maxRate: number; maxDurationS: number }): { settings: LoadSettings; notes: string[] } {
  const notes: string[] = [];
  const want: LoadSettings = {
    rate: opts.rate ?? profile.rate,
    connections: profile.connections,
    durationS: opts.durationS ?? profile.durationS,
    warmupS: opts.warmupS ?? profile.warmupS,
  };
  for (const [k, v] of Object.entries(want)) {
    if (!Number.isFinite(v) || v < 0 || (k !== 'warmupS' && v <= 0)) throw new SuiteError(`${k} must be a positive number, got ${v}`);
  }
  const s = { ...want };
  if (s.rate > ceiling.maxRate) {
    notes.push(`rate capped at ${ceiling.maxRate}/s (asked ${s.rate}/s)`);
    s.rate = ceiling.maxRate;
  }
  if (s.warmupS + s.durationS > ceiling.maxDurationS) {
    s.warmupS = Math.min(s.warmupS, Math.floor(ceiling.maxDurationS / 4));
    s.durationS = ceiling.maxDurationS - s.warmupS;
    notes.push(`duration capped at ${ceiling.maxDurationS} s including warm-up (asked ${want.warmupS}+${want.durationS} s)`);
  }
  s.durationS = Math.max(s.durationS, profile.minDurationS ?? 1);
  // autocannon sends at most `rate` requests per second per connection; more
  // connections than requests per second would idle.
  s.connections = Math.max(1, Math.min(s.connections, HARD_MAX_CONNECTIONS, Math.ceil(s.rate)));
  s.rate = Math.max(1, Math.round(s.rate));
  return { settings: s, notes };
}

export async function runProfile(profile: Profile, opts: RunOptions = {}): Promise<LoadReport> {
  const env = opts.env ?? process.env;
  const progress = opts.progress;
  const startedAt = new Date();
  const notes: string[] = [];
  const open = await openTarget(profile.surface, env, opts.fault);
  try {
    const { settings, notes: capNotes } = clampSettings(profile, opts, open.ceiling);
    notes.push(...capNotes);
    const thresholdExprs = opts.thresholds ?? profile.thresholds;
    const thresholds = thresholdExprs.map(parseThreshold);
    const base: Omit<LoadReport, 'verdict' | 'metrics' | 'thresholds' | 'checks' | 'contract' | 'statusCodes' | 'timeline' | 'histogram' | 'figures' | 'notes' | 'finishedAt'> = {
      schema: REPORT_SCHEMA,
      profile: {
        name: profile.name,
        title: profile.title,
        description: profile.description,
        surface: profile.surface,
        family: profile.family,
        thresholds: thresholdExprs,
        requested: { rate: opts.rate ?? profile.rate, connections: profile.connections, durationS: opts.durationS ?? profile.durationS, warmupS: opts.warmupS ?? profile.warmupS },
        effective: settings,
        ceiling: open.ceiling.source,
      },
      target: {
        name: open.resolved.name,
        surface: profile.surface,
        baseUrl: open.surface?.baseUrl ?? '(none)',
        embedded: open.embedded,
        ...(opts.fault ? { fault: opts.fault } : {}),
      },
      environment: environment(),
      startedAt: startedAt.toISOString(),
    };
    const skipped = (reason: string): LoadReport => ({
      ...base,
      verdict: 'skipped',
      skipReason: reason,
      finishedAt: new Date().toISOString(),
      metrics: {},
      thresholds: [],
      checks: [],
      contract: { family: profile.family, sampled: 0, violations: 0, unmatched: 0, byRule: {}, examples: [] },
      statusCodes: {},
      timeline: [],
      histogram: { bounds: [], counts: [] },
      figures: {},
      notes,
    });
    if (!open.surface) return skipped(`target ${open.resolved.name} has no ${profile.surface} surface`);
    const target = open.surface;

    const family = FAMILY_CONTRACTS[profile.family];
    const contract = family ? loadContract(family.file, target.brand, family.rulePrefix) : undefined;
    const redactor = new Redactor(open.resolved.secrets);
    // Preparation and side probes go through the suite's own validating client. Without a
    // contract for the family (v1 until it has one) a minimal stand-in has no operations.
    const prepContract = contract ?? loadContract(FAMILY_CONTRACTS.v2!.file, target.brand, 'V2');
    const api = new ApiClient({ contract: prepContract, target, recorder: new Recorder(redactor), checks: family?.checks ?? [] });
    const log = (line: string): void => progress?.line(redactor.text(line));

    log(`${profile.name}: preparing against ${target.baseUrl}${opts.fault ? ` (fault ${opts.fault})` : ''}`);
    let prepared;
    try {
      prepared = await profile.prepare({ target, api, settings, log });
    } catch (err) {
      if (err instanceof RuleViolation || err instanceof SuiteError) {
        const r = skipped('');
        return { ...r, verdict: 'fail', skipReason: undefined, checks: [{ rule: err instanceof RuleViolation ? err.rule : 'LOAD.PREPARE', name: 'preparation', ok: false, detail: redactor.text(err.message) }] } as LoadReport;
      }
      throw err;
    }
    if (isSkip(prepared)) return skipped(prepared.skip);
    const work = prepared;
    if (!contract) notes.push(`no ${profile.family} contract is registered yet: responses were judged by the profile only, not sampled against a contract`);

    const origin = new URL(target.baseUrl).origin;
    const basePath = new URL(target.baseUrl).pathname.replace(/\/+$/, '');
    const sampler = contract ? new ContractSampler(contract, family?.checks ?? [], basePath, profile.sampleEvery ?? 10) : undefined;
    const timeline = new Timeline(settings.rate, settings.warmupS);
    const measured: number[] = [];
    const statusCodes: Record<string, number> = {};
    let measuredCount = 0;
    let measuredErrors = 0;
    let measured2xx = 0;
    let transportErrors = 0;

    const t0 = performance.now();
    const warmupEnd = settings.warmupS * 1000;
    const measureEnd = warmupEnd + settings.durationS * 1000;
    let pending: { status: number; headers: Record<string, string>; body: string; path: string } | undefined;

    const side = new AbortController();
    const during = work.during ? work.during(side.signal).catch((err: unknown) => notes.push(`side activity stopped: ${(err as Error).message}`)) : Promise.resolve();

    const totalS = settings.warmupS + settings.durationS;
    // Without a callback autocannon returns its event emitter, made thenable.
    const instance = autocannon({
      url: origin,
      connections: settings.connections,
      overallRate: settings.rate,
      // Requests sent during the drain are left out: it only lets the measured ones finish.
      duration: totalS + (profile.drainS ?? 0),
      timeout: 10,
      requests: [
        {
          method: work.method,
          headers: work.headers,
          setupRequest: (req: autocannon.Request, context: object) => {
            const next = work.next(performance.now() - t0);
            (context as { path?: string }).path = next.path;
            return { ...req, path: next.path, ...(next.body !== undefined ? { body: next.body } : {}) };
          },
          onResponse: (status: number, body: string, context: object, headers?: Record<string, string | string[] | undefined>) => {
            pending = { status, body, headers: lowerHeaders(headers ?? {}), path: (context as { path?: string }).path ?? '/' };
          },
        },
      ],
    }) as unknown as autocannon.Instance & PromiseLike<autocannon.Result>;

    instance.on('response', (_client: unknown, statusCode: number, _bytes: number, responseTime: number) => {
      const p = pending;
      pending = undefined;
      const at = performance.now() - t0;
      // A response belongs to the second its request was sent in: autocannon meters the
      // rate per one-second window, so arrivals (not completions) line up with the rate.
      const sentAt = Math.max(0, at - responseTime);
      const isMeasured = sentAt >= warmupEnd && sentAt < measureEnd;
      const second = Math.floor(sentAt / 1000);
      const status = p?.status ?? statusCode;
      const unexpected = !work.expected(status);
      timeline.add(second, String(status), responseTime, unexpected);
      if (isMeasured) {
        measured.push(responseTime);
        statusCodes[status] = (statusCodes[status] ?? 0) + 1;
        measuredCount += 1;
        if (unexpected) measuredErrors += 1;
        if (status >= 200 && status < 300) measured2xx += 1;
      }
      if (!p) return;
      sampler?.offer(work.method, p.path, status, p.headers, p.body, at);
      const o: Observation = { path: p.path, status, headers: p.headers, body: p.body, latencyMs: responseTime, sentAt, at, measured: isMeasured };
      work.observe(o);
    });
    instance.on('reqError', () => {
      const at = performance.now() - t0;
      timeline.add(Math.floor(at / 1000), 'error', undefined, true);
      if (at >= warmupEnd && at < measureEnd) {
        transportErrors += 1;
        measuredErrors += 1;
        measuredCount += 1;
        statusCodes.error = (statusCodes.error ?? 0) + 1;
      }
    });

    progress?.start(profile.name, settings);
    const ticker = setInterval(() => {
      const elapsed = (performance.now() - t0) / 1000;
      if (elapsed <= totalS + 1) progress?.tick(elapsed, totalS, timeline.peek(Math.floor(elapsed) - 1), sampler?.violations ?? 0);
    }, 1000);
    // Bounded even if autocannon stalls: stop it a little after its own end.
    const guard = setTimeout(() => instance.stop(), (totalS + (profile.drainS ?? 0) + 15) * 1000);
    const stopOnSignal = (): void => {
      notes.push('stopped early by a signal');
      instance.stop();
    };
    process.once('SIGINT', stopOnSignal);
    try {
      await instance;
    } finally {
      clearInterval(ticker);
      clearTimeout(guard);
      process.off('SIGINT', stopOnSignal);
      side.abort();
      await during;
      progress?.end();
    }
    const elapsedS = (performance.now() - t0) / 1000;
    const measuredS = Math.max(0.001, Math.min(settings.durationS, elapsedS - settings.warmupS));
    if (profile.drainS) notes.push(`the load went on ${profile.drainS} s after the measured part so slow calls could finish; requests sent then are left out`);
    if (elapsedS < totalS - 0.5) notes.push(`the load ended after ${elapsedS.toFixed(1)} s of ${totalS} s`);

    log(`${profile.name}: closing probes`);
    const outcome = await work.finish();
    const lat = summarize(measured);
    const sorted = [...measured].sort((a, b) => a - b);
    const metrics: Record<string, number> = {
      requests: measuredCount,
      rate: round(measuredCount / measuredS, 2),
      requested_rate: settings.rate,
      rate_achieved: round((100 * measuredCount) / measuredS / settings.rate, 2),
      p50: lat.p50,
      p90: lat.p90,
      p95: lat.p95,
      p99: lat.p99,
      'p99.9': round(sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil(0.999 * sorted.length) - 1)]! : NaN),
      max: lat.max,
      mean: lat.mean,
      errors: measuredCount ? round((100 * measuredErrors) / measuredCount, 4) : 0,
      non_2xx: measuredCount ? round((100 * (measuredCount - measured2xx)) / measuredCount, 4) : 0,
      transport_errors: transportErrors,
      contract_violations: sampler?.violations ?? 0,
      sampled: sampler?.sampled ?? 0,
      ...(outcome.metrics ?? {}),
    };
    const checks: CheckResult[] = [];
    if (sampler) {
      const rules = [...sampler.rules.entries()].map(([r, n]) => `${r} ×${n}`).join(', ');
      checks.push({
        rule: 'LOAD.CONTRACT.UNDER_LOAD',
        name: 'sampled responses under load keep the contract',
        ok: sampler.violations === 0 && sampler.sampled > 0,
        detail:
          sampler.sampled === 0
            ? 'no response could be matched to a contract operation'
            : sampler.violations === 0
              ? `${sampler.sampled} responses validated, none broke the contract`
              : `${sampler.violations} of ${sampler.sampled} sampled responses broke the contract (${rules}); first: ${sampler.kept[0]?.summary ?? ''}`,
      });
    }
    checks.push(...(outcome.checks ?? []).map((c) => ({ ...c, detail: redactor.text(c.detail) })));
    notes.push(...(outcome.notes ?? []));
    const results = evaluate(thresholds, metrics);
    const verdict: Verdict = results.every((r) => r.ok) && checks.every((c) => c.ok) ? 'pass' : 'fail';
    return {
      ...base,
      verdict,
      finishedAt: new Date().toISOString(),
      metrics,
      thresholds: results,
      checks,
      contract: {
        family: profile.family,
        sampled: sampler?.sampled ?? 0,
        violations: sampler?.violations ?? 0,
        unmatched: sampler?.unmatched ?? 0,
        byRule: Object.fromEntries(sampler?.rules ?? []),
        examples: (sampler?.kept ?? []).map((v) => ({ ...v, received: redactor.text(v.received).slice(0, 600) })),
      },
      statusCodes,
      timeline: timeline.seconds(Math.ceil(totalS)),
      histogram: histogram(measured),
      figures: outcome.figures ?? {},
      notes: notes.map((n) => redactor.text(n)),
    };
  } finally {
    await open.close();
  }
}
