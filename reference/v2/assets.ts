// v2 asset operations on every surface: upload, from-hash and by-hash, read, content and
// delete, one file per operation or group in reference/v2/assets/, each given the shared
// AssetKit (placement, urls, retention, minting, the presented record, ownership).
import type { FastifyInstance } from 'fastify';
import type { ReferenceContext } from '../context.ts';
import type { Guard } from '../guard.ts';
import { registerByHashRoutes } from './assets/by-hash.ts';
import { registerAssetDeleteRoute } from './assets/delete.ts';
import { assetKit, type AssetSurface } from './assets/kit.ts';
import { registerAssetReadRoutes } from './assets/read.ts';
import { registerUploadRoute } from './assets/upload.ts';

export type { AssetSurface } from './assets/kit.ts';

export function registerAssetRoutes(
  app: FastifyInstance,
  ctx: ReferenceContext,
  guard: Guard,
  surface: AssetSurface,
): void {
  const kit = assetKit(ctx, guard, surface);
  registerUploadRoute(app, kit);
  registerByHashRoutes(app, kit);
  registerAssetReadRoutes(app, kit);
  registerAssetDeleteRoute(app, kit);
}
