import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

// HTTP status per error code, from the contract's Errors table.
const ERROR_STATUS = {
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
  /** Only with sso_required: which organization's single sign-on the key falls under. */
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

/** The status, headers and body an error is answered with. */
export function errorAnswer(err: ApiError): {
  status: number;
  headers: Record<string, string>;
  body: Record<string, unknown>;
} {
  const headers: Record<string, string> = {};
  if (err.retryAfterSeconds !== undefined) headers['Retry-After'] = String(err.retryAfterSeconds);
  const inner: Record<string, unknown> = { code: err.code, message: err.message };
  if (err.organizationId !== undefined) inner.organization_id = err.organizationId;
  if (err.details !== undefined) inner.details = err.details;
  return { status: ERROR_STATUS[err.code], headers, body: { error: inner } };
}

// Which error each answer was built from, so response hooks (reference/faults/seams.ts) can see it.
const answered = new WeakMap<FastifyReply, ApiError>();

export function answeredError(reply: FastifyReply): ApiError | undefined {
  return answered.get(reply);
}

function sendApiError(reply: FastifyReply, err: ApiError): FastifyReply {
  const { status, headers, body } = errorAnswer(err);
  answered.set(reply, err);
  return reply.code(status).headers(headers).type('application/json; charset=utf-8').send(body);
}

function isFastifyError(err: unknown): err is FastifyError {
  return err instanceof Error && typeof (err as Partial<FastifyError>).code === 'string';
}

// Every failure leaves the server as a v2 envelope; framework and plugin
// errors are translated so clients never see fastify's own error shape.
export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((err: unknown, request: FastifyRequest, reply: FastifyReply) => {
    if (err instanceof ApiError) return sendApiError(reply, err);
    const status = isFastifyError(err) ? (err.statusCode ?? 500) : 500;
    if (status >= 400 && status < 500) {
      // Messages of fastify's FST_* errors describe the request, not the server.
      const fromFramework = isFastifyError(err) && err.code.startsWith('FST_');
      const message = fromFramework ? `request body is invalid: ${err.message}` : 'request body is invalid';
      return sendApiError(reply, new ApiError('invalid_request', message));
    }
    request.log.error({ err }, 'unexpected error');
    return sendApiError(reply, new ApiError('upstream_error', GENERIC_500));
  });
  app.setNotFoundHandler((request: FastifyRequest, reply: FastifyReply) =>
    sendApiError(reply, new ApiError('not_found', `no route for ${request.method} ${request.url.split('?')[0]}`)),
  );
}

export function upstreamError(): ApiError {
  return new ApiError('upstream_error', GENERIC_500);
}
