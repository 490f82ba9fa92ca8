// DELETE /api/v2/assets/{id}, unless a control leaves it out.
import type { FastifyInstance } from 'fastify';
import type { AssetKit } from './kit.ts';

export function registerAssetDeleteRoute(app: FastifyInstance, kit: AssetKit): void {
  const { ctx, guard, policy, ownAsset } = kit;
  const { assets } = ctx;
  // A control: a server without the public documents' delete (seed W shows none), whose
  // unrouted paths answer 404 in the v2 error envelope.
  if (ctx.isControl('asset-delete-not-offered')) return;
  app.delete<{ Params: { id: string } }>('/api/v2/assets/:id', { onRequest: guard.admit }, async (request, reply) => {
    const account = guard.requireAccount(request);
    const rec = ownAsset(account, request.params.id);
    policy.deleteAsset(assets, rec.id);
    return reply.code(204).send();
  });
}
