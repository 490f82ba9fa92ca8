import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
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

/** What differs between surfaces serving the same asset contract. */
export interface AssetPolicy {
  /** Hosted surfaces hand out signed storage URLs and redirect content reads to them. */
  readonly signedUrls: boolean;
  /** The self-hosted proxy as configured with its static bearer token. */
  readonly tokenProtected?: boolean;
  /** Whether retention deadlines apply; where they do not, expires_in is ignored. */
  readonly retention: boolean;
  /** This surface's own base URL, used for content-endpoint URLs. */
  baseUrl(): string;
}

const DEFAULT_RETENTION_SECONDS = 86_400;
const PROXY_URL_LIFETIME_MS = 3_600_000;
const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

interface Minted {
  record: AssetRecord;
  createdNew: boolean;
}

interface BlobFacts {
  hex: string;
  size: number;
  contentType: string;
  sha256Hex: string;
}

function single(fields: Map<string, unknown[]>, name: string): unknown {
  const values = fields.get(name);
  if (values === undefined) return undefined;
  if (values.length > 1) throw invalidRequest(name, 'must be sent once');
  return values[0];
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The folders the placement-roots-only control allows (the reference's own outputs live under output/). */
const PLACEMENT_ROOTS = ['input', 'output', 'models'];
/** How long a fresh asset reads hash null under the lazy-hash control. */
const LAZY_HASH_MS = 1_000;

export function registerAssetRoutes(app: FastifyInstance, ctx: ReferenceContext, guard: Guard, policy: AssetPolicy): void {
  const { isFault, assets, blobs, signer } = ctx;
  // placement-roots-only: placement paths in root form only, as a proxy that allowlists its roots.
  const placed = (path: string | null): string | null => {
    const root = path?.includes('/') ? path.split('/')[0]! : undefined;
    if (ctx.control === 'placement-roots-only' && root !== undefined && !PLACEMENT_ROOTS.includes(root)) {
      throw invalidRequest('file_path', `'${root}' is not an allowlisted placement root (allowed: ${PLACEMENT_ROOTS.join(', ')})`);
    }
    return path;
  };
  const moderation = new Moderation(blobs);

  const presentUrl = (rec: Pick<AssetRecord, 'id' | 'hex' | 'content_type'>, nowMs: number): { url: string; expiresAtMs: number } =>
    policy.signedUrls
      ? signer.sign(rec.hex, rec.content_type, nowMs)
      : { url: `${policy.baseUrl()}/api/v2/assets/${rec.id}/content`, expiresAtMs: nowMs + PROXY_URL_LIFETIME_MS };

  // Re-referencing content may only push the deadline later, never earlier.
  const retain = (account: string, hex: string, requestedSeconds: number | undefined, createdNew: boolean, nowMs: number): void => {
    if (!policy.retention) return;
    const wanted = nowMs + (requestedSeconds ?? DEFAULT_RETENTION_SECONDS) * 1000;
    const existing = createdNew ? undefined : assets.deadline(account, hex);
    const shorten = !createdNew && isFault('retention-shortened');
    const next = existing === undefined || shorten ? wanted : Math.max(existing, wanted);
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
      sha256Hex: blob.sha256Hex,
    };
    const urlAtCreate = presentUrl(base, nowMs);
    const record: AssetRecord =
      meta.fromUpload && isFault('upload-has-job') ? { ...base, urlAtCreate, job_id: randomUUID() } : { ...base, urlAtCreate, ...(meta.fromUpload ? {} : { viaHash: true }) };
    assets.add(record);
    return { record, createdNew };
  };

  const present = (rec: AssetRecord, opts: { createdNew?: boolean; staleUrl?: boolean; read?: boolean } = {}): Record<string, unknown> => {
    const { createdNew } = opts;
    const nowMs = Date.now();
    let link = opts.staleUrl === true ? rec.urlAtCreate : presentUrl(rec, nowMs);
    // asset-url-reused: the signed URL minted at create comes back with a fresh expiry beside it.
    if (policy.signedUrls && opts.read === true && isFault('asset-url-reused')) link = { url: rec.urlAtCreate.url, expiresAtMs: link.expiresAtMs };
    let urlExpiresAtMs = link.expiresAtMs;
    if (policy.signedUrls && isFault('url-expiry-past')) urlExpiresAtMs = nowMs - 600_000;
    let expiresAt: string | null = null;
    if (policy.retention) {
      const deadline = assets.deadline(rec.account, rec.hex);
      expiresAt = deadline === undefined ? null : new Date(deadline).toISOString();
      // Only on reads, so the fault breaks the distinction and not the retention arithmetic of creates.
      if (opts.read === true && isFault('expires-equals-url-expiry')) expiresAt = new Date(urlExpiresAtMs).toISOString();
    }
    const body: Record<string, unknown> = {
      id: rec.id,
      // hash-never-filled: "null while lazily computed", except that it never is computed.
      hash: isFault('hash-never-filled') || (ctx.control === 'lazy-hash' && nowMs - Date.parse(rec.created_at) < LAZY_HASH_MS) ? null : formatHash(isFault('hash-not-blake3') ? rec.sha256Hex : rec.hex),
      size_bytes: rec.size_bytes,
      content_type: rec.content_type,
      file_path: rec.file_path,
    };
    if (createdNew !== undefined) body.created_new = createdNew;
    body.created_at = rec.created_at;
    body.url = link.url;
    if (!isFault('drop-url-expires-at')) body.url_expires_at = new Date(urlExpiresAtMs).toISOString();
    body.expires_at = expiresAt;
    body.tags = [...rec.tags];
    if (rec.job_id !== undefined) {
      body.job_id = rec.job_id;
      // Read through the job on every read: absent when the job had no labels or is gone.
      const job = ctx.jobs.get(rec.job_id);
      if (job !== undefined && isFault('job-metadata-empty')) body.job_metadata = {};
      else if (job?.labels !== undefined) body.job_metadata = { ...job.labels };
      else if (job !== undefined && policy.signedUrls && isFault('job-metadata-unlabelled-empty')) body.job_metadata = {};
      else if (job === undefined && isFault('upload-has-job')) body.job_metadata = {};
    }
    return body;
  };

  /** The caller's live asset, or a 404 that does not reveal whether someone else owns it. */
  const ownAsset = (account: string | undefined, id: string, opts: { anyOwner?: boolean } = {}): AssetRecord => {
    const rec = UUID_RE.test(id) ? assets.get(id) : undefined;
    if (rec === undefined || (!opts.anyOwner && rec.account !== account)) throw notFound('asset');
    if (moderation.flagged(rec.hex) && !isFault('moderation-ignored')) throw new ApiError('content_blocked', 'content moderation flagged these bytes');
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
      const requested = rawExpires === undefined || !policy.retention ? undefined : expiresIn(rawExpires, 'expires_in');
      // "Every operation can fail this way" (seed W § Errors, upstream_error): the scenario
      // account whose backing services are down fails its uploads too.
      if (accountTraits(account).upstreamFailure) throw isFault('upload-failure-untyped') ? new ApiError('internal_error' as never, 'The server hit an unexpected error; try again later.') : upstreamError();
      if (file === undefined) {
        if (isFault('invalid-upload-500')) throw upstreamError();
        throw invalidRequest('file', 'a file part is required');
      }
      if (expectedHex !== undefined && expectedHex !== file.hex && !isFault('hash-mismatch-accepted')) {
        throw new ApiError('hash_mismatch', 'expected_hash does not match the uploaded bytes', {
          details: { expected_hash: formatHash(expectedHex), computed_hash: formatHash(file.hex) },
        });
      }
      if (isFault('upload-needs-name') && !fields.has('name')) throw invalidRequest('name', 'a name field is required');
      await file.commit();
      // Asset rule 5: the same path and bytes as an existing output answer with that output.
      const output = assets.findByPath(account, file.hex, path);
      if (output?.job_id !== undefined && !isFault('output-match-ignored')) return reply.code(200).send(present(output, { createdNew: false }));
      const { record, createdNew } = mint(
        account,
        { hex: file.hex, size: file.size, contentType, sha256Hex: file.sha256Hex },
        { filePath: path, tags, expiresIn: requested, fromUpload: true },
      );
      const reportNew = createdNew || isFault('dedup-created-new');
      return reply.code(reportNew ? 201 : 200).send(present(record, { createdNew: reportNew }));
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
    const requested = body.expires_in === undefined || !policy.retention ? undefined : expiresIn(body.expires_in, 'expires_in');

    const usable = assets.holds(account, hex) || (isFault('from-hash-any-blob') && assets.heldByAnyone(hex));
    // Another account's blob is indistinguishable from no blob at all.
    if (!usable) throw new ApiError('blob_not_found', 'no blob with that hash is available to this account');
    const existing = assets.findByPath(account, hex, path);
    if (existing !== undefined) {
      retain(account, hex, requested, false, Date.now());
      return reply.code(200).send(present(existing, { createdNew: false }));
    }
    const template = assets.template(account, hex);
    if (template === undefined) throw upstreamError();
    const { record } = mint(
      account,
      { hex, size: template.size_bytes, contentType: template.content_type, sha256Hex: template.sha256Hex },
      { filePath: path, tags, expiresIn: requested, fromUpload: false },
    );
    return reply.code(201).send(present(record, { createdNew: false }));
  });

  app.head<{ Params: { hash: string } }>('/api/v2/assets/by-hash/:hash', { onRequest: guard.admit }, async (request, reply) => {
    const account = guard.requireAccount(request);
    const hex = parseHash(request.params.hash);
    const found = hex !== undefined && (isFault('by-hash-global') ? assets.heldByAnyone(hex) : assets.holds(account, hex)) && !isFault('by-hash-never');
    if (isFault('by-hash-head-body')) {
      // The answer written by hand with a body, as a server that builds HEAD from its GET
      // handler does. fetch drops those bytes; they are on the wire all the same.
      const body = JSON.stringify(found ? { found: true } : { error: { code: 'not_found', message: 'blob not found' } });
      reply.hijack();
      request.raw.socket.end(`HTTP/1.1 ${found ? '200 OK' : '404 Not Found'}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
      return reply;
    }
    return reply.code(found ? 200 : 404).send();
  });

  // With rate-limit-after-lookup the limiter moves behind the lookup, which is the defect.
  const limitAfterLookup = isFault('rate-limit-after-lookup');
  app.get<{ Params: { id: string } }>(
    '/api/v2/assets/:id',
    { onRequest: limitAfterLookup ? guard.authenticate : guard.admit },
    async (request, reply) => {
      const account = guard.requireAccount(request);
      const { id } = request.params;
      let rec: AssetRecord;
      try {
        rec = ownAsset(account, id, { anyOwner: isFault('foreign-asset-visible') });
      } catch (err) {
        if (isFault('non-v4-id-500') && UUID_RE.test(id) && id[14] !== '4') throw upstreamError();
        throw err;
      }
      if (limitAfterLookup) guard.charge(request);
      return reply.send(present(rec, { staleUrl: isFault('stale-asset-url'), read: true }));
    },
  );

  // The fault lets anonymous callers through to the hosted content redirect only.
  const contentGate = async (request: FastifyRequest): Promise<void> => {
    if (policy.signedUrls && isFault('content-without-credentials') && request.headers.authorization === undefined) return;
    if (policy.tokenProtected && isFault('token-proxy-content-open') && request.headers.authorization === undefined) return;
    await guard.admit(request);
  };

  app.get<{ Params: { id: string } }>('/api/v2/assets/:id/content', { onRequest: contentGate }, async (request, reply) => {
    const account = guard.accountOf(request);
    const rec = ownAsset(account, request.params.id, { anyOwner: account === undefined });
    if (policy.signedUrls || isFault('proxy-redirects')) {
      return reply.code(302).header('Location', signer.sign(rec.hex, rec.content_type).url).send();
    }
    return serveBlob(request, reply, blobs, {
      hex: rec.hex,
      size: rec.size_bytes,
      contentType: rec.content_type,
      flipLastByte: isFault('content-bytes-flipped') && rec.job_id === undefined,
      ignoreRange: isFault('range-ignored'),
      unitlessRange: isFault('content-range-unitless'),
    });
  });

  app.delete<{ Params: { id: string } }>('/api/v2/assets/:id', { onRequest: guard.admit }, async (request, reply) => {
    const account = guard.requireAccount(request);
    const rec = ownAsset(account, request.params.id);
    if (!isFault('delete-keeps-record')) assets.remove(rec.id);
    return reply.code(204).send();
  });
}
