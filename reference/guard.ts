import type { FastifyRequest } from 'fastify';
import { ApiError } from './errors.ts';
import type { RateLimiter } from './ratelimit.ts';

/** Maps the Authorization header to an account, or throws a 401 ApiError. */
export type AccountResolver = (authorization: string | undefined, request: FastifyRequest) => string;

export type RequestHook = (request: FastifyRequest) => Promise<void>;

export interface Guard {
  /** Authentication then the account's rate limit: the default for every v2 route. */
  readonly admit: RequestHook;
  /** Authentication only, for routes that charge the limit themselves. */
  readonly authenticate: RequestHook;
  /** Charges one request to the caller's allowance, throwing 429 when spent. */
  charge(request: FastifyRequest): void;
  /** The authenticated account, or undefined when a route let the request in anonymously. */
  accountOf(request: FastifyRequest): string | undefined;
  /** As accountOf, for routes that never admit anonymous callers. */
  requireAccount(request: FastifyRequest): string;
}

export function createGuard(resolve: AccountResolver, limiter: RateLimiter): Guard {
  // Per guard, not per process, so two reference instances stay independent.
  const accounts = new WeakMap<FastifyRequest, string>();

  const authenticate = (request: FastifyRequest): void => {
    accounts.set(request, resolve(request.headers.authorization, request));
  };
  const charge = (request: FastifyRequest): void => {
    const account = accounts.get(request);
    if (account === undefined) throw new Error('charge() before authentication');
    const decision = limiter.take(account);
    if (!decision.allowed) {
      throw new ApiError(
        'rate_limited',
        `rate limit exceeded for this account; retry in ${decision.retryAfterSeconds} s`,
        {
          retryAfterSeconds: decision.retryAfterSeconds,
        },
      );
    }
  };

  return {
    admit: async (request) => {
      authenticate(request);
      charge(request);
    },
    authenticate: async (request) => {
      authenticate(request);
    },
    charge,
    accountOf: (request) => accounts.get(request),
    requireAccount: (request) => {
      const account = accounts.get(request);
      if (account === undefined) throw new Error('route reached without authentication');
      return account;
    },
  };
}
