// Override points of the node registry (reference/faults/seams.ts): each default is what
// seed W § Node registry operation asks; only a fault replaces one.
import { API_KEY_PREFIX, REGISTRY_JWT_SECRET } from '../accounts.ts';
import { apiKeyOutcome, jwtOutcome, type RegistryAuthPolicy } from './auth.ts';
import { verifyDevJwt } from './jwt.ts';
import type { RegistryNode, TranslationStore } from './nodes.ts';

/** The registry's override points: how credentials are read (reference/registry/auth.ts), then node lookup. */
export interface RegistryPolicy extends RegistryAuthPolicy {
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
