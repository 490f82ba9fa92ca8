import type { FastifyInstance } from 'fastify';
import type { ReferenceContext, SurfaceName } from '../context.ts';

/** One listening surface; adding a surface means adding one of these. */
export interface SurfaceDefinition {
  readonly name: SurfaceName;
  /** Fixed offset from the port base, so every surface has a predictable port. */
  readonly portOffset: number;
  build(ctx: ReferenceContext): Promise<FastifyInstance>;
}
