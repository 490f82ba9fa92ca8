// Router error answers: `{detail, error_type}` (plus upstream_detail / refusal_subject),
// X-<Brand>-Error-Type on every error, and the 422 validation body.
import type { ValidationEntry } from './validation.ts';

export class RouterError extends Error {
  constructor(
    readonly status: number,
    readonly errorType: string,
    readonly detail: string,
    readonly opts: { headers?: Record<string, string>; extra?: Record<string, unknown>; retryAfter?: number } = {},
  ) {
    super(detail);
    this.name = 'RouterError';
  }
}

/** A 422: the body failed the model's schema (or names another model). */
export class RouterValidationError extends Error {
  constructor(readonly entries: ValidationEntry[]) {
    super('validation failed');
    this.name = 'RouterValidationError';
  }
}

export const modelNotFound = (id: string): RouterError =>
  new RouterError(404, 'model_not_found', `model ${id} is not in the catalog`);
export const invalidInput = (detail: string): RouterError => new RouterError(400, 'invalid_input', detail);

/** The two stable detail prefixes of model_provider rule 7. */
export const EDIT_PREFIX = "this request's `image` selects the edit operation";
export const BYOK_PREFIX = 'this request resolved a BYOK credential';
