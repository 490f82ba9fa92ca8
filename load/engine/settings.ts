// What one run of a profile asks for, once the target's ceiling and the profile's shortest
// judged duration are applied, and the load model it runs on.
import { SuiteError } from '../../lib/violations.ts';
import { defaultLateAfterMs } from '../drivers/open.ts';
import type { Model } from '../drivers/types.ts';
import { round } from '../stats.ts';
import { HARD_MAX_CONNECTIONS } from '../target.ts';
import type { LoadSettings, Profile } from '../types.ts';
import type { ModelInfo, RunOptions } from './report-shape.ts';

/** The settings the run was asked for: the options', else the profile's. */
export function requestedSettings(profile: Profile, opts: RunOptions): LoadSettings {
  return {
    rate: opts.rate ?? profile.rate,
    connections: profile.connections,
    durationS: opts.durationS ?? profile.durationS,
    warmupS: opts.warmupS ?? profile.warmupS,
  };
}

export function clampSettings(
  profile: Profile,
  opts: RunOptions,
  model: Model,
  ceiling: { maxRate: number; maxDurationS: number },
): { settings: LoadSettings; notes: string[] } {
  const notes: string[] = [];
  const want = requestedSettings(profile, opts);
  for (const [k, v] of Object.entries(want)) {
    if (!Number.isFinite(v) || v < 0 || (k !== 'warmupS' && v <= 0))
      throw new SuiteError(`${k} must be a positive number, got ${v}`);
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
    notes.push(
      `duration capped at ${ceiling.maxDurationS} s including warm-up (asked ` +
        `${want.warmupS}+${want.durationS} s): ${s.warmupS} s warm-up + ${s.durationS} s measured`,
    );
  }
  if (s.durationS < (profile.minDurationS ?? 1)) {
    notes.push(
      `duration raised to ${profile.minDurationS ?? 1} s, the shortest that still judges ${profile.name} (asked ${s.durationS} s)`,
    );
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

export function modelSummary(m: ModelInfo): string {
  if (m.name === 'closed')
    return 'closed loop (autocannon, rate metered per connection per second): latency from the actual send; late arrivals are not measured';
  return (
    `open model, ${m.arrival === 'poisson' ? `Poisson arrivals (seed ${m.seed ?? 1})` : 'evenly spaced arrivals'}: ` +
    'latency from the intended start (corrected) and from the actual send (uncorrected); ' +
    `a send more than ${m.late_after_ms} ms after its intended start is late`
  );
}

/** The model the run uses, as the report describes it; `lateAfterMs` for the open model's drive. */
export function modelOf(
  profile: Profile,
  opts: RunOptions,
  settings: LoadSettings,
): { info: ModelInfo; lateAfterMs: number } {
  const model: Model = opts.model ?? 'open';
  const lateAfterMs = profile.lateAfterMs ?? defaultLateAfterMs(settings.rate);
  const info: ModelInfo =
    model === 'open'
      ? {
          name: 'open',
          arrival: opts.arrival ?? 'constant',
          ...(opts.arrival === 'poisson' ? { seed: opts.seed ?? 1 } : {}),
          late_after_ms: round(lateAfterMs, 3),
          summary: '',
        }
      : { name: 'closed', summary: '' };
  info.summary = modelSummary(info);
  return { info, lateAfterMs };
}
