// Faults of the node registry (seed W § Node registry operation): each breaks exactly one rule.
import type { FaultUnit } from '../faults.ts';

// Not yet on the seams: the correct code still asks isFault() by name; install does nothing.
const legacy = (): void => undefined;

export const REGISTRY_FAULTS = [
  // Contract
  { name: 'registry-created-303', rule: 'REGISTRY.CONTRACT.STATUS_DECLARED', description: 'stored translations are answered 303 See Other instead of a success status', install: legacy },
  { name: 'registry-errors-text-plain', rule: 'REGISTRY.CONTRACT.BODY', description: '404 answers are plain text instead of a JSON error body', install: legacy },
  // Security
  { name: 'registry-jwt-refused', rule: 'REGISTRY.AUTH.JWT', description: 'bearer JWTs are refused (401)', install: legacy },
  { name: 'registry-api-key-bearer-refused', rule: 'REGISTRY.AUTH.API_KEY_BEARER', description: 'a bearer API key is not recognised by its prefix and fails as a malformed JWT', install: legacy },
  { name: 'registry-api-key-unchecked', rule: 'REGISTRY.AUTH.API_KEY_BEARER', description: 'any bearer with the API-key prefix is accepted, even an unknown or revoked key', install: legacy },
  { name: 'registry-admin-secret-ignored', rule: 'REGISTRY.AUTH.ADMIN_SECRET', description: 'the administrative-secret header is ignored (401 without a bearer)', install: legacy },
  { name: 'registry-jwt-expiry-ignored', rule: 'REGISTRY.AUTH.REFUSED', description: 'expired JWTs are accepted', install: legacy },
  { name: 'registry-anonymous-accepted', rule: 'REGISTRY.AUTH.REFUSED', description: 'requests without any credential are accepted', install: legacy },
  // Body
  { name: 'registry-missing-data-accepted', rule: 'REGISTRY.BODY.DATA', description: 'a body without "data" is accepted', install: legacy },
  { name: 'registry-bad-body-422', rule: 'REGISTRY.BODY.STATUS_400', description: 'a malformed body is answered 422 instead of 400', install: legacy },
  // Success
  { name: 'registry-created-200', rule: 'REGISTRY.CREATE.STATUS', description: 'stored translations are answered 200 instead of 201', install: legacy },
  // Node id
  { name: 'registry-unknown-node-created', rule: 'REGISTRY.NODE.UNKNOWN', description: 'an id that names no node is accepted (the node is created on the fly)', install: legacy },
  { name: 'registry-node-id-decoded-twice', rule: 'REGISTRY.NODE.PATH_ID', description: 'the node id is percent-decoded a second time (ids with "%" are lost or crash the route)', install: legacy },
  // Errors
  { name: 'registry-error-third-shape', rule: 'REGISTRY.ERR.SHAPE', description: 'credential refusals are {code, message}, a third shape', install: legacy },
  { name: 'registry-details-string', rule: 'REGISTRY.ERR.SHAPE', description: '"details" is one joined string instead of an array of strings', install: legacy },
] as const satisfies ReadonlyArray<FaultUnit>;
