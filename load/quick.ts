// The quick run of a profile: its smallest size (Profile.quick), with only a generous
// latency ceiling among its thresholds. What `run --load` runs under the quick profile and
// the self-test's smoke runs use: a few seconds at a low rate, on a machine shared with
// the reference. Latency limits are the team's for real runs; every functional limit stays.
import type { Profile } from './types.ts';
import type { RunOptions } from './engine.ts';

const LATENCY = /^\s*(p\(?[0-9.]+\)?|max|mean)\s*[<>=]/;

/** The profile's thresholds without its latency limits, plus `p99<3000`. */
function quickThresholds(profile: Profile): string[] {
  return [...profile.thresholds.filter((t) => !LATENCY.test(t)), 'p99<3000'];
}

/** Run options of the profile's quick size. */
export function quickOptions(profile: Profile): Pick<RunOptions, 'rate' | 'durationS' | 'warmupS' | 'thresholds'> {
  return {
    rate: profile.quick.rate,
    durationS: profile.quick.durationS,
    warmupS: profile.quick.warmupS,
    thresholds: quickThresholds(profile),
  };
}
