import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { formatHash, parseHash } from '../blobs.ts';
import type { ReferenceContext } from '../context.ts';
import { ApiError, invalidRequest, notFound, upstreamError } from '../errors.ts';
import type { Guard } from '../guard.ts';
import { serveBlob } from '../serve-blob.ts';
import type { AssetRecord } from './asset-store.ts';
import { blobHash, expiresIn, filePath, mediaType, tag } from './fields.ts';
import { readUpload } from './upload.ts';
import { Moderation } from './moderation.ts';
import { accountTraits } from './account-traits.ts';
import { contentLocation } from './variations.ts';
import { UUID_RE, isPlainObject } from '../../lib/values.ts';

/** What differs between surfaces serving the same asset contract. */
export interface AssetSurface {
  /** Hosted surfaces hand out signed storage URLs and redirect content reads to them. */
  readonly signedUrls: boolean;
  /** Whether retention deadlines apply; where they do not, expires_in is ignored. */
  readonly retention: boolean;
  /** This surface's own base URL, used for content-endpoint URLs. */
  baseUrl(): string;
}

const DEFAULT_RETENTION_SECONDS = 86_400;
const PROXY_URL_LIFETIME_MS = 3_600_000;
/** The one url_expires_at of every proxy url under the proxy-constant-url-expiry control. */
const PROXY_CONSTANT_EXPIRY_MS = Date.parse('9999-12-31T23:59:59.000Z');

interface Minted {
  record: AssetRecord;
  createdNew: boolean;
}

interface BlobFacts {
  hex: string;
  size: number;
  contentType: string;
}

function single(fields: Map<string, unknown[]>, name: string): unknown {
  const values = fields.get(name);
  if (values === undefined) return undefined;
  if (values.length > 1) throw invalidRequest(name, 'must be sent once');
  return values[0];
}

/** The folders the placement-roots-only control allows (the reference's own outputs live under output/). */
const PLACEMENT_ROOTS = ['input', 'output', 'models'];

