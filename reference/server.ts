import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { allowanceFor, credentialsFor } from './accounts.ts';
import type { ReferenceCredentials } from './accounts.ts';
import { BlobStore } from './blobs.ts';
import type { ReferenceContext, SurfaceName } from './context.ts';
import { faultSeams } from './faults.ts';
import { controlByName, installControl, watchRewrites, type ControlName } from './controls.ts';
import { v2EngineOptions, v2LimiterKind } from './v2/variations.ts';
import { RateLimiter } from './ratelimit.ts';
import { RouterState } from './router/state.ts';
import { UrlSigner } from './signing.ts';
import { SURFACES } from './surfaces/index.ts';
import { AssetStore } from './v2/asset-store.ts';
import { V2Engine } from './v2/engine-adapter.ts';
import { JobStore } from './v2/job-store.ts';

export type { ReferenceCredentials } from './accounts.ts';
export type { SurfaceName } from './context.ts';
export { FAULTS } from './faults.ts';

export const DEFAULT_PORT_BASE = 18189;
const DEFAULT_URL_TTL_SECONDS = 21_600;
const HOST = '127.0.0.1';

export interface ReferenceOptions {
  portBase?: number;
  host?: '127.0.0.1';
  fault?: string;
  /** A harmless variation (reference/controls.ts); the reference stays conformant. */
  control?: string;
  /**
   * Several harmless variations at once, each as `control` alone would install it (the
   * self-test's stacks of controls that touch different parts of an answer).
   */
  controls?: readonly string[];
  localToken?: string;
  urlTtlSeconds?: number;
  dataDir?: string;
  log?: boolean;
  /**
   * Told each time the code asks whether a control is on (whichever control, on or not):
   * where a control could change an answer. The self-test runs a control only on the tests
   * during which the plain reference was asked about it (test/support/harness/host.ts).
   * With no control on, it is also told of each answer a rewrite control would have changed
   * (watchRewrites).
   */
  onConsult?: (control: ControlName) => void;
  /**
   * The address clients reach a surface at when something stands in front of it (the
   * validating proxy, a gateway): the URLs that surface writes into its answers (urls.self,
   * signed URLs, queue handles) point there, as a deployment behind a proxy advertises it.
   */
  publicUrls?: Partial<Record<SurfaceName, string>>;
}

export interface RunningReference {
  surfaces: Record<SurfaceName, string>;
  credentials: ReferenceCredentials;
  close(): Promise<void>;
}

export async function startReference(opts: ReferenceOptions = {}): Promise<RunningReference> {
  // Validated before anything is bound or created, so a bad name leaves nothing behind.
  const seams = faultSeams(opts.fault);
  const controls = new Set(
    [opts.control, ...(opts.controls ?? [])].map(controlByName).filter((c): c is ControlName => c !== undefined),
  );
  const portBase = opts.portBase ?? DEFAULT_PORT_BASE;
  const ttl = opts.urlTtlSeconds ?? DEFAULT_URL_TTL_SECONDS;
  if (!Number.isInteger(portBase) || portBase < 1 || portBase + 4 > 65535)
    throw new Error(`invalid portBase ${portBase}`);
  if (!Number.isInteger(ttl) || ttl < 1) throw new Error(`invalid urlTtlSeconds ${ttl}`);
  if (opts.localToken !== undefined && opts.localToken === '') throw new Error('localToken must not be empty');

  const ownsDataDir = opts.dataDir === undefined;
  const dataDir = opts.dataDir ?? (await mkdtemp(join(tmpdir(), 'reference-blobs-')));
  if (!ownsDataDir) await mkdir(dataDir, { recursive: true });

  const listenUrls = Object.fromEntries(
    SURFACES.map((s) => [s.name, `http://${HOST}:${portBase + s.portOffset}`]),
  ) as Record<SurfaceName, string>;
  const baseUrls: Record<SurfaceName, string> = { ...listenUrls, ...opts.publicUrls };
  const blobs = new BlobStore(dataDir);
  const assets = new AssetStore();
  const signer = new UrlSigner(() => baseUrls.cloud, ttl);
  const consult = opts.onConsult;
  const isControl = consult
    ? (name: ControlName) => (consult(name), controls.has(name))
    : (name: ControlName) => controls.has(name);
  const engine = new V2Engine(assets, blobs, seams.policy.v2, v2EngineOptions(isControl));
  const ctx: ReferenceContext = {
    policy: seams.policy,
    socketOut: seams.socketOut,
    installSeams: (app, surface) => seams.installOn(app, surface, ctx),
    blobs,
    assets,
    engine,
    jobs: new JobStore(),
    signer,
    limiter: new RateLimiter(allowanceFor, Date.now, v2LimiterKind(isControl)),
    router: new RouterState(seams.policy.router, () => baseUrls.router, isControl),
    localToken: opts.localToken,
    log: opts.log ?? false,
    isControl,
    baseUrl: (surface) => baseUrls[surface],
  };

  const apps: FastifyInstance[] = [];
  let closed = false;
  const close = async (): Promise<void> => {
    if (closed) return;
    closed = true;
    await engine.close();
    await Promise.allSettled(apps.map((app) => app.close()));
    if (ownsDataDir) await rm(dataDir, { recursive: true, force: true });
  };

  try {
    for (const surface of SURFACES) {
      const app = await surface.build(ctx);
      apps.push(app);
      // A control rewrites answers last (with a fault only where the fault names it, FaultInfo.under).
      for (const control of controls) installControl(app, control);
      // The plain reference asked where controls could change an answer also says where the
      // rewrite controls' hooks would have changed one.
      if (consult && controls.size === 0) watchRewrites(app, consult);
      await app.listen({ host: HOST, port: portBase + surface.portOffset });
    }
  } catch (err) {
    await close();
    throw err;
  }

  return { surfaces: { ...listenUrls }, credentials: credentialsFor(opts.localToken), close };
}
