// Assets over bytes the server already holds: POST /api/v2/assets/from-hash mints one, and
// HEAD /api/v2/assets/by-hash/{hash} says whether the caller may.
import type { FastifyInstance } from 'fastify';
import { parseHash } from '../../blobs.ts';
import { ApiError, invalidRequest, upstreamError } from '../../errors.ts';
import { blobHash, expiresIn, filePath, tag } from '../fields.ts';
import { isPlainObject } from '../../../lib/values.ts';
import type { AssetKit } from './kit.ts';

export function registerByHashRoutes(app: FastifyInstance, kit: AssetKit): void {
  const { ctx, guard, surface, policy, placed, retain, mint, present } = kit;
  const { assets } = ctx;
  app.post('/api/v2/assets/from-hash', { onRequest: guard.admit }, async (request, reply) => {
    const account = guard.requireAccount(request);
    const body: unknown = request.body;
    if (!isPlainObject(body)) throw invalidRequest('body', 'must be a JSON object');
    const hex = blobHash(body.hash, 'hash');
    const path =
      body.file_path === undefined || body.file_path === null ? null : placed(filePath(body.file_path, 'file_path'));
    if (body.tags !== undefined && !Array.isArray(body.tags))
      throw invalidRequest('tags', 'must be an array of strings');
    const tags = ((body.tags as unknown[] | undefined) ?? []).map((t) => tag(t, 'tags'));
    const requested =
      body.expires_in === undefined || !surface.retention ? undefined : expiresIn(body.expires_in, 'expires_in');

    // Another account's blob is indistinguishable from no blob at all.
    if (!policy.heldForFromHash(assets, account, hex))
      throw new ApiError('blob_not_found', 'no blob with that hash is available to this account');
    const existing = assets.findByPath(account, hex, path);
    if (existing !== undefined) {
      retain(account, hex, requested, false, Date.now());
      return reply.code(200).send(present(existing, { createdNew: false }));
    }
    const template = assets.template(account, hex);
    if (template === undefined) throw upstreamError();
    const { record } = mint(
      account,
      { hex, size: template.size_bytes, contentType: template.content_type },
      { filePath: path, tags, expiresIn: requested, fromUpload: false },
    );
    return reply.code(201).send(present(record, { createdNew: false }));
  });

  app.head<{ Params: { hash: string } }>(
    '/api/v2/assets/by-hash/:hash',
    { onRequest: guard.admit },
    async (request, reply) => {
      const account = guard.requireAccount(request);
      const hex = parseHash(request.params.hash);
      const found = hex !== undefined && policy.heldForByHash(assets, account, hex);
      return reply.code(found ? 200 : 404).send();
    },
  );
}
