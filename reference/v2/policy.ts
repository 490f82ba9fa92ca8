// Override points of the v2 surfaces (reference/faults/seams.ts): the decisions the
// correct code takes through this object rather than inline, each default being what
// the contract asks. A fault replaces one; nothing else does.
import type { FastifyRequest } from 'fastify';
import { cloudAccountForKey } from '../accounts.ts';
import type { Refusal } from '../engine/types.ts';
import { accountTraits, type AccountTraits } from './account-traits.ts';
import type { AssetRecord, AssetStore } from './asset-store.ts';
import type { CursorCodec, CursorPosition } from './cursor.ts';
import type { V2Engine } from './engine-adapter.ts';
import type { JobStore } from './job-store.ts';
import type { Moderation } from './moderation.ts';
import { DEPLOYMENTS, type DeploymentState } from './deployments.ts';

/** How a submit's Idempotency-Key claim went: the submit runs, is refused, or answers with an earlier job. */
export type KeyClaim = { kind: 'claimed' } | { kind: 'reused' } | { kind: 'replay'; jobId: string };

export interface V2Policy {
  // Authentication
  /** The cloud account a bearer API key names (undefined: not an account key). */
  cloudBearerAccount(token: string): string | undefined;
  /** The account an SSO-bound key may act as on this serverless request without SSO (undefined: refused). */
  ssoBoundAccount(request: FastifyRequest): string | undefined;
  /** GET asset charges the rate limit before it looks anything up (rate-limit scope). */
  rateLimitBeforeLookup: boolean;
  // Assets
  /** Whether GET asset shows this record to this account: only its owner's. */
  assetReadable(rec: AssetRecord, account: string | undefined): boolean;
  /** A moderation verdict blocks reads of the asset. */
  blocked(moderation: Moderation, hex: string): boolean;
  /** Multipart fields an upload must carry besides the file part (none). */
  requiredUploadFields: readonly string[];
  /** An upload's expected_hash matches the bytes. */
  hashMatches(expectedHex: string, computedHex: string): boolean;
  /** The output an upload of the same path and bytes answers with (asset rule 5). */
  outputMatch(assets: AssetStore, account: string, hex: string, path: string | null): AssetRecord | undefined;
  /** The retention deadline of re-referenced content: never earlier than it was. */
  extendRetention(existingMs: number, wantedMs: number): number;
  /** HEAD by-hash: whether the caller's account holds the blob. */
  heldForByHash(assets: AssetStore, account: string, hex: string): boolean;
  /** from-hash: whether the blob may be minted from (the caller's account holds it). */
  heldForFromHash(assets: AssetStore, account: string, hex: string): boolean;
  /** Content reads redirect to a signed URL on hosted surfaces; the local proxy streams the bytes. */
  redirectContent(hosted: boolean): boolean;
  deleteAsset(assets: AssetStore, id: string): void;
  /** Whether an asset the caller owns may be a workflow input. */
  inputAssetUsable(rec: AssetRecord): boolean;
  // Jobs
  validateWorkflow(engine: V2Engine, workflow: unknown, account: string): Refusal | undefined;
  /** The traits a submit is judged by (credits, queue capacity). */
  submitTraits(account: string): AccountTraits;
  /** Claims a submit's Idempotency-Key: a reused key is refused, never replayed. */
  claimKey(jobs: JobStore, scope: string, account: string, key: string): KeyClaim | Promise<KeyClaim>;
  cancel(engine: V2Engine, jobId: string): void;
  /** How many of an account's prompts (v1 and v2 alike) run at once: its tier's concurrency. */
  runConcurrency(account: string): number;
  /** The event stream ends once the job is terminal. */
  streamEnds(status: string): boolean;
  // Listing
  /** Jobs on one page: exactly `limit`. */
  pageSize(limit: number): number;
  /** Whether a job's labels satisfy the metadata filters. */
  matchesFilters(
    labels: Readonly<Record<string, string>> | undefined,
    filters: Readonly<Record<string, string>>,
  ): boolean;
  /** Whose listing a cursor continues: always the caller's. */
  listingOwner(caller: string, cursor: string, cursors: CursorCodec): string;
  /** A cursor's position; one the server cannot read is refused (invalid_cursor). */
  cursorPosition(cursors: CursorCodec, scope: string, cursor: string): CursorPosition | undefined;
  // Serverless
  deploymentState(id: string): DeploymentState | undefined;
}

const TERMINAL = new Set(['succeeded', 'failed', 'canceled']);

export function correctV2Policy(): V2Policy {
  return {
    cloudBearerAccount: (token) => cloudAccountForKey(token),
    ssoBoundAccount: () => undefined,
    rateLimitBeforeLookup: true,
    assetReadable: (rec, account) => rec.account === account,
    blocked: (moderation, hex) => moderation.flagged(hex),
    requiredUploadFields: [],
    hashMatches: (expected, computed) => expected === computed,
    outputMatch: (assets, account, hex, path) => {
      const rec = assets.findByPath(account, hex, path);
      return rec?.job_id !== undefined ? rec : undefined;
    },
    extendRetention: (existing, wanted) => Math.max(existing, wanted),
    heldForByHash: (assets, account, hex) => assets.holds(account, hex),
    heldForFromHash: (assets, account, hex) => assets.holds(account, hex),
    redirectContent: (hosted) => hosted,
    deleteAsset: (assets, id) => assets.remove(id),
    inputAssetUsable: () => true,
    validateWorkflow: (engine, workflow, account) => engine.validate(workflow, account),
    submitTraits: (account) => accountTraits(account),
    claimKey: (jobs, scope, account, key) =>
      jobs.claimKey(scope, account, key) ? { kind: 'claimed' } : { kind: 'reused' },
    cancel: (engine, jobId) => engine.cancel(jobId),
    runConcurrency: (account) => accountTraits(account).concurrency,
    streamEnds: (status) => TERMINAL.has(status),
    pageSize: (limit) => limit,
    matchesFilters: (labels, filters) => Object.entries(filters).every(([k, v]) => labels?.[k] === v),
    listingOwner: (caller) => caller,
    cursorPosition: (cursors, scope, cursor) => cursors.decode(scope, cursor),
    deploymentState: (id) => DEPLOYMENTS[id],
  };
}
