// The self-hosted proxy configured with its optional static bearer token (seed W §
// Authentication 3). A target under test is usually the open default; scenario inputs
// token_base_url (+ static_token) name a second instance of it started with a token, so
// the 401s that only a token-protected proxy gives can be judged too.
import type { ApiClient } from '../api.ts';

export interface TokenProxy {
  /** Sends the configured token. */
  keyed: ApiClient;
  /** The same base URL, no credential by default. */
  open: ApiClient;
  how: string;
}

/** A client for a surface that needs credentials: the target itself when it has a token, else the token-protected proxy its scenario names. */
export function credentialedSurface(api: ApiClient): TokenProxy | undefined {
  const t = api.target;
  if (t.surface !== 'local' || t.token) return { keyed: api, open: api.as('none'), how: t.baseUrl };
  const url = t.scenario.token_base_url;
  const token = t.scenario.static_token;
  if (typeof url !== 'string' || typeof token !== 'string') return undefined;
  const at = api.at(url);
  return { keyed: at.as({ bearer: token }), open: at.as('none'), how: `${url} (scenario input token_base_url)` };
}
