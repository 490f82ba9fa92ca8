// Controls (reference/controls.ts) that vary what the v2 surfaces answer outside the asset
// and job routes: the surfaces' own files call these, and the controls are consulted here,
// in the v2 folder, so their self-test covers the family they vary.
import type { FastifyInstance } from 'fastify';
import type { ReferenceContext } from '../context.ts';
import type { ControlName } from '../controls.ts';
import type { AlternativeKind } from '../ratelimit.ts';

/** The 401 message for a JWT bearer on a deployment that takes API keys only (seed W:157:0f28ce1fb567). */
export function jwtRefusalMessage(ctx: ReferenceContext): string {
  // A control: the same refusal in other words, naming no "JWT" (the seed asks that it says so, not how).
  if (ctx.isControl('jwt-refusal-plain-words'))
    return 'session and OAuth tokens are not accepted on this deployment; send an account API key';
  return 'this deployment does not accept JWT bearer tokens; use an API key';
}

/**
 * The 401 message when the hosted cloud is configured not to take JWT bearers, or undefined
 * when it takes them (the reference's own configuration). A control: W:157:0f28ce1fb567
 * makes JWT acceptance deployment configuration, so a cloud may refuse them, saying so.
 */
export function cloudJwtRefusal(ctx: ReferenceContext, keyPrefix: string): string | undefined {
  if (!ctx.isControl('cloud-refuses-jwt')) return undefined;
  return `this deployment does not accept JWT bearer tokens (session or OAuth); use an API key (${keyPrefix}...)`;
}

/**
 * A control: cloud and proxy answer GET /workflow (a read only serverless deployments
 * offer, seed W:24:b2fff39263f9) with a web page, as a front end serving its pages at any
 * path does. It serves no graph.
 */
export function registerWorkflowPage(app: FastifyInstance, ctx: ReferenceContext): void {
  // Asked when the read arrives: without the control the path is unrouted (the not-found answer).
  app.get(
    '/workflow',
    {
      onRequest: async (_request, reply) => {
        if (!ctx.isControl('workflow-route-html')) {
          reply.callNotFound();
          return reply;
        }
      },
    },
    async (_request, reply) =>
      reply
        .type('text/html; charset=utf-8')
        .send('<!doctype html><html><head><title>Workflows</title></head><body><div id="app"></div></body></html>'),
  );
}

/**
 * The body of a deployment's GET /workflow for the graph that ran. A control: the answer
 * carries members beyond the graph (v2 changes are additive, seed W:22:0217f65ddc94): one
 * unknown top-level member, and a `_meta` on every node, as an engine that titles its nodes does.
 */
export function deploymentWorkflowBody(
  ctx: ReferenceContext,
  graph: Record<string, unknown>,
  jobId = '',
): Record<string, unknown> {
  // A control (issue #29 § 5): the engine's own history entry for the run, the graph inside its
  // `prompt` array beside the run's number, id, extra data and output nodes (the shape is not shown).
  if (ctx.isControl('deployment-workflow-history-form')) {
    const outputs = Object.entries(graph)
      .filter(
        ([, n]) =>
          ctx.engine.catalog.get(String((n as { class_type?: unknown } | null)?.class_type))?.outputNode === true,
      )
      .map(([id]) => id);
    return { prompt: [1, jobId, graph, {}, outputs], status: { status_str: 'success', completed: true } };
  }
  if (!ctx.isControl('deployment-workflow-annotated')) return graph;
  const nodes = Object.fromEntries(
    Object.entries(graph).map(([id, node]) => [
      id,
      typeof node === 'object' && node !== null ? { ...node, _meta: { title: `node ${id}` } } : node,
    ]),
  );
  return { ...nodes, x_reference_control: { note: 'a member beyond the graph' } };
}

/**
 * The Location of the content endpoint's redirect. A control: a relative reference (path and
 * query only), which RFC 9110 allows and any HTTP client resolves against the request URL;
 * only where the storage is on the origin the request went to (a serverless deployment's
 * storage is the cloud's, so its Location stays absolute).
 */
export function contentLocation(ctx: ReferenceContext, signedUrl: string, requestOrigin: string): string {
  const u = new URL(signedUrl);
  if (!ctx.isControl('content-location-relative') || u.origin !== requestOrigin) return signedUrl;
  return `${u.pathname}${u.search}`;
}

/**
 * Controls the v2 engine and request limiter are built with, before the surfaces exist
 * (reference/server.ts): an engine that keeps a node cache, as real engines do (asked when
 * a job meets work its account already ran), and the same allowance spent by another
 * algorithm (seed W names none; asked where that algorithm's answer differs).
 */
export function v2EngineOptions(isControl: (name: ControlName) => boolean): { cacheWork: () => boolean } {
  return { cacheWork: () => isControl('engine-cached-work') };
}

export function v2LimiterKind(isControl: (name: ControlName) => boolean): (alternative: AlternativeKind) => boolean {
  return (alternative) =>
    isControl(alternative === 'clock-window' ? 'rate-limit-clock-windows' : 'rate-limit-token-bucket');
}
