// The registry's two error bodies (seed W § Node registry operation):
// `{details: [string], message}` for what is wrong with the request (body, node), and
// `{error, message}` for credentials and failures.
import type { FastifyReply } from 'fastify';

export class RegistryError extends Error {
  constructor(
    readonly status: number,
    readonly body: { details: string[]; message: string } | { error: string; message: string },
  ) {
    super(body.message);
  }
}

export const detailsError = (status: number, message: string, details: string[]): RegistryError =>
  new RegistryError(status, { details, message });
export const messageError = (status: number, error: string, message: string): RegistryError =>
  new RegistryError(status, { error, message });

export function sendRegistryError(reply: FastifyReply, err: RegistryError): FastifyReply {
  return reply.code(err.status).type('application/json; charset=utf-8').send(err.body);
}
