// A 404 of a v2 read, judged in two parts (seed W § Endpoints: "404 not_found"; public
// facts: live servers send entity-specific codes such as asset_not_found and
// job_not_found): the 404 in a valid envelope is the caller's rule (MUST; the api client
// validates the envelope on every answer), the exact code `not_found` is
// V2.ERR.NOT_FOUND_CODE (SHOULD), so a known, harmless deviation never fails a gate.
import type { ApiResponse } from '../api.ts';
import { check, checkStatus } from '../check.ts';
import type { RuleId } from '../rule-ids.ts';

export function checkNotFound(rule: RuleId, res: ApiResponse): void {
  checkStatus(rule, res, [404]);
  checkNotFoundCode(res);
}

/** The code of a 404 the caller already judged. */
export function checkNotFoundCode(res: ApiResponse): void {
  check('V2.ERR.NOT_FOUND_CODE', res.errorCode === 'not_found', {
    what: `error.code of the 404 from ${res.operationId ?? res.url}`,
    expected: "not_found (the seed's code)",
    received: res.errorCode ?? 'no code',
    on: res,
  });
}

/**
 * Another account's record, asked for by its owner's id: refused 404 not_found (it is not
 * the caller's to see) or 403 forbidden (authenticated but not allowed, W:213:a4a409f683dc);
 * never served. Judged as a result, so one read's answer does not hide another's.
 */
export function checkNotTheirs(rule: RuleId, res: ApiResponse, what: string): void {
  const ok = res.status === 404 || (res.status === 403 && res.errorCode === 'forbidden');
  check(rule, ok, {
    what,
    expected: '404 not_found or 403 forbidden',
    received: `${res.status}${res.errorCode ? ` ${res.errorCode}` : ''}`,
    on: res,
  });
  if (res.status === 404) checkNotFoundCode(res);
}
