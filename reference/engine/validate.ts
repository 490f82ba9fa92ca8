// Submit-time validation of an API-format workflow (seed W § Node error entry and
// § Errors, details rules 1-3). Returns the refusal to send, or undefined when the
// workflow may be queued.
//
// How the kinds share the fifty slots of `node_errors` (the seed states the caps per
// kind only; this is the reference's choice for refusals that mix kinds):
//   - Three kinds are counted: malformed (invalid_node, invalid_inputs,
//     invalid_class_type), browser-wait (waits_for_browser) and unknown
//     (unknown_node_class, only nodes whose class is among the ten listed classes;
//     a node of any further class is left out of both the list and the count).
//   - First, every kind that occurs gets one slot: its first node in node-id order.
//     Then the remaining slots go to the other counted nodes in node-id order,
//     whatever their kind, until fifty nodes are named.
//   - A kind's count field (malformed_node_count, browser_wait_node_count,
//     unknown_node_count) is present exactly when at least one counted node of that
//     kind is left unnamed, and then holds the full count of that kind;
//     node_errors_truncated is true exactly when some count field is present.
// Invariants in every case: at most 50 nodes are named; at most 10 unknown classes are
// listed and only nodes of listed classes are named; every kind that occurs is named
// at least once; a refusal with a single kind follows rule 3 exactly (count and
// truncation appear only when more than fifty nodes of that kind were found); when a
// kind's count field is absent, the nodes of that kind in node_errors are all of them.
import {
  acceptsLink,
  assetRefId,
  checkLiteral,
  isAssetRefShaped,
  isLink,
  type Catalog,
  type InputSpec,
  type NodeClass,
} from './catalog.ts';
import type { NodeErrorEntry, NodeErrorItem, NodeErrorType, Refusal, RefusalDetails } from './types.ts';
import { isPlainObject } from '../../lib/values.ts';

const MAX_NAMED_NODES = 50;
const MAX_UNKNOWN_CLASSES = 10;

export interface ValidateOptions {
  catalog: Catalog;
  /** Whether the account owns an asset with this id. */
  assetExists(id: string): boolean;
  /** Whether the account has an uploaded input file of this name. */
  inputFileExists(name: string): boolean;
}

const ARRAY_INDEX = /^(0|[1-9]\d*)$/;

function arrayIndex(id: string): number | undefined {
  if (!ARRAY_INDEX.test(id) || id.length > 10) return undefined;
  const n = Number(id);
  return n <= 4_294_967_294 ? n : undefined;
}

/**
 * Node-id order: integer ids numerically first, then the others lexically (by UTF-16
 * code units). This is also the order in which JavaScript keeps object keys, so a
 * serialized `node_errors` lists the nodes in this order.
 */
