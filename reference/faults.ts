// Each fault deliberately breaks exactly one contract rule so the conformance
// suite can prove that its check for that rule actually fails when it should.

export interface FaultInfo {
  readonly name: string;
  readonly rule: string;
  readonly description: string;
}

const CATALOG = [
  { name: 'stale-asset-url', rule: 'V2.ASSET.FRESH_URL', description: 'GET asset returns the url and url_expires_at computed at create time instead of fresh ones' },
  { name: 'missing-retry-after', rule: 'V2.ERR.RETRY_AFTER', description: '429 answers omit the Retry-After header' },
  { name: 'flat-error-envelope', rule: 'V2.ERR.ENVELOPE', description: 'error bodies carry code and message at top level instead of under "error"' },
  { name: 'content-without-credentials', rule: 'V2.ASSET.CONTENT_AUTH', description: 'cloud content endpoint answers its 302 to a request without an Authorization header' },
  { name: 'drop-url-expires-at', rule: 'V2.ASSET.FIELDS', description: 'asset responses omit url_expires_at' },
  { name: 'dedup-created-new', rule: 'V2.ASSET.DEDUP', description: 'a dedup-hit create still answers 201 with created_new true' },
  { name: 'retention-shortened', rule: 'V2.ASSET.RETENTION_EXTENDS', description: 'a dedup-hit create sets the retention deadline to now + requested even when that is earlier' },
  { name: 'by-hash-global', rule: 'V2.ASSET.BY_HASH_SCOPE', description: 'HEAD by-hash answers 200 when any account holds the blob' },
  { name: 'rate-limit-after-lookup', rule: 'V2.ERR.RATE_LIMIT_SCOPE', description: 'GET asset looks the asset up before rate limiting, so unknown or foreign ids answer 404 past the limit' },
  { name: 'hash-not-blake3', rule: 'V2.ASSET.HASH_BLAKE3', description: 'the hash field carries blake3: followed by the SHA-256 hex of the bytes' },
  { name: 'non-v4-id-500', rule: 'V2.ASSET.UNKNOWN_ID_404', description: 'GET asset for an unknown well-formed non-v4 UUID answers 500 upstream_error' },
  { name: 'not-found-as-400', rule: 'V2.ERR.CODE_STATUS', description: 'not_found errors are sent with HTTP 400' },
  { name: 'foreign-asset-visible', rule: 'V2.ASSET.OWNER_SCOPE', description: "GET asset returns another account's asset" },
  { name: 'proxy-redirects', rule: 'V2.URL.PROXY_DIRECT', description: 'local content endpoint answers 302 to a signed URL instead of streaming the bytes' },
  { name: 'signed-url-needs-key', rule: 'V2.URL.SIGNED_OPENABLE', description: 'the signed storage route answers 401 unless an Authorization header is present' },
  { name: 'expires-equals-url-expiry', rule: 'V2.ASSET.EXPIRES_DISTINCT', description: 'cloud asset reads report expires_at equal to url_expires_at' },
  { name: 'upload-has-job', rule: 'V2.ASSET.NO_JOB_FOR_UPLOAD', description: 'fresh uploads carry a random job_id and empty job_metadata' },
  { name: 'from-hash-any-blob', rule: 'V2.ASSET.FROM_HASH', description: 'from-hash mints from a blob only another account holds' },
  { name: 'delete-keeps-record', rule: 'V2.ASSET.DELETE', description: 'DELETE answers 204 but the record stays readable' },
  { name: 'hash-mismatch-accepted', rule: 'V2.ASSET.HASH_MISMATCH', description: 'a mismatching expected_hash is ignored and the asset minted' },
  { name: 'unknown-key-accepted', rule: 'V2.AUTH.UNAUTHENTICATED_401', description: 'an unknown bearer key with the comfyui- prefix is accepted as alice' },
  { name: 'content-bytes-flipped', rule: 'V2.ASSET.IMMUTABLE', description: 'served content has its last byte XOR 0xff' },
  { name: 'invalid-upload-500', rule: 'V2.ASSET.INVALID_UPLOAD', description: 'an upload without a file part answers 500 upstream_error' },
  { name: 'local-requires-token', rule: 'V2.AUTH.LOCAL_OPEN', description: 'local surface without a configured token refuses unauthenticated requests with 401' },
  { name: 'url-expiry-past', rule: 'V2.URL.EXPIRY_IN_RESPONSE', description: 'cloud url_expires_at is reported 10 minutes in the past (the URL still works)' },
] as const satisfies ReadonlyArray<FaultInfo>;

export const FAULTS: ReadonlyArray<FaultInfo> = CATALOG;

// A literal union so a misspelt fault name in server code fails type checking.
export type FaultName = (typeof CATALOG)[number]['name'];

export type IsFault = (name: FaultName) => boolean;

// Resolved once per running instance so two references in one process never
// see each other's fault.
export function faultChecker(fault: string | undefined): IsFault {
  if (fault === undefined || fault === '') return () => false;
  if (!FAULTS.some((f) => f.name === fault)) {
    const valid = FAULTS.map((f) => f.name).join(', ');
    throw new Error(`unknown fault "${fault}"; valid faults: ${valid}`);
  }
  return (name: FaultName) => name === fault;
}
