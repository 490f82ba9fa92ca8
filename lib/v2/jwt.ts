// Whether a 401 to a JWT bearer says JWT bearers are not taken here (seed W:157:0f28ce1fb567:
// acceptance is deployment configuration, and a deployment that does not take them says so
// in its 401). The seed asks that the message says so, not in which words. What cannot say
// so: the message this server gives any key refusal (an unknown key, no credential), or one
// that only repeats the code or the status. A message naming JWTs says so outright.
import type { ApiClient, ApiResponse } from '../api.ts';
import { textOf } from '../values.ts';

const plain = (m: unknown): string =>
  textOf(m ?? '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
const BARE = ['', 'unauthorized', 'unauthorised', 'unauthenticated', 'not authorized', 'forbidden', 'error', '401'];

function messageOf(r: ApiResponse): string | undefined {
  try {
    const m = r.json<{ error?: { message?: unknown } }>().error?.message;
    return typeof m === 'string' ? m : undefined;
  } catch {
    return undefined;
  }
}

export interface JwtRefusalWords {
  saysSo: boolean;
  /** The JWT refusal's message beside the messages of the other refusals it was told apart from. */
  messages: { jwt: string | undefined; unknown_key: string | undefined; no_credential: string | undefined };
}

/** Reads the message of `refusal` (a 401 to a JWT bearer on GET asset `id`) against this server's other key refusals. */
export async function jwtRefusalWords(api: ApiClient, refusal: ApiResponse, id: string): Promise<JwtRefusalWords> {
  const message = messageOf(refusal);
  const key = api.target.token ?? '';
  const unknownKey = await api.call('getAsset', {
    path: { id },
    auth: { bearer: `${key.slice(0, Math.max(0, key.length - 6))}zzzzzz` },
  });
  const keyless = await api.call('getAsset', { path: { id }, auth: 'none' });
  const [unknown, none] = [unknownKey, keyless].map(messageOf);
  const namesJwt = /\bjwts?\b|json web tokens?/i.test(message ?? '');
  const bare = BARE.includes(plain(message));
  const shared = [unknown, none].some((m) => m !== undefined && plain(m) === plain(message));
  return {
    saysSo: message !== undefined && (namesJwt || (!bare && !shared)),
    messages: { jwt: message, unknown_key: unknown, no_credential: none },
  };
}