export function compareNodeIds(a: string, b: string): number {
  const na = arrayIndex(a);
  const nb = arrayIndex(b);
  if (na !== undefined && nb !== undefined) return na - nb;
  if (na !== undefined) return -1;
  if (nb !== undefined) return 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

type Kind = 'malformed' | 'browser' | 'unknown';

interface Failing {
  id: string;
  kind: Kind;
  entry: NodeErrorEntry;
}

function item(type: NodeErrorType, message: string, details?: string): NodeErrorItem {
  return details === undefined ? { type, message } : { type, message, details };
}

function specsOf(cls: NodeClass): Array<[string, InputSpec, boolean]> {
  return [
    ...Object.entries(cls.input.required).map(([k, s]): [string, InputSpec, boolean] => [k, s, true]),
    ...Object.entries(cls.input.optional ?? {}).map(([k, s]): [string, InputSpec, boolean] => [k, s, false]),
  ];
}

/** The output type a link points at, or a reason it cannot be followed (undefined: not checkable). */
function followLink(
  workflow: Record<string, unknown>,
  catalog: Catalog,
  link: [string | number, number],
): { type: string } | { error: string } | undefined {
  const src = String(link[0]);
  if (!Object.prototype.hasOwnProperty.call(workflow, src))
    return { error: `links to node ${src}, which does not exist` };
  const node = workflow[src];
  if (!isPlainObject(node) || typeof node.class_type !== 'string') return undefined;
  const cls = catalog.get(node.class_type);
  if (!cls) return undefined;
  const t = cls.output[link[1]];
  if (t === undefined)
    return {
      error: `links to output ${link[1]} of node ${src} (${cls.name}), which has ${cls.output.length} output(s)`,
    };
  return { type: t };
}

function checkInputs(
  workflow: Record<string, unknown>,
  catalog: Catalog,
  cls: NodeClass,
  inputs: Record<string, unknown>,
  opts: ValidateOptions,
): NodeErrorItem[] {
  const errors: NodeErrorItem[] = [];
  for (const [name, spec, required] of specsOf(cls)) {
    const value = inputs[name];
    if (value === undefined) {
      if (required) errors.push(item('invalid_inputs', `Required input is missing: ${name}`, name));
      continue;
    }
    if (isLink(value) && acceptsLink(spec)) {
      const target = followLink(workflow, catalog, value);
      if (target && 'error' in target) errors.push(item('invalid_inputs', `Input ${name} ${target.error}`, name));
      else if (target && target.type !== spec.type)
        errors.push(
          item(
            'invalid_inputs',
            `Input ${name} expects ${spec.type} but links to an output of type ${target.type}`,
            name,
          ),
        );
      continue;
    }
    const problem = checkLiteral(spec, value);
    if (problem) {
      errors.push(item('invalid_inputs', `Input ${name}: ${problem}`, name));
      continue;
    }
    if (spec.type === 'IMAGE_SOURCE' && typeof value === 'string' && !opts.inputFileExists(value)) {
      errors.push(item('invalid_inputs', `Input ${name}: no uploaded input file named ${JSON.stringify(value)}`, name));
    }
  }
  return errors;
}

/** Nodes that sit on a dependency cycle, with the first input that closes it. */
function cycleNodes(workflow: Record<string, unknown>, ids: string[]): Map<string, string> {
  const edges = new Map<string, Array<{ to: string; input: string }>>();
  for (const id of ids) {
    const node = workflow[id];
    const list: Array<{ to: string; input: string }> = [];
    if (isPlainObject(node) && isPlainObject(node.inputs)) {
      for (const [input, v] of Object.entries(node.inputs)) {
        if (isLink(v) && Object.prototype.hasOwnProperty.call(workflow, String(v[0])))
          list.push({ to: String(v[0]), input });
      }
    }
    edges.set(id, list);
  }
  // Tarjan's strongly connected components, iterative.
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const sccOf = new Map<string, number>();
  let sccCount = 0;
  for (const root of ids) {
    if (index.has(root)) continue;
    const work: Array<{ id: string; next: number }> = [{ id: root, next: 0 }];
    index.set(root, counter);
    low.set(root, counter++);
    stack.push(root);
    onStack.add(root);
    while (work.length) {
      const frame = work[work.length - 1];
      const out = edges.get(frame.id) ?? [];
      if (frame.next < out.length) {
        const to = out[frame.next++].to;
        if (!index.has(to)) {
          index.set(to, counter);
          low.set(to, counter++);
          stack.push(to);
          onStack.add(to);
          work.push({ id: to, next: 0 });
        } else if (onStack.has(to)) {
          low.set(frame.id, Math.min(low.get(frame.id)!, index.get(to)!));
        }
        continue;
      }
      work.pop();
      if (work.length) {
        const parent = work[work.length - 1].id;
        low.set(parent, Math.min(low.get(parent)!, low.get(frame.id)!));
      }
      if (low.get(frame.id) === index.get(frame.id)) {
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          sccOf.set(member, sccCount);
        } while (member !== frame.id);
        sccCount++;
      }
    }
  }
  const size = new Map<number, number>();
  for (const c of sccOf.values()) size.set(c, (size.get(c) ?? 0) + 1);
  const result = new Map<string, string>();
  for (const id of ids) {
    const c = sccOf.get(id)!;
    const closing = (edges.get(id) ?? []).find((e) => sccOf.get(e.to) === c && (size.get(c)! > 1 || e.to === id));
    if (closing) result.set(id, closing.input);
  }
  return result;
}

function summarize(kinds: Set<Kind>): string {
  const parts: string[] = [];
  if (kinds.has('malformed')) parts.push('malformed nodes or inputs');
  if (kinds.has('unknown')) parts.push('node classes this server does not have');
  if (kinds.has('browser')) parts.push('nodes that wait for a browser');
  return `Workflow validation failed: ${parts.join('; ')}. See details.node_errors.`;
}

