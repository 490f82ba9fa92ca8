// The load itself: every answer counted per status and per second, judged by the profile,
// a sample validated against the contract; the profile's side activity beside it; progress
// each second. Ends with the driver's result and what was counted.
import { driveClosed } from '../drivers/closed.ts';
import { driveOpen } from '../drivers/open.ts';
import type { Answer, DriveOptions, DriveResult } from '../drivers/types.ts';
import type { Progress } from '../progress.ts';
import type { ContractSampler } from '../sampler.ts';
import { Timeline } from '../timeline.ts';
import type { LoadSettings, Observation, Profile, Workload } from '../types.ts';
import type { ModelInfo } from './report-shape.ts';

const second = (ms: number): number => Math.floor(ms / 1000);

/** What the answers of a run add up to, besides the driver's own counts. */
export class AnswerTally {
  readonly statusCodes: Record<string, number> = {};
  unexpected = 0;
  measured2xx = 0;
  readonly timeline: Timeline;

  constructor(settings: LoadSettings) {
    this.timeline = new Timeline(settings.rate, settings.warmupS);
  }

  count(key: string): void {
    this.statusCodes[key] = (this.statusCodes[key] ?? 0) + 1;
  }
}

export interface DriveInput {
  profile: Profile;
  work: Workload;
  settings: LoadSettings;
  model: ModelInfo;
  lateAfterMs: number;
  origin: string;
  sampler: ContractSampler | undefined;
  progress: Progress | undefined;
  signal: AbortSignal | undefined;
  /** Said in the report when the side activity stopped early. */
  note(line: string): void;
}

export const DRIVE_TIMEOUT_MS = 10_000;

function driveOptions(input: DriveInput, tally: AnswerTally): DriveOptions {
  const { work, settings, model, lateAfterMs, sampler } = input;
  return {
    origin: input.origin,
    rate: settings.rate,
    connections: settings.connections,
    warmupS: settings.warmupS,
    durationS: settings.durationS,
    timeoutMs: DRIVE_TIMEOUT_MS,
    method: work.method,
    headers: work.headers,
    next: (now) => work.next(now),
    keepBodies: true,
    onAnswer(a: Answer) {
      const unexpected = !work.expected(a.status);
      const late = model.name === 'open' && a.sentAt - a.intendedAt > lateAfterMs;
      tally.timeline.add(second(a.intendedAt), String(a.status), a.at - a.intendedAt, unexpected, late);
      if (a.measured) {
        tally.count(String(a.status));
        if (unexpected) tally.unexpected += 1;
        if (a.status >= 200 && a.status < 300) tally.measured2xx += 1;
      }
      if (a.incomplete) return;
      if (!work.judgesItself?.(a.status)) sampler?.offer(work.method, a.path, a.status, a.headers, a.body, a.at);
      const o: Observation = {
        path: a.path,
        status: a.status,
        headers: a.headers,
        body: a.body,
        latencyMs: a.at - a.sentAt,
        intendedAt: a.intendedAt,
        sentAt: a.sentAt,
        at: a.at,
        measured: a.measured,
      };
      work.observe(o);
    },
    onFailure(f) {
      tally.timeline.add(second(f.intendedAt), 'error', undefined, true);
      if (f.measured) tally.count('error');
    },
    onDrop(intendedAt, measured) {
      tally.timeline.add(second(intendedAt), 'dropped', undefined, true);
      if (measured) tally.count('dropped');
    },
    ...(input.signal ? { signal: input.signal } : {}),
  };
}

/** Drives the load on the run's model, with the profile's side activity and a progress tick each second. */
export async function drive(input: DriveInput): Promise<{ result: DriveResult; tally: AnswerTally }> {
  const { profile, work, settings, model, progress, sampler } = input;
  const tally = new AnswerTally(settings);
  const options = driveOptions(input, tally);
  const totalS = settings.warmupS + settings.durationS;
  const side = new AbortController();
  const during = work.during
    ? work.during(side.signal).catch((err: unknown) => input.note(`side activity stopped: ${(err as Error).message}`))
    : Promise.resolve();
  progress?.start(profile.name, settings, model.summary);
  const t0 = performance.now();
  const ticker = setInterval(() => {
    const elapsed = (performance.now() - t0) / 1000;
    if (elapsed <= totalS + 1)
      progress?.tick(elapsed, totalS, tally.timeline.peek(Math.floor(elapsed) - 1), sampler?.violations ?? 0);
  }, 1000);
  try {
    const result =
      model.name === 'open'
        ? await driveOpen({
            ...options,
            arrival: model.arrival ?? 'constant',
            ...(model.seed !== undefined ? { seed: model.seed } : {}),
            lateAfterMs: input.lateAfterMs,
          })
        : await driveClosed({ ...options, drainS: profile.drainS ?? 0 });
    return { result, tally };
  } finally {
    clearInterval(ticker);
    side.abort();
    await during;
    progress?.end();
  }
}
