// The registry's security (seed W § Node registry operation): a bearer credential that
// is a JWT, or an API key told apart by its prefix and checked exactly as X-API-Key
// checks it (the same cloud key set), or the administrative secret. Any one suffices.
import type { IncomingHttpHeaders } from 'node:http';
import { timingSafeEqual } from 'node:crypto';
import {
  REGISTRY_ADMIN_HEADER,
  REGISTRY_ADMIN_SECRET,
  bearerToken,
  cloudAccountForKey,
  type CloudAccount,
} from '../accounts.ts';
import { messageError, type RegistryError } from './errors.ts';
import type { JwtVerdict } from './jwt.ts';

export type RegistryPrincipal =
  | { kind: 'jwt'; subject: string }
  | { kind: 'api-key'; account: CloudAccount | 'unchecked' }
  | { kind: 'admin' }
  | { kind: 'anonymous' };

export type Outcome = { ok: true; principal: RegistryPrincipal } | { ok: false; refusal: RegistryError };

/** The override points authentication asks (part of RegistryPolicy; a fault may replace any). */
export interface RegistryAuthPolicy {
  /** A bearer with the API-key prefix is an API key; anything else is read as a JWT. */
  apiKeyBearer(token: string): boolean;
  /** An API-key bearer is checked exactly as X-API-Key checks it. */
  apiKeyBearerOutcome(token: string): Outcome;
  /** A JWT bearer is verified against the development secret, expiry included. */
  jwtBearerOutcome(token: string, nowMs: number): Outcome;
  /** The administrative secret a request presents. */
  adminSecret(presented: string | undefined): string | undefined;
  /** The caller a request without any credential acts as (none: 401). */
  anonymousPrincipal(): RegistryPrincipal | undefined;
}

export const unauthorized = (message: string): Outcome => ({
  ok: false,
  refusal: messageError(401, 'unauthorized', message),
});

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}

/** An API-key bearer: the cloud account it names, or a refusal. */
export function apiKeyOutcome(token: string): Outcome {
  const account = cloudAccountForKey(token);
  return account
    ? { ok: true, principal: { kind: 'api-key', account } }
    : unauthorized('the API key is not valid (unknown or revoked)');
}

/** A JWT bearer's verdict as the caller or a refusal. */
export function jwtOutcome(verdict: JwtVerdict): Outcome {
  if (verdict.ok) return { ok: true, principal: { kind: 'jwt', subject: verdict.claims.sub } };
  return unauthorized(
    verdict.reason === 'expired'
      ? 'the JWT has expired'
      : verdict.reason === 'bad-signature'
        ? 'the JWT signature does not verify'
        : 'the bearer credential is neither an API key nor a well-formed JWT',
  );
}

function bearer(token: string, policy: RegistryAuthPolicy): Outcome {
  return policy.apiKeyBearer(token) ? policy.apiKeyBearerOutcome(token) : policy.jwtBearerOutcome(token, Date.now());
}

function sameSecret(given: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(REGISTRY_ADMIN_SECRET);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The caller, or the refusal to send: the first presented credential's own refusal, else 401. */
export function authenticate(headers: IncomingHttpHeaders, policy: RegistryAuthPolicy): RegistryPrincipal {
  const refusals: RegistryError[] = [];
  const authorization = header(headers, 'authorization');
  if (authorization !== undefined) {
    const token = bearerToken(authorization);
    const outcome =
      token === undefined
        ? unauthorized('the Authorization header is not "Bearer <credential>"')
        : bearer(token, policy);
    if (outcome.ok) return outcome.principal;
    refusals.push(outcome.refusal);
  }
  const admin = policy.adminSecret(header(headers, REGISTRY_ADMIN_HEADER));
  if (admin !== undefined) {
    if (sameSecret(admin)) return { kind: 'admin' };
    refusals.push(messageError(403, 'forbidden', 'the administrative secret is not accepted'));
  }
  if (refusals[0]) throw refusals[0];
  const anonymous = policy.anonymousPrincipal();
  if (anonymous !== undefined) return anonymous;
  throw messageError(
    401,
    'unauthorized',
    `credentials required: Authorization: Bearer <JWT or API key>, or ${REGISTRY_ADMIN_HEADER}`,
  );
}
