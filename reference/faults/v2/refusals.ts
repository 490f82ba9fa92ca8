// v2 faults of submit refusals (seed W § Errors, workflow refusals and labels): each
// bends one refusal of POST /api/v2/jobs on its way out. The last ones bend the node
// errors of a job the engine failed after dispatch, which must keep a refusal's shape.
import type { FaultUnit } from '../unit.ts';
import type { Outgoing, Seams } from '../seams.ts';
import { JOB_ROUTES, errorObject, isObj, record } from './shared.ts';

type Inner = Record<string, unknown>;

/** A response hook on the error answers of a submit. */
function refusal(s: Seams, rewrite: (inner: Inner, out: Outgoing) => void): void {
  s.respond({ routes: ['POST /api/v2/jobs'] }, (out) => {
    const inner = errorObject(out);
    if (inner !== undefined) rewrite(inner, out);
  });
}

/** Rewrites error.node_errors of every job record a job route answers (a job the engine failed). */
function engineNodeErrors(s: Seams, rewrite: (nodes: Inner) => Inner): void {
  s.respond({ routes: JOB_ROUTES }, (out) => {
    const error = record(out)?.error;
    if (isObj(error) && isObj(error.node_errors)) error.node_errors = rewrite(error.node_errors);
  });
}

/** Rewrites the type of every error entry of a refusal's node_errors. */
function retype(inner: Inner, to: (type: string) => string): void {
  const nodes = isObj(inner.details) ? inner.details.node_errors : undefined;
  if (!isObj(nodes)) return;
  for (const entry of Object.values(nodes)) {
    const errors = isObj(entry) ? entry.errors : undefined;
    if (Array.isArray(errors)) for (const e of errors) if (isObj(e) && typeof e.type === 'string') e.type = to(e.type);
  }
}

/** The details object of a refusal, when it names nodes. */
function detailsOf(inner: Inner): Inner | undefined {
  return isObj(inner.details) && isObj(inner.details.node_errors) ? inner.details : undefined;
}

/** The submitted workflow of a refused submit, by node id. */
function workflowOf(out: Outgoing): Record<string, Inner> {
  const wf = isObj(out.request.body) ? out.request.body.workflow : undefined;
  return isObj(wf) ? (wf as Record<string, Inner>) : {};
}

/** The classes of the submitted workflow that the engine's catalog lacks, with their nodes in id order. */
function unknownNodes(out: Outgoing): Array<[string, string]> {
  const known = new Set(out.ctx.engine.catalog.list().map((c) => c.name));
  return Object.entries(workflowOf(out))
    .filter(([, node]) => typeof node.class_type === 'string' && !known.has(node.class_type))
    .map(([id, node]): [string, string] => [id, node.class_type as string]);
}

