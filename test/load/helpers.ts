// Shared by the load tests: a synthetic report for the units, and a short profile run
// against a fresh in-process reference (no TARGET from the outer environment).
import type { LoadReport } from '../../load/engine.ts';
import { runProfile } from '../../load/engine.ts';
import { PROFILES, profileNamed } from '../../load/profiles/index.ts';
import { quickOptions } from '../../load/quick.ts';
import type { LoadSettings } from '../../load/types.ts';
import type { RunningReference } from '../../reference/server.ts';

export function fakeReport(metrics: Record<string, number>, over: Partial<LoadReport> = {}): LoadReport {
  const settings: LoadSettings = { rate: 50, connections: 5, durationS: 10, warmupS: 2 };
  return {
    schema: 'load-report/2',
    verdict: 'pass',
    profile: {
      name: 'router-queue-poll',
      title: 't',
      description: 'd',
      surface: 'router',
      family: 'router',
      thresholds: [],
      requested: settings,
      effective: settings,
      ceiling: 'test',
    },
    model: { name: 'open', arrival: 'constant', late_after_ms: 20, summary: 'open model' },
    target: { name: 'reference', surface: 'router', baseUrl: 'http://127.0.0.1:1', embedded: true },
    environment: { node: process.version, cpus: 2, cpu_model: 'test', autocannon: '9' },
    startedAt: '2026-01-01T00:00:00.000Z',
    finishedAt: '2026-01-01T00:00:12.000Z',
    metrics,
    thresholds: [],
    checks: [],
    contract: { family: 'router', sampled: 10, violations: 0, unmatched: 0, byRule: {}, examples: [] },
    statusCodes: { 200: 500 },
    timeline: [],
    histogram: { bounds: [], counts: [] },
    figures: {},
    notes: [],
    ...over,
  };
}

/** Smoke settings: each profile's quick size (Profile.quick), a few seconds at a low rate. */
export const SMOKE: Record<string, Partial<LoadSettings>> = Object.fromEntries(PROFILES.map((p) => [p.name, p.quick]));

/** A short run of profile `name`: against a fresh reference (with `fault` on), or against `reference` (one started with a control). */
export async function smoke(name: string, fault?: string, reference?: RunningReference): Promise<LoadReport> {
  const profile = profileNamed(name);
  if (!profile) throw new Error(`no profile ${name}`);
  // Smoke runs share two cores with the rest of the test run: the quick size, with only a
  // generous latency ceiling (load/quick.ts); the functional limits all apply.
  return runProfile(profile, {
    env: {},
    ...quickOptions(profile),
    ...(fault ? { fault } : {}),
    ...(reference ? { reference } : {}),
  });
}

export function failedRules(r: LoadReport): string[] {
  return [...new Set(r.checks.filter((c) => c.outcome !== 'held').map((c) => c.rule))].sort();
}
