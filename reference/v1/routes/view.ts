// GET /api/view: a file of the flat namespace by name and kind, redirected to a signed
// storage URL that needs no key (or served, as a policy seam allows).
import type { FastifyInstance } from 'fastify';
import { serveBlob } from '../../serve-blob.ts';
import { v1Account } from '../auth.ts';
import { sendV1Error } from '../errors.ts';
import type { V1RouteKit } from './kit.ts';

export function registerViewRoute(app: FastifyInstance, kit: V1RouteKit): void {
  const { ctx, policy, auth, emptyRefusals } = kit;
  const { assets, signer } = ctx;
  app.get<{ Querystring: Record<string, string | undefined> }>(
    '/api/view',
    { onRequest: auth, onSend: emptyRefusals },
    async (request, reply) => {
      const account = v1Account(request);
      const { filename } = request.query;
      const type = request.query.type ?? 'output';
      if (typeof filename !== 'string' || filename === '')
        return sendV1Error(reply, 400, 'invalid_request', 'filename is required');
      if (!['output', 'temp', 'input'].includes(type))
        return sendV1Error(reply, 400, 'invalid_request', 'type must be output, temp or input');
      // The namespace is flat: subfolder is ignored, only the name and its kind count.
      const rec = assets.findOwnedByPath(account, type === 'input' ? filename : `${type}/${filename}`);
      if (!rec) return sendV1Error(reply, 404, 'not_found', `no ${type} file named "${filename}"`);
      if (!policy.viewRedirects)
        return serveBlob(request, reply, ctx.blobs, {
          hex: rec.hex,
          size: rec.size_bytes,
          contentType: rec.content_type,
        });
      return reply.code(302).header('location', signer.sign(rec.hex, rec.content_type).url).send();
    },
  );
}
