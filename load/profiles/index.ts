// Every load profile, by the name `npm run load -- --profile <name>` takes.
import type { Profile } from '../types.ts';
import { rateLimit, routerRateLimit } from './rate-limit.ts';
import { routerConcurrency } from './router-concurrency.ts';
import { routerQueuePoll } from './router-queue-poll.ts';
import { v1JobStatus } from './v1-job-status.ts';
import { v2JobPoll } from './v2-job-poll.ts';

export const PROFILES: readonly Profile[] = [
  v2JobPoll,
  v1JobStatus,
  routerQueuePoll,
  rateLimit,
  routerRateLimit,
  routerConcurrency,
];

export function profileNamed(name: string): Profile | undefined {
  return PROFILES.find((p) => p.name === name);
}

/** The profiles `--load` names (`all`, or names separated by commas); `unknown`: the first name no profile has (the caller says so). */
export function loadProfilesNamed(value: string): { profiles: Profile[]; unknown?: string } {
  const names = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (names.includes('all')) return { profiles: [...PROFILES] };
  const unknown = names.find((name) => !profileNamed(name));
  return { profiles: [...new Set(names)].flatMap((name) => profileNamed(name) ?? []), ...(unknown ? { unknown } : {}) };
}
