// POST /api/upload/image and /api/upload/mask: multipart uploads into the flat namespace.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ReferenceContext } from '../../context.ts';
import { v1Account } from '../auth.ts';
import { sendV1Error } from '../errors.ts';
import { readV1Form, UploadError, type V1Form } from '../files.ts';
import { isPlainObject } from '../../../lib/values.ts';
import type { V1RouteKit } from './kit.ts';

/** The form of an upload, or undefined once the refusal of a form without its file is sent. */
async function readForm(
  ctx: ReferenceContext,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<V1Form | undefined> {
  try {
    const form = await readV1Form(request, ctx);
    if (!form.file) {
      sendV1Error(reply, 400, 'invalid_request', 'the form has no "image" file part');
      return undefined;
    }
    return form;
  } catch (err) {
    if (err instanceof UploadError) {
      sendV1Error(reply, 400, 'invalid_request', err.message);
      return undefined;
    }
    throw err;
  }
}

export function registerUploadRoutes(app: FastifyInstance, kit: V1RouteKit): void {
  const { ctx, policy, files, auth, emptyRefusals } = kit;
  app.post('/api/upload/image', { onRequest: auth, onSend: emptyRefusals }, async (request, reply) => {
    const form = await readForm(ctx, request, reply);
    if (!form?.file) return reply;
    const subfolder = form.fields.get('subfolder') ?? '';
    const stored = await files.store(v1Account(request), form.file, form.fileType, subfolder);
    const type = form.fields.get('type') ?? 'input';
    // subfolder is echoed (public docs) but plays no part in where the bytes live.
    return reply.send({ name: stored.name, subfolder, type });
  });

  app.post('/api/upload/mask', { onRequest: auth, onSend: emptyRefusals }, async (request, reply) => {
    const form = await readForm(ctx, request, reply);
    if (!form?.file) return reply;
    const account = v1Account(request);
    const rawRef = form.fields.get('original_ref');
    let ref: unknown;
    try {
      ref = rawRef === undefined ? undefined : policy.parseOriginalRef(rawRef);
    } catch {
      ref = undefined;
    }
    const refName = isPlainObject(ref) && typeof ref.filename === 'string' ? ref.filename : undefined;
    if (refName === undefined) {
      await form.file.discard();
      return sendV1Error(
        reply,
        400,
        'invalid_request',
        'original_ref must be a JSON-encoded object with filename, subfolder and type',
      );
    }
    const original = files.input(account, refName);
    if (!original) {
      await form.file.discard();
      return sendV1Error(reply, 400, 'invalid_request', `original_ref names an unknown image "${refName}"`);
    }
    const subfolder = form.fields.get('subfolder') ?? '';
    const stored = await files.store(account, form.file, form.fileType, subfolder, 'mask');
    return reply.send({
      name: stored.name,
      subfolder,
      type: form.fields.get('type') ?? 'input',
      metadata: {
        is_mask: true,
        original_hash: original.hex,
        mask_type: 'painted_masked',
        related_files: { mask: stored.name },
      },
    });
  });
}
