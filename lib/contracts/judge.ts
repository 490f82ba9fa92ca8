// The one judgement of an answer against its contract: the validator (status declared,
// headers, body) and the family's always-on checks (envelope, code <-> status, ...).
// The api client judges every response with it, and the load runner judges the answers
// it samples (and every 429 it sees) with the very same function; a replayed cassette
// goes through the api client, so it is judged here too.
import { matchOperation, type Contract, type OperationSpec } from './loader.ts';
import { validateResponse, type Finding } from './validate.ts';
import { usableDespite } from './usable.ts';
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

export function judgeAnswer(
  contract: Contract,
  checks: ReadonlyArray<ResponseCheck>,
  op: OperationSpec,
  method: string,
  response: HttpResponse,
): Judgement {
  const validated = validateResponse(op, method, response);
  const checked = runChecks(checks, { contract, method, response, json: validated.json });
  const all = [...validated.findings, ...checked.findings];
  // One finding per rule; it leaves the answer usable only if every finding of that rule
  // does. Only schema findings of form alone (usable.ts draws the line) leave it usable.
  const usable = new Map<string, boolean>();
  for (const f of all)
    usable.set(
      f.rule,
      (usable.get(f.rule) ?? true) &&
        f.schemaErrors !== undefined &&
        f.schemaErrors.length > 0 &&
        usableDespite(f.schemaErrors),
    );
  const seen = new Set<string>();
  let findings = all.filter((f) => (seen.has(f.rule) ? false : (seen.add(f.rule), true)));
  // A known code with the wrong status is one fault, named precisely by the code table;
  // the generic "status not declared" finding would only repeat it.
  if (findings.some((f) => f.rule.endsWith('.ERR.CODE_STATUS'))) findings = findings.filter((f) => !f.undeclaredStatus);
  const failed = new Set(findings.map((f) => f.rule));
  const held = [...new Set([...validated.checked, ...checked.checked])].filter((r) => !failed.has(r));
  const judged = findings.map(({ schemaErrors: _, undeclaredStatus: __, ...f }) => ({
    ...f,
    usable: usable.get(f.rule) ?? false,
  }));
  return { findings: judged, held, ...(validated.json !== undefined ? { json: validated.json } : {}) };
}

/** The same judgement for an answer known only by method and path (a load run's); undefined when no operation matches. */
export function judgeAnswerAt(
  contract: Contract,
  checks: ReadonlyArray<ResponseCheck>,
  basePath: string,
  method: string,
  path: string,
  response: HttpResponse,
): Judgement | undefined {
  const pathname = path.split('?')[0];
  const relative = basePath && pathname.startsWith(basePath) ? pathname.slice(basePath.length) : pathname;
  const op = matchOperation(contract, method, relative);
  return op ? judgeAnswer(contract, checks, op, method, response) : undefined;
}
