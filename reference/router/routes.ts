// The router's HTTP surface (seed R § Endpoints): what every request goes through (request
// id, error envelope, authentication and the request allowance), then the route groups in
// reference/router/routes/: catalog, synchronous runs, estimates and the queue. Every
// response carries X-<Brand>-Request-Id; every error X-<Brand>-Error-Type.
import { randomUUID } from 'node:crypto';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { H, MAX_BODY_BYTES } from './constants.ts';
import { RouterError, RouterValidationError, invalidInput } from './errors.ts';
import { resolvePrincipal, scopeOf, type Principal } from './principals.ts';
import type { RouterState } from './state.ts';
import { rateLimited, rateLimitRetryAfter } from './variations.ts';
import { registerCatalogRoutes } from './routes/catalog.ts';
import { registerEstimateRoute } from './routes/estimates.ts';
import { routeKit, sendError, sendJson } from './routes/kit.ts';
import { registerQueueRoutes } from './routes/queue.ts';
import { registerRunRoute } from './routes/runs.ts';

export function registerRouterRoutes(app: FastifyInstance, state: RouterState): void {
  const { policy } = state;
  const principals = new WeakMap<FastifyRequest, Principal>();

  // ---- every response: request id; errors: error type ----
  // Callback style: it runs on every call, and an async hook costs a promise per request.
  app.addHook('onRequest', (_req, reply, done) => {
    reply.header(H.requestId, randomUUID());
    done();
  });

  app.setErrorHandler((err: unknown, request: FastifyRequest, reply: FastifyReply) => {
    if (err instanceof RouterValidationError) {
      return sendJson(reply, 422, { detail: err.entries }, { [H.errorType]: 'invalid_input' });
    }
    if (err instanceof RouterError) return sendError(reply, err);
    const fe = err as Partial<FastifyError>;
    if (fe.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      // Fastify answers `Connection: close` and closes at once, with the body unread: the
      // reset can reach the client before this answer does (RFC 9112 § 9.6). Keeping the
      // connection lets Node read the rest of the body and the client read the 413.
      reply.removeHeader('connection');
      return sendError(
        reply,
        new RouterError(413, 'invalid_input', `the request body is larger than ${MAX_BODY_BYTES} bytes`),
      );
    }
    if (typeof fe.statusCode === 'number' && fe.statusCode >= 400 && fe.statusCode < 500) {
      return sendError(
        reply,
        invalidInput(`malformed request: ${fe.message ?? 'unreadable body'}; send a JSON object as application/json`),
      );
    }
    request.log.error({ err }, 'unexpected router error');
    return sendError(reply, new RouterError(500, 'internal_error', 'the router hit an unexpected error'));
  });
  app.setNotFoundHandler((request, reply) =>
    sendError(
      reply,
      new RouterError(404, 'model_not_found', `no route for ${request.method} ${request.url.split('?')[0]}`),
    ),
  );

  // ---- authentication, then the caller's request allowance ----
  // Callback style too: it runs on every /v2 call (the polls of a load run among them).
  const authenticate = (req: FastifyRequest): void => {
    if (!req.url.startsWith('/v2/')) return;
    const anonymous = req.headers.authorization === undefined && req.headers['x-api-key'] === undefined;
    const guest = anonymous ? policy.anonymousPrincipal(req) : undefined;
    if (guest !== undefined) {
      principals.set(req, guest);
      return;
    }
    const p = resolvePrincipal(req.headers, policy.bearerFirst, !policy.acceptsJwt);
    principals.set(req, p);
    if (!rateLimited(state, req.method, req.url)) return;
    const decision = policy.rateDecision(p.caller, state.limiter.take(p.caller));
    if (!decision.allowed) {
      const retryAfter = rateLimitRetryAfter(state, decision.retryAfterSeconds);
      throw new RouterError(
        429,
        'rate_limited',
        retryAfter === undefined
          ? 'request allowance used up; try again once it resets'
          : `request allowance used up; retry in ${retryAfter} s`,
        { ...(retryAfter === undefined ? {} : { retryAfter }), headers: state.spendHeaders(scopeOf(p)) },
      );
    }
  };
  app.addHook('onRequest', (req, _reply, done) => {
    try {
      authenticate(req);
    } catch (err) {
      done(err as Error);
      return;
    }
    done();
  });

  // ---- the routes, by concern (reference/router/routes/) ----
  const kit = routeKit(state, principals);
  registerCatalogRoutes(app, kit);
  registerRunRoute(app, kit);
  registerEstimateRoute(app, kit);
  registerQueueRoutes(app, kit);
}
