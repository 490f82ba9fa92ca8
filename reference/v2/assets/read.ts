// One asset by id: its record, and its bytes (served, or redirected to a signed url).
import type { FastifyInstance } from 'fastify';
import { upstreamError } from '../../errors.ts';
import { serveBlob } from '../../serve-blob.ts';
import { accountTraits } from '../account-traits.ts';
import { contentLocation } from '../variations.ts';
import type { AssetKit } from './kit.ts';

export function registerAssetReadRoutes(app: FastifyInstance, kit: AssetKit): void {
  const { ctx, guard, surface, policy, present, ownAsset } = kit;
  const { blobs, signer } = ctx;
  // The rate limit applies to unknown and foreign ids too, so it is charged before the lookup.
  const chargeFirst = policy.rateLimitBeforeLookup;
  app.get<{ Params: { id: string } }>(
    '/api/v2/assets/:id',
    { onRequest: chargeFirst ? guard.admit : guard.authenticate },
    async (request, reply) => {
      const account = guard.requireAccount(request);
      // The scenario account whose backing services are down fails its asset reads too.
      if (accountTraits(account).upstreamFailure) throw upstreamError();
      const rec = ownAsset(account, request.params.id, (r) => policy.assetReadable(r, account));
      if (!chargeFirst) guard.charge(request);
      return reply.send(present(rec));
    },
  );

  app.get<{ Params: { id: string } }>(
    '/api/v2/assets/:id/content',
    { onRequest: guard.admit },
    async (request, reply) => {
      const rec = ownAsset(guard.requireAccount(request), request.params.id);
      if (policy.redirectContent(surface.signedUrls)) {
        return reply
          .code(302)
          .header(
            'Location',
            contentLocation(
              ctx,
              signer.sign(rec.hex, rec.content_type).url,
              `${request.protocol}://${request.headers.host ?? ''}`,
            ),
          )
          .send();
      }
      return serveBlob(request, reply, blobs, { hex: rec.hex, size: rec.size_bytes, contentType: rec.content_type });
    },
  );
}
