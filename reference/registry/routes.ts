// The registry surface's one operation, `POST /nodes/{nodeId}/translations`, and its
// error handling: every refusal and failure leaves in one of the seed's two error shapes.
import type { FastifyError, FastifyInstance } from 'fastify';
import type { IsFault } from '../faults.ts';
import { authenticate } from './auth.ts';
import { translationsOf } from './body.ts';
import { RegistryError, detailsError, messageError, sendRegistryError } from './errors.ts';
import { TranslationStore } from './nodes.ts';

export function registerRegistryRoutes(app: FastifyInstance, isFault: IsFault): void {
  const store = new TranslationStore();

  app.setErrorHandler((err: unknown, request, reply) => {
    if (err instanceof RegistryError) return sendRegistryError(reply, err, isFault);
    const fe = err as Partial<FastifyError>;
    // Fastify's own refusals of the body (not JSON, empty, too large, wrong media type).
    if (typeof fe.statusCode === 'number' && fe.statusCode >= 400 && fe.statusCode < 500) {
      const status = fe.statusCode === 400 && isFault('registry-bad-body-422') ? 422 : fe.statusCode;
      return sendRegistryError(reply, detailsError(status, 'the request body could not be read', [fe.message ?? 'unreadable body']), isFault);
    }
    request.log.error(err);
    return sendRegistryError(reply, messageError(500, 'internal_error', 'the registry failed unexpectedly'), isFault);
  });
  app.setNotFoundHandler((request, reply) => sendRegistryError(reply, messageError(404, 'not_found', `no route for ${request.method} ${request.url.split('?')[0]}`), isFault));

  app.post<{ Params: { nodeId: string } }>('/nodes/:nodeId/translations', async (request, reply) => {
    const principal = authenticate(request.headers, isFault);
    // The router already percent-decoded the segment once; a second decode is the fault.
    const nodeId = isFault('registry-node-id-decoded-twice') ? decodeURIComponent(request.params.nodeId) : request.params.nodeId;
    const data = translationsOf(request.body, isFault);
    const node = store.node(nodeId) ?? (isFault('registry-unknown-node-created') ? store.adopt(nodeId) : undefined);
    if (!node) throw detailsError(404, 'node not found', [`no node has the id ${JSON.stringify(nodeId)}`]);
    const translations = store.put(node.id, data);
    const status = isFault('registry-created-200') ? 200 : isFault('registry-created-303') ? 303 : 201;
    if (status === 303) reply.header('location', request.url);
    return reply
      .code(status)
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