export const REFUSAL_FAULTS = [
  {
    name: 'truncation-count-missing',
    breaks: 'V2.ERR.NODE_ERRORS_DETAILS',
    statements: ['W:232:3301ff267691'],
    description: 'a truncated refusal of malformed nodes omits malformed_node_count',
    install(s) {
      refusal(s, (inner) => {
        if (isObj(inner.details)) delete inner.details.malformed_node_count;
      });
    },
  },
  {
    name: 'unknown-class-typed-invalid',
    breaks: 'V2.ERR.NODE_ERRORS_DETAILS',
    statements: ['W:230:2a85600fa562'],
    description:
      'nodes of a class the server lacks are named with error type invalid_class_type, not unknown_node_class (the classes are still listed and counted)',
    install(s) {
      refusal(s, (inner) => {
        retype(inner, (t) => (t === 'unknown_node_class' ? 'invalid_class_type' : t));
      });
    },
  },
  // Retired (issue #29 § 5): malformed-typed-engine-native, malformed nodes typed with the
  // engine's own required_input_missing. The seed's types are those "seen" (W:66:2e4eea868945),
  // an open list: a server may type a missing input its own way (control node-errors-engine-types).
  {
    name: 'unknown-classes-unbounded',
    breaks: 'V2.ERR.NODE_ERRORS_DETAILS',
    statements: ['W:231:85a3bff18d68', 'W:240:fbdd72f27da6'],
    description: 'unknown_node_classes lists every missing class, not at most ten',
    install(s) {
      refusal(s, (inner, out) => {
        const workflow = isObj(out.request.body) ? out.request.body.workflow : undefined;
        if (!isObj(inner.details) || inner.details.unknown_node_classes === undefined || !isObj(workflow)) return;
        const known = new Set(out.ctx.engine.catalog.list().map((c) => c.name));
        const all = new Set<string>();
        for (const node of Object.values(workflow)) {
          const cls = isObj(node) ? node.class_type : undefined;
          if (typeof cls === 'string' && !known.has(cls)) all.add(cls);
        }
        inner.details.unknown_node_classes = [...all];
      });
    },
  },
  // Seed W § Errors, details rules 1-3 (W:230-W:232, W:240): one fault per clause, each the way a
  // server's refusal builder plausibly gets that clause wrong while the rest holds.
  {
    name: 'node-errors-unbounded',
    breaks: 'V2.ERR.NODE_ERRORS_DETAILS',
    statements: ['W:232:68458a84be2b', 'W:240:fbdd72f27da6'],
    description:
      'a refusal of many malformed nodes names every one of them: the validator collects them all and ' +
      'the response builder never applies the fifty-node cap (the flag and the count are still set)',
    install(s) {
      refusal(s, (inner, out) => {
        const details = detailsOf(inner);
        if (details === undefined || typeof details.malformed_node_count !== 'number') return;
        const nodes = details.node_errors as Inner;
        const named = Object.values(nodes).find(isObj);
        if (named === undefined) return;
        // Every unnamed node of a named node's class with the same inputs has the same fault.
        for (const [id, node] of Object.entries(workflowOf(out))) {
          const twin = Object.entries(nodes).find(
            ([nid]) =>
              workflowOf(out)[nid]?.class_type === node.class_type &&
              JSON.stringify(workflowOf(out)[nid]?.inputs) === JSON.stringify(node.inputs),
          );
          if (!(id in nodes) && twin !== undefined) nodes[id] = structuredClone(twin[1]);
        }
      });
    },
  },
  {
    name: 'truncation-flag-missing',
    breaks: 'V2.ERR.NODE_ERRORS_DETAILS',
    statements: ['W:232:3301ff267691'],
    description:
      'a refusal of more than fifty malformed nodes gives malformed_node_count but no ' +
      'node_errors_truncated (a serializer drops the flag, leaving clients to infer it from the count)',
    install(s) {
      refusal(s, (inner) => {
        const details = detailsOf(inner);
        if (details !== undefined && details.malformed_node_count !== undefined) delete details.node_errors_truncated;
      });
    },
  },
  {
    name: 'truncation-flag-malformed-only',
    breaks: 'V2.ERR.NODE_ERRORS_DETAILS',
    statements: ['W:232:98fc519b5641', 'W:232:300a7c38da7c'],
    description:
      'node_errors_truncated is computed from malformed_node_count alone, so a truncated refusal of ' +
      'unknown-class or browser-wait nodes carries its count but no flag',
    install(s) {
      refusal(s, (inner) => {
        const details = detailsOf(inner);
        if (details !== undefined && details.malformed_node_count === undefined) delete details.node_errors_truncated;
      });
    },
  },
  {
    name: 'browser-wait-count-named',
    breaks: 'V2.ERR.NODE_ERRORS_DETAILS',
    statements: ['W:232:300a7c38da7c'],
    description:
      'browser_wait_node_count counts the nodes named in node_errors (fifty), not every browser-wait node found (the counter runs after the list was cut)',
    install(s) {
      refusal(s, (inner) => {
        const details = detailsOf(inner);
        if (details !== undefined && typeof details.browser_wait_node_count === 'number')
          details.browser_wait_node_count = Object.keys(details.node_errors as Inner).length;
      });
    },
  },
  {
    name: 'browser-wait-classes-missing',
    breaks: 'V2.ERR.NODE_ERRORS_DETAILS',
    statements: ['W:231:85a3bff18d68'],
    description:
      'a refusal of nodes waiting for a browser names them with waits_for_browser errors but leaves ' +
      'out browser_wait_node_classes (only the unknown-class list is built)',
    install(s) {
      refusal(s, (inner) => {
        if (isObj(inner.details)) delete inner.details.browser_wait_node_classes;
      });
    },
  },
  {
    name: 'unknown-count-missing',
    breaks: 'V2.ERR.NODE_ERRORS_DETAILS',
    statements: ['W:232:98fc519b5641'],
    description:
      'a refusal of more than fifty nodes of unknown classes is flagged truncated but carries no unknown_node_count (only malformed nodes get a count)',
    install(s) {
      refusal(s, (inner) => {
        if (isObj(inner.details)) delete inner.details.unknown_node_count;
      });
    },
  },
  {
    name: 'unknown-count-all-nodes',
    breaks: 'V2.ERR.NODE_ERRORS_DETAILS',
    statements: ['W:232:21cf9c6397f3'],
    description:
      'unknown_node_count counts the nodes of every missing class, also those beyond the ten listed (the count is taken before the class list is cut)',
    install(s) {
      refusal(s, (inner, out) => {
        const details = detailsOf(inner);
        if (details !== undefined && typeof details.unknown_node_count === 'number')
          details.unknown_node_count = unknownNodes(out).length;
      });
    },
  },
  {
    name: 'unknown-unlisted-nodes-named',
    breaks: 'V2.ERR.NODE_ERRORS_DETAILS',
    statements: ['W:232:98fc519b5641', 'W:232:21cf9c6397f3'],
    description:
      'when nodes of more than ten unknown classes are found, node_errors names the first nodes of the ' +
      'classes beyond the ten in place of the last named ones (the node list and the class list are ' +
      'cut separately); the count and the ten classes stay',
    install(s) {
      refusal(s, (inner, out) => {
        const details = detailsOf(inner);
        if (details === undefined || !Array.isArray(details.unknown_node_classes)) return;
        const listed = new Set(details.unknown_node_classes);
        const beyond = unknownNodes(out)
          .filter(([, cls]) => !listed.has(cls))
          .slice(0, 2);
        const nodes = details.node_errors as Inner;
        for (const [id, cls] of beyond) {
          const last = Object.keys(nodes).at(-1);
          if (last !== undefined && Object.keys(nodes).length >= 50) delete nodes[last];
          nodes[id] = {
            class_type: cls,
            errors: [{ type: 'unknown_node_class', message: `node class ${cls} does not exist on this server` }],
          };
        }
      });
    },
  },
  {
    name: 'refusal-errors-as-strings',
    breaks: 'V2.ERR.NODE_ERRORS_DETAILS',
    statements: ['W:66:d8223297fbf6', 'W:230:2a85600fa562'],
    description:
      "a submit refusal's node_errors entries list their errors as bare message strings (the " +
      "validator's messages passed through), not {type, message} objects as a job's node errors are",
    install(s) {
      refusal(s, (inner) => {
        const details = detailsOf(inner);
        if (details === undefined) return;
        for (const entry of Object.values(details.node_errors as Inner)) {
          if (isObj(entry) && Array.isArray(entry.errors))
            entry.errors = (entry.errors as unknown[]).map((e) => (isObj(e) ? e.message : e));
        }
      });
    },
  },
  {
    name: 'metadata-pairs-keyed',
    breaks: 'V2.ERR.METADATA_INVALID',
    statements: ['W:220:7eb6baa5b560'],
    description:
      'a refusal of too many label pairs carries details.key naming the first key past the limit, as ' +
      'the per-key refusals do, though too many pairs names no single key',
    install(s) {
      refusal(s, (inner, out) => {
        const labels = isObj(out.request.body) ? out.request.body.metadata : undefined;
        if (inner.code !== 'metadata_invalid' || inner.details != null || !isObj(labels)) return;
        const keys = Object.keys(labels);
        if (keys.length > 16) inner.details = { key: keys[16] };
      });
    },
  },
  {
    name: 'ui-format-as-invalid',
    breaks: 'V2.ERR.WORKFLOW_FORMAT_UI',
    statements: ['W:203:6ba0e92fee12'],
    description: 'a workflow in the interface format is refused invalid_workflow',
    install(s) {
      refusal(s, (inner) => {
        if (inner.code === 'workflow_format_ui') inner.code = 'invalid_workflow';
      });
    },
  },
  {
    name: 'missing-asset-as-invalid',
    breaks: 'V2.ERR.MISSING_ASSET',
    statements: ['W:204:758f07a4358d'],
    description: 'a workflow referencing an unknown asset is refused invalid_workflow',
    install(s) {
      refusal(s, (inner) => {
        if (inner.code === 'missing_asset') inner.code = 'invalid_workflow';
      });
    },
  },
  {
    name: 'metadata-invalid-no-key',
    breaks: 'V2.ERR.METADATA_INVALID',
    statements: ['W:220:7eb6baa5b560'],
    description: 'metadata_invalid refusals omit details.key',
    install(s) {
      refusal(s, (inner) => {
        if (inner.code === 'metadata_invalid') delete inner.details;
      });
    },
  },
  {
    name: 'labels-refused-invalid-request',
    breaks: 'V2.ERR.METADATA_NOT_SUPPORTED',
    statements: ['W:221:da2758a81dda'],
    description:
      'the local proxy, which keeps no labels, refuses them 422 invalid_request instead of metadata_not_supported',
    install(s) {
      refusal(s, (inner) => {
        if (inner.code === 'metadata_not_supported') inner.code = 'invalid_request';
      });
    },
  },
  {
    name: 'upstream-leaks-stack',
    breaks: 'V2.ERR.UPSTREAM_GENERIC',
    statements: ['W:225:9ad257bfa3ab'],
    description: 'upstream_error messages carry a stack trace',
    install(s) {
      refusal(s, (inner) => {
        if (inner.code === 'upstream_error')
          inner.message = `${String(inner.message)} Error: connect ECONNREFUSED 10.0.0.7:5432\n    at TCPConnectWrap.afterConnect (node:net:1555:16)`;
      });
    },
  },
  {
    name: 'invalid-workflow-code',
    breaks: 'V2.ERR.INVALID_WORKFLOW',
    statements: ['W:202:f224c451d6d5'],
    description: 'node errors are refused with code invalid_request instead of invalid_workflow',
    install(s) {
      refusal(s, (inner) => {
        if (inner.code === 'invalid_workflow' && isObj(inner.details) && inner.details.node_errors !== undefined)
          inner.code = 'invalid_request';
      });
    },
  },
  {
    name: 'engine-node-error-flattened',
    breaks: 'V2.ERR.NODE_ERRORS_AFTER_DISPATCH',
    statements: ['W:66:d8223297fbf6', 'W:230:2a85600fa562'],
    description:
      "a job the engine failed after dispatch names the failing node with the engine's exception " +
      'copied onto the entry (message, exception_type) and an empty errors list, unlike a submit ' +
      "refusal's entries",
    install(s) {
      engineNodeErrors(s, (nodes) => {
        const out: Inner = {};
        for (const [id, entry] of Object.entries(nodes)) {
          if (!isObj(entry)) continue;
          const first = Array.isArray(entry.errors) && isObj(entry.errors[0]) ? entry.errors[0] : {};
          out[id] = {
            class_type: entry.class_type,
            errors: [],
            message: first.message,
            exception_type: 'RuntimeError',
          };
        }
        return out;
      });
    },
  },
  {
    name: 'engine-node-error-keyed-by-class',
    breaks: 'V2.ERR.NODE_ERRORS_AFTER_DISPATCH',
    statements: ['W:66:d8223297fbf6', 'W:230:2a85600fa562'],
    description:
      "a job the engine failed after dispatch keys its node errors by the failing node's class, as the " +
      "engine's execution report names it, instead of by node id",
    install(s) {
      engineNodeErrors(s, (nodes) =>
        Object.fromEntries(
          Object.entries(nodes).map(([id, entry]) => [
            isObj(entry) && typeof entry.class_type === 'string' ? entry.class_type : id,
            entry,
          ]),
        ),
      );
    },
  },
] as const satisfies ReadonlyArray<FaultUnit>;
