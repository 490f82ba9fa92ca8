// DELETE /api/v2/assets/{id}, unless a control leaves it out.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AssetKit } from './kit.ts';

export function registerAssetDeleteRoute(app: FastifyInstance, kit: AssetKit): void {
  const { ctx, guard, policy, ownAsset } = kit;
  const { assets } = ctx;
  // A control: a server without the public documents' delete (seed W shows none), whose
  // unrouted paths answer 404 in the v2 error envelope. Asked when a delete arrives, before
  // anything else answers it, so the route is as absent as an unregistered one.
  const notOffered = async (_request: FastifyRequest, reply: FastifyReply) => {
    if (ctx.isControl('asset-delete-not-offered')) {
      reply.callNotFound();
      return reply;
    }
  };
  app.delete<{ Params: { id: string } }>(
    '/api/v2/assets/:id',
    { onRequest: [notOffered, guard.admit] },
    async (request, reply) => {
      const account = guard.requireAccount(request);
      const rec = ownAsset(account, request.params.id);
      policy.deleteAsset(assets, rec.id);
      return reply.code(204).send();
    },
  );
}
