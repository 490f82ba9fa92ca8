// The one judgement of an answer against its contract: the validator (status declared,
// headers, body) and the family's always-on checks (envelope, code <-> status, ...).
// The api client judges every response with it, and the load runner judges the answers
// it samples (and every 429 it sees) with the very same function.
import { matchOperation, type Contract, type OperationSpec } from './loader.ts';
import { validateResponse, type Finding } from './validate.ts';
import { runChecks } from '../checks/v2-errors.ts';
import type { ResponseCheck } from './registry.ts';
import type { HttpResponse } from '../http.ts';

export interface Judgement {
  findings: Finding[];
  /** Rules judged and found kept on this answer. */
  held: string[];
  json?: unknown;
}

export function judgeAnswer(contract: Contract, checks: ReadonlyArray<ResponseCheck>, op: OperationSpec, method: string, response: HttpResponse): Judgement {
  const validated = validateResponse(op, method, response);
  const checked = runChecks(checks, { contract, method, response, json: validated.json });
  const seen = new Set<string>();
  let findings = [...validated.findings, ...checked.findings].filter((f) => (seen.has(f.rule) ? false : (seen.add(f.rule), true)));
  // A known code with the wrong status is one fault, named precisely by the code table;
  // the generic "status not declared" finding would only repeat it.
  if (findings.some((f) => f.rule.endsWith('.ERR.CODE_STATUS'))) findings = findings.filter((f) => !f.rule.endsWith('.CONTRACT.STATUS_DECLARED'));
  const failed = new Set(findings.map((f) => f.rule));
  const held = [...new Set([...validated.checked, ...checked.checked])].filter((r) => !failed.has(r));
  return { findings, held, ...(validated.json !== undefined ? { json: validated.json } : {}) };
}

/** The same judgement for an answer known only by method and path (a load run's); undefined when no operation matches. */
export function judgeAnswerAt(contract: Contract, checks: ReadonlyArray<ResponseCheck>, basePath: string, method: string, path: string, response: HttpResponse): Judgement | undefined {
  const pathname = path.split('?')[0]!;
  const relative = basePath && pathname.startsWith(basePath) ? pathname.slice(basePath.length) : pathname;
  const op = matchOperation(contract, method, relative);
  return op ? judgeAnswer(contract, checks, op, method, response) : undefined;
}
