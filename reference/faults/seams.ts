// The seams through which a fault is installed. The correct server in reference/ knows no
// fault by name: a fault unit (reference/faults/<family>/<area>.ts) attaches its behaviour
// here, and only here, when the reference starts with `--fault NAME`.
//
// 1. Response hooks, `seams.respond(on, hook)`: run on the way out of every route that
//    `on` matches (surfaces, and `METHOD /path/:param` templates as registered; the
//    mount prefixes /deployment/:deployment and /with-token are left out). A hook may rewrite the
//    status, the headers, the parsed JSON body (or replace the raw payload, for bytes and
//    streams). An answer built from a v2 error carries it (`out.error`), and `out.fail(err)`
//    answers another error as the v2 error path would.
// 2. Event hooks, `seams.event(on, hook)`: the same for each server-sent event written on
//    a matching route (`{event, data}`; drop one with `e.drop = true`).
// 3. Request hooks, `seams.request(on, hook, stage)`: run before the route's own work,
//    at `onRequest` (before authentication) or `preHandler` (after it, body parsed). A
//    hook may throw an error for the surface to answer, or adjust the request.
// 4. WebSocket hooks, `seams.socket(hook)`: each message the v1 stream is about to send
//    (text or binary frame) goes through them as `ctx.socketOut(payload, later)`; a hook answers
//    the messages to send in its place (none, the same, rewritten, or more), and may hand
//    some to `later(payloads, ms)` to go to the same connections that many ms afterwards.
// 5. Override points, `seams.policy`: a typed object of the few decisions a fault must
//    change rather than reshape (reference/policy.ts lists them per family, each default
//    being the correct behaviour). The correct code calls them where the decision is
//    made; a fault replaces one. Prefer 1-4 where a fault only changes an answer's shape.
//
// Hooks 1-3 are fastify hooks that each surface attaches first of all, as soon as its app
// is created (ctx.installSeams), so they run before the surface's own hooks on the way in
// and see its answers before a control rewrites them. A surface no fault hooks gets none.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { LOCAL_TOKEN_MOUNT } from '../accounts.ts';
import type { ReferenceContext, SurfaceName } from '../context.ts';
import { ApiError, answeredError, errorAnswer } from '../errors.ts';
import { correctPolicy, type Policy } from '../policy.ts';
import { textOf } from '../../lib/values.ts';

/** Which answers a hook applies to: every one when both are left out. */
export interface Match {
  readonly surfaces?: readonly SurfaceName[];
  /** `METHOD /template` as the route was registered, e.g. `GET /api/v2/assets/:id`. */
  readonly routes?: readonly string[];
}

export interface Outgoing {
  readonly request: FastifyRequest;
  readonly reply: FastifyReply;
  readonly ctx: ReferenceContext;
  readonly surface: SurfaceName;
  /** The error this answer was built from, when the surface's error path built it. */
  readonly error: ApiError | undefined;
  status: number;
  /** The parsed JSON body (undefined when the answer is not JSON); mutate or replace it. */
  body: unknown;
  /** The raw payload (string, Buffer, stream); assign to send other bytes than `body`. */
  payload: unknown;
  header(name: string): string | undefined;
  setHeader(name: string, value: string | undefined): void;
  /** Answers `err` instead, as the v2 surfaces' error path would. */
  fail(err: ApiError): void;
}

export interface StreamEvent {
  readonly request: FastifyRequest;
  readonly ctx: ReferenceContext;
  readonly event: string;
  data: unknown;
  drop?: boolean;
}

export interface Incoming {
  readonly request: FastifyRequest;
  readonly reply: FastifyReply;
  readonly ctx: ReferenceContext;
  readonly surface: SurfaceName;
}

export type ResponseHook = (out: Outgoing) => void | Promise<void>;
export type EventHook = (e: StreamEvent) => void;
export type RequestHook = (inc: Incoming) => void | Promise<void>;
export type RequestStage = 'onRequest' | 'preHandler';
export type SocketPayload = string | Buffer;
/** Sends payloads to the same connections `ms` milliseconds from now (past the hooks). */
export type SocketLater = (payloads: SocketPayload[], ms: number) => void;
export type SocketHook = (payload: SocketPayload, later: SocketLater) => SocketPayload[];

interface Hooked<H> {
  on: Match;
  hook: H;
}

export class Seams {
  readonly policy: Policy = correctPolicy();
  /** The defaults as built, so describe() can tell which override points a fault replaced. */
  private readonly defaults = Object.fromEntries(
    Object.entries(this.policy).map(([family, points]) => [family, { ...points }]),
  ) as Record<string, Record<string, unknown>>;
  private readonly responses: Hooked<ResponseHook>[] = [];
  private readonly events: Hooked<EventHook>[] = [];
  private readonly requests: Record<RequestStage, Hooked<RequestHook>[]> = { onRequest: [], preHandler: [] };
  private readonly sockets: SocketHook[] = [];

  respond(on: Match, hook: ResponseHook): void {
    this.responses.push({ on, hook });
  }

  event(on: Match, hook: EventHook): void {
    this.events.push({ on, hook });
  }

  request(on: Match, hook: RequestHook, stage: RequestStage = 'onRequest'): void {
    this.requests[stage].push({ on, hook });
  }

  socket(hook: SocketHook): void {
    this.sockets.push(hook);
  }

  /** What the v1 stream sends for one message: the message itself unless a hook rewrites it. */
  readonly socketOut = (payload: SocketPayload, later: SocketLater = () => undefined): SocketPayload[] =>
    this.sockets.reduce<SocketPayload[]>((list, hook) => list.flatMap((one) => hook(one, later)), [payload]);

