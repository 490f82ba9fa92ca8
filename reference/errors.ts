import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { IsFault } from './faults.ts';

// HTTP status per error code, from the contract's Errors table.
export const ERROR_STATUS = {
  invalid_workflow: 422,
  workflow_format_ui: 422,
  missing_asset: 422,
  hash_mismatch: 409,
  blob_not_found: 404,
  idempotency_key_reuse: 422,
  queue_full: 429,
  rate_limited: 429,
  insufficient_credits: 402,
  not_found: 404,
  unauthorized: 401,
  forbidden: 403,
  deployment_not_ready: 429,
  deployment_unavailable: 429,
  deployment_stopped: 422,
  invalid_request: 422,
  content_blocked: 451,
  sso_required: 403,
  metadata_invalid: 422,
  metadata_not_supported: 422,
  invalid_metadata_filter: 400,
  invalid_cursor: 400,
  not_implemented: 501,
  upstream_error: 500,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export interface ApiErrorOptions {
  details?: Record<string, unknown>;
  retryAfterSeconds?: number;
  /** Only with sso_required: the organization whose single sign-on governs the key. */
  organizationId?: string;
}

export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly details: Record<string, unknown> | undefined;
  readonly retryAfterSeconds: number | undefined;
  readonly organizationId: string | undefined;

  constructor(code: ErrorCode, message: string, opts: ApiErrorOptions = {}) {
    super(message);
    this.name = 'ApiError';
    this.code = code;
    this.details = opts.details;
    this.retryAfterSeconds = opts.retryAfterSeconds;
    this.organizationId = opts.organizationId;
  }
}

export const notFound = (what = 'resource'): ApiError => new ApiError('not_found', `${what} not found`);
export const invalidRequest = (field: string, problem: string): ApiError =>
  new ApiError('invalid_request', `${field}: ${problem}`, { details: { field } });

const GENERIC_500 = 'The server hit an unexpected error; try again later.';

export function sendApiError(reply: FastifyReply, err: ApiError, isFault: IsFault): FastifyReply {
  let status: number = ERROR_STATUS[err.code] ?? 500;
  if (err.code === 'not_found' && isFault('not-found-as-400')) status = 400;
  if (err.retryAfterSeconds !== undefined && !isFault('missing-retry-after')) {
    reply.header('Retry-After', String(err.retryAfterSeconds));
  }
  // rate-limit-as-queue-full: still a code 429 pairs with, but not the one a request rate earns.
  let code: string = err.code === 'rate_limited' && isFault('rate-limit-as-queue-full') ? 'queue_full' : err.code;
  // entity-not-found-codes: the live services' entity-specific 404 codes (asset_not_found, job_not_found).
  const entity = /^(asset|job) not found$/.exec(err.message);
  if (err.code === 'not_found' && entity && isFault('entity-not-found-codes')) code = `${entity[1]}_not_found`;
  const inner: Record<string, unknown> = { code, message: err.message };
  if (err.organizationId !== undefined) inner.organization_id = err.organizationId;
  else if (err.code === 'unauthorized' && isFault('org-id-on-unauthorized')) inner.organization_id = 'org_ref_leaked';
  if (err.details !== undefined) inner.details = err.details;
  const body = isFault('flat-error-envelope') ? inner : { error: inner };
  return reply.code(status).type('application/json; charset=utf-8').send(body);
}

function isFastifyError(err: unknown): err is FastifyError {
  return err instanceof Error && typeof (err as Partial<FastifyError>).code === 'string';
}

// Every failure leaves the server as a v2 envelope; framework and plugin
// errors are translated so clients never see fastify's own error shape.
export function installErrorHandling(app: FastifyInstance, isFault: IsFault): void {
  app.setErrorHandler((err: unknown, request: FastifyRequest, reply: FastifyReply) => {
    if (err instanceof ApiError) return sendApiError(reply, err, isFault);
    const status = isFastifyError(err) ? (err.statusCode ?? 500) : 500;
    if (status >= 400 && status < 500) {
      // Messages of fastify's FST_* errors describe the request, not the server.
      const fromFramework = isFastifyError(err) && err.code.startsWith('FST_');
      const message = fromFramework ? `request body is invalid: ${err.message}` : 'request body is invalid';
      return sendApiError(reply, new ApiError('invalid_request', message), isFault);
    }
    request.log.error({ err }, 'unexpected error');
    return sendApiError(reply, new ApiError('upstream_error', GENERIC_500), isFault);
  });
  app.setNotFoundHandler((request: FastifyRequest, reply: FastifyReply) =>
    sendApiError(reply, new ApiError('not_found', `no route for ${request.method} ${request.url.split('?')[0]}`), isFault),
  );
}

export function upstreamError(): ApiError {
  return new ApiError('upstream_error', GENERIC_500);
}
