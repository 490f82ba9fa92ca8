import type { FastifyInstance } from 'fastify';
import type { BlobStore } from './blobs.ts';
import type { Policy } from './policy.ts';
import type { ControlName } from './controls.ts';
import type { RateLimiter } from './ratelimit.ts';
import type { RouterState } from './router/state.ts';
import type { UrlSigner } from './signing.ts';
import type { AssetStore } from './v2/asset-store.ts';
import type { V2Engine } from './v2/engine-adapter.ts';
import type { JobStore } from './v2/job-store.ts';

export type SurfaceName = 'local' | 'cloud' | 'serverless' | 'router' | 'registry';

/** Everything one running reference shares between its surfaces. */
export interface ReferenceContext {
  /** The override points (reference/policy.ts): correct unless a fault replaced one. */
  readonly policy: Policy;
  /** WebSocket hooks (reference/faults/seams.ts): the messages to send for one message; `later` sends more afterwards. */
  socketOut(
    payload: string | Buffer,
    later?: (payloads: Array<string | Buffer>, ms: number) => void,
  ): ReadonlyArray<string | Buffer>;
  /** Attaches the fault's hooks to a surface app, first of all its hooks (reference/faults/seams.ts). */
  installSeams(app: FastifyInstance, surface: SurfaceName): void;
  readonly blobs: BlobStore;
  readonly assets: AssetStore;
  /** The workflow engine as the v2 surfaces use it (validation, execution, events). */
  readonly engine: V2Engine;
  /** v2 job records (labels, scope, retention) and idempotency keys. */
  readonly jobs: JobStore;
  readonly signer: UrlSigner;
  readonly limiter: RateLimiter;
  /** Everything the model router keeps (catalog, idempotency records, queue, limits). */
  readonly router: RouterState;
  readonly localToken: string | undefined;
  readonly log: boolean;
  /** The harmless variation the reference runs with (reference/controls.ts), for the few a response hook cannot make. */
  readonly isControl: (name: ControlName) => boolean;
  baseUrl(surface: SurfaceName): string;
}
