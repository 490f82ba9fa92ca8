// The one judgement of an answer against its contract: the validator (status declared,
// headers, body) and the family's always-on checks (envelope, code <-> status, ...).
// The api client judges every response with it, and the load runner judges the answers
// it samples (and every 429 it sees) with the very same function; a replayed cassette
// goes through the api client, so it is judged here too.
import { matchOperation, type Contract, type OperationSpec } from './loader.ts';
import { validateResponse, type Finding, type SchemaError } from './validate.ts';
import { runChecks } from '../checks/v2-errors.ts';
import type { ResponseCheck } from './registry.ts';
import type { HttpResponse } from '../http.ts';

/** A finding, and whether the answer stays usable despite it. */
export interface JudgedFinding extends Omit<Finding, 'schemaErrors'> {
  /**
   * The answer can still be read as its contract's shape: every member is there with its
   * JSON type, only a value's form is off (a non-UUID id, another date-time form, an
   * unknown enum value, a member the schema does not allow). The finding is a broken
   * result of its rule, but checks after it can go on. False when a test reading the
   * answer could not rely on it (not JSON, a member missing or of another type, an
   * undeclared status or media type, a broken envelope): the test stops there.
   */
  usable: boolean;
}

export interface Judgement {
  findings: JudgedFinding[];
  /** Rules judged and found kept on this answer. */
  held: string[];
  json?: unknown;
}

// A value of the right JSON type whose content is off. ajv reports these only on a value
// that is present and of the type the keyword applies to, so the body still has the
// member and the member still reads as what the test expects (a string is a string).
// maxItems/maxProperties: more than the contract allows still holds everything a test reads.
const FORM_KEYWORDS = new Set([
  'format',
  'pattern',
  'enum',
  'const',
  'minLength',
  'maxLength',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'maxItems',
  'maxProperties',
  'maxContains',
  'uniqueItems',
  'additionalProperties',
  'unevaluatedProperties',
  'unevaluatedItems',
  'propertyNames',
]);

// Keywords whose own error only summarises the errors of their branches, which ajv
// (allErrors) lists just before it: those decide.
const SUMMARY_KEYWORDS = new Set(['anyOf', 'oneOf', 'if']);

/**
 * Whether an answer whose schema errors are these can still be used by a test. Everything
 * else is a structure a test may rely on and cannot: `type` (a member, or the body, of
 * another JSON type), `required`/`dependentRequired` (a member missing), `minItems`/
 * `minProperties`/`contains` (an item a test may read is not there), `not`, a false schema
 * and any keyword not named here. `type` "null" is the other branch of a nullable member
 * (anyOf [X, null]) saying only that the value is not null; X's own errors decide.
 */
export function usableDespite(errors: ReadonlyArray<SchemaError>): boolean {
  return errors.every((e) => FORM_KEYWORDS.has(e.keyword) || SUMMARY_KEYWORDS.has(e.keyword) || (e.keyword === 'type' && (e.params as { type?: unknown }).type === 'null'));
}

export function judgeAnswer(contract: Contract, checks: ReadonlyArray<ResponseCheck>, op: OperationSpec, method: string, response: HttpResponse): Judgement {
  const validated = validateResponse(op, method, response);
  const checked = runChecks(checks, { contract, method, response, json: validated.json });
  const all = [...validated.findings, ...checked.findings];
  // One finding per rule; it leaves the answer usable only if every finding of that rule does.
  const usable = new Map<string, boolean>();
  for (const f of all) usable.set(f.rule, (usable.get(f.rule) ?? true) && f.schemaErrors !== undefined && f.schemaErrors.length > 0 && usableDespite(f.schemaErrors));
  const seen = new Set<string>();
  let findings = all.filter((f) => (seen.has(f.rule) ? false : (seen.add(f.rule), true)));
  // A known code with the wrong status is one fault, named precisely by the code table;
  // the generic "status not declared" finding would only repeat it.
  if (findings.some((f) => f.rule.endsWith('.ERR.CODE_STATUS'))) findings = findings.filter((f) => !f.rule.endsWith('.CONTRACT.STATUS_DECLARED'));
  const failed = new Set(findings.map((f) => f.rule));
  const held = [...new Set([...validated.checked, ...checked.checked])].filter((r) => !failed.has(r));
  const judged = findings.map(({ schemaErrors: _, ...f }) => ({ ...f, usable: usable.get(f.rule) ?? false }));
  return { findings: judged, held, ...(validated.json !== undefined ? { json: validated.json } : {}) };
}

/** The same judgement for an answer known only by method and path (a load run's); undefined when no operation matches. */
export function judgeAnswerAt(contract: Contract, checks: ReadonlyArray<ResponseCheck>, basePath: string, method: string, path: string, response: HttpResponse): Judgement | undefined {
  const pathname = path.split('?')[0]!;
  const relative = basePath && pathname.startsWith(basePath) ? pathname.slice(basePath.length) : pathname;
  const op = matchOperation(contract, method, relative);
  return op ? judgeAnswer(contract, checks, op, method, response) : undefined;
}
