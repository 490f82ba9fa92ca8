import type { FastifyInstance } from 'fastify';
import { isBlobHex } from './blobs.ts';
import type { ReferenceContext } from './context.ts';
import { serveBlob } from './serve-blob.ts';

interface StorageQuery {
  ct?: string;
  expires?: string;
  signature?: string;
}

// Stands in for the object store behind signed URLs: the signature is the only
// authorization, so no API key is read and no rate limit applies.
export function registerStorageRoute(app: FastifyInstance, ctx: ReferenceContext): void {
  app.get<{ Params: { hex: string }; Querystring: StorageQuery }>('/storage/blobs/:hex', async (request, reply) => {
    const { hex } = request.params;
    const { ct, expires, signature } = request.query;
    const forbid = (why: string) => reply.code(403).type('text/plain; charset=utf-8').send(`Forbidden: ${why}\n`);
    if (!isBlobHex(hex) || typeof ct !== 'string' || typeof expires !== 'string' || typeof signature !== 'string') {
      return forbid('missing or malformed signature parameters');
    }
    const verdict = ctx.signer.verify(hex, ct, expires, signature);
    if (verdict === 'bad-signature') return forbid('signature does not match');
    if (verdict === 'expired') return forbid('URL has expired');
    const size = await ctx.blobs.sizeOf(hex);
    if (size === undefined) return reply.code(404).type('text/plain; charset=utf-8').send('Not Found\n');
    return serveBlob(request, reply, ctx.blobs, { hex, size, contentType: ct });
  });
}
