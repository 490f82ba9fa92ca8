// Runs one profile: prepare its work, drive the operation (the open model by default:
// requests start at their intended times whatever the server does; autocannon's closed
// loop on request), judge every answer, validate a sample against the contract, then
// evaluate the thresholds. Warm-up answers are validated but left out of every figure.
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { ApiClient } from '../lib/api.ts';
import { loadContract } from '../lib/contracts/loader.ts';
import { FAMILY_CONTRACTS } from '../lib/contracts/registry.ts';
import { Recorder } from '../lib/recorder.ts';
import { Redactor } from '../lib/redact.ts';
import { RuleViolation, SuiteError } from '../lib/violations.ts';
import { driveClosed } from './drivers/closed.ts';
import { defaultLateAfterMs, driveOpen } from './drivers/open.ts';
import type { Arrival } from './drivers/schedule.ts';
import type { DriveOptions, DriveResult, Model } from './drivers/types.ts';
import { chartOf, encodeFigures, metricsOf, type RawFigures } from './figures.ts';
import { ContractSampler, levelOf, type Violation } from './sampler.ts';
import { shardTarget, type Shard } from './shard.ts';
import { round, type Histogram } from './stats.ts';
import { evaluate, parseThreshold, type ThresholdResult } from './thresholds.ts';
import { HARD_MAX_CONNECTIONS, openTarget } from './target.ts';
import { Timeline, type Second } from './timeline.ts';
import { isSkip, type CheckResult, type LoadSettings, type Observation, type Profile } from './types.ts';
import type { Progress } from './progress.ts';
import type { RunningReference } from '../reference/server.ts';

export const REPORT_SCHEMA = 'load-report/2';

export interface RunOptions {
  /** Measured seconds instead of the profile's. */
  durationS?: number;
  /** Arrival rate instead of the profile's (the whole run's; a shard takes its part). */
  rate?: number;
  warmupS?: number;
  env?: Record<string, string | undefined>;
  /** A reference fault to switch on (embedded reference only). */
  fault?: string;
  progress?: Progress;
  /** Thresholds instead of the profile's (smoke runs on a busy CI machine relax the latency ones). */
  thresholds?: string[];
  /** Default open. */
  model?: Model;
  /** Open model: default constant. */
  arrival?: Arrival;
  /** Seed of Poisson arrivals. */
  seed?: number;
  shard?: Shard;
  /** Aborting (Ctrl-C) stops the load; the report's verdict is then `interrupted`. */
  signal?: AbortSignal;
  /** An embedded reference already running in this process, loaded instead of a fresh one. */
  reference?: RunningReference;
  /** Said before the run starts: caps applied to what was asked. */
  notice?(line: string): void;
}

export type Verdict = 'pass' | 'fail' | 'skipped' | 'interrupted';

export interface ModelInfo {
  name: Model;
  /** Open model: how arrivals were spaced. */
  arrival?: Arrival;
  seed?: number;
  /** Open model: a send later than this after its intended start counted late. */
  late_after_ms?: number;
  summary: string;
}

export interface LoadReport {
  schema: typeof REPORT_SCHEMA;
  verdict: Verdict;
  skipReason?: string;
  profile: {
    name: string;
    title: string;
    description: string;
    /** The surfaces the profile can load, in order of preference (`cloud, local, serverless`). */
    surface: string;
    family: string;
    thresholds: string[];
    requested: LoadSettings;
    /** What ran on this machine (a shard's part of the rate). */
    effective: LoadSettings;
    ceiling: string;
  };
  model: ModelInfo;
  /** Set when this run is one shard of several; on a merge, index 0 and `merged` shards. */
  shard?: Shard & { merged?: number };
  target: { name: string; surface: string; baseUrl: string; embedded: boolean; fault?: string };
  environment: Record<string, string | number>;
  startedAt: string;
  finishedAt: string;
  metrics: Record<string, number>;
  thresholds: ThresholdResult[];
  checks: CheckResult[];
  /** violations: sampled responses that broke a MUST rule; should: those that departed from SHOULD rules only. */
  contract: { family: string; sampled: number; violations: number; should?: number; unmatched: number; byRule: Record<string, number>; examples: Violation[] };
  statusCodes: Record<string, number>;
  timeline: Second[];
  histogram: Histogram;
  figures: Record<string, unknown>;
  notes: string[];
  /** The counts and HDR histograms the metrics come from; `load:merge` adds shards' raw figures. */
  raw?: RawFigures;
}

function packageVersion(name: string): string {
  try {
    const pkg = JSON.parse(readFileSync(new URL(`../node_modules/${name}/package.json`, import.meta.url), 'utf8')) as { version?: string };
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
    undici: packageVersion('undici'),
    autocannon: packageVersion('autocannon'),
    'hdr-histogram-js': packageVersion('hdr-histogram-js'),
  };
}

