// What the v2 asset routes share: the surface's options, a file_path's placement, the url an
// asset is read by, retention, minting a record, the record as every asset answer presents
// it, and the caller's own asset (or the 404).
import { randomUUID } from 'node:crypto';
import { formatHash } from '../../blobs.ts';
import type { ReferenceContext } from '../../context.ts';
import { ApiError, invalidRequest, notFound } from '../../errors.ts';
import type { Guard } from '../../guard.ts';
import type { AssetRecord } from '../asset-store.ts';
import { Moderation } from '../moderation.ts';
import type { V2Policy } from '../policy.ts';
import { UUID_RE } from '../../../lib/values.ts';

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

export interface BlobFacts {
  hex: string;
  size: number;
  contentType: string;
}

/** The folders the placement-roots-only control allows (the reference's own outputs live under output/). */
const PLACEMENT_ROOTS = ['input', 'output', 'models'];

export interface AssetKit {
  readonly ctx: ReferenceContext;
  readonly guard: Guard;
  readonly surface: AssetSurface;
  /** ctx.policy.v2 as it was when the routes were registered. */
  readonly policy: V2Policy;
  readonly moderation: Moderation;
  /** A file_path as given, or the placement-roots-only control's refusal. */
  placed(path: string | null): string | null;
  /** Sets or extends the account's retention deadline of the bytes. */
  retain(account: string, hex: string, requestedSeconds: number | undefined, createdNew: boolean, nowMs: number): void;
  /** A new asset record over bytes the server holds. */
  mint(
    account: string,
    blob: BlobFacts,
    meta: { filePath: string | null; tags: string[]; expiresIn: number | undefined; fromUpload: boolean },
  ): Minted;
  /** The asset record every asset answer carries. */
  present(rec: AssetRecord, opts?: { createdNew?: boolean }): Record<string, unknown>;
  /** The caller's live asset, or a 404 that does not reveal whether someone else owns it. */
  ownAsset(account: string | undefined, id: string, readable?: (rec: AssetRecord) => boolean): AssetRecord;
}

export function assetKit(ctx: ReferenceContext, guard: Guard, surface: AssetSurface): AssetKit {
  const { assets, blobs, signer } = ctx;
  const policy = ctx.policy.v2;
  // The placement-roots-only control (a legal variation: a proxy that allowlists its roots)
  // is read here because an upload's file_path arrives in a multipart body only this route
  // reads, so no hook sees it before the asset is minted. It is asked of every path under a
  // folder, where it could refuse one: the self-test runs it on the tests that place an asset
  // in a folder at all.
  const placed = (path: string | null): string | null => {
    const root = path?.includes('/') ? path.split('/')[0] : undefined;
    if (root !== undefined && ctx.isControl('placement-roots-only') && !PLACEMENT_ROOTS.includes(root)) {
      throw invalidRequest(
        'file_path',
        `'${root}' is not an allowlisted placement root (allowed: ${PLACEMENT_ROOTS.join(', ')})`,
      );
    }
    return path;
  };
  const moderation = new Moderation(blobs);

  // Two controls asked here, each time a url is made: a signer that rounds its expiries up
  // to the whole minute (the same url for a minute), and a proxy whose url carries a constant
  // expiry (it has no signed URLs, seed W:79:36c2db9881b8).
  const presentUrl = (
    rec: Pick<AssetRecord, 'id' | 'hex' | 'content_type'>,
    nowMs: number,
  ): { url: string; expiresAtMs: number } =>
    surface.signedUrls
      ? signer.sign(
          rec.hex,
          rec.content_type,
          ctx.isControl('signed-url-minute-expiry') ? Math.ceil(nowMs / 60_000) * 60_000 : nowMs,
        )
      : {
          url: `${surface.baseUrl()}/api/v2/assets/${rec.id}/content`,
          expiresAtMs: ctx.isControl('proxy-constant-url-expiry')
            ? PROXY_CONSTANT_EXPIRY_MS
            : nowMs + PROXY_URL_LIFETIME_MS,
        };

  // Re-referencing content may only push the deadline later, never earlier.
  const retain = (
    account: string,
    hex: string,
    requestedSeconds: number | undefined,
    createdNew: boolean,
    nowMs: number,
  ): void => {
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

  const ownAsset = (
    account: string | undefined,
    id: string,
    readable = (rec: AssetRecord) => rec.account === account,
  ): AssetRecord => {
    const rec = UUID_RE.test(id) ? assets.get(id) : undefined;
    if (rec === undefined) throw notFound('asset');
    if (!readable(rec)) {
      // A control: another account's asset refused 403 forbidden (authenticated but not
      // allowed, seed W:213:a4a409f683dc), which the seed lists beside the 404.
      if (ctx.isControl('owner-scope-forbidden'))
        throw new ApiError('forbidden', 'this asset belongs to another account');
      throw notFound('asset');
    }
    if (policy.blocked(moderation, rec.hex))
      throw new ApiError('content_blocked', 'content moderation flagged these bytes');
    return rec;
  };

  return { ctx, guard, surface, policy, moderation, placed, retain, mint, present, ownAsset };
}
