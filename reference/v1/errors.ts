// v1 error bodies. The seed leaves v1 status codes "not shown"; public docs give
// `{code, message}` on the non-prompt routes and ComfyUI's native
// `{error: {type, message, details, extra_info}, node_errors}` on /api/prompt.
import type { FastifyReply } from 'fastify';

export function sendV1Error(reply: FastifyReply, status: number, code: string, message: string): FastifyReply {
  return reply.code(status).type('application/json; charset=utf-8').send({ code, message });
}

export interface PromptError {
  type: string;
  message: string;
  details: string;
  extra_info: Record<string, unknown>;
}

export function promptError(type: string, message: string, details = ''): PromptError {
  return { type, message, details, extra_info: {} };
}
