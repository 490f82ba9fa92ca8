// Development credentials are fixed constants so test suites and humans can
// use them without reading server output.

export const API_KEY_PREFIX = 'comfyui-';

export const CLOUD_KEYS = {
  alice: 'comfyui-ref-alice-7f3a9c2e5b1d4086',
  bob: 'comfyui-ref-bob-2c8e6a0f9d3b4175',
  tiny: 'comfyui-ref-tiny-5d1b7e3c8a2f4960',
  // Scenario accounts (reference/v2/account-traits.ts): a queue of one, no credits, a failing backend.
  carol: 'comfyui-ref-carol-8b2d5f1e7a3c4609',
  broke: 'comfyui-ref-broke-3e9a1c7d5b2f4088',
  flaky: 'comfyui-ref-flaky-6c4e2a8f1d9b4377',
  // Accounts of their own for the two parallel-prompt checks (v1 and v2), so the jobs they
  // hold running take no other check's tier slots, and no check's rate window is theirs.
  pat: 'comfyui-ref-pat-1b5d9f3a7c2e4618',
  quinn: 'comfyui-ref-quinn-6e2a8c4f0b7d4153',
  // A scenario account whose jobs on a serverless deployment are kept for seconds only, so a
  // run can see a job gone (reference/v2/account-traits.ts).
  gwen: 'comfyui-ref-gwen-2f7b4d9e1a6c4835',
} as const;

/** A valid key whose scopes do not include the workflow API: authenticated but not allowed (403 forbidden). */
export const FORBIDDEN_KEY = 'comfyui-ref-erin-4a8c2e6f0b1d4397';

/** An account bound to its organization's SSO (refused on serverless even with a valid key). */
export const SSO_BOUND_KEY = 'comfyui-ref-dave-9d7c3b5a1e8f4266';
export const SSO_ORGANIZATION_ID = 'org_ref_sso_01';

export type CloudAccount = keyof typeof CLOUD_KEYS;

export const LOCAL_ACCOUNT = 'local';

/** Hosted-cloud session JWTs are signed with this development secret (HS256, `sub` = a cloud account). */
export const CLOUD_SESSION_SECRET = 'reference-cloud-dev-session-secret-8e2f6a1c';
/** OAuth 2.0 access tokens issued for the hosted-cloud resource (opaque to clients). */
export const CLOUD_OAUTH_TOKENS: Record<string, CloudAccount> = { 'oauth-ref-alice-1d6f3b9e7c2a4851': 'alice' };

/** The local surface is also served, configured with this static bearer token, under this path. */
export const LOCAL_TOKEN_MOUNT = '/with-token';
export const LOCAL_STATIC_TOKEN = 'reference-local-static-token-4c1e9a7b';

export interface Allowance {
  requests: number;
  windowSeconds: number;
}

// tiny exists so rate limiting can be exercised with a handful of requests.
const TINY_ALLOWANCE: Allowance = { requests: 5, windowSeconds: 2 };
const DEFAULT_ALLOWANCE: Allowance = { requests: 2000, windowSeconds: 1 };

export function allowanceFor(account: string): Allowance {
  return account === 'tiny' ? TINY_ALLOWANCE : DEFAULT_ALLOWANCE;
}

export interface ReferenceCredentials {
  cloud: { alice: string; bob: string; tiny: string };
  tinyAllowance: { requests: number; windowSeconds: number };
  localToken?: string;
}

export function credentialsFor(localToken: string | undefined): ReferenceCredentials {
  const creds: ReferenceCredentials = {
    cloud: { ...CLOUD_KEYS },
    tinyAllowance: { ...TINY_ALLOWANCE },
  };
  if (localToken !== undefined) creds.localToken = localToken;
  return creds;
}

export function cloudAccountForKey(key: string): CloudAccount | undefined {
  for (const [account, k] of Object.entries(CLOUD_KEYS)) {
    if (k === key) return account as CloudAccount;
  }
  return undefined;
}

// Returns the credential of a well-formed "Bearer <token>" header, else undefined.
export function bearerToken(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const m = /^Bearer ([^\s]+)$/i.exec(header.trim());
  return m?.[1];
}

// Model router (issue #5): one development key per caller the router scenarios need.
// All carry the API-key prefix, so they work in X-API-Key and as bearer tokens.
export const ROUTER_KEYS = {
  /** Workspace "studio", estimates on; fal, wavespeed and higgsfield turned on, runware not. */
  alice: 'comfyui-router-alice-3e8d1f6a9b2c4705',
  /** A second member of workspace "studio" (shares its idempotency keyspace). */
  carol: 'comfyui-router-carol-6b1f0d8e2a7c4913',
  /** A personal key with no workspace (keys scoped to the user). */
  dave: 'comfyui-router-dave-9c4a2e7f1d0b4368',
  /** Workspace that stored its own pixelforge key (BYOK). */
  byok: 'comfyui-router-byok-2f7b9e1c4a6d4850',
  /** Workspace without credits. */
  unfunded: 'comfyui-router-unfunded-5a0c8f3e6b1d4297',
  /** Workspace outside the estimate rollout. */
  preview: 'comfyui-router-preview-8d3e1b6f0a2c4579',
  /** Small request allowance (ROUTER_LIMITED_ALLOWANCE). */
  limited: 'comfyui-router-limited-1e6a9d2f5c8b4036',
  /** Workspace whose provider gate cannot be evaluated. */
  gatedown: 'comfyui-router-gatedown-7f2c5a8e1b9d4643',
  /** Workspace with a small in-flight call limit (ROUTER_CONCURRENCY_LIMIT), for the load profiles. */
  crowded: 'comfyui-router-crowded-4b9e2d7a1c6f4852',
} as const;

export type RouterCaller = keyof typeof ROUTER_KEYS;

export const ROUTER_LIMITED_ALLOWANCE: Allowance = { requests: 5, windowSeconds: 2 };

/** Synchronous calls the crowded workspace may have in flight at once (429 concurrency_limit_exceeded beyond). */
export const ROUTER_CONCURRENCY_LIMIT = 2;

// Looked up on every router call (the status poll among them), so built once.
const ROUTER_CALLER_BY_KEY: ReadonlyMap<string, RouterCaller> = new Map(
  Object.entries(ROUTER_KEYS).map(([caller, key]) => [key, caller as RouterCaller]),
);

export function routerCallerForKey(key: string): RouterCaller | undefined {
  return ROUTER_CALLER_BY_KEY.get(key);
}

// Node registry (issue #4). Bearer JWTs are HS256-signed with this development secret and
// carry an expiry (reference/registry/jwt.ts); API keys sent as bearer are the cloud keys
// above. The administrative scheme is one shared secret in a header (an assumption: the
// seed names the scheme only).
export const REGISTRY_JWT_SECRET = 'reference-registry-dev-jwt-secret-5b0e9d17c2a4';
export const REGISTRY_ADMIN_HEADER = 'X-Admin-Secret';
export const REGISTRY_ADMIN_SECRET = 'ref-registry-admin-4c1f8e2a9d6b7035';
/** Issued once, then revoked: every API-key check refuses it, like any key it does not know. */
export const REVOKED_CLOUD_KEY = 'comfyui-ref-revoked-0a5c7e9b3d1f4822';
