// A v1 prompt refused because the target's engine lacks a node class, or spells an input
// otherwise, than the suite chose: the suite's choice was refused, not a rule broken
// (seed W names no class and no input). The dependent rules end "error: setup refused ...;
// set scenario input <name>". Only refusals that name such a class or input count; any other
// refusal of the suite's prompt is still judged by the rule under test.
import { inputNaming, type Workflow } from '../data/workflows.ts';
import { isPlainObject } from '../values.ts';
import { show, SetupRefused } from '../violations.ts';

const CLASS_ERRORS = new Set(['unknown_node_class', 'invalid_class_type']);
const MISSING_INPUT = /required_input_missing|missing_required_input/;

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The text of a v1 refusal's error: ComfyUI's {type, message, details} object, or a string. */
function errorText(error: unknown): string {
  if (typeof error === 'string') return error;
  if (!isPlainObject(error)) return '';
  return [error.type, error.message, error.details].filter((v) => typeof v === 'string').join(' ');
}

/**
 * The setup refusal a v1 prompt answer stands for, if it refused a class or an input name
 * the suite chose: node_errors entries of an unknown class, or saying a required input of a
 * node of a suite-chosen class is missing; or an error message naming a suite class as unknown.
 */
export function promptSetupRefusal(
  status: number,
  body: unknown,
  workflow: Workflow,
  scenario: Record<string, unknown>,
): SetupRefused | undefined {
  if (!isPlainObject(body) || status >= 500) return undefined;
  const used = [...new Set(Object.values(workflow).map((n) => n.class_type))];
  const unknown = new Set<string>();
  const inputs = new Set<string>();
  const nodeErrors = isPlainObject(body.node_errors) ? body.node_errors : {};
  for (const [id, entry] of Object.entries(nodeErrors)) {
    if (!isPlainObject(entry)) continue;
    const cls = typeof entry.class_type === 'string' ? entry.class_type : workflow[id]?.class_type;
    const errors = Array.isArray(entry.errors) ? entry.errors.filter(isPlainObject) : [];
    if (cls !== undefined && errors.some((e) => typeof e.type === 'string' && CLASS_ERRORS.has(e.type)))
      unknown.add(cls);
    if (
      cls !== undefined &&
      inputNaming(cls, scenario) !== undefined &&
      errors.some((e) => typeof e.type === 'string' && MISSING_INPUT.test(e.type))
    )
      inputs.add(cls);
  }
  const text = errorText(body.error);
  for (const cls of used) {
    const c = escape(cls);
    if (
      new RegExp(
        `\\b${c}\\b[^.]*\\b(does not exist|not found|unknown|not installed|not a known)|\\b(unknown|no such)\\b[^.]*\\b${c}\\b`,
        'i',
      ).test(text)
    )
      unknown.add(cls);
  }
  // Only a class the suite chose through a scenario input (a refused unknown class a check sent on purpose is that check's business).
  const ours = [...unknown].filter((c) => used.includes(c) && inputNaming(c, scenario) !== undefined);
  const said = `${status} ${show(body.error ?? body, 300)}`;
  if (ours.length > 0) {
    const names = [...new Set(ours.map((c) => inputNaming(c, scenario)!))];
    return new SetupRefused(
      `the suite's v1 prompt using ${ours.join(', ')} (POST /api/prompt)`,
      said,
      names.join(' or '),
    );
  }
  if (inputs.size > 0) {
    return new SetupRefused(
      `the suite's v1 prompt, whose ${[...inputs].join(', ')} node(s) the engine says miss a required input (POST /api/prompt)`,
      said,
      `node_input_names (the input names of ${[...inputs].join(', ')})`,
    );
  }
  return undefined;
}
