// The deprecated v1 cloud operations on the cloud surface (seed W § v1 cloud
// operations): object_info from the engine's catalog, flat-namespace uploads, prompt
// submission into the same engine the v2 jobs use, the v1 status vocabulary, and
// /api/view redirecting to a signed storage URL that needs no key.
import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ReferenceContext } from '../context.ts';
import type { ApiWorkflow, Refusal } from '../engine/types.ts';
import { serveBlob } from '../serve-blob.ts';
import { accountForKey, v1Account, v1Authenticate } from './auth.ts';
import { promptError, sendV1Error, type PromptError } from './errors.ts';
import { readV1Form, UploadError, V1Files, type V1Form } from './files.ts';
import { v1Status, type V1Jobs } from './jobs.ts';
import { hiddenClassNodes, inwardPrompt, outwardClass } from './class-names.ts';
import { withCachedWorkInstant } from './cache.ts';
import { isPlainObject } from '../../lib/values.ts';

function iso(ms: number | null): string | null {
  return ms === null ? null : new Date(ms).toISOString();
}

/** ComfyUI's native refusal: a top-level error plus node_errors keyed by node id. */
function refusalBody(refusal: Refusal, classOut: (cls: string) => string = (c) => c): { error: PromptError; node_errors: Record<string, unknown> } {
  const nodeErrors: Record<string, unknown> = {};
  for (const [id, entry] of Object.entries(refusal.details?.node_errors ?? {})) {
    nodeErrors[id] = {
      errors: entry.errors.map((e) => ({ type: e.type, message: e.message, details: e.details ?? '', extra_info: {} })),
      dependent_outputs: [],
      class_type: classOut(entry.class_type),
    };
  }
  const type = refusal.details?.node_errors ? 'prompt_outputs_failed_validation' : refusal.code === 'workflow_format_ui' ? 'invalid_prompt' : refusal.code;
  return { error: promptError(type, refusal.message), node_errors: nodeErrors };
}

