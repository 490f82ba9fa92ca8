// The registry surface's one operation, `POST /nodes/{nodeId}/translations`, and its
// error handling: every refusal and failure leaves in one of the seed's two error shapes.
import type { FastifyError, FastifyInstance } from 'fastify';
import type { RegistryPolicy } from './policy.ts';
import { authenticate } from './auth.ts';
import { translationsOf } from './body.ts';
import { RegistryError, detailsError, messageError, sendRegistryError } from './errors.ts';
import { TranslationStore } from './nodes.ts';

export function registerRegistryRoutes(app: FastifyInstance, rules: RegistryPolicy): void {
  const store = new TranslationStore();

  app.setErrorHandler((err: unknown, request, reply) => {
    if (err instanceof RegistryError) return sendRegistryError(reply, err);
    const fe = err as Partial<FastifyError>;
    // Fastify's own refusals of the body (not JSON, empty, too large, wrong media type).
    if (typeof fe.statusCode === 'number' && fe.statusCode >= 400 && fe.statusCode < 500) {
      return sendRegistryError(reply, detailsError(fe.statusCode, 'the request body could not be read', [fe.message ?? 'unreadable body']));
    }
    request.log.error(err);
    return sendRegistryError(reply, messageError(500, 'internal_error', 'the registry failed unexpectedly'));
  });
  app.setNotFoundHandler((request, reply) => sendRegistryError(reply, messageError(404, 'not_found', `no route for ${request.method} ${request.url.split('?')[0]}`)));

  app.post<{ Params: { nodeId: string } }>('/nodes/:nodeId/translations', async (request, reply) => {
    const principal = authenticate(request.headers, rules);
    const nodeId = rules.nodeIdOf(request.params.nodeId);
    const data = translationsOf(request.body);
    const node = rules.nodeFor(store, nodeId);
    if (!node) throw detailsError(404, 'node not found', [`no node has the id ${JSON.stringify(nodeId)}`]);
    const translations = store.put(node.id, data);
    return reply
      .code(201)
      .type('application/json; charset=utf-8')
      .send({
        id: node.id,
        name: node.name,
        description: node.description,
        publisher: { id: node.publisher },
        translations,
        updated_by: principal.kind,
      });
  });
}
