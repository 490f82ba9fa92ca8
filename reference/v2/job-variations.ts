// Controls (reference/controls.ts) of the v2 submit: forms and spellings seed W leaves open,
// consulted by the submit route (reference/v2/jobs/submit.ts) so a control's run varies only them.
import type { ReferenceContext } from '../context.ts';
import { ApiError } from '../errors.ts';
import type { Refusal } from '../engine/types.ts';
import { isPlainObject } from '../../lib/values.ts';

type NodeErrors = Record<string, { class_type: string; errors: Array<{ type: string; message: string }> }>;

/**
 * The asset-ref-file-name control: the server names an uploaded asset by its plain file name
 * (`image: "<file_path>"`, the engine's own form; the seed shows no submit payload,
 * W:123:f9a38dca0104). A reference object in an input is an invalid input (422
 * invalid_workflow naming the node); a file name that no asset of the caller has is a
 * missing asset (422 missing_asset).
 */
export function fileNameFormRefusal(ctx: ReferenceContext, workflow: unknown, account: string): ApiError | undefined {
  if (!isPlainObject(workflow)) return undefined;
  const objects: NodeErrors = {};
  const missing: string[] = [];
  for (const [id, node] of Object.entries(workflow)) {
    if (!isPlainObject(node) || !isPlainObject(node.inputs)) continue;
    const cls = String(node.class_type);
    const source = ctx.engine.catalog.get(cls)?.input.required.image;
    if (source?.type !== 'IMAGE_SOURCE') continue;
    const value = node.inputs.image;
    if (isPlainObject(value))
      objects[id] = {
        class_type: cls,
        errors: [{ type: 'invalid_inputs', message: 'input image: give the file name of an uploaded input file' }],
      };
    else if (typeof value === 'string' && ctx.assets.findOwnedByPath(account, value) === undefined) missing.push(value);
  }
  // Asked only where the form decides the answer, so only tests naming an image consult it.
  if ((Object.keys(objects).length === 0 && missing.length === 0) || !ctx.isControl('asset-ref-file-name'))
    return undefined;
  if (Object.keys(objects).length > 0)
    return new ApiError('invalid_workflow', 'the workflow has invalid inputs', { details: { node_errors: objects } });
  if (missing.length > 0)
    return new ApiError('missing_asset', `no uploaded input file named ${JSON.stringify(missing[0])}`);
  return undefined;
}

/**
 * The node-errors-engine-types control: a missing required input is typed with the engine's
 * own name, required_input_missing (the seed's error types are those seen, W:66:2e4eea868945).
 */
export function engineTypedRefusal(ctx: ReferenceContext, refusal: Refusal | undefined): Refusal | undefined {
  if (refusal?.details?.node_errors === undefined || !ctx.isControl('node-errors-engine-types')) return refusal;
  const nodeErrors = Object.fromEntries(
    Object.entries(refusal.details.node_errors).map(([id, entry]) => [
      id,
      {
        ...entry,
        errors: entry.errors.map((e) =>
          e.type === 'invalid_inputs' && /^Required input is missing/.test(e.message)
            ? { ...e, type: 'required_input_missing' }
            : e,
        ),
      },
    ]),
  );
  return {
    ...refusal,
    details: { ...refusal.details, node_errors: nodeErrors as NonNullable<Refusal['details']>['node_errors'] },
  };
}

/**
 * The unknown-classes-unnamed control: a workflow naming classes the server lacks is refused
 * the way an engine's own missing-class check is passed through: 422 invalid_workflow with an
 * empty node_errors and no class list. The details rules bound only what a refusal names
 * (W:230-W:232); the seed's example type is one a server may send, not one it must.
 */
export function unnamedClassesRefusal(ctx: ReferenceContext, refusal: Refusal | undefined): Refusal | undefined {
  const missing = refusal?.details?.unknown_node_classes;
  // Asked only of a refusal it could change, so only tests sending unknown classes consult it.
  if (refusal === undefined || missing === undefined || !ctx.isControl('unknown-classes-unnamed')) return refusal;
  return {
    code: 'invalid_workflow',
    message: `class ${missing[0]} is not installed on this engine`,
    details: { node_errors: {} },
  };
}
