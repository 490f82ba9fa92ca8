// The `v1-renamed-classes` control: an engine whose core node classes carry other names than
// the public engine's (a fork, or a build that prefixes its own). Seed W names no node class,
// so the suite's prompts take their classes from scenario inputs; under this control the
// target sets them (lib/control-inputs.ts, which holds the names) and stays green, and a
// prompt using the public names is refused as an unknown class, as such an engine does.
// The v1 routes translate at their edge: object_info lists the engine's own names, a prompt's
// classes are mapped to the shared reference engine's, and the stream reports them back.
import type { ApiWorkflow } from '../engine/types.ts';
import { RENAMED_CLASSES } from '../../lib/control-inputs.ts';

const BACK: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(RENAMED_CLASSES).map(([a, b]) => [b, a]),
);

/** The class as this engine names it to its clients. */
export const outwardClass = (cls: string): string => RENAMED_CLASSES[cls] ?? cls;

/** Nodes of the prompt that use a public name this engine does not have. */
export function hiddenClassNodes(prompt: ApiWorkflow): Array<[string, string]> {
  return Object.entries(prompt).flatMap(([id, node]) =>
    typeof node?.class_type === 'string' && node.class_type in RENAMED_CLASSES
      ? [[id, node.class_type] as [string, string]]
      : [],
  );
}

/** The prompt with this engine's names mapped to the shared reference engine's. */
export function inwardPrompt(prompt: ApiWorkflow): ApiWorkflow {
  return Object.fromEntries(
    Object.entries(prompt).map(([id, node]) => [
      id,
      typeof node?.class_type === 'string' && node.class_type in BACK
        ? { ...node, class_type: BACK[node.class_type] }
        : node,
    ]),
  );
}
