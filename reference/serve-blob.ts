import type { FastifyReply, FastifyRequest } from 'fastify';
import type { BlobStore } from './blobs.ts';
import { parseRange } from './range.ts';

export interface ServeOptions {
  hex: string;
  size: number;
  contentType: string;
}

export function serveBlob(
  request: FastifyRequest,
  reply: FastifyReply,
  blobs: BlobStore,
  opts: ServeOptions,
): FastifyReply {
  const { hex, size, contentType } = opts;
  const range = parseRange(request.headers.range, size);
  reply.header('Accept-Ranges', 'bytes');
  if (range.kind === 'unsatisfiable') {
    return reply.code(416).header('Content-Range', `bytes */${size}`).send();
  }
  const start = range.kind === 'partial' ? range.start : 0;
  const end = range.kind === 'partial' ? range.end : size - 1;
  if (range.kind === 'partial') reply.code(206).header('Content-Range', `bytes ${start}-${end}/${size}`);
  reply.type(contentType).header('Content-Length', String(end - start + 1));
  if (size === 0) return reply.send(Buffer.alloc(0));
  return reply.send(blobs.read(hex, start, end));
}
