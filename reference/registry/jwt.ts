// Development JWTs for the registry surface: compact JWS, HS256 over a shared development
// secret, with `sub`, `iat` and a real `exp`. The reference's printed credential list mints its
// tokens with the same function (reference/main.ts), so nothing has to be read from the
// server's output. Only HS256 is accepted: an unsigned ("alg": "none") token is refused.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { isPlainObject } from '../../lib/values.ts';

const JWT_ISSUER = 'reference-registry';

export interface DevJwtClaims {
  sub: string;
  iat: number;
  exp: number;
  iss: string;
}

export type JwtVerdict =
  { ok: true; claims: DevJwtClaims } | { ok: false; reason: 'malformed' | 'bad-signature' | 'expired' };

const b64url = (data: string | Buffer): string => Buffer.from(data).toString('base64url');

function mac(secret: string, signingInput: string): Buffer {
  return createHmac('sha256', secret).update(signingInput).digest();
}

/** A token for `sub`, issued at `issuedAt` (epoch seconds) and valid for `ttlSeconds`. */
export function mintDevJwt(secret: string, sub: string, opts: { issuedAt?: number; ttlSeconds?: number } = {}): string {
  const iat = opts.issuedAt ?? Math.floor(Date.now() / 1000);
  const claims: DevJwtClaims = { sub, iat, exp: iat + (opts.ttlSeconds ?? 24 * 3600), iss: JWT_ISSUER };
  const input = `${b64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }))}.${b64url(JSON.stringify(claims))}`;
  return `${input}.${mac(secret, input).toString('base64url')}`;
}

function parseSegment(segment: string): Record<string, unknown> | undefined {
  if (!/^[A-Za-z0-9_-]+$/.test(segment)) return undefined;
  try {
    const value: unknown = JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'));
    return isPlainObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

export function verifyDevJwt(
  secret: string,
  token: string,
  nowMs: number = Date.now(),
  ignoreExpiry = false,
): JwtVerdict {
  const parts = token.split('.');
  if (parts.length !== 3) return { ok: false, reason: 'malformed' };
  const [h, p, s] = parts as [string, string, string];
  const header = parseSegment(h);
  const payload = parseSegment(p);
  if (!header || !payload || header.alg !== 'HS256' || !/^[A-Za-z0-9_-]+$/.test(s))
    return { ok: false, reason: 'malformed' };
  const given = Buffer.from(s, 'base64url');
  const expected = mac(secret, `${h}.${p}`);
  if (given.length !== expected.length || !timingSafeEqual(given, expected))
    return { ok: false, reason: 'bad-signature' };
  const { sub, iat, exp, iss } = payload;
  if (typeof sub !== 'string' || sub === '' || typeof iat !== 'number' || typeof exp !== 'number' || iss !== JWT_ISSUER)
    return { ok: false, reason: 'malformed' };
  if (!ignoreExpiry && nowMs >= exp * 1000) return { ok: false, reason: 'expired' };
  return { ok: true, claims: { sub, iat, exp, iss } };
}
