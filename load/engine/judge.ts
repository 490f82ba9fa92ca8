// After the load: the raw figures and metrics of what was measured, the notes a reader needs
// to trust them, the contract check of the sample, and the verdict (thresholds and checks).
import type { DriveResult } from '../drivers/types.ts';
import { encodeFigures, metricsOf, type RawFigures } from '../figures.ts';
import { levelOf, type ContractSampler } from '../sampler.ts';
import { evaluate, type Threshold, type ThresholdResult } from '../thresholds.ts';
import type { CheckResult, LoadSettings, Outcome, Profile } from '../types.ts';
import { loadCheck, held } from '../checks.ts';
import type { AnswerTally } from './drive.ts';
import { DRIVE_TIMEOUT_MS } from './drive.ts';
import type { ModelInfo, Verdict } from './report-shape.ts';

/** Measured seconds: from the end of the warm-up to the end of the load (at most the asked duration). */
function measuredSeconds(settings: LoadSettings, result: DriveResult): number {
  return Math.max(0.001, Math.min(settings.durationS, result.loadEndMs / 1000 - settings.warmupS));
}

export function rawFigures(
  settings: LoadSettings,
  model: ModelInfo,
  result: DriveResult,
  tally: AnswerTally,
): RawFigures {
  const c = result.counts;
  const measuredS = measuredSeconds(settings, result);
  return {
    model: model.name,
    requested_rate: settings.rate,
    sent_rate: c.sent / measuredS,
    measured_s: measuredS,
    counts: {
      ...c,
      errors: tally.unexpected + c.failed + c.dropped + c.unfinished,
      non2xx: c.scheduled - tally.measured2xx,
    },
    ...encodeFigures(result),
    seconds: tally.timeline.raw(Math.ceil(settings.warmupS + settings.durationS)),
  };
}

/** What a reader of the figures must know: the drain, an interruption, a short run, late or dropped arrivals. */
export function driveNotes(profile: Profile, settings: LoadSettings, model: ModelInfo, result: DriveResult): string[] {
  const notes: string[] = [];
  const c = result.counts;
  const totalS = settings.warmupS + settings.durationS;
  const measuredS = measuredSeconds(settings, result);
  if (model.name === 'closed' && profile.drainS)
    notes.push(
      `the load went on ${profile.drainS} s after the measured part so slow calls could finish; requests sent then are left out`,
    );
  if (result.interrupted)
    notes.push(
      `interrupted by a signal after ${(result.elapsedMs / 1000).toFixed(1)} s: ` +
        `${Math.max(0, measuredS).toFixed(1)} s of ${settings.durationS} s measured; the figures ` +
        `cover only that part and no verdict was reached`,
    );
  else if (model.name === 'closed' && result.elapsedMs / 1000 < totalS - 0.5)
    notes.push(`the load ended after ${(result.elapsedMs / 1000).toFixed(1)} s of ${totalS} s`);
  if (model.name === 'open' && c.scheduled > 0 && c.late / c.scheduled > 0.01) {
    notes.push(
      `${c.late} of ${c.scheduled} arrivals (${((100 * c.late) / c.scheduled).toFixed(1)} %) were ` +
        `sent late: the connections (${settings.connections}) or this machine could not keep up; ` +
        `their wait is in the corrected latency`,
    );
  }
  if (c.dropped > 0)
    notes.push(
      `${c.dropped} arrivals were never sent (no free connection within ${DRIVE_TIMEOUT_MS / 1000} s or before the run ended); they count as errors`,
    );
  return notes;
}

/**
 * LOAD.CONTRACT.UNDER_LOAD from the sample. Findings keep their rule's level: only MUST
 * findings break it; SHOULD findings (statuses or bodies only the public documents give)
 * are reported apart, in the note.
 */
export function contractCheck(sampler: ContractSampler): { check: CheckResult; note?: string } {
  const counted = (level: 'MUST' | 'SHOULD') =>
    [...sampler.rules.entries()]
      .filter(([r]) => levelOf(r) === level)
      .map(([r, n]) => `${r} ×${n}`)
      .join(', ');
  const firstMust = sampler.kept.find((v) => v.level === 'MUST');
  const firstShould = sampler.kept.find((v) => v.level === 'SHOULD');
  const should =
    sampler.departures > 0
      ? `; SHOULD only (reported, not failing): ${sampler.departures} departed from rules the public documents give (${counted('SHOULD')})`
      : '';
  const check = loadCheck(
    'LOAD.CONTRACT.UNDER_LOAD',
    sampler.violations === 0 && sampler.sampled > 0,
    'sampled responses under load keep the contract',
    'sampled responses matched to contract operations, none breaking a MUST rule of the contract',
    sampler.sampled === 0
      ? 'no response could be matched to a contract operation'
      : sampler.violations === 0
        ? `${sampler.sampled} responses validated, none broke a MUST rule of the contract${should}`
        : `${sampler.violations} of ${sampler.sampled} sampled responses broke the contract (${counted('MUST')}); first: ${firstMust?.summary ?? ''}${should}`,
  );
  const note =
    sampler.departures > 0
      ? `SHOULD: ${sampler.departures} of ${sampler.sampled} sampled responses departed from SHOULD ` +
        `rules only (${counted('SHOULD')}), reported without failing the run; first: ${firstShould?.summary ?? ''}`
      : undefined;
  return { check, ...(note ? { note } : {}) };
}

export function metricsOfRun(
  raw: RawFigures,
  result: DriveResult,
  sampler: ContractSampler | undefined,
  outcome: Outcome,
): Record<string, number> {
  return {
    ...metricsOf(raw, result),
    contract_violations: sampler?.violations ?? 0,
    sampled: sampler?.sampled ?? 0,
    ...(outcome.metrics ?? {}),
  };
}

/** Pass: every threshold met and every check held; an interrupted run has no verdict. */
/** `setByYou`: the thresholds the team set (--threshold); a budget only the profile suggests decides nothing (load/thresholds.ts). */
export function verdictOfRun(
  interrupted: boolean,
  thresholds: readonly Threshold[],
  metrics: Record<string, number>,
  checks: readonly CheckResult[],
  setByYou?: ReadonlySet<string>,
): { verdict: Verdict; thresholds: ThresholdResult[] } {
  const results = evaluate(thresholds, metrics, setByYou);
  const verdict: Verdict = interrupted
    ? 'interrupted'
    : results.every((r) => r.ok || r.decides === false) && checks.every(held)
      ? 'pass'
      : 'fail';
  return { verdict, thresholds: results };
}
