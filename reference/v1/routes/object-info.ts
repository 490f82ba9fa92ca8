// GET /api/object_info: the engine's node catalog, with the caller's input files.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { v1Account } from '../auth.ts';
import { outwardClass } from '../class-names.ts';
import type { V1RouteKit } from './kit.ts';

export function registerObjectInfoRoute(app: FastifyInstance, kit: V1RouteKit): void {
  const { ctx, files, auth } = kit;
  const { engine } = ctx;
  // A control: the node catalog answers callers without a key too (the seed does not say this
  // operation needs one; a local-engine-compatible route often does not), with no input files.
  const keyless = (request: FastifyRequest): boolean =>
    request.headers['x-api-key'] === undefined && ctx.isControl('v1-object-info-open');
  app.get(
    '/api/object_info',
    { onRequest: async (request, reply) => (keyless(request) ? undefined : auth(request, reply)) },
    async (request, reply) => {
      let info: Record<string, unknown> = engine.catalog.objectInfo({
        inputFiles: keyless(request) ? [] : files.list(v1Account(request)),
      });
      // A control: an engine whose core classes have names of its own.
      if (kit.renamed())
        info = Object.fromEntries(
          Object.entries(info).map(([cls, node]) => [
            outwardClass(cls),
            { ...(node as object), name: outwardClass(cls) },
          ]),
        );
      // The real engine gives display_name null for many core classes.
      if (ctx.isControl('v1-null-display-names')) {
        Object.keys(info)
          .sort()
          .forEach((name, i) => {
            if (i % 2 === 0) (info[name] as { display_name: string | null }).display_name = null;
          });
      }
      return reply.send(info);
    },
  );
}