export function registerV1Routes(app: FastifyInstance, ctx: ReferenceContext, jobs: V1Jobs): void {
  const { engine, assets, signer } = ctx;
  const policy = ctx.policy.v1;
  const files = new V1Files(ctx);
  const auth = v1Authenticate();
  let number = 0;

  // The real engine answers some refusals of its file routes with no body at all (seed W: v1 error bodies not shown).
  const emptyRefusals = async (_request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> => {
    if (reply.statusCode < 400 || !ctx.isControl('v1-empty-error-bodies')) return payload;
    reply.removeHeader('content-type');
    reply.header('content-length', '0');
    return '';
  };

  // A control: the node catalog answers callers without a key too (the seed does not say this
  // operation needs one; a local-engine-compatible route often does not), with no input files.
  const openInfo = ctx.isControl('v1-object-info-open');
  const renamed = ctx.isControl('v1-renamed-classes');
  const keyless = (request: FastifyRequest): boolean => openInfo && request.headers['x-api-key'] === undefined;
  app.get('/api/object_info', { onRequest: async (request, reply) => (keyless(request) ? undefined : auth(request, reply)) }, async (request, reply) => {
    let info: Record<string, unknown> = engine.catalog.objectInfo({ inputFiles: keyless(request) ? [] : files.list(v1Account(request)) });
    // A control: an engine whose core classes have names of its own.
    if (renamed) info = Object.fromEntries(Object.entries(info).map(([cls, node]) => [outwardClass(cls), { ...(node as object), name: outwardClass(cls) }]));
    // The real engine gives display_name null for many core classes.
    if (ctx.isControl('v1-null-display-names')) {
      Object.keys(info)
        .sort()
        .forEach((name, i) => {
          if (i % 2 === 0) (info[name] as { display_name: string | null }).display_name = null;
        });
    }
    return reply.send(info);
  });

  const readForm = async (request: FastifyRequest, reply: FastifyReply): Promise<V1Form | undefined> => {
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
  };

  app.post('/api/upload/image', { onRequest: auth, onSend: emptyRefusals }, async (request, reply) => {
    const form = await readForm(request, reply);
    if (!form?.file) return reply;
    const subfolder = form.fields.get('subfolder') ?? '';
    const stored = await files.store(v1Account(request), form.file, form.fileType, subfolder);
    const type = form.fields.get('type') ?? 'input';
    // subfolder is echoed (public docs) but plays no part in where the bytes live.
    return reply.send({ name: stored.name, subfolder, type });
  });

  app.post('/api/upload/mask', { onRequest: auth, onSend: emptyRefusals }, async (request, reply) => {
    const form = await readForm(request, reply);
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
      return sendV1Error(reply, 400, 'invalid_request', 'original_ref must be a JSON-encoded object with filename, subfolder and type');
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
      metadata: { is_mask: true, original_hash: original.hex, mask_type: 'painted_masked', related_files: { mask: stored.name } },
    });
  });

  app.post('/api/prompt', { onRequest: auth }, async (request, reply) => {
    const account = v1Account(request);
    const body = request.body;
    // A refused prompt may be answered 200 with `error` (seed W § v1, rule 5), never without it.
    const refuse = (status: number, payload: { error: PromptError; node_errors: Record<string, unknown> }): FastifyReply => reply.code(status).send(payload);
    if (!isPlainObject(body) || !isPlainObject(body.prompt)) {
      return refuse(400, { error: promptError('invalid_prompt', 'the body must be a JSON object whose "prompt" is an object keyed by node id'), node_errors: {} });
    }
    const extraData = body.extra_data;
    if (extraData !== undefined && !isPlainObject(extraData)) {
      return refuse(400, { error: promptError('invalid_prompt', 'extra_data must be an object'), node_errors: {} });
    }
    // A control: the subscription is enforced when the job would run, not at submit (the seed
    // says running needs one, W:127:032fbcb7b0a5, not where): accepted, then the job fails.
    const failsLater = policy.promptTraits(account).noCredits && ctx.isControl('v1-subscription-fails-later');
    if (policy.promptTraits(account).noCredits && !failsLater) {
      return refuse(402, { error: promptError('insufficient_credits', 'the account has no credits left'), node_errors: {} });
    }
    // Under the v1-renamed-classes control the public names are unknown classes here, and the engine's own names run.
    const hidden = renamed ? hiddenClassNodes(body.prompt as ApiWorkflow) : [];
    if (hidden.length > 0) {
      const nodeErrors = Object.fromEntries(hidden.map(([id, cls]) => [id, { errors: [{ type: 'unknown_node_class', message: `Node class ${cls} does not exist on this server.`, details: '', extra_info: {} }], dependent_outputs: [], class_type: cls }]));
      return refuse(400, { error: promptError('prompt_outputs_failed_validation', `Prompt outputs failed validation: node class ${hidden.map(([, c]) => c).join(', ')} does not exist on this server.`), node_errors: nodeErrors });
    }
    const submitted = body.prompt as ApiWorkflow;
    const prompt = renamed ? inwardPrompt(submitted) : submitted;
    const refusal = engine.validate(prompt, account);
    if (refusal) return refuse(400, refusalBody(refusal, renamed ? outwardClass : undefined));

    const partnerNodes = Object.entries(prompt).filter(([, node]) => engine.catalog.get(node.class_type)?.apiNode === true);
    if (partnerNodes.length > 0) {
      const field = policy.partnerKeyField;
      const key = extraData?.[field];
      if (typeof key !== 'string' || accountForKey(key) !== account) {
        const why = typeof key === 'string' ? `extra_data.${field} is not an API key of this account` : `extra_data.${field} is missing`;
        return refuse(200, { error: promptError('missing_partner_key', `partner node(s) ${partnerNodes.map(([id]) => id).join(', ')} need the caller's API key: ${why}`), node_errors: {} });
      }
    }
    const busy = policy.busyRefusal(engine, account);
    if (busy) return refuse(busy.status, { error: busy.error, node_errors: {} });

    const id = randomUUID();
    const clientId = typeof extraData?.client_id === 'string' ? extraData.client_id : undefined;
    jobs.add({ id, account, workflow: submitted, clientId, createdAt: Date.now() });
    // Under the control above, what runs is a node that fails naming the missing subscription.
    let runs: ApiWorkflow = failsLater ? { '1': { class_type: 'FailNode', inputs: { message: 'running workflows needs an active subscription' } } } : prompt;
    // A control: work the account already ran (the same node, the same inputs through every link) finishes at once from the cache.
    if (ctx.isControl('engine-cached-work-instant')) runs = withCachedWorkInstant(runs, new Set(jobs.cache.cachedNodes(account, prompt)));
    engine.submit({ id, account, workflow: runs, ...(extraData ? { extraData } : {}) });
    return reply.send({ prompt_id: id, number: number++, node_errors: {} });
  });

  // The engine's own interrupt of one running prompt (seed W shows no cancel for v1 prompts; a
  // target names its operation in scenario input prompt_interrupt). The run ends cancelled,
  // its stream with execution_interrupted.
  app.post('/api/interrupt', { onRequest: auth }, async (request, reply) => {
    const account = v1Account(request);
    const body = request.body as { prompt_id?: unknown } | undefined;
    const id = typeof body?.prompt_id === 'string' ? body.prompt_id : undefined;
    if (id === undefined) return sendV1Error(reply, 400, 'invalid_request', 'prompt_id names the prompt to interrupt');
    const job = jobs.get(id);
    if (!job || !engine.get(job.id)) return sendV1Error(reply, 404, 'not_found', 'job not found');
    if (job.account !== account) return sendV1Error(reply, 403, 'forbidden', 'the job belongs to another user');
    engine.cancel(job.id);
    return reply.code(200).send({});
  });

  app.get<{ Params: { id: string } }>('/api/job/:id/status', { onRequest: auth }, async (request, reply) => {
    const account = v1Account(request);
    const job = jobs.get(request.params.id);
    const state = job ? engine.get(job.id) : undefined;
    if (!job || !state) return sendV1Error(reply, 404, 'not_found', 'job not found');
    if (job.account !== account) return sendV1Error(reply, 403, 'forbidden', "the job belongs to another user");
    const updated = state.completedAt ?? state.startedAt ?? state.createdAt;
    return reply.code(200).send({
      id: job.id,
      status: v1Status(state, account, ctx.isControl('v1-second-vocabulary-only')),
      created_at: iso(state.createdAt),
      updated_at: iso(updated),
      last_state_update: iso(updated),
      assigned_inference: null,
      error_message: state.failure ? state.failure.exception_message : null,
    });
  });

  app.get<{ Querystring: Record<string, string | undefined> }>('/api/view', { onRequest: auth, onSend: emptyRefusals }, async (request, reply) => {
    const account = v1Account(request);
    const { filename } = request.query;
    const type = request.query.type ?? 'output';
    if (typeof filename !== 'string' || filename === '') return sendV1Error(reply, 400, 'invalid_request', 'filename is required');
    if (!['output', 'temp', 'input'].includes(type)) return sendV1Error(reply, 400, 'invalid_request', 'type must be output, temp or input');
    // The namespace is flat: subfolder is ignored, only the name and its kind count.
    const rec = assets.findOwnedByPath(account, type === 'input' ? filename : `${type}/${filename}`);
    if (!rec) return sendV1Error(reply, 404, 'not_found', `no ${type} file named "${filename}"`);
    if (!policy.viewRedirects) return serveBlob(request, reply, ctx.blobs, { hex: rec.hex, size: rec.size_bytes, contentType: rec.content_type });
    return reply.code(302).header('location', signer.sign(rec.hex, rec.content_type).url).send();
  });
}