export function modelSummary(m: ModelInfo): string {
  if (m.name === 'closed') return 'closed loop (autocannon, rate metered per connection per second): latency from the actual send; late arrivals are not measured';
  return `open model, ${m.arrival === 'poisson' ? `Poisson arrivals (seed ${m.seed ?? 1})` : 'evenly spaced arrivals'}: latency from the intended start (corrected) and from the actual send (uncorrected); a send more than ${m.late_after_ms} ms after its intended start is late`;
}

function clampSettings(profile: Profile, opts: RunOptions, model: Model, ceiling: { maxRate: number; maxDurationS: number }): { settings: LoadSettings; notes: string[] } {
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
  // The ceiling protects the target, so it caps the whole run's rate; shards split what is left.
  if (s.rate > ceiling.maxRate) {
    notes.push(`rate capped at ${ceiling.maxRate}/s (asked ${s.rate}/s)`);
    s.rate = ceiling.maxRate;
  }
  if (s.warmupS + s.durationS > ceiling.maxDurationS) {
    s.warmupS = Math.min(s.warmupS, Math.floor(ceiling.maxDurationS / 4));
    s.durationS = ceiling.maxDurationS - s.warmupS;
    notes.push(`duration capped at ${ceiling.maxDurationS} s including warm-up (asked ${want.warmupS}+${want.durationS} s): ${s.warmupS} s warm-up + ${s.durationS} s measured`);
  }
  if (s.durationS < (profile.minDurationS ?? 1)) {
    notes.push(`duration raised to ${profile.minDurationS ?? 1} s, the shortest that still judges ${profile.name} (asked ${s.durationS} s)`);
    s.durationS = profile.minDurationS ?? 1;
  }
  if (opts.shard && opts.shard.count > 1) s.rate /= opts.shard.count;
  if (model === 'closed') {
    // autocannon sends at most `rate` requests per second per connection; more
    // connections than requests per second would idle.
    s.rate = Math.max(1, Math.round(s.rate));
    s.connections = Math.min(s.connections, Math.ceil(s.rate));
  } else {
    s.rate = round(s.rate, 3);
  }
  s.connections = Math.max(1, Math.min(s.connections, HARD_MAX_CONNECTIONS));
  return { settings: s, notes };
}

