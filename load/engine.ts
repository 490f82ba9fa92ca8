// Runs one profile: prepare its work, drive the operation (the open model by default:
// requests start at their intended times whatever the server does; autocannon's closed
// loop on request), judge every answer, validate a sample against the contract, then
// evaluate the thresholds. Warm-up answers are validated but left out of every figure.
// Each concern has its own file under load/engine/: settings (what the run asks for),
// report-base (what the report says before any load), prepare (contract, client, the
// profile's preparation), drive (the load and its tally), judge (figures, notes, checks,
// verdict). This file only puts them in order.
import { Redactor } from '../lib/redact.ts';
import { ContractSampler } from './sampler.ts';
import { chartOf } from './figures.ts';
import { parseThreshold } from './thresholds.ts';
import { openTarget } from './target.ts';
import { shardTarget } from './shard.ts';
import type { CheckResult, Outcome, Profile } from './types.ts';
import { clampSettings, modelOf } from './engine/settings.ts';
import { endedReport, noSurfaceReason, reportBase } from './engine/report-base.ts';
import { contractFor, prepareWork } from './engine/prepare.ts';
import { drive } from './engine/drive.ts';
import { contractCheck, driveNotes, metricsOfRun, rawFigures, verdictOfRun } from './engine/judge.ts';
import type { LoadReport, RunOptions } from './engine/report-shape.ts';
import { environment as runEnvironment, runConfig } from '../lib/config/env.ts';

export {
  REPORT_SCHEMA,
  type LoadReport,
  type ModelInfo,
  type RunOptions,
  type Verdict,
} from './engine/report-shape.ts';
export { environment } from './engine/report-base.ts';
export { modelSummary } from './engine/settings.ts';

export async function runProfile(profile: Profile, opts: RunOptions = {}): Promise<LoadReport> {
  const env = opts.env ?? runEnvironment();
  const startedAt = new Date();
  const notes: string[] = [];
  const open = await openTarget(profile.surfaces, env, opts.fault, opts.reference);
  try {
    const { settings, notes: capNotes } = clampSettings(profile, opts, opts.model ?? 'open', open.ceiling);
    for (const n of capNotes) opts.notice?.(n);
    notes.push(...capNotes);
    const { info: model, lateAfterMs } = modelOf(profile, opts, settings);
    const thresholdExprs = opts.thresholds ?? profile.thresholds;
    const thresholds = thresholdExprs.map(parseThreshold); // a mistake stops the run before any load
    const base = reportBase(profile, opts, open, settings, model, thresholdExprs, startedAt);
    const ended = (verdict: LoadReport['verdict'], reason: string, checks: CheckResult[] = []): LoadReport =>
      endedReport(base, profile.family, verdict, reason, notes, checks);
    if (!open.surface) return ended('skipped', noSurfaceReason(profile, open));
    const target = shardTarget(open.surface, profile.perShardScenario, opts.shard, profile.name);
    const redactor = new Redactor(open.resolved.secrets);
    // The suite's bounds (a job's deadline, an exchange's timeout) for the preparation's client: read here, where
    // a load run starts (load/run.ts, load/gate.ts), and handed down like the environment above.
    const { contract, checks: responseChecks, api } = contractFor(profile, target, redactor, runConfig().bounds);
    const log = (line: string): void => opts.progress?.line(redactor.text(line));

    log(`${profile.name}: preparing against ${target.baseUrl}${opts.fault ? ` (fault ${opts.fault})` : ''}`);
    const prepared = await prepareWork(profile, target, api, settings, log, redactor);
    if ('refused' in prepared) return ended('fail', '', prepared.refused);
    if ('skip' in prepared) return ended('skipped', prepared.skip);
    if (opts.signal?.aborted) {
      notes.push('interrupted by a signal while preparing: no load was sent');
      return ended('interrupted', '');
    }
    const work = prepared.work;
    if (!contract)
      notes.push(
        `no ${profile.family} contract is registered yet: responses were judged by the profile only, not sampled against a contract`,
      );

    const url = new URL(target.baseUrl);
    const sampler = contract
      ? new ContractSampler(contract, responseChecks, url.pathname.replace(/\/+$/, ''), profile.sampleEvery ?? 10)
      : undefined;
    const { result, tally } = await drive({
      profile,
      work,
      settings,
      model,
      lateAfterMs,
      origin: url.origin,
      sampler,
      progress: opts.progress,
      signal: opts.signal,
      note: (n) => notes.push(n),
    });
    const raw = rawFigures(settings, model, result, tally);
    notes.push(...driveNotes(profile, settings, model, result));

    let outcome: Outcome = {};
    if (!result.interrupted) {
      log(`${profile.name}: closing probes`);
      outcome = await work.finish();
    }
    const metrics = metricsOfRun(raw, result, sampler, outcome);
    const checks: CheckResult[] = [];
    if (sampler && !result.interrupted) {
      const sampled = contractCheck(sampler);
      checks.push(sampled.check);
      if (sampled.note) notes.push(sampled.note);
    }
    checks.push(
      ...(outcome.checks ?? []).map((x) => ({
        ...x,
        ...(x.received ? { received: redactor.text(x.received) } : {}),
        ...(x.expected ? { expected: redactor.text(x.expected) } : {}),
      })),
    );
    notes.push(...(outcome.notes ?? []));
    const judged = verdictOfRun(
      result.interrupted,
      thresholds,
      metrics,
      checks,
      new Set((opts.yourThresholds ?? []).map((e) => parseThreshold(e).expr)),
    );
    return {
      ...base,
      verdict: judged.verdict,
      finishedAt: new Date().toISOString(),
      metrics,
      thresholds: judged.thresholds,
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
      statusCodes: tally.statusCodes,
      timeline: tally.timeline.seconds(Math.ceil(settings.warmupS + settings.durationS)),
      histogram: chartOf(raw),
      figures: outcome.figures ?? {},
      notes: notes.map((n) => redactor.text(n)),
      raw,
    };
  } finally {
    await open.close();
  }
}
