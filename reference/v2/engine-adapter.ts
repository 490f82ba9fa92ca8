// The workflow engine as the v2 surfaces use it. Inputs resolve through the caller's
// own assets (by id, or by file path for `image: "<name>"`); every produced image is
// stored as a blob and minted as an asset carrying the job's id.
import { randomUUID } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { blake3 } from '@noble/hashes/blake3.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import type { BlobStore } from '../blobs.ts';
import { defaultCatalog, type Catalog } from '../engine/catalog.ts';
import { Executor } from '../engine/executor.ts';
import { validateWorkflow } from '../engine/validate.ts';
import type { EngineEvent, EngineHost, JobSpec, JobState, Refusal, StoredOutput } from '../engine/types.ts';
import type { AssetRecord, AssetStore } from './asset-store.ts';
import { NodeCache } from '../v1/cache.ts';

/** The two override points the engine asks (V2Policy has both; a fault may replace either later). */
export interface EnginePolicy {
  runConcurrency(account: string): number;
  inputAssetUsable(rec: AssetRecord): boolean;
}

export class V2Engine {
  readonly catalog: Catalog = defaultCatalog();
  private readonly executor: Executor;

  constructor(
    private readonly assets: AssetStore,
    private readonly blobs: BlobStore,
    private readonly policy: EnginePolicy,
    /**
     * The engine-cached-work control: nodes that ran before finish at once, as a real engine's
     * cache makes them. Asked only when a job meets work the account already ran, the one
     * place the control changes an answer.
     */
    opts: { cacheWork?: () => boolean } = {},
  ) {
    const seen = new NodeCache();
    const cacheWork = opts.cacheWork;
    // Asked when a prompt could start, so a fault installed through the policy is seen.
    this.executor = new Executor({
      host: this.host(),
      catalog: this.catalog,
      concurrencyFor: (account) => this.policy.runConcurrency(account),
      ...(cacheWork
        ? {
            nodeCache: {
              cachedNodes: (account, workflow) => {
                const hits = seen.cachedNodes(account, workflow);
                return hits.length > 0 && cacheWork() ? hits : [];
              },
              remember: (account, workflow) => seen.remember(account, workflow),
            },
          }
        : {}),
    });
  }

  private ownAsset(account: string, id: string) {
    const rec = this.assets.get(id);
    return rec && rec.account === account ? rec : undefined;
  }

  private byPath(account: string, name: string) {
    return this.assets.findOwnedByPath(account, name);
  }

  private host(): EngineHost {
    return {
      assetBytes: (account, id) => {
        const rec = this.ownAsset(account, id);
        return rec ? readFileSync(this.blobs.pathOf(rec.hex)) : undefined;
      },
      inputFileBytes: (account, name) => {
        const rec = this.byPath(account, name);
        return rec ? readFileSync(this.blobs.pathOf(rec.hex)) : undefined;
      },
      storeOutput: (out): StoredOutput => {
        const hex = bytesToHex(blake3(out.png));
        try {
          writeFileSync(this.blobs.pathOf(hex), out.png, { flag: 'wx' });
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
        }
        const filename = `${out.filenamePrefix}_${String(out.index + 1).padStart(5, '0')}_.png`;
        const id = randomUUID();
        const now = Date.now();
        this.assets.add({
          id,
          account: out.account,
          hex,
          size_bytes: out.png.byteLength,
          content_type: 'image/png',
          file_path: `${out.kind}/${filename}`,
          tags: [out.kind],
          created_at: new Date(now).toISOString(),
          job_id: out.jobId,
        });
        return {
          ref: id,
          filename,
          subfolder: '',
          type: out.kind,
          contentType: 'image/png',
          sizeBytes: out.png.byteLength,
        };
      },
    };
  }

  validate(workflow: unknown, account: string): Refusal | undefined {
    return validateWorkflow(workflow, {
      catalog: this.catalog,
      assetExists: (id) => {
        const rec = this.ownAsset(account, id);
        return rec !== undefined && this.policy.inputAssetUsable(rec);
      },
      inputFileExists: (name) => this.byPath(account, name) !== undefined,
    });
  }

  submit(spec: JobSpec): JobState {
    return this.executor.submit(spec);
  }

  get(id: string): JobState | undefined {
    return this.executor.get(id);
  }

  cancel(id: string): void {
    this.executor.cancel(id);
  }

  /** Jobs of the account queued or running now. */
  activeCount(account: string): number {
    return this.executor.activeCount(account);
  }

  on(event: 'event', listener: (e: EngineEvent) => void): void {
    this.executor.on(event, listener);
  }

  off(event: 'event', listener: (e: EngineEvent) => void): void {
    this.executor.off(event, listener);
  }

  close(): Promise<void> {
    return this.executor.close();
  }
}
