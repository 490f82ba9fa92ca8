import type { FastifyRequest } from 'fastify';
import type { Readable } from 'node:stream';
import type { BlobStore, StagedBlob } from '../blobs.ts';
import { invalidRequest } from '../errors.ts';

export const MAX_UPLOAD_BYTES = 100 * 1024 * 1024;

export interface RawUpload {
  /** Text parts by field name, in arrival order (tags may repeat). */
  fields: Map<string, unknown[]>;
  file: StagedBlob | undefined;
}

async function drain(stream: Readable): Promise<void> {
  for await (const _chunk of stream) {
    // discard
  }
}

// Parts may arrive in any order, so the file is staged to disk while the
// metadata is collected, and only validated once the whole form is read.
export async function readUpload(request: FastifyRequest, blobs: BlobStore): Promise<RawUpload> {
  if (!request.isMultipart()) throw invalidRequest('body', 'must be multipart/form-data');
  const fields = new Map<string, unknown[]>();
  let file: StagedBlob | undefined;
  try {
    for await (const part of request.parts({ limits: { fileSize: MAX_UPLOAD_BYTES } })) {
      if (part.type === 'field') {
        const list = fields.get(part.fieldname) ?? [];
        list.push(part.value);
        fields.set(part.fieldname, list);
        continue;
      }
      if (part.fieldname !== 'file') {
        await drain(part.file);
        continue;
      }
      if (file !== undefined) {
        await drain(part.file);
        throw invalidRequest('file', 'only one file part is allowed');
      }
      const staged = await blobs.stage(part.file);
      if (part.file.truncated) {
        await staged.discard();
        throw invalidRequest('file', `must be at most ${MAX_UPLOAD_BYTES} bytes`);
      }
      file = staged;
    }
  } catch (err) {
    await file?.discard();
    throw err;
  }
  return { fields, file };
}
