// The registry surface's one operation, `POST /nodes/{nodeId}/translations`, and its
// error handling: every refusal and failure leaves in one of the seed's two error shapes.
import type { FastifyError, FastifyInstance } from 'fastify';
import type { IncomingHttpHeaders } from 'node:http';
import type { ReferenceContext } from '../context.ts';
import type { RegistryPolicy } from './policy.ts';
import { authenticate } from './auth.ts';
import { translationsOf } from './body.ts';
import { RegistryError, detailsError, messageError, sendRegistryError } from './errors.ts';
import { TranslationStore } from './nodes.ts';

/**
 * A control: credential refusals under other client-error statuses than 401 and 403 (the
 * seed shows no status for the operation, W:152:dff12f6f29d0). A malformed Authorization (not
 * Bearer, or a bearer that is neither an API key nor a JWT) is a bad request, 400; a request
 * with no credential at all meets a route hidden from strangers, 404.
 */
function refusedElsewise(err: RegistryError, headers: IncomingHttpHeaders): RegistryError {
  if (err.status !== 401) return err;
  const authorization = headers.authorization;
  if (authorization === undefined) return messageError(404, 'not_found', 'no such route');
  if (!/^Bearer\s/i.test(authorization) || /neither an API key nor a well-formed JWT/.test(err.message))
    return messageError(400, 'bad_request', 'the Authorization header does not hold a credential this registry reads');
  return err;
}

/** Under the registry-publisher-only control, the account that published every node of the reference. */
const CONTROL_PUBLISHER = 'alice';

export function registerRegistryRoutes(app: FastifyInstance, policy: RegistryPolicy, ctx?: ReferenceContext): void {
  const store = new TranslationStore();
  const otherRefusals = ctx?.isControl('registry-refusals-4xx') === true;
  const publisherOnly = ctx?.isControl('registry-publisher-only') === true;

  app.setErrorHandler((err: unknown, request, reply) => {
    if (err instanceof RegistryError) return sendRegistryError(reply, err);
    const fe = err as Partial<FastifyError>;
    // Fastify's own refusals of the body (not JSON, empty, too large, wrong media type).
    if (typeof fe.statusCode === 'number' && fe.statusCode >= 400 && fe.statusCode < 500) {
      return sendRegistryError(
        reply,
        detailsError(fe.statusCode, 'the request body could not be read', [fe.message ?? 'unreadable body']),
      );
    }
    request.log.error(err);
    return sendRegistryError(reply, messageError(500, 'internal_error', 'the registry failed unexpectedly'));
  });
  app.setNotFoundHandler((request, reply) =>
    sendRegistryError(
      reply,
      messageError(404, 'not_found', `no route for ${request.method} ${request.url.split('?')[0]}`),
    ),
  );

  app.post<{ Params: { nodeId: string } }>('/nodes/:nodeId/translations', async (request, reply) => {
    let principal;
    try {
      principal = authenticate(request.headers, policy);
    } catch (err) {
      throw otherRefusals && err instanceof RegistryError ? refusedElsewise(err, request.headers) : err;
    }
    const nodeId = policy.nodeIdOf(request.params.nodeId);
    const data = translationsOf(request.body);
    const node = policy.nodeFor(store, nodeId);
    if (!node) throw detailsError(404, 'node not found', [`no node has the id ${JSON.stringify(nodeId)}`]);
    // A control: only the node's publisher (here the account the scenario's credentials name) or
    // the administrative secret may write its translations; any other caller is authenticated
    // but not allowed (seed W:151 says how a caller is authenticated, not who may write).
    if (publisherOnly && (principal.kind === 'jwt' || principal.kind === 'api-key')) {
      const caller = principal.kind === 'jwt' ? principal.subject : principal.account;
      if (caller !== CONTROL_PUBLISHER)
        throw messageError(
          403,
          'forbidden',
          `only the publisher of node ${JSON.stringify(node.id)} may write its translations`,
        );
    }
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
