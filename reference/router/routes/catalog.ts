// The catalog (seed R § Endpoints): the paged model listing, one model's detail, its
// schema document with conditional GET, and the published schema snapshots (no key).
import type { FastifyInstance } from 'fastify';
import { validSegments } from '../catalog.ts';
import { RouterError, invalidInput } from '../errors.ts';
import { schemaFailureBucket, shownProvider } from '../variations.ts';
import { listedModels, servedDocument } from '../surface-variations.ts';
import { send, sendJson, type ModelParams, type RouteKit } from './kit.ts';
import { textOf } from '../../../lib/values.ts';

export function registerCatalogRoutes(app: FastifyInstance, kit: RouteKit): void {
  const { state, policy } = kit;
  const { catalog } = state;

  // ---- GET /v2/models ----
  app.get('/v2/models', async (req, reply) => {
    const q = req.query as Record<string, unknown>;
    const listed = listedModels(state);
    let limit = 20;
    if (q.limit !== undefined) {
      const raw = textOf(q.limit);
      if (!/^-?\d+$/.test(raw)) throw invalidInput('limit must be an integer');
      const n = Number(raw);
      // 0 and negative select the default; above the maximum is clamped.
      limit = n <= 0 ? 20 : Math.min(n, policy.maxPageLimit);
    }
    let position = 0;
    if (q.cursor !== undefined) {
      const raw = textOf(q.cursor);
      const decoded = policy.decodeCursor(state.cursors, raw);
      if (decoded === undefined || decoded > listed.length)
        throw invalidInput('cursor is malformed or expired; start the walk again without a cursor');
      position = decoded;
    }
    const start = policy.pageStart(position);
    const page = listed.slice(start, start + limit);
    const next = start + page.length;
    const hasMore = next < listed.length;
    const body: Record<string, unknown> = { data: page.map(kit.entryOf), has_more: hasMore };
    if (hasMore) body.next_cursor = policy.encodeCursor(state.cursors, next);
    body[kit.names.pageSize] = limit;
    return sendJson(reply, 200, body);
  });

  // ---- GET /v2/models/{provider}/{model} ----
  app.get('/v2/models/:provider/:model', async (req, reply) => {
    const def = kit.resolveModel(req.params as ModelParams);
    const body = kit.entryOf(def);
    if (def.authored) body[kit.names.schemaUrl] = `${kit.publicOrigin()}/v2/models/${def.id}/openapi.json`;
    body[kit.names.alternates] = def.alternates.map((a) => shownProvider(state, a));
    if (def.sunset !== undefined) body.sunset_date = def.sunset;
    return sendJson(reply, 200, body);
  });

  // ---- GET /v2/models/{provider}/{model}/openapi.json ----
  app.get('/v2/models/:provider/:model/openapi.json', async (req, reply) => {
    const def = kit.resolveModel(req.params as ModelParams);
    if (def.behaviour === 'schema-unbuildable') {
      const bucket = schemaFailureBucket(state);
      throw bucket === undefined
        ? policy.schemaFailure(def)
        : new RouterError(500, bucket, `the schema document of ${def.id} could not be built; try again later`);
    }
    const doc = servedDocument(state, def);
    const inm = req.headers['if-none-match'];
    const matches =
      typeof inm === 'string' &&
      inm.split(',').some((t) => t.trim() === '*' || t.trim().replace(/^W\//, '') === doc.etag);
    const headers = { ETag: doc.etag, 'Cache-Control': 'private, max-age=300, must-revalidate' };
    if (matches) return reply.code(304).headers(headers).send();
    return send(reply, { status: 200, headers: { 'content-type': 'application/json', ...headers }, body: doc.bytes });
  });

  // ---- GET /router-schemas/{provider}/{model}.json (published snapshot, no key) ----
  app.get('/router-schemas/:provider/:file', async (req, reply) => {
    const { provider, file } = req.params as { provider: string; file: string };
    const model = file.endsWith('.json') ? file.slice(0, -5) : '';
    const def = validSegments(provider, model) ? catalog.get(provider, model) : undefined;
    if (
      !def ||
      !def.authored ||
      def.retired ||
      def.behaviour === 'restricted' ||
      def.behaviour === 'schema-unbuildable'
    )
      throw new RouterError(404, 'model_not_found', `no published schema for ${provider}/${model}`);
    const doc = servedDocument(state, def);
    return send(reply, {
      status: 200,
      headers: { 'content-type': 'application/json', ETag: doc.etag, 'Cache-Control': 'public, max-age=3600' },
      body: doc.bytes,
    });
  });
}
