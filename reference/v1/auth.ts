// v1 credentials (seed W § Authentication, rule 6): the account key in `X-API-Key`
// on HTTP routes, and as the query parameter `token` on the WebSocket.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { cloudAccountForKey } from '../accounts.ts';
import { sendV1Error } from './errors.ts';

/** The account of a development key, or undefined. */
export function accountForKey(key: string | undefined | null): string | undefined {
  return typeof key === 'string' && key.length > 0 ? cloudAccountForKey(key) : undefined;
}

function headerValue(request: FastifyRequest): string | undefined {
  const raw = request.headers['x-api-key'];
  return Array.isArray(raw) ? raw[0] : raw;
}

const accounts = new WeakMap<FastifyRequest, string>();

/** onRequest hook: a known X-API-Key, else 401 `{code, message}`. */
export function v1Authenticate() {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> => {
    const key = headerValue(request);
    const account = accountForKey(key);
    if (account !== undefined) {
      accounts.set(request, account);
      return undefined;
    }
    return sendV1Error(reply, 401, 'unauthorized', key === undefined ? 'missing X-API-Key header' : 'unknown API key');
  };
}

export function v1Account(request: FastifyRequest): string {
  const account = accounts.get(request);
  if (account === undefined) throw new Error('v1 route reached without authentication');
  return account;
}
