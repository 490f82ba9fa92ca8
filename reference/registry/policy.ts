// Override points of the node registry (reference/faults/seams.ts): each default is what
// seed W § Node registry operation asks; only a fault replaces one.
import { API_KEY_PREFIX, REGISTRY_JWT_SECRET } from '../accounts.ts';
import { apiKeyOutcome, jwtOutcome, type Outcome, type RegistryPrincipal } from './auth.ts';
import { verifyDevJwt } from './jwt.ts';
import type { RegistryNode, TranslationStore } from './nodes.ts';

export interface RegistryPolicy {
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
  /** The node id from the path, which the router has percent-decoded once. */
  nodeIdOf(segment: string): string;
  /** The node the translations are for: only one the registry has. */
  nodeFor(store: TranslationStore, id: string): RegistryNode | undefined;
}

export function correctRegistryPolicy(): RegistryPolicy {
  return {
    apiKeyBearer: (token) => token.startsWith(API_KEY_PREFIX),
    apiKeyBearerOutcome: (token) => apiKeyOutcome(token),
    jwtBearerOutcome: (token, nowMs) => jwtOutcome(verifyDevJwt(REGISTRY_JWT_SECRET, token, nowMs)),
    adminSecret: (presented) => presented,
    anonymousPrincipal: () => undefined,
    nodeIdOf: (segment) => segment,
    nodeFor: (store, id) => store.node(id),
  };
}
