// Who is calling the router: the credential's user and workspace, and what that caller
// may do (features, provider gates, own keys, credits). Scenario callers are fixed
// development keys (reference/accounts.ts, ROUTER_KEYS).
import {
  API_KEY_PREFIX,
  REGISTRY_JWT_SECRET,
  ROUTER_CONCURRENCY_LIMIT,
  ROUTER_KEYS,
  ROUTER_LIMITED_ALLOWANCE,
  type Allowance,
  type RouterCaller,
  routerCallerForKey,
  bearerToken,
} from '../accounts.ts';
import { verifyDevJwt } from '../registry/jwt.ts';
import type { Alternate } from './catalog.ts';
import { RouterError } from './errors.ts';

export interface Principal {
  caller: RouterCaller;
  user: string;
  workspace?: string;
  /** Estimate feature (rolling out): off means the route answers 403 and submits omit the quote. */
  estimates: boolean;
  credits: boolean;
  /** Alternate providers turned on for this caller. */
  enabled: ReadonlySet<Alternate>;
  /** The provider gate cannot be evaluated (503). */
  gateDown: boolean;
  /** Native providers this workspace stored its own key for. */
  ownKeys: ReadonlySet<string>;
  /** Synchronous calls this caller's scope may have in flight at once (absent = no limit). */
  inFlightLimit?: number;
}

const STANDARD: ReadonlySet<Alternate> = new Set<Alternate>(['fal', 'wavespeed', 'higgsfield']);

/** A scenario caller: a funded user with estimates and the standard providers on, but for `differs`. */
function principal(caller: RouterCaller, user: string, differs: Partial<Principal> = {}): Principal {
  return {
    caller,
    user,
    estimates: true,
    credits: true,
    enabled: STANDARD,
    gateDown: false,
    ownKeys: new Set(),
    ...differs,
  };
}

const PRINCIPALS: Record<RouterCaller, Principal> = {
  alice: principal('alice', 'alice', { workspace: 'studio' }),
  carol: principal('carol', 'carol', { workspace: 'studio' }),
  dave: principal('dave', 'dave'),
  byok: principal('byok', 'erin', { workspace: 'own-keys', ownKeys: new Set(['pixelforge']) }),
  unfunded: principal('unfunded', 'frank', { workspace: 'empty', credits: false }),
  preview: principal('preview', 'grace', { workspace: 'early', estimates: false }),
  limited: principal('limited', 'heidi', { workspace: 'small' }),
  gatedown: principal('gatedown', 'ivan', { workspace: 'gated', gateDown: true }),
  crowded: principal('crowded', 'judy', { workspace: 'crowded', inFlightLimit: ROUTER_CONCURRENCY_LIMIT }),
};

/** The scope of a scenario caller's keys and queued requests (the aged-out request is the default caller's). */
export function scopeOfCaller(caller: RouterCaller): string {
  return scopeOf(PRINCIPALS[caller]);
}

/** Asked by the limiter on every call: one shared object rather than a new one each time. */
const ROUTER_STANDARD_ALLOWANCE: Allowance = { requests: 100_000, windowSeconds: 1 };

export function routerAllowance(caller: string): Allowance {
  return caller === 'limited' ? ROUTER_LIMITED_ALLOWANCE : ROUTER_STANDARD_ALLOWANCE;
}

const unauthorized = (detail: string): RouterError => new RouterError(401, 'unauthorized', detail);

/** A bearer that is not a key is a JWT: a development token (reference/registry/jwt.ts) whose subject is a router caller. */
function jwtCaller(token: string): RouterCaller | undefined {
  const verdict = verifyDevJwt(REGISTRY_JWT_SECRET, token);
  if (!verdict.ok) return undefined;
  const sub = verdict.claims.sub;
  return Object.hasOwn(ROUTER_KEYS, sub) ? (sub as RouterCaller) : undefined;
}

/**
 * X-API-Key wins when both headers are sent; a bearer value with the key prefix is an API
 * key; anything else is a JWT, accepted when it is a development token of a router caller.
 */
export function resolvePrincipal(
  headers: Record<string, string | string[] | undefined>,
  bearerWins: boolean,
  jwtRefused = false,
): Principal {
  const apiKey = typeof headers['x-api-key'] === 'string' ? headers['x-api-key'] : undefined;
  const auth = typeof headers.authorization === 'string' ? headers.authorization : undefined;
  const bearer = bearerToken(auth);
  const order = bearerWins ? [bearer, apiKey] : [apiKey, bearer];
  const presented = order.find((v) => v !== undefined);
  if (presented === undefined) {
    throw unauthorized(
      auth !== undefined
        ? 'malformed Authorization header; send X-API-Key or Authorization: Bearer <key>'
        : 'missing credentials; send X-API-Key or Authorization: Bearer <key>',
    );
  }
  const caller =
    routerCallerForKey(presented) ??
    (presented === bearer && !presented.startsWith(API_KEY_PREFIX) && !jwtRefused ? jwtCaller(presented) : undefined);
  if (caller === undefined) {
    throw unauthorized(presented.startsWith(API_KEY_PREFIX) ? 'unknown API key' : 'invalid bearer token');
  }
  return PRINCIPALS[caller];
}

// Every queue read resolves the caller's scope; the principals are fixed, so each scope
// string is built once instead of per request.
const SCOPES = new WeakMap<Principal, string>();

/** Idempotency keys and queued requests belong to the workspace, or to the user without one. */
export function scopeOf(p: Principal): string {
  let scope = SCOPES.get(p);
  if (scope === undefined) {
    scope = p.workspace !== undefined ? `workspace:${p.workspace}` : `user:${p.user}`;
    SCOPES.set(p, scope);
  }
  return scope;
}
