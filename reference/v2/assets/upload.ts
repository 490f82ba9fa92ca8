// POST /api/v2/assets: a multipart upload, checked field by field, then an existing output
// with the same path and bytes, or a new (or re-referenced) asset.
import type { FastifyInstance } from 'fastify';
import { formatHash } from '../../blobs.ts';
import { ApiError, invalidRequest, upstreamError } from '../../errors.ts';
import { accountTraits } from '../account-traits.ts';
import { blobHash, expiresIn, filePath, mediaType, tag } from '../fields.ts';
import { readUpload } from '../upload.ts';
import type { AssetKit } from './kit.ts';

function single(fields: Map<string, unknown[]>, name: string): unknown {
  const values = fields.get(name);
  if (values === undefined) return undefined;
  if (values.length > 1) throw invalidRequest(name, 'must be sent once');
  return values[0];
}

export function registerUploadRoute(app: FastifyInstance, kit: AssetKit): void {
  const { ctx, guard, surface, policy, moderation, placed, mint, present } = kit;
  const { assets, blobs } = ctx;
  app.post('/api/v2/assets', { onRequest: guard.admit }, async (request, reply) => {
    const account = guard.requireAccount(request);
    const { fields, file } = await readUpload(request, blobs);
    try {
      const contentType = mediaType(single(fields, 'content_type'), 'content_type');
      const path = placed(filePath(single(fields, 'file_path'), 'file_path'));
      const rawExpected = single(fields, 'expected_hash');
      const expectedHex = rawExpected === undefined ? undefined : blobHash(rawExpected, 'expected_hash');
      const tags = (fields.get('tags') ?? []).map((t) => tag(t, 'tags'));
      const rawExpires = single(fields, 'expires_in');
      const requested =
        rawExpires === undefined || !surface.retention ? undefined : expiresIn(rawExpires, 'expires_in');
      // "Every operation can fail this way" (seed W § Errors, upstream_error): the scenario
      // account whose backing services are down fails its uploads too.
      if (accountTraits(account).upstreamFailure) throw upstreamError();
      if (file === undefined) throw invalidRequest('file', 'a file part is required');
      if (expectedHex !== undefined && !policy.hashMatches(expectedHex, file.hex)) {
        throw new ApiError('hash_mismatch', 'expected_hash does not match the uploaded bytes', {
          details: { expected_hash: formatHash(expectedHex), computed_hash: formatHash(file.hex) },
        });
      }
      for (const name of policy.requiredUploadFields)
        if (!fields.has(name)) throw invalidRequest(name, `a ${name} field is required`);
      await file.commit();
      // A control: moderation that refuses flagged bytes at upload, minting nothing (the seed
      // names no operation where content_blocked is answered, W:218:96c1e20e9439).
      if (policy.blocked(moderation, file.hex) && ctx.isControl('moderation-at-upload'))
        throw new ApiError('content_blocked', 'content moderation flagged these bytes');
      // Asset rule 5: the same path and bytes as an existing output answer with that output.
      const output = policy.outputMatch(assets, account, file.hex, path);
      if (output !== undefined) return reply.code(200).send(present(output, { createdNew: false }));
      const { record, createdNew } = mint(
        account,
        { hex: file.hex, size: file.size, contentType },
        { filePath: path, tags, expiresIn: requested, fromUpload: true },
      );
      return reply.code(createdNew ? 201 : 200).send(present(record, { createdNew }));
    } finally {
      await file?.discard();
    }
  });
}
