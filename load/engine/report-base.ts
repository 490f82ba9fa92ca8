// The parts of a load report that do not depend on the load: the profile and the settings
// it ran with, the model, the target, this machine; and the report of a run that ended
// before any load was sent (skipped, interrupted, its preparation refused).
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { round } from '../stats.ts';
import type { OpenTarget } from '../target.ts';
import type { CheckResult, LoadSettings, Profile } from '../types.ts';
import {
  REPORT_SCHEMA,
  type LoadReport,
  type ModelInfo,
  type ReportBase,
  type RunOptions,
  type Verdict,
} from './report-shape.ts';
import { requestedSettings } from './settings.ts';

function packageVersion(name: string): string {
  try {
    const pkg = JSON.parse(
      readFileSync(new URL(`../../node_modules/${name}/package.json`, import.meta.url), 'utf8'),
    ) as { version?: string };
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

export function reportBase(
  profile: Profile,
  opts: RunOptions,
  open: OpenTarget,
  settings: LoadSettings,
  model: ModelInfo,
  thresholds: string[],
  startedAt: Date,
): ReportBase {
  return {
    schema: REPORT_SCHEMA,
    profile: {
      name: profile.name,
      title: profile.title,
      description: profile.description,
      surface: profile.surfaces.join(', '),
      family: profile.family,
      thresholds,
      requested: requestedSettings(profile, opts),
      effective: settings,
      ceiling: open.ceiling.source,
    },
    model,
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
}

/** The report of a run that sent no load: skipped (with its reason), interrupted, or failed while preparing (its checks). */
export function endedReport(
  base: ReportBase,
  family: string,
  verdict: Verdict,
  reason: string,
  notes: string[],
  checks: CheckResult[] = [],
): LoadReport {
  return {
    ...base,
    verdict,
    ...(reason ? { skipReason: reason } : {}),
    finishedAt: new Date().toISOString(),
    metrics: {},
    thresholds: [],
    checks,
    contract: { family, sampled: 0, violations: 0, unmatched: 0, byRule: {}, examples: [] },
    statusCodes: {},
    timeline: [],
    histogram: { bounds: [], counts: [] },
    figures: {},
    notes,
  };
}

/** Why a profile cannot run on this target: it has none of the profile's surfaces. */
export function noSurfaceReason(profile: Profile, open: OpenTarget): string {
  const has = open.resolved.surfaces.map((x) => x.surface).join(', ');
  const needs =
    profile.surfaces.length > 1
      ? `one of the surfaces ${profile.surfaces.join(', ')}`
      : `a ${profile.surfaces[0]} surface`;
  return `${profile.name} needs ${needs}; target ${open.resolved.name} has only ${has} (workflow-conformance load --list names each profile's surfaces)`;
}
