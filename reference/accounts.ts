// Development credentials are fixed constants so test suites and humans can
// use them without reading server output.

export const API_KEY_PREFIX = 'comfyui-';

export const CLOUD_KEYS = {
  alice: 'comfyui-ref-alice-7f3a9c2e5b1d4086',
  bob: 'comfyui-ref-bob-2c8e6a0f9d3b4175',
  tiny: 'comfyui-ref-tiny-5d1b7e3c8a2f4960',
} as const;

export type CloudAccount = keyof typeof CLOUD_KEYS;

export const LOCAL_ACCOUNT = 'local';

export interface Allowance {
  requests: number;
  windowSeconds: number;
}

// tiny exists so rate limiting can be exercised with a handful of requests.
export const TINY_ALLOWANCE: Allowance = { requests: 5, windowSeconds: 2 };
export const DEFAULT_ALLOWANCE: Allowance = { requests: 2000, windowSeconds: 1 };

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