export function registerAssetRoutes(app: FastifyInstance, ctx: ReferenceContext, guard: Guard, surface: AssetSurface): void {
  const { assets, blobs, signer } = ctx;
  const policy = ctx.policy.v2;
  // The placement-roots-only control (a legal variation: a proxy that allowlists its roots)
  // is read here because an upload's file_path arrives in a multipart body only this route
  // reads, so no hook sees it before the asset is minted.
  const placed = (path: string | null): string | null => {
    const root = path?.includes('/') ? path.split('/')[0] : undefined;
    if (ctx.isControl('placement-roots-only') && root !== undefined && !PLACEMENT_ROOTS.includes(root)) {
      throw invalidRequest('file_path', `'${root}' is not an allowlisted placement root (allowed: ${PLACEMENT_ROOTS.join(', ')})`);
    }
    return path;
  };
  const moderation = new Moderation(blobs);

  // Two controls read here, where a url is made: a signer that rounds its expiries up to the
  // whole minute (the same url for a minute), and a proxy whose url carries a constant expiry
  // (it has no signed URLs, seed W:79:36c2db9881b8).
  const minuteSigner = ctx.isControl('signed-url-minute-expiry');
  const constantProxyExpiry = ctx.isControl('proxy-constant-url-expiry');
  const presentUrl = (rec: Pick<AssetRecord, 'id' | 'hex' | 'content_type'>, nowMs: number): { url: string; expiresAtMs: number } =>
    surface.signedUrls
      ? signer.sign(rec.hex, rec.content_type, minuteSigner ? Math.ceil(nowMs / 60_000) * 60_000 : nowMs)
      : { url: `${surface.baseUrl()}/api/v2/assets/${rec.id}/content`, expiresAtMs: constantProxyExpiry ? PROXY_CONSTANT_EXPIRY_MS : nowMs + PROXY_URL_LIFETIME_MS };

  // Re-referencing content may only push the deadline later, never earlier.
  const retain = (account: string, hex: string, requestedSeconds: number | undefined, createdNew: boolean, nowMs: number): void => {
    if (!surface.retention) return;
    const wanted = nowMs + (requestedSeconds ?? DEFAULT_RETENTION_SECONDS) * 1000;
    const existing = createdNew ? undefined : assets.deadline(account, hex);
    const next = existing === undefined ? wanted : policy.extendRetention(existing, wanted);
    assets.setDeadline(account, hex, next);
  };

  const mint = (
    account: string,
    blob: BlobFacts,
    meta: { filePath: string | null; tags: string[]; expiresIn: number | undefined; fromUpload: boolean },
  ): Minted => {
    const nowMs = Date.now();
    const createdNew = !assets.holds(account, blob.hex);
    retain(account, blob.hex, meta.expiresIn, createdNew, nowMs);
    const id = randomUUID();
    const base = {
      id,
      account,
      hex: blob.hex,
      size_bytes: blob.size,
      content_type: blob.contentType,
      file_path: meta.filePath,
      tags: meta.tags,
      created_at: new Date(nowMs).toISOString(),
    };
    const record: AssetRecord = base;
    assets.add(record);
    return { record, createdNew };
  };

  const present = (rec: AssetRecord, opts: { createdNew?: boolean } = {}): Record<string, unknown> => {
    const { createdNew } = opts;
    const link = presentUrl(rec, Date.now());
    let expiresAt: string | null = null;
    if (surface.retention) {
      const deadline = assets.deadline(rec.account, rec.hex);
      expiresAt = deadline === undefined ? null : new Date(deadline).toISOString();
    }
    const body: Record<string, unknown> = {
      id: rec.id,
      hash: formatHash(rec.hex),
      size_bytes: rec.size_bytes,
      content_type: rec.content_type,
      file_path: rec.file_path,
    };
    if (createdNew !== undefined) body.created_new = createdNew;
    // A control: the Asset table makes file_path and created_new optional (W:40, W:41); a server
    // may send neither for an upload. (An output's file_path is left: it is the only way a client
    // learns the path an output match, W:54, needs.)
    if (ctx.isControl('asset-optional-members-absent') && rec.job_id === undefined) {
      delete body.file_path;
      delete body.created_new;
    }
    body.created_at = rec.created_at;
    body.url = link.url;
    body.url_expires_at = new Date(link.expiresAtMs).toISOString();
    body.expires_at = expiresAt;
    body.tags = [...rec.tags];
    if (rec.job_id !== undefined) {
      body.job_id = rec.job_id;
      // Read through the job on every read: absent when the job had no labels or is gone.
      const labels = ctx.jobs.get(rec.job_id)?.labels;
      if (labels !== undefined) body.job_metadata = { ...labels };
    }
    return body;
  };

  /** The caller's live asset, or a 404 that does not reveal whether someone else owns it. */
  const ownAsset = (account: string | undefined, id: string, readable = (rec: AssetRecord) => rec.account === account): AssetRecord => {
    const rec = UUID_RE.test(id) ? assets.get(id) : undefined;
    if (rec === undefined) throw notFound('asset');
    if (!readable(rec)) {
      // A control: another account's asset refused 403 forbidden (authenticated but not
      // allowed, seed W:213:a4a409f683dc), which the seed lists beside the 404.
      if (ctx.isControl('owner-scope-forbidden')) throw new ApiError('forbidden', 'this asset belongs to another account');
      throw notFound('asset');
    }
    if (policy.blocked(moderation, rec.hex)) throw new ApiError('content_blocked', 'content moderation flagged these bytes');
    return rec;
  };

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
      const requested = rawExpires === undefined || !surface.retention ? undefined : expiresIn(rawExpires, 'expires_in');
      // "Every operation can fail this way" (seed W § Errors, upstream_error): the scenario
      // account whose backing services are down fails its uploads too.
      if (accountTraits(account).upstreamFailure) throw upstreamError();
      if (file === undefined) throw invalidRequest('file', 'a file part is required');
      if (expectedHex !== undefined && !policy.hashMatches(expectedHex, file.hex)) {
        throw new ApiError('hash_mismatch', 'expected_hash does not match the uploaded bytes', {
          details: { expected_hash: formatHash(expectedHex), computed_hash: formatHash(file.hex) },
        });
      }
      for (const name of policy.requiredUploadFields) if (!fields.has(name)) throw invalidRequest(name, `a ${name} field is required`);
      await file.commit();
      // A control: moderation that refuses flagged bytes at upload, minting nothing (the seed
      // names no operation where content_blocked is answered, W:218:96c1e20e9439).
      if (ctx.isControl('moderation-at-upload') && policy.blocked(moderation, file.hex)) throw new ApiError('content_blocked', 'content moderation flagged these bytes');
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

  app.post('/api/v2/assets/from-hash', { onRequest: guard.admit }, async (request, reply) => {
    const account = guard.requireAccount(request);
    const body: unknown = request.body;
    if (!isPlainObject(body)) throw invalidRequest('body', 'must be a JSON object');
    const hex = blobHash(body.hash, 'hash');
    const path = body.file_path === undefined || body.file_path === null ? null : placed(filePath(body.file_path, 'file_path'));
    if (body.tags !== undefined && !Array.isArray(body.tags)) throw invalidRequest('tags', 'must be an array of strings');
    const tags = ((body.tags as unknown[] | undefined) ?? []).map((t) => tag(t, 'tags'));
    const requested = body.expires_in === undefined || !surface.retention ? undefined : expiresIn(body.expires_in, 'expires_in');

    // Another account's blob is indistinguishable from no blob at all.
    if (!policy.heldForFromHash(assets, account, hex)) throw new ApiError('blob_not_found', 'no blob with that hash is available to this account');
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

  app.head<{ Params: { hash: string } }>('/api/v2/assets/by-hash/:hash', { onRequest: guard.admit }, async (request, reply) => {
    const account = guard.requireAccount(request);
    const hex = parseHash(request.params.hash);
    const found = hex !== undefined && policy.heldForByHash(assets, account, hex);
    return reply.code(found ? 200 : 404).send();
  });

  // The rate limit applies to unknown and foreign ids too, so it is charged before the lookup.
  const chargeFirst = policy.rateLimitBeforeLookup;
  app.get<{ Params: { id: string } }>('/api/v2/assets/:id', { onRequest: chargeFirst ? guard.admit : guard.authenticate }, async (request, reply) => {
    const account = guard.requireAccount(request);
    // The scenario account whose backing services are down fails its asset reads too.
    if (accountTraits(account).upstreamFailure) throw upstreamError();
    const rec = ownAsset(account, request.params.id, (r) => policy.assetReadable(r, account));
    if (!chargeFirst) guard.charge(request);
    return reply.send(present(rec));
  });

  app.get<{ Params: { id: string } }>(
    '/api/v2/assets/:id/content',
    { onRequest: guard.admit },
    async (request, reply) => {
      const rec = ownAsset(guard.requireAccount(request), request.params.id);
      if (policy.redirectContent(surface.signedUrls)) {
        return reply.code(302).header('Location', contentLocation(ctx, signer.sign(rec.hex, rec.content_type).url, `${request.protocol}://${request.headers.host ?? ''}`)).send();
      }
      return serveBlob(request, reply, blobs, { hex: rec.hex, size: rec.size_bytes, contentType: rec.content_type });
    },
  );

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
