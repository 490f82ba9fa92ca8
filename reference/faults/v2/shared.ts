// What the v2 fault units share: which surfaces serve v2, which routes answer an asset
// or a job record, and small readers of the JSON bodies response hooks see.
import type { ReferenceContext, SurfaceName } from '../../context.ts';
import type { Outgoing, Seams } from '../seams.ts';
import { isPlainObject as isObj, UUID_RE } from '../../../lib/values.ts';

export const V2_SURFACES: readonly SurfaceName[] = ['local', 'cloud', 'serverless'];
export const HOSTED: readonly SurfaceName[] = ['cloud', 'serverless'];

/** Routes whose success body is one asset record. */
export const ASSET_ROUTES = ['POST /api/v2/assets', 'POST /api/v2/assets/from-hash', 'GET /api/v2/assets/:id'] as const;
/** Routes whose success body is one job record. */
export const JOB_ROUTES = ['POST /api/v2/jobs', 'GET /api/v2/jobs/:id', 'POST /api/v2/jobs/:id/cancel'] as const;
export const JOB_EVENTS = 'GET /api/v2/jobs/:id/events';
export const CONTENT = 'GET /api/v2/assets/:id/content';

export const GENERIC_500 = 'The server hit an unexpected error; try again later.';

export type Obj = Record<string, unknown>;
// One home for both (lib/values.ts); the fault units import them from here.
export { isObj, UUID_RE };

/** The record a success body carries (it has an id), else undefined. */
export function record(out: Outgoing): Obj | undefined {
  return out.error === undefined && isObj(out.body) && typeof out.body.id === 'string' ? out.body : undefined;
}

/** The inner `error` object of a v2 error answer. */
export function errorObject(out: Outgoing): Obj | undefined {
  return out.error !== undefined && isObj(out.body) && isObj(out.body.error) ? out.body.error : undefined;
}

export function param(out: { request: { params: unknown } }, name: string): string {
  const value = (out.request.params as Record<string, unknown>)[name];
  return typeof value === 'string' ? value : '';
}

export const iso = (ms: number): string => new Date(ms).toISOString();

/** Rewrites each output of job records and of `output` events alike, so the two still agree. */
export function eachOutput(s: Seams, rewrite: (output: Obj, ctx: ReferenceContext) => void): void {
  s.respond({ routes: JOB_ROUTES }, (out) => {
    const outputs = record(out)?.outputs;
    if (Array.isArray(outputs)) for (const o of outputs) if (isObj(o)) rewrite(o, out.ctx);
  });
  s.event({ routes: [JOB_EVENTS] }, (e) => {
    if (e.event === 'output' && isObj(e.data)) rewrite(e.data, e.ctx);
  });
}