/** Validates an API-format workflow. Returns the refusal, or undefined when it may be queued. */
export function validateWorkflow(workflow: unknown, opts: ValidateOptions): Refusal | undefined {
  if (!isPlainObject(workflow))
    return {
      code: 'invalid_workflow',
      message: 'The workflow must be a JSON object in API format (node id -> {class_type, inputs}).',
    };
  if (Array.isArray(workflow.nodes) && Array.isArray(workflow.links)) {
    return {
      code: 'workflow_format_ui',
      message: 'The workflow is in the interface (UI) format with nodes and links; export it in API format instead.',
    };
  }
  const ids = Object.keys(workflow).sort(compareNodeIds);
  if (ids.length === 0) return { code: 'invalid_workflow', message: 'The workflow has no nodes.' };

  const { catalog } = opts;
  const failing: Failing[] = [];
  const failed = new Set<string>();
  for (const id of ids) {
    const node = workflow[id];
    const classType = isPlainObject(node) && typeof node.class_type === 'string' ? node.class_type : '';
    const fail = (kind: Kind, errors: NodeErrorItem[]): void => {
      failing.push({ id, kind, entry: { class_type: classType, errors } });
      failed.add(id);
    };
    if (!isPlainObject(node)) {
      fail('malformed', [item('invalid_node', `Node ${id} is not an object with class_type and inputs.`)]);
      continue;
    }
    if (!isPlainObject(node.inputs)) {
      fail('malformed', [item('invalid_node', `Node ${id} has no inputs object.`)]);
      continue;
    }
    if (typeof node.class_type !== 'string' || node.class_type.length === 0) {
      fail('malformed', [item('invalid_class_type', `Node ${id} has a missing or non-string class_type.`)]);
      continue;
    }
    const cls = catalog.get(node.class_type);
    if (!cls) {
      fail('unknown', [item('unknown_node_class', `Node class ${node.class_type} does not exist on this server.`)]);
      continue;
    }
    if (cls.waitsForBrowser) {
      fail('browser', [
        item('waits_for_browser', `Node class ${cls.name} waits for a browser and cannot run through the API.`),
      ]);
      continue;
    }
    const errors = checkInputs(workflow, catalog, cls, node.inputs, opts);
    if (errors.length) fail('malformed', errors);
  }

  // Dependency cycles make a graph impossible to run: reported on the input that closes
  // the cycle, for nodes that have no other error.
  const cycles = cycleNodes(workflow, ids);
  for (const id of ids) {
    const input = cycles.get(id);
    if (input === undefined || failed.has(id)) continue;
    const node = workflow[id] as { class_type: string };
    failing.push({
      id,
      kind: 'malformed',
      entry: {
        class_type: node.class_type,
        errors: [item('invalid_inputs', `Input ${input} closes a dependency cycle.`, input)],
      },
    });
    failed.add(id);
  }
  failing.sort((a, b) => compareNodeIds(a.id, b.id));

  if (failing.length) return nodeErrorRefusal(failing);

  for (const id of ids) {
    const node = workflow[id] as { class_type: string; inputs: Record<string, unknown> };
    const cls = catalog.get(node.class_type)!;
    for (const [name, spec] of specsOf(cls)) {
      const value = node.inputs[name];
      if (spec.type !== 'IMAGE_SOURCE' || !isAssetRefShaped(value)) continue;
      const assetId = assetRefId(value);
      if (assetId === undefined)
        return {
          code: 'missing_asset',
          message: `Node ${id} input ${name} holds a malformed asset reference (info.id is required).`,
        };
      if (!opts.assetExists(assetId))
        return {
          code: 'missing_asset',
          message: `Asset ${assetId} referenced by node ${id} input ${name} does not exist.`,
        };
    }
  }
  return undefined;
}

/** Builds the invalid_workflow refusal with the caps of seed W § Errors details rule 3. */
function nodeErrorRefusal(failingSorted: Failing[]): Refusal {
  const listed: string[] = [];
  for (const f of failingSorted) {
    if (f.kind === 'unknown' && listed.length < MAX_UNKNOWN_CLASSES && !listed.includes(f.entry.class_type))
      listed.push(f.entry.class_type);
  }
  const listedSet = new Set(listed);
  const counted = failingSorted.filter((f) => f.kind !== 'unknown' || listedSet.has(f.entry.class_type));

  const chosen = new Set<Failing>();
  const kinds = new Set<Kind>();
  for (const f of counted) {
    if (!kinds.has(f.kind)) {
      kinds.add(f.kind);
      chosen.add(f);
    }
  }
  for (const f of counted) {
    if (chosen.size >= MAX_NAMED_NODES) break;
    chosen.add(f);
  }

  const details: RefusalDetails = { node_errors: {} };
  const nodeErrors = details.node_errors!;
  // defineProperty: a node id such as "__proto__" must become an own key, not a prototype.
  for (const f of counted)
    if (chosen.has(f))
      Object.defineProperty(nodeErrors, f.id, { value: f.entry, enumerable: true, writable: true, configurable: true });

  if (kinds.has('unknown')) details.unknown_node_classes = listed;
  if (kinds.has('browser')) {
    const classes: string[] = [];
    for (const f of counted)
      if (f.kind === 'browser' && !classes.includes(f.entry.class_type)) classes.push(f.entry.class_type);
    details.browser_wait_node_classes = classes;
  }
  const total = (k: Kind): number => counted.filter((f) => f.kind === k).length;
  const named = (k: Kind): number => counted.filter((f) => f.kind === k && chosen.has(f)).length;
  let truncated = false;
  if (named('malformed') < total('malformed')) {
    details.malformed_node_count = total('malformed');
    truncated = true;
  }
  if (named('browser') < total('browser')) {
    details.browser_wait_node_count = total('browser');
    truncated = true;
  }
  if (named('unknown') < total('unknown')) {
    details.unknown_node_count = total('unknown');
    truncated = true;
  }
  if (truncated) details.node_errors_truncated = true;
  return { code: 'invalid_workflow', message: summarize(kinds), details };
}
