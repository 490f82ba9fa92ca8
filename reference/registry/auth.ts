// The registry's security (seed W § Node registry operation): a bearer credential that
// is a JWT, or an API key recognised by its prefix and checked exactly as X-API-Key
// checks it (the same cloud key set), or the administrative secret. Any one suffices.
import type { IncomingHttpHeaders } from 'node:http';
import { timingSafeEqual } from 'node:crypto';
import { API_KEY_PREFIX, REGISTRY_ADMIN_HEADER, REGISTRY_ADMIN_SECRET, REGISTRY_JWT_SECRET, bearerToken, cloudAccountForKey, type CloudAccount } from '../accounts.ts';
import type { IsFault } from '../faults.ts';
import { messageError, type RegistryError } from './errors.ts';
import { verifyDevJwt } from './jwt.ts';

export type RegistryPrincipal = { kind: 'jwt'; subject: string } | { kind: 'api-key'; account: CloudAccount | 'unchecked' } | { kind: 'admin' } | { kind: 'anonymous' };

type Outcome = { ok: true; principal: RegistryPrincipal } | { ok: false; refusal: RegistryError };

const unauthorized = (message: string): Outcome => ({ ok: false, refusal: messageError(401, 'unauthorized', message) });

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}

function bearer(token: string, isFault: IsFault): Outcome {
  if (token.startsWith(API_KEY_PREFIX) && !isFault('registry-api-key-bearer-refused')) {
    if (isFault('registry-api-key-unchecked')) return { ok: true, principal: { kind: 'api-key', account: 'unchecked' } };
    const account = cloudAccountForKey(token);
    return account ? { ok: true, principal: { kind: 'api-key', account } } : unauthorized('the API key is not valid (unknown or revoked)');
  }
  if (isFault('registry-jwt-refused')) return unauthorized('this registry does not accept JWT bearers');
  const verdict = verifyDevJwt(REGISTRY_JWT_SECRET, token, Date.now(), isFault('registry-jwt-expiry-ignored'));
  if (verdict.ok) return { ok: true, principal: { kind: 'jwt', subject: verdict.claims.sub } };
  return unauthorized(verdict.reason === 'expired' ? 'the JWT has expired' : verdict.reason === 'bad-signature' ? 'the JWT signature does not verify' : 'the bearer credential is neither an API key nor a well-formed JWT');
}

function sameSecret(given: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(REGISTRY_ADMIN_SECRET);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The caller, or the refusal to send: the first presented credential's own refusal, else 401. */
export function authenticate(headers: IncomingHttpHeaders, isFault: IsFault): RegistryPrincipal {
  const refusals: RegistryError[] = [];
  const authorization = header(headers, 'authorization');
  if (authorization !== undefined) {
    const token = bearerToken(authorization);
    const outcome = token === undefined ? unauthorized('the Authorization header is not "Bearer <credential>"') : bearer(token, isFault);
    if (outcome.ok) return outcome.principal;
    refusals.push(outcome.refusal);
  }
  const admin = isFault('registry-admin-secret-ignored') ? undefined : header(headers, REGISTRY_ADMIN_HEADER);
  if (admin !== undefined) {
    if (sameSecret(admin)) return { kind: 'admin' };
    refusals.push(messageError(403, 'forbidden', 'the administrative secret is not accepted'));
  }
  if (refusals[0]) throw refusals[0];
  if (isFault('registry-anonymous-accepted')) return { kind: 'anonymous' };
  throw messageError(401, 'unauthorized', `credentials required: Authorization: Bearer <JWT or API key>, or ${REGISTRY_ADMIN_HEADER}`);
}
