// What the explorer needs from each API family: the operations it walks, the real
// resources an operation's base request names (an uploaded asset, the scenario's model),
// valid values a schema alone does not give (a hash the account holds, a unique
// idempotency key), which operations cost money or write shared state, and what a rule
// says the answer to a request must be. Each expectation names the rule whose seed
// statement states it; a mistake no rule fixes is judged by the contract alone.
//
// Operations that cost money or write shared state are opt-in (scenario input explore_paid)
// and bounded (explore_paid_max requests each): v2 job submits, v1 prompts, router runs
// and queued submits, registry translation writes. Without it a delete or a cancel is only
// ever sent for an id that names nothing.
import fc from 'fast-check';
import type { ApiClient, ApiResponse } from '../api.ts';
import { check } from '../check.ts';
import { encodePng } from '../data/png.ts';
import type { Contract } from '../contracts/loader.ts';
import type { Family } from '../families.ts';
import type { FilePart } from '../http.ts';
import type { RunProfile } from '../profile.ts';
import type { RuleId } from '../rule-ids.ts';
import type { SurfaceTarget } from '../targets.ts';
import { SuiteError } from '../violations.ts';
import { createAsset, defaultFilePath, settledHash } from '../v2/assets.ts';
import { anyWorkflow, pollToEnd, submitJob } from '../v2/jobs.ts';
import { saveWorkflow, v1Classes } from '../v1/workflows.ts';
import { asRecord, modelRef, type ModelRef } from '../router/models.ts';
import { minimalBody, modelDocument } from '../router/schema-doc.ts';
import { asObj } from './schema.ts';
import { UUID_RE, textOf } from '../values.ts';
import type { Hints, RequestCase } from './requests.ts';
import type { Expectation, Prepared } from './run.ts';

export interface ExploreContext {
  api: ApiClient;
  target: SurfaceTarget;
  contract: Contract;
  profile: RunProfile;
  operation: string;
}

/** Operations that cost money (paid) or write shared state (writes): sent only with explore_paid. */
const COSTLY: Readonly<Record<string, 'paid' | 'writes'>> = {
  postJobs: 'paid',
  postPrompt: 'paid',
  runModel: 'paid',
  submitModelRequest: 'paid',
  CreateNodeTranslations: 'writes',
};

const NAMES = fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: 8, maxLength: 8 });

/** Whether the target opted in to paid and state-writing operations (scenario input explore_paid). */
function paidAllowed(target: SurfaceTarget): boolean {
  const v = target.scenario.explore_paid;
  return v === true || v === 'true';
}

/** Requests per paid or state-writing operation (scenario input explore_paid_max, default 20). */
function paidMax(target: SurfaceTarget): number {
  const n = Number(target.scenario.explore_paid_max);
  return Number.isFinite(n) && n >= 1 ? Math.floor(n) : 20;
}

/** A 4x4 RGB PNG whose pixels are these 48 bytes: deterministic, so a replay with the seed uploads the same file. */
export const pngOf = (pixels: Uint8Array): Buffer => encodePng(pixels, 4, 4);

const fileArb = (name: (hex: string) => string): fc.Arbitrary<FilePart> =>
  fc
    .tuple(fc.uint8Array({ minLength: 48, maxLength: 48 }), NAMES)
    .map(([px, hex]) => ({ data: pngOf(px), filename: name(hex), contentType: 'image/png' }));
const baseFileOf = (filename: string): FilePart => ({
  data: pngOf(new Uint8Array(48).fill(0x5a)),
  filename,
  contentType: 'image/png',
});

/** A valid-looking blake3 hash that no upload made. */
const randomHash = fc.stringMatching(/^[0-9a-f]{64}$/).map((h) => `blake3:${h}`);
/** Idempotency keys no other check draws (keys are shared by an account or a workspace). */
const uniqueKey = fc.uuid().map((u) => `explore-${u}`);

