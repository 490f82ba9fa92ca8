import { cloudSurface } from './cloud.ts';
import { localSurface } from './local.ts';
import { serverlessSurface } from './serverless.ts';
import { routerSurface } from './router.ts';
import { registrySurface } from './registry.ts';
import type { SurfaceDefinition } from './surface.ts';

// Port offsets 2..4 are reserved for serverless, router and registry.
export const SURFACES: ReadonlyArray<SurfaceDefinition> = [
  localSurface,
  cloudSurface,
  serverlessSurface,
  routerSurface,
  registrySurface,
];