export async function runProfile(profile: Profile, opts: RunOptions = {}): Promise<LoadReport> {
  const env = opts.env ?? process.env;
  const progress = opts.progress;
  const model: Model = opts.model ?? 'open';
  const startedAt = new Date();
  const notes: string[] = [];
  const open = await openTarget(profile.surfaces, env, opts.fault, opts.reference);
  try {
    const { settings, notes: capNotes } = clampSettings(profile, opts, model, open.ceiling);
    for (const n of capNotes) opts.notice?.(n);
    notes.push(...capNotes);
    const lateAfterMs = profile.lateAfterMs ?? defaultLateAfterMs(settings.rate);
    const modelInfo: ModelInfo =
      model === 'open'
        ? { name: 'open', arrival: opts.arrival ?? 'constant', ...(opts.arrival === 'poisson' ? { seed: opts.seed ?? 1 } : {}), late_after_ms: round(lateAfterMs, 3), summary: '' }
        : { name: 'closed', summary: '' };
    modelInfo.summary = modelSummary(modelInfo);
    const thresholdExprs = opts.thresholds ?? profile.thresholds;
    const thresholds = thresholdExprs.map(parseThreshold);
    const base: Omit<LoadReport, 'verdict' | 'metrics' | 'thresholds' | 'checks' | 'contract' | 'statusCodes' | 'timeline' | 'histogram' | 'figures' | 'notes' | 'finishedAt'> = {
      schema: REPORT_SCHEMA,
      profile: {
        name: profile.name,
        title: profile.title,
        description: profile.description,
        surface: profile.surfaces.join(', '),
        family: profile.family,
        thresholds: thresholdExprs,
        requested: { rate: opts.rate ?? profile.rate, connections: profile.connections, durationS: opts.durationS ?? profile.durationS, warmupS: opts.warmupS ?? profile.warmupS },
        effective: settings,
        ceiling: open.ceiling.source,
      },
      model: modelInfo,
      ...(opts.shard && opts.shard.count > 1 ? { shard: opts.shard } : {}),
      target: {
        name: open.resolved.name,
        surface: open.surface?.surface ?? '(none)',
        baseUrl: open.surface?.baseUrl ?? '(none)',
        embedded: open.embedded,
        ...(opts.fault ? { fault: opts.fault } : {}),
      },
      environment: environment(),
      startedAt: startedAt.toISOString(),
    };
    const ended = (verdict: Verdict, reason: string): LoadReport => ({
      ...base,
      verdict,
      ...(reason ? { skipReason: reason } : {}),
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
    if (!open.surface) {
      const has = open.resolved.surfaces.map((x) => x.surface).join(', ');
      const needs = profile.surfaces.length > 1 ? `one of the surfaces ${profile.surfaces.join(', ')}` : `a ${profile.surfaces[0]} surface`;
      return ended('skipped', `${profile.name} needs ${needs}; target ${open.resolved.name} has only ${has} (workflow-conformance load --list names each profile's surfaces)`);
    }
    const target = shardTarget(open.surface, profile.perShardScenario, opts.shard, profile.name);

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
        const r = ended('fail', '');
        return { ...r, checks: [{ rule: err instanceof RuleViolation ? err.rule : 'LOAD.PREPARE', name: 'preparation', ok: false, detail: redactor.text(err.message) }] };
      }
      throw err;
    }
    if (isSkip(prepared)) return ended('skipped', prepared.skip);
    if (opts.signal?.aborted) {
      notes.push('interrupted by a signal while preparing: no load was sent');
      return ended('interrupted', '');
    }
    const work = prepared;
    if (!contract) notes.push(`no ${profile.family} contract is registered yet: responses were judged by the profile only, not sampled against a contract`);

    const origin = new URL(target.baseUrl).origin;
    const basePath = new URL(target.baseUrl).pathname.replace(/\/+$/, '');
    const sampler = contract ? new ContractSampler(contract, family?.checks ?? [], basePath, profile.sampleEvery ?? 10) : undefined;
    const timeline = new Timeline(settings.rate, settings.warmupS);
    const statusCodes: Record<string, number> = {};
    let unexpectedCount = 0;
    let measured2xx = 0;
    const totalS = settings.warmupS + settings.durationS;
    const second = (ms: number): number => Math.floor(ms / 1000);
    const count = (key: string): void => {
      statusCodes[key] = (statusCodes[key] ?? 0) + 1;
    };

    const side = new AbortController();
    const during = work.during ? work.during(side.signal).catch((err: unknown) => notes.push(`side activity stopped: ${(err as Error).message}`)) : Promise.resolve();
    const driveOptions: DriveOptions = {
      origin,
      rate: settings.rate,
      connections: settings.connections,
      warmupS: settings.warmupS,
      durationS: settings.durationS,
      timeoutMs: 10_000,
      method: work.method,
      headers: work.headers,
      next: (now) => work.next(now),
      keepBodies: true,
      onAnswer(a) {
        const unexpected = !work.expected(a.status);
        const late = model === 'open' && a.sentAt - a.intendedAt > lateAfterMs;
        timeline.add(second(a.intendedAt), String(a.status), a.at - a.intendedAt, unexpected, late);
        if (a.measured) {
          count(String(a.status));
          if (unexpected) unexpectedCount += 1;
          if (a.status >= 200 && a.status < 300) measured2xx += 1;
        }
        if (a.incomplete) return;
        if (!work.judgesItself?.(a.status)) sampler?.offer(work.method, a.path, a.status, a.headers, a.body, a.at);
        const o: Observation = { path: a.path, status: a.status, headers: a.headers, body: a.body, latencyMs: a.at - a.sentAt, intendedAt: a.intendedAt, sentAt: a.sentAt, at: a.at, measured: a.measured };
        work.observe(o);
      },
      onFailure(f) {
        timeline.add(second(f.intendedAt), 'error', undefined, true);
        if (f.measured) count('error');
      },
      onDrop(intendedAt, measured) {
        timeline.add(second(intendedAt), 'dropped', undefined, true);
        if (measured) count('dropped');
      },
      ...(opts.signal ? { signal: opts.signal } : {}),
    };

    progress?.start(profile.name, settings, modelInfo.summary);
    const t0 = performance.now();
    const ticker = setInterval(() => {
      const elapsed = (performance.now() - t0) / 1000;
      if (elapsed <= totalS + 1) progress?.tick(elapsed, totalS, timeline.peek(Math.floor(elapsed) - 1), sampler?.violations ?? 0);
    }, 1000);
    let result: DriveResult;
    try {
      result =
        model === 'open'
          ? await driveOpen({ ...driveOptions, arrival: modelInfo.arrival ?? 'constant', ...(modelInfo.seed !== undefined ? { seed: modelInfo.seed } : {}), lateAfterMs })
          : await driveClosed({ ...driveOptions, drainS: profile.drainS ?? 0 });
    } finally {
      clearInterval(ticker);
      side.abort();
      await during;
      progress?.end();
    }
    const c = result.counts;
    const measuredS = Math.max(0.001, Math.min(settings.durationS, result.loadEndMs / 1000 - settings.warmupS));
    if (model === 'closed' && profile.drainS) notes.push(`the load went on ${profile.drainS} s after the measured part so slow calls could finish; requests sent then are left out`);
    if (result.interrupted) notes.push(`interrupted by a signal after ${(result.elapsedMs / 1000).toFixed(1)} s: ${Math.max(0, measuredS).toFixed(1)} s of ${settings.durationS} s measured; the figures cover only that part and no verdict was reached`);
    else if (model === 'closed' && result.elapsedMs / 1000 < totalS - 0.5) notes.push(`the load ended after ${(result.elapsedMs / 1000).toFixed(1)} s of ${totalS} s`);

    const raw: RawFigures = {
      model,
      requested_rate: settings.rate,
      sent_rate: c.sent / measuredS,
      measured_s: measuredS,
      counts: { ...c, errors: unexpectedCount + c.failed + c.dropped + c.unfinished, non2xx: c.scheduled - measured2xx },
      ...encodeFigures(result),
      seconds: timeline.raw(Math.ceil(totalS)),
    };
    if (model === 'open' && c.scheduled > 0 && c.late / c.scheduled > 0.01) {
      notes.push(`${c.late} of ${c.scheduled} arrivals (${((100 * c.late) / c.scheduled).toFixed(1)} %) were sent late: the connections (${settings.connections}) or this machine could not keep up; their wait is in the corrected latency`);
    }
    if (c.dropped > 0) notes.push(`${c.dropped} arrivals were never sent (no free connection within ${driveOptions.timeoutMs / 1000} s or before the run ended); they count as errors`);

    let outcome: Awaited<ReturnType<typeof work.finish>> = {};
    if (!result.interrupted) {
      log(`${profile.name}: closing probes`);
      outcome = await work.finish();
    }
    const metrics: Record<string, number> = {
      ...metricsOf(raw, result),
      contract_violations: sampler?.violations ?? 0,
      sampled: sampler?.sampled ?? 0,
      ...(outcome.metrics ?? {}),
    };
    const checks: CheckResult[] = [];
    if (sampler && !result.interrupted) {
      // Findings keep their rule's level: only MUST findings break LOAD.CONTRACT.UNDER_LOAD;
      // SHOULD findings (statuses or bodies only the public documents give) are reported apart.
      const counted = (level: 'MUST' | 'SHOULD') => [...sampler.rules.entries()].filter(([r]) => levelOf(r) === level).map(([r, n]) => `${r} ×${n}`).join(', ');
      const firstMust = sampler.kept.find((v) => v.level === 'MUST');
      const firstShould = sampler.kept.find((v) => v.level === 'SHOULD');
      const should = sampler.departures > 0 ? `; SHOULD only (reported, not failing): ${sampler.departures} departed from rules the public documents give (${counted('SHOULD')})` : '';
      checks.push({
        rule: 'LOAD.CONTRACT.UNDER_LOAD',
        name: 'sampled responses under load keep the contract',
        ok: sampler.violations === 0 && sampler.sampled > 0,
        detail:
          sampler.sampled === 0
            ? 'no response could be matched to a contract operation'
            : sampler.violations === 0
              ? `${sampler.sampled} responses validated, none broke a MUST rule of the contract${should}`
              : `${sampler.violations} of ${sampler.sampled} sampled responses broke the contract (${counted('MUST')}); first: ${firstMust?.summary ?? ''}${should}`,
      });
      if (sampler.departures > 0) notes.push(`SHOULD: ${sampler.departures} of ${sampler.sampled} sampled responses departed from SHOULD rules only (${counted('SHOULD')}), reported without failing the run; first: ${firstShould?.summary ?? ''}`);
    }
    checks.push(...(outcome.checks ?? []).map((x) => ({ ...x, detail: redactor.text(x.detail) })));
    notes.push(...(outcome.notes ?? []));
    const results = evaluate(thresholds, metrics);
    const verdict: Verdict = result.interrupted ? 'interrupted' : results.every((r) => r.ok) && checks.every((x) => x.ok) ? 'pass' : 'fail';
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
        should: sampler?.departures ?? 0,
        unmatched: sampler?.unmatched ?? 0,
        byRule: Object.fromEntries(sampler?.rules ?? []),
        examples: (sampler?.kept ?? []).map((v) => ({ ...v, received: redactor.text(v.received).slice(0, 600) })),
      },
      statusCodes,
      timeline: timeline.seconds(Math.ceil(totalS)),
      histogram: chartOf(raw),
      figures: outcome.figures ?? {},
      notes: notes.map((n) => redactor.text(n)),
      raw,
    };
  } finally {
    await open.close();
  }
}
