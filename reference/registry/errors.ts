// The registry's two error bodies (seed W § Node registry operation):
// `{details: [string], message}` for what is wrong with the request (body, node), and
// `{error, message}` for credentials and failures. Faults bend them here.
import type { FastifyReply } from 'fastify';
import type { IsFault } from '../faults.ts';

export class RegistryError extends Error {
  constructor(
    readonly status: number,
    readonly body: { details: string[]; message: string } | { error: string; message: string },
  ) {
    super(body.message);
  }
}

export const detailsError = (status: number, message: string, details: string[]): RegistryError => new RegistryError(status, { details, message });
export const messageError = (status: number, error: string, message: string): RegistryError => new RegistryError(status, { error, message });

export function sendRegistryError(reply: FastifyReply, err: RegistryError, isFault: IsFault): FastifyReply {
  reply.code(err.status);
  if (err.status === 404 && isFault('registry-errors-text-plain')) return reply.type('text/plain; charset=utf-8').send(err.body.message);
  let body: Record<string, unknown> = { ...err.body };
  if ('error' in err.body && isFault('registry-error-third-shape')) body = { code: err.body.error, message: err.body.message };
  if ('details' in err.body && isFault('registry-details-string')) body = { ...body, details: err.body.details.join('; ') };
  return reply.type('application/json; charset=utf-8').send(body);
}
