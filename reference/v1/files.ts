// v1 uploads (seed W § v1 cloud operations; rule 1): one flat content-addressed
// namespace per account. The answered name is derived from the bytes alone, so
// `subfolder` is accepted and ignored; uploads are stored as the account's assets
// under that name, which is how LoadImage finds them in the shared engine.
import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import type { StagedBlob } from '../blobs.ts';
import type { ReferenceContext } from '../context.ts';

/** Public docs: uploads above 50 MB are refused 400. */
const V1_MAX_UPLOAD_BYTES = 50 * 1024 * 1024;

export class UploadError extends Error {}

export interface V1Form {
  fields: Map<string, string>;
  file: StagedBlob | undefined;
  fileName: string | undefined;
  fileType: string | undefined;
}

async function drain(stream: Readable): Promise<void> {
  for await (const _chunk of stream) {
    // discard
  }
}

/** Reads a v1 multipart form: the `image` file part plus text fields (last one wins). */
export async function readV1Form(request: FastifyRequest, ctx: ReferenceContext): Promise<V1Form> {
  if (!request.isMultipart()) throw new UploadError('the body must be multipart/form-data');
  const fields = new Map<string, string>();
  let file: StagedBlob | undefined;
  let fileName: string | undefined;
  let fileType: string | undefined;
  try {
    for await (const part of request.parts({ limits: { fileSize: V1_MAX_UPLOAD_BYTES } })) {
      if (part.type === 'field') {
        fields.set(part.fieldname, String(part.value));
        continue;
      }
      if (part.fieldname !== 'image' || file !== undefined) {
        await drain(part.file);
        continue;
      }
      const staged = await ctx.blobs.stage(part.file);
      if (part.file.truncated) {
        await staged.discard();
        throw new UploadError(`the image must be at most ${V1_MAX_UPLOAD_BYTES} bytes`);
      }
      file = staged;
      fileName = part.filename;
      fileType = part.mimetype;
    }
  } catch (err) {
    await file?.discard();
    throw err;
  }
  return { fields, file, fileName, fileType };
}

const PNG = [0x89, 0x50, 0x4e, 0x47];
const JPEG = [0xff, 0xd8, 0xff];

function sniff(head: Uint8Array, declared: string | undefined): { contentType: string; ext: string } {
  const starts = (sig: number[]): boolean => sig.every((b, i) => head[i] === b);
  if (starts(PNG)) return { contentType: 'image/png', ext: '.png' };
  if (starts(JPEG)) return { contentType: 'image/jpeg', ext: '.jpg' };
  if (declared === 'image/webp') return { contentType: 'image/webp', ext: '.webp' };
  return {
    contentType: declared && declared !== 'application/octet-stream' ? declared : 'application/octet-stream',
    ext: '.bin',
  };
}

export interface StoredFile {
  name: string;
  hex: string;
  contentType: string;
}

/** The account's uploaded names, for LoadImage's choices in object_info. */
export class V1Files {
  private readonly names = new Map<string, Set<string>>();

  constructor(private readonly ctx: ReferenceContext) {}

  list(account: string): string[] {
    return [...(this.names.get(account) ?? [])];
  }

  /** Commits the staged bytes and files them under their content-derived name. */
  async store(
    account: string,
    staged: StagedBlob,
    declaredType: string | undefined,
    subfolder: string,
    upload: 'image' | 'mask' = 'image',
  ): Promise<StoredFile> {
    await staged.commit();
    const head = await new Promise<Uint8Array>((resolve, reject) => {
      const chunks: Buffer[] = [];
      const s = this.ctx.blobs.read(staged.hex, 0, 7);
      s.on('data', (c: Buffer) => chunks.push(c));
      s.on('end', () => resolve(Buffer.concat(chunks)));
      s.on('error', reject);
    });
    const { contentType, ext } = sniff(head, declaredType);
    const name = `${staged.hex}${ext}`;
    // The namespace is flat: subfolder plays no part in where the bytes live.
    const key = this.ctx.policy.v1.storageKey(name, subfolder, upload);
    const now = Date.now();
    this.ctx.assets.add({
      id: randomUUID(),
      account,
      hex: staged.hex,
      size_bytes: staged.size,
      content_type: contentType,
      file_path: key,
      tags: ['input'],
      created_at: new Date(now).toISOString(),
    });
    let set = this.names.get(account);
    if (!set) {
      set = new Set();
      this.names.set(account, set);
    }
    set.add(key);
    return { name, hex: staged.hex, contentType };
  }

  /** An input file of the account by name (subfolder ignored). */
  input(account: string, name: string): { hex: string; contentType: string } | undefined {
    const rec = this.ctx.assets.findOwnedByPath(account, name);
    return rec ? { hex: rec.hex, contentType: rec.content_type } : undefined;
  }
}
