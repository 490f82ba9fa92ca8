import type { BlobStore } from './blobs.ts';
import type { IsFault } from './faults.ts';
import type { RateLimiter } from './ratelimit.ts';
import type { UrlSigner } from './signing.ts';
import type { AssetStore } from './v2/asset-store.ts';

export type SurfaceName = 'local' | 'cloud';

/** Everything one running reference shares between its surfaces. */
export interface ReferenceContext {
  readonly isFault: IsFault;
  readonly blobs: BlobStore;
  readonly assets: AssetStore;
  readonly signer: UrlSigner;
  readonly limiter: RateLimiter;
  readonly localToken: string | undefined;
  readonly log: boolean;
  baseUrl(surface: SurfaceName): string;
}
