// The engine's node cache as the v1 stream reports it, for the `ws-cached-nodes` control:
// a node whose class and inputs (through every node it links to) already ran in a
// successful prompt of the same account is skipped as cached. The real engine then
// lists it in execution_cached, sends nothing for it while the prompt runs, except
// `executed` with its kept UI output for an output node. The reference engine still
// runs the node (its outputs are the same), and the stream leaves out what a cached
// node would not send.
import type { ApiWorkflow } from '../engine/types.ts';

const isLink = (v: unknown): v is [string | number, number] =>
  Array.isArray(v) &&
  v.length === 2 &&
  (typeof v[0] === 'string' || typeof v[0] === 'number') &&
  typeof v[1] === 'number';

/** Each node's signature: its class and inputs, with links replaced by the linked node's signature. */
function nodeSignatures(workflow: ApiWorkflow): Map<string, string> {
  const sigs = new Map<string, string>();
  const visiting = new Set<string>();
  const sigOf = (id: string): string => {
    const known = sigs.get(id);
    if (known !== undefined) return known;
    const node = workflow[id];
    // A cycle or a dangling link never caches: the id itself keeps the signature unique.
    if (!node || visiting.has(id)) return `unresolved:${id}:${Math.random()}`;
    visiting.add(id);
    const inputs = Object.keys(node.inputs ?? {})
      .sort()
      .map((k) => {
        const v = node.inputs[k];
        return [k, isLink(v) ? { link: sigOf(String(v[0])), output: v[1] } : v];
      });
    visiting.delete(id);
    const sig = JSON.stringify([node.class_type, inputs]);
    sigs.set(id, sig);
    return sig;
  };
  for (const id of Object.keys(workflow)) sigOf(id);
  return sigs;
}

/** The workflow with every cached node's time taken away (its `seconds` input 0): cached work finishes at once. */
export function withCachedWorkInstant(workflow: ApiWorkflow, cached: ReadonlySet<string>): ApiWorkflow {
  if (cached.size === 0) return workflow;
  return Object.fromEntries(
    Object.entries(workflow).map(([id, node]) => [
      id,
      cached.has(id) && typeof node.inputs?.seconds === 'number'
        ? { ...node, inputs: { ...node.inputs, seconds: 0 } }
        : node,
    ]),
  );
}

export class NodeCache {
  private readonly seen = new Map<string, Set<string>>();

  /** Nodes of the workflow the account's earlier successful prompts already ran. */
  cachedNodes(account: string, workflow: ApiWorkflow): string[] {
    const seen = this.seen.get(account);
    if (!seen) return [];
    return [...nodeSignatures(workflow)].filter(([, sig]) => seen.has(sig)).map(([id]) => id);
  }

  /** A successful prompt's nodes are cached from now on. */
  remember(account: string, workflow: ApiWorkflow): void {
    let seen = this.seen.get(account);
    if (!seen) {
      seen = new Set();
      this.seen.set(account, seen);
    }
    for (const sig of nodeSignatures(workflow).values()) seen.add(sig);
  }
}