  /** What a fault installed: how many hooks, and which override points it replaced (`family.point`). */
  describe(): { hooks: number; overrides: string[] } {
    const hooks =
      this.responses.length +
      this.events.length +
      this.requests.onRequest.length +
      this.requests.preHandler.length +
      this.sockets.length;
    const overrides = Object.entries(this.policy).flatMap(([family, points]) =>
      Object.entries(points as Record<string, unknown>)
        .filter(([k, v]) => this.defaults[family]?.[k] !== v)
        .map(([k]) => `${family}.${k}`),
    );
    return { hooks, overrides };
  }

  /** Attaches the hooks that apply to one surface app (nothing when no fault uses it). */
  installOn(app: FastifyInstance, surface: SurfaceName, ctx: ReferenceContext): void {
    const forSurface = <H>(list: Hooked<H>[]) =>
      list.filter((h) => h.on.surfaces === undefined || h.on.surfaces.includes(surface));
    const responses = forSurface(this.responses);
    const events = forSurface(this.events);
    for (const stage of ['onRequest', 'preHandler'] as const) {
      const requests = forSurface(this.requests[stage]);
      if (requests.length === 0) continue;
      app.addHook(stage, async (request: FastifyRequest, reply: FastifyReply) => {
        for (const h of requests) {
          if (!routeMatches(h.on, request)) continue;
          await h.hook({ request, reply, ctx, surface });
          // A hook that answered ends the request here.
          if (reply.sent) return reply;
        }
        return undefined;
      });
    }
    if (events.length > 0) {
      app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
        const hooks = events.filter((h) => routeMatches(h.on, request)).map((h) => h.hook);
        if (hooks.length > 0) rewriteEvents(request, reply, ctx, hooks);
      });
    }
    if (responses.length > 0) {
      app.addHook('onSend', async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
        const hooks = responses.filter((h) => routeMatches(h.on, request)).map((h) => h.hook);
        return hooks.length === 0 ? payload : runResponseHooks(request, reply, ctx, surface, payload, hooks);
      });
    }
  }
}

const MOUNT_PREFIX = new RegExp(`^(/deployment/:deployment|${LOCAL_TOKEN_MOUNT})(?=/)`);

function routeMatches(on: Match, request: FastifyRequest): boolean {
  if (on.routes === undefined) return true;
  const template = routeTemplate(request);
  if (template === undefined) return false;
  return on.routes.includes(`${request.method} ${template}`);
}

/**
 * The route's template as the correct code registered it, without its mount prefix (a
 * serverless deployment's, or the local proxy's token-protected mount), so a hook applies
 * to the operation however it is mounted.
 */
function routeTemplate(request: FastifyRequest): string | undefined {
  return request.routeOptions.url?.replace(MOUNT_PREFIX, '');
}

function isJsonType(contentType: unknown): boolean {
  const base = textOf(contentType ?? '')
    .split(';')[0]
    .trim()
    .toLowerCase();
  return base === 'application/json' || base.endsWith('+json');
}

async function runResponseHooks(
  request: FastifyRequest,
  reply: FastifyReply,
  ctx: ReferenceContext,
  surface: SurfaceName,
  payload: unknown,
  hooks: ResponseHook[],
): Promise<unknown> {
  const text = typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : undefined;
  let body: unknown;
  if (text !== undefined && text.length > 0 && isJsonType(reply.getHeader('content-type'))) {
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
  }
  const before = body === undefined ? undefined : JSON.stringify(body);
  const out: Outgoing = {
    request,
    reply,
    ctx,
    surface,
    error: answeredError(reply),
    status: reply.statusCode,
    body,
    payload,
    header: (name) => {
      const v = reply.getHeader(name);
      return v === undefined ? undefined : String(v);
    },
    setHeader: (name, value) => {
      if (value === undefined) reply.removeHeader(name);
      else reply.header(name, value);
    },
    fail: (err) => {
      const answer = errorAnswer(err);
      out.status = answer.status;
      out.body = answer.body;
      reply.removeHeader('retry-after');
      for (const [k, v] of Object.entries(answer.headers)) reply.header(k, v);
    },
  };
  for (const hook of hooks) await hook(out);
  if (out.status !== reply.statusCode) reply.code(out.status);
  if (out.payload !== payload) return out.payload;
  if (out.body === undefined) return payload;
  const after = JSON.stringify(out.body);
  // Untouched bodies keep their exact bytes.
  if (after === before) return payload;
  if (!isJsonType(reply.getHeader('content-type'))) reply.type('application/json; charset=utf-8');
  return after;
}

/** Event streams are written on the raw response (hijacked), past onSend. */
function rewriteEvents(request: FastifyRequest, reply: FastifyReply, ctx: ReferenceContext, hooks: EventHook[]): void {
  const raw = reply.raw;
  const write = raw.write.bind(raw) as (chunk: unknown, ...rest: unknown[]) => boolean;
  raw.write = ((chunk: unknown, ...rest: unknown[]) => {
    if (typeof chunk !== 'string' || !chunk.startsWith('event: ')) return write(chunk, ...rest);
    const out = chunk.replace(/event: ([^\n]+)\ndata: ([^\n]*)\n\n/g, (_frame, event: string, data: string) => {
      const e: StreamEvent = { request, ctx, event, data: JSON.parse(data) as unknown };
      for (const hook of hooks) hook(e);
      return e.drop === true ? '' : `event: ${event}\ndata: ${JSON.stringify(e.data)}\n\n`;
    });
    return out.length === 0 ? true : write(out, ...rest);
  }) as typeof raw.write;
}