const isUuid = (s: string | undefined) => s !== undefined && UUID_RE.test(s);
const fourXX = (r: ApiResponse) => r.status >= 400 && r.status < 500;

function skip(client: ApiClient, why: string): Prepared {
  return { skip: why, client, runs: 0, expectations: () => [] };
}

/** Prepares one operation of a family: fixtures, hints, budget and expectations. */
export async function prepare(family: Family, ctx: ExploreContext): Promise<Prepared> {
  const spec = ctx.contract.operations.get(ctx.operation);
  if (!spec) throw new SuiteError(`explorer: ${ctx.operation} is not in ${ctx.contract.file}`);
  const client = family === 'v1' ? ctx.api.as({ apiKey: ctx.target.token ?? '' }) : ctx.api;
  if (spec.surfaces && !spec.surfaces.includes(ctx.target.surface))
    return skip(
      client,
      `${ctx.operation} is not served on the ${ctx.target.surface} surface (x-surfaces ${spec.surfaces.join(', ')})`,
    );
  const costly = COSTLY[ctx.operation];
  const paid = paidAllowed(ctx.target);
  if (costly && !paid)
    return skip(
      client,
      `${ctx.operation} ${costly === 'paid' ? 'costs money' : 'writes shared state'}: not sent unless the target sets scenario input explore_paid`,
    );
  const runs = costly ? Math.min(ctx.profile.numRuns, paidMax(ctx.target)) : ctx.profile.numRuns;
  const budgetNote = costly ? `bounded by explore_paid_max (${paidMax(ctx.target)})` : undefined;
  const ready = (p: Omit<Prepared, 'client' | 'runs'>): Prepared => ({
    client,
    runs,
    ...(costly ? { capped: true } : {}),
    ...(budgetNote ? { budgetNote } : {}),
    ...p,
  });
  switch (family) {
    case 'v2':
      return ready(await prepareV2(ctx, client, paid));
    case 'v1':
      return ready(prepareV1(ctx));
    case 'router':
      return ready(await prepareRouter(ctx, client, paid));
    case 'registry':
      return ready(prepareRegistry(ctx));
  }
}

// ---------------------------------------------------------------- v2

const ASSET_ID_OPS = ['getAsset', 'deleteAsset', 'getAssetContent'];
const JOB_ID_OPS = ['getJob', 'cancelJob', 'getJobWorkflow', 'streamJobEvents'];
/** An asset UUID that names nothing: the base of a delete the target did not opt in to. */
const NOTHING = '00000000-0000-4000-8000-00000000e0e0';

