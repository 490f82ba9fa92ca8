// Small helpers the profiles share: scenario inputs and the target's auth header.
import type { SurfaceTarget } from '../../lib/targets.ts';

export function scenarioString(target: SurfaceTarget, key: string): string | undefined {
  const v = target.scenario[key];
  return typeof v === 'string' && v !== '' ? v : undefined;
}

export function scenarioNumber(target: SurfaceTarget, key: string): number | undefined {
  const v = target.scenario[key];
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

export function scenarioObject(target: SurfaceTarget, key: string): Record<string, unknown> | undefined {
  const v = target.scenario[key];
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
}

/** `{skip}` naming the scenario inputs the target did not give. */
export function missing(target: SurfaceTarget, wanted: Record<string, string>): { skip: string } | undefined {
  const absent = Object.entries(wanted).filter(([key]) => target.scenario[key] === undefined);
  if (absent.length === 0) return undefined;
  return {
    skip: `not exercised: target gave no ${absent.map(([k, why]) => `${why} (scenario input "${k}")`).join(', ')}`,
  };
}

export function bearer(token: string | undefined): Record<string, string> {
  return token ? { authorization: `Bearer ${token}` } : {};
}

/** The base URL's path (serverless deployments are mounted under one). */
export function basePath(target: SurfaceTarget): string {
  return new URL(target.baseUrl).pathname.replace(/\/+$/, '');
}

export function splitModel(id: string): { provider: string; model: string } {
  const at = id.indexOf('/');
  return { provider: id.slice(0, at), model: id.slice(at + 1) };
}

/**
 * Pool size so that at `rate` polls/s every item waits `waitS` between polls, with headroom:
 * autocannon sends each second's requests in a burst, and finished items are replaced only
 * after their submit returns, so 1.5× ran dry on a busy CI machine (4 % early polls).
 */
export function poolFor(rate: number, waitS: number, min = 8, max = 400): number {
  return Math.max(min, Math.min(max, Math.ceil(rate * waitS * 2.5) + 4));
}
