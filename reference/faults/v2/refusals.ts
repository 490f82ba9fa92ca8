// v2 faults of submit refusals (seed W § Errors, workflow refusals and labels): each
// bends one refusal of POST /api/v2/jobs on its way out.
import type { FaultUnit } from '../../faults.ts';
import type { Outgoing, Seams } from '../seams.ts';
import { errorObject, isObj } from './shared.ts';

type Inner = Record<string, unknown>;

/** A response hook on the error answers of a submit. */
function refusal(s: Seams, rewrite: (inner: Inner, out: Outgoing) => void): void {
  s.respond({ routes: ['POST /api/v2/jobs'] }, (out) => {
    const inner = errorObject(out);
    if (inner !== undefined) rewrite(inner, out);
  });
}

export const REFUSAL_FAULTS = [
  {
    name: 'truncation-count-missing',
    rule: 'V2.ERR.NODE_ERRORS_DETAILS',
    description: 'a truncated refusal of malformed nodes omits malformed_node_count',
    install(s) {
      refusal(s, (inner) => {
        if (isObj(inner.details)) delete inner.details.malformed_node_count;
      });
    },
  },
  {
    name: 'unknown-classes-unbounded',
    rule: 'V2.ERR.NODE_ERRORS_DETAILS',
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
  {
    name: 'ui-format-as-invalid',
    rule: 'V2.ERR.WORKFLOW_FORMAT_UI',
    description: 'a workflow in the interface format is refused invalid_workflow',
    install(s) {
      refusal(s, (inner) => {
        if (inner.code === 'workflow_format_ui') inner.code = 'invalid_workflow';
      });
    },
  },
  {
    name: 'missing-asset-as-invalid',
    rule: 'V2.ERR.MISSING_ASSET',
    description: 'a workflow referencing an unknown asset is refused invalid_workflow',
    install(s) {
      refusal(s, (inner) => {
        if (inner.code === 'missing_asset') inner.code = 'invalid_workflow';
      });
    },
  },
  {
    name: 'metadata-invalid-no-key',
    rule: 'V2.ERR.METADATA_INVALID',
    description: 'metadata_invalid refusals omit details.key',
    install(s) {
      refusal(s, (inner) => {
        if (inner.code === 'metadata_invalid') delete inner.details;
      });
    },
  },
  {
    name: 'labels-refused-invalid-request',
    rule: 'V2.ERR.METADATA_NOT_SUPPORTED',
    description: 'the local proxy, which keeps no labels, refuses them 422 invalid_request instead of metadata_not_supported',
    install(s) {
      refusal(s, (inner) => {
        if (inner.code === 'metadata_not_supported') inner.code = 'invalid_request';
      });
    },
  },
  {
    name: 'upstream-leaks-stack',
    rule: 'V2.ERR.UPSTREAM_GENERIC',
    description: 'upstream_error messages carry a stack trace',
    install(s) {
      refusal(s, (inner) => {
        if (inner.code === 'upstream_error') inner.message = `${String(inner.message)} Error: connect ECONNREFUSED 10.0.0.7:5432\n    at TCPConnectWrap.afterConnect (node:net:1555:16)`;
      });
    },
  },
  {
    name: 'invalid-workflow-code',
    rule: 'V2.ERR.INVALID_WORKFLOW',
    description: 'node errors are refused with code invalid_request instead of invalid_workflow',
    install(s) {
      refusal(s, (inner) => {
        if (inner.code === 'invalid_workflow' && isObj(inner.details) && inner.details.node_errors !== undefined) inner.code = 'invalid_request';
      });
    },
  },
] as const satisfies ReadonlyArray<FaultUnit>;