async function prepareV2(
  ctx: ExploreContext,
  api: ApiClient,
  paid: boolean,
): Promise<Omit<Prepared, 'client' | 'runs'>> {
  const op = ctx.operation;
  const uploadName = (hex: string) => defaultFilePath(api, `explore-${hex}.png`);
  const hints: Hints = {
    base: {},
    valid: {},
    file: fileArb((hex) => `explore-${hex}.png`),
    baseFile: baseFileOf('explore-base.png'),
  };
  const v = hints.valid!;
  v['header.Idempotency-Key'] = uniqueKey;
  let realAsset: string | undefined;
  let realJob: string | undefined;

  if ([...ASSET_ID_OPS, 'checkAssetByHash', 'assetFromHash'].includes(op)) {
    const { asset } = await createAsset(api);
    realAsset = asset.id;
    const hash = op === 'checkAssetByHash' || op === 'assetFromHash' ? await settledHash(api, asset) : undefined;
    if (ASSET_ID_OPS.includes(op)) {
      // A delete of the explorer's own asset is sent only with explore_paid; else only ids naming nothing.
      const own = op !== 'deleteAsset' || paid;
      hints.base['path.id'] = own ? asset.id : NOTHING;
      v['path.id'] = own
        ? fc.oneof({ weight: 2, arbitrary: fc.constant(asset.id) }, { weight: 3, arbitrary: fc.uuid() })
        : fc.uuid();
    }
    if (hash) {
      const hashes = fc.oneof({ weight: 2, arbitrary: fc.constant(hash) }, { weight: 1, arbitrary: randomHash });
      if (op === 'checkAssetByHash') {
        hints.base['path.hash'] = hash;
        v['path.hash'] = hashes;
      } else {
        hints.base.body = { hash, file_path: uploadName('from-hash') };
        v['body.hash'] = hashes;
        v['body.file_path'] = NAMES.map(uploadName);
      }
    }
  }
  if (op === 'getAssetContent')
    v['header.Range'] = fc.oneof(
      fc.tuple(fc.nat(200), fc.nat(200)).map(([a, b]) => `bytes=${Math.min(a, b)}-${Math.max(a, b)}`),
      fc.nat(100).map((n) => `bytes=-${n + 1}`),
      fc.nat(300).map((n) => `bytes=${n}-`),
      fc.string({ maxLength: 12 }),
    );
  if (op === 'postAssets') {
    hints.base.body = { content_type: 'image/png', file_path: uploadName('base') };
    v['body.file_path'] = NAMES.map(uploadName);
    v['body.content_type'] = fc.constantFrom('image/png', 'application/octet-stream', 'image/jpeg');
  }
  if (JOB_ID_OPS.includes(op)) {
    if (paid) {
      const job = await submitJob(api, { workflow: anyWorkflow(api, 8, 8, 'explore') });
      realJob = (await pollToEnd(api, job)).id;
    }
    hints.base['path.id'] = realJob ?? '00000000-0000-4000-8000-00000000b0b0';
    v['path.id'] = fc.oneof(
      ...(realJob ? [{ weight: 2, arbitrary: fc.constant(realJob) }] : []),
      { weight: 2, arbitrary: fc.uuid() },
      {
        weight: 1,
        arbitrary: fc.string({
          unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789-_'),
          minLength: 1,
          maxLength: 40,
        }),
      },
    );
    if (op === 'streamJobEvents') {
      v['header.Accept'] = fc.constantFrom('text/event-stream', '*/*');
      hints.base['header.Accept'] = 'text/event-stream';
      hints.fixed = ['header.Accept'];
    }
  }
  if (op === 'listJobs') {
    // A cursor is one the server produced (W:223:eb707c12e701 refuses others): a served one, now and then another string.
    const page = await api.call('listJobs', { query: { limit: 1 } });
    const served = page.status === 200 ? page.json<{ next_cursor?: unknown }>().next_cursor : undefined;
    v['query.cursor'] =
      typeof served === 'string'
        ? fc.oneof(
            { weight: 3, arbitrary: fc.constant(served) },
            { weight: 1, arbitrary: fc.string({ minLength: 1, maxLength: 40 }) },
          )
        : fc.string({ minLength: 1, maxLength: 40 });
    v['query.metadata'] = fc.dictionary(
      fc.stringMatching(/^[a-z][a-z0-9_]{0,7}$/),
      fc.stringMatching(/^[A-Za-z0-9]{0,12}$/),
      { maxKeys: 3 },
    );
  }
  if (op === 'postJobs') {
    const graph = fc.dictionary(
      fc.stringMatching(/^[0-9]{1,3}$/),
      fc.record({
        class_type: fc.constantFrom('EmptyImage', 'SaveImage', 'ImageInvert', 'LoadImage', 'ConformanceNoSuchNode'),
        inputs: fc.dictionary(
          fc.constantFrom('image', 'images', 'width', 'height', 'filename_prefix'),
          fc.oneof(
            fc.integer({ min: 1, max: 16 }),
            fc.string({ maxLength: 8 }),
            fc.tuple(fc.stringMatching(/^[0-9]$/), fc.constant(0)),
          ),
        ),
      }),
      { maxKeys: 4 },
    );
    hints.base.body = { workflow: anyWorkflow(api, 8, 8, 'explore') };
    v['body.workflow'] = fc.oneof(
      { weight: 1, arbitrary: fc.constant(anyWorkflow(api, 8, 8, 'explore')) },
      { weight: 2, arbitrary: graph },
    );
  }

  const expectations = (c: RequestCase): Expectation[] => {
    const out: Expectation[] = [];
    const id = c.path.id;
    if (ASSET_ID_OPS.includes(op) && id !== realAsset) {
      if (!isUuid(id))
        out.push({
          rule: 'V2.ERR.IDS_NEVER_5XX',
          ok: fourXX,
          expected: 'a 4xx refusal of an id that is not an asset UUID, never 5xx',
          sameClass: true,
        });
      else if (op === 'getAsset')
        out.push({
          rule: 'V2.ASSET.UNKNOWN_ID_404',
          ok: (r) => r.status === 404,
          expected: '404 for an asset UUID that names no asset',
        });
    }
    if (JOB_ID_OPS.includes(op) && id !== realJob) {
      // The seed shows no job operation (W:123:f9a38dca0104): a job id that names nothing is refused,
      // never 5xx; that the refusal is a 404 is the public documents' (specs/v2/asset-ids.property.spec.ts).
      out.push(
        isUuid(id)
          ? {
              rule: 'V2.ERR.IDS_NEVER_5XX',
              ok: fourXX,
              expected: 'a 4xx refusal of a well-formed job id that names no job, never 5xx',
            }
          : {
              rule: 'V2.ERR.IDS_NEVER_5XX',
              ok: fourXX,
              expected: 'a 4xx refusal of a job id the server does not issue, never 5xx',
              sameClass: true,
            },
      );
    }
    const m = c.mistake;
    if ((op === 'postAssets' || op === 'assetFromHash') && m && m.where.startsWith('body')) {
      // W:217:ae18d5395772 gives invalid_request (422) to a badly formed upload or from-hash field. The seed
      // names no field: the upload's bytes left out, the from-hash lookup key broken in any
      // way, and a body that is none are badly formed beyond doubt (the hand-written check's
      // cases); the other members are the public documents', which a server may read
      // otherwise or ignore, so there only a 5xx not in the seed's upstream_error form breaks it.
      const strict =
        m.where === 'body' ||
        (op === 'assetFromHash' && m.where === 'body.hash') ||
        (op === 'postAssets' && m.where === 'body.file' && m.kind === 'missing');
      out.push(
        strict
          ? {
              rule: 'V2.ASSET.INVALID_UPLOAD',
              ok: (r) => r.status === 422,
              expected: '422 (a badly formed field: invalid_request)',
              sameClass: true,
            }
          : {
              rule: 'V2.ASSET.INVALID_UPLOAD',
              ok: (r) => r.status < 500,
              expected: 'a refusal (422 invalid_request) or the field ignored, never a 5xx',
              toleratesUpstream: true,
              sameClass: true,
            },
      );
    }
    if (op === 'listJobs' && m?.where === 'query.limit' && (m.kind === 'type' || m.kind === 'range')) {
      out.push({
        rule: 'V2.ERR.LIST_REFUSALS',
        ok: (r) => r.status === 422,
        expected: '422 (a limit below 1 or not a whole number is refused 422 invalid_request)',
        sameClass: true,
      });
    }
    if (op === 'listJobs' && m?.where === 'query.metadata' && m.kind === 'oversized') {
      out.push({
        rule: 'V2.JOB.LIST_FILTER_LIMIT',
        ok: (r) => r.status === 400,
        expected: '400 (more than three metadata filters: invalid_metadata_filter)',
        sameClass: true,
      });
    }
    return out;
  };

  const onServerError = (c: RequestCase, res: ApiResponse) => {
    if (res.status !== 500 || res.errorCode === undefined) return; // 501 is declared; a body that is no envelope is the envelope rule's
    const what = `${op} answered 500 to ${c.mistake ? `${c.mistake.where}: ${c.mistake.note}` : 'a valid request'} (${c.label})`;
    if (res.errorCode !== 'upstream_error') {
      check('V2.ERR.UPSTREAM_GENERIC', false, {
        what,
        expected: '500 only as upstream_error (a backing-service failure), with a generic message',
        received: `500 ${res.errorCode}`,
        on: res,
      });
      return;
    }
    const message = textOf(res.json<{ error: { message?: unknown } }>().error.message ?? '');
    const leaks = /\bat [\w.<>]+ \(|Error:|Traceback|\/[\w-]+\/[\w-]+\.(ts|js|py)|node_modules|SELECT |stack/i.test(
      message,
    );
    check('V2.ERR.UPSTREAM_GENERIC', !leaks, {
      what: `the upstream_error message: ${what}`,
      expected: 'a generic message (no stack, paths or internals)',
      received: message,
      on: res,
    });
  };

  return {
    hints,
    expectations,
    onServerError,
    // 501 not_implemented: the surface has no list or stream; nothing of the request was read.
    unjudged: (res) =>
      res.status === 501 && res.errorCode === 'not_implemented' ? 'not implemented on this surface' : undefined,
    ...(op === 'streamJobEvents' ? { callOptions: { timeoutMs: 10_000 } } : {}),
  };
}

// ---------------------------------------------------------------- v1

function prepareV1(ctx: ExploreContext): Omit<Prepared, 'client' | 'runs'> {
  const op = ctx.operation;
  const hints: Hints = {
    base: {},
    valid: {},
    file: fileArb((hex) => `explore-${hex}.png`),
    baseFile: baseFileOf('explore-base.png'),
  };
  if (op === 'getJobStatus') {
    hints.base['path.prompt_id'] = '00000000-0000-4000-8000-00000000c0c0';
    hints.valid!['path.prompt_id'] = fc.oneof(
      fc.uuid(),
      fc.string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789-'), minLength: 1, maxLength: 40 }),
    );
  }
  if (op === 'viewFile') hints.base['query.filename'] = 'explore-missing.png';
  if (op === 'uploadImage') hints.base.body = { type: 'input' };
  if (op === 'uploadMask')
    hints.base.body = {
      type: 'input',
      original_ref: JSON.stringify({ filename: 'explore-base.png', subfolder: '', type: 'input' }),
    };
  if (op === 'postPrompt') hints.base.body = { prompt: saveWorkflow(v1Classes(ctx.target.scenario), 'explore') };
  // The v1 statuses and error bodies are the public documents' (W: "not shown"): the contract judges them, no rule says more.
  return { hints, expectations: () => [] };
}

// ---------------------------------------------------------------- router

const MODEL_OPS = [
  'getModel',
  'runModel',
  'estimateModel',
  'getModelSchema',
  'getSchemaSnapshot',
  'submitModelRequest',
  'getModelRequest',
  'cancelModelRequest',
  'getModelRequestStatus',
];
const BODY_OPS: Record<string, RuleId> = {
  estimateModel: 'ROUTER.ESTIMATE.VALIDATION',
  runModel: 'ROUTER.ERR.VALIDATION_LOC',
  submitModelRequest: 'ROUTER.QUEUE.VALIDATED_AT_SUBMIT',
};
const REQUEST_OPS = ['getModelRequest', 'cancelModelRequest', 'getModelRequestStatus'];

async function routerModel(ctx: ExploreContext, api: ApiClient): Promise<ModelRef> {
  const given = ctx.target.scenario.image_model;
  if (typeof given === 'string') return modelRef(given);
  const res = await api.call('listModels', { query: { limit: 1 } });
  const first = asRecord((res.json<{ data?: unknown[] }>().data ?? [])[0]);
  if (res.status !== 200 || !first || typeof first.provider !== 'string' || typeof first.model !== 'string')
    throw new SuiteError(
      `explorer: no model to explore (scenario input image_model unset, and the catalog's first page answered ${res.status})`,
    );
  return { id: `${first.provider}/${first.model}`, provider: first.provider, model: first.model };
}

async function prepareRouter(
  ctx: ExploreContext,
  api: ApiClient,
  paid: boolean,
): Promise<Omit<Prepared, 'client' | 'runs'>> {
  const op = ctx.operation;
  const hints: Hints = {
    base: {},
    valid: {},
    file: fileArb((hex) => `explore-${hex}.png`),
    baseFile: baseFileOf('explore-base.png'),
  };
  const v = hints.valid!;
  v['header.Idempotency-Key'] = uniqueKey;
  if (op === 'listModels') {
    // Cursors come from the server and clients send them back as given (R:25:8ca9c6fc742c): mostly one the catalog served, now and then another string.
    const page = await api.call('listModels', { query: { limit: 1 } });
    const served = page.status === 200 ? page.json<{ next_cursor?: unknown }>().next_cursor : undefined;
    if (typeof served === 'string')
      v['query.cursor'] = fc.oneof(
        { weight: 3, arbitrary: fc.constant(served) },
        { weight: 1, arbitrary: fc.string({ minLength: 1, maxLength: 40 }) },
      );
  }
  if (!MODEL_OPS.includes(op)) return { hints, expectations: () => [] };
  const m = await routerModel(ctx, api);
  hints.base['path.provider'] = m.provider;
  hints.base['path.model'] = m.model;
  const segment = (real: string) =>
    fc.oneof(
      { weight: 3, arbitrary: fc.constant(real) },
      {
        weight: 1,
        arbitrary: fc
          .stringMatching(/^[a-z0-9]+([._-][a-z0-9]+)*$/, { maxLength: 40 })
          .filter((s) => s.length > 0 && s.length <= 64),
      },
    );
  v['path.provider'] = segment(m.provider);
  v['path.model'] = segment(m.model);
  const known =
    (asObj(asObj(asObj(asObj(asObj(ctx.contract.document.components)?.parameters)?.ModelProvider)?.schema))?.[
      'x-known-values'
    ] as string[] | undefined) ?? [];
  v['query.model_provider'] = fc.oneof(
    fc.constantFrom(...(known.length ? known : ['default'])),
    fc.stringMatching(/^[a-z]{3,10}$/).map((s) => `conformance-${s}`),
  );

  let authored = false;
  if (op in BODY_OPS) {
    const doc = await modelDocument(api, m);
    authored = doc.authored === true && doc.input !== undefined;
    const scenarioBody = asRecord(ctx.target.scenario.image_body);
    const isImageModel = ctx.target.scenario.image_model === m.id;
    if (authored) {
      hints.bodySchema = doc.input;
      hints.bodyDoc = doc.raw;
      // In JSON Schema 2020-12 a format is an annotation: a router may run such a value (R § Validation).
      hints.bodyFormats = false;
    }
    hints.base.body = isImageModel && scenarioBody ? structuredClone(scenarioBody) : minimalBody(doc.input);
    const pin = asObj(asObj(doc.input)?.properties)?.model !== undefined;
    if (pin)
      hints.finishBody = (body, mistake) =>
        mistake?.where === 'body.model' || !asObj(body) || typeof (body as Record<string, unknown>).model !== 'string'
          ? body
          : { ...(body as Record<string, unknown>), model: m.model };
  }
  let realRequest: string | undefined;
  if (REQUEST_OPS.includes(op)) {
    if (paid) {
      const res = await api.call('submitModelRequest', {
        path: { provider: m.provider, model: m.model },
        json: hints.base.body ?? asRecord(ctx.target.scenario.image_body) ?? {},
      });
      realRequest = res.status === 201 ? String(res.json<{ request_id?: unknown }>().request_id) : undefined;
    }
    hints.base['path.request_id'] = realRequest ?? '00000000-0000-4000-8000-00000000d0d0';
    v['path.request_id'] = fc.oneof(...(realRequest ? [{ weight: 1, arbitrary: fc.constant(realRequest) }] : []), {
      weight: 2,
      arbitrary: fc.uuid().map((u) => u.toLowerCase()),
    });
  }

  const expectations = (c: RequestCase): Expectation[] => {
    const out: Expectation[] = [];
    const realModel = c.path.provider === m.provider && c.path.model === m.model;
    const mistake = c.mistake;
    const rule = BODY_OPS[op];
    // Only a mistake the schema itself rejects: an oversized string where the schema states no
    // maxLength (an inexact mistake) is a value the schema accepts, which the router may run.
    if (
      rule &&
      authored &&
      realModel &&
      mistake &&
      mistake.exact &&
      mistake.where.startsWith('body.') &&
      Object.keys(c.query).length === 0
    ) {
      // R § Validation error body: a body the model's schema refuses is a 422 (the estimate: the
      // same 422 as the run, or 403 not_enabled while it rolls out).
      out.push({
        rule,
        ok: (r) => r.status === 422 || (op === 'estimateModel' && r.status === 403),
        expected: op === 'estimateModel' ? '422 (or 403 not_enabled while the estimate rolls out)' : '422',
        sameClass: true,
      });
    }
    if (rule && realModel && mistake?.where === 'body' && mistake.kind === 'type') {
      out.push({
        rule: 'ROUTER.ERR.NON_OBJECT_BODY',
        ok: (r) => r.status === 422 || (op === 'estimateModel' && r.status === 403),
        expected: '422 for a JSON body that is not an object',
      });
    }
    const provider = c.query.model_provider;
    if (rule && realModel && !mistake && provider !== undefined && !known.includes(provider)) {
      out.push({
        rule: 'ROUTER.PROVIDER.UNREGISTERED',
        ok: (r) => r.status === 400,
        expected: '400 invalid_input for a model_provider that is no registered provider',
      });
    }
    if (REQUEST_OPS.includes(op) && realModel && c.path.request_id !== realRequest && isUuid(c.path.request_id)) {
      out.push({
        rule: 'ROUTER.QUEUE.UNKNOWN_404',
        ok: (r) => r.status === 404,
        expected: '404 for a queued request ID that does not exist',
      });
    }
    return out;
  };
  return { hints, expectations };
}

// ---------------------------------------------------------------- registry

function prepareRegistry(ctx: ExploreContext): Omit<Prepared, 'client' | 'runs'> {
  const node = ctx.target.scenario.node_id;
  if (typeof node !== 'string' || node === '')
    return {
      skip: 'the target gave no node translations may be attached to (scenario input node_id)',
      expectations: () => [],
    };
  const hints: Hints = {
    base: { 'path.nodeId': node, body: { data: { de: { name: 'conformance explorer' } } } },
    valid: {},
    file: fileArb((hex) => hex),
    baseFile: baseFileOf('unused'),
  };
  hints.valid!['path.nodeId'] = fc.oneof(
    { weight: 3, arbitrary: fc.constant(node) },
    {
      weight: 1,
      arbitrary: fc
        .string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789-_.'), minLength: 1, maxLength: 40 })
        .filter((s) => s !== '.' && s !== '..'),
    },
  );
  const expectations = (c: RequestCase): Expectation[] => {
    const out: Expectation[] = [];
    const m = c.mistake;
    // W: the body is an object with data (object); refused otherwise (REGISTRY.BODY.DATA).
    if (m && (m.where === 'body' || (m.where === 'body.data' && (m.kind === 'missing' || m.kind === 'type')))) {
      out.push({
        rule: 'REGISTRY.BODY.DATA',
        ok: fourXX,
        expected: 'a 4xx refusal of a body without data as an object',
        sameClass: true,
      });
    }
    if (c.path.nodeId !== node)
      out.push({
        rule: 'REGISTRY.NODE.ID_NO_5XX',
        ok: (r) => r.status < 500,
        expected: 'a success or a refusal, never a 5xx, for any node id',
      });
    return out;
  };
  return { hints, expectations };
}
