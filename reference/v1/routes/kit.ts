// What the v1 cloud routes share: the key check, the flat file namespace, the prompts the
// stream follows, the policy, and the controls more than one route reads.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ReferenceContext } from '../../context.ts';
import { v1Authenticate } from '../auth.ts';
import { V1Files } from '../files.ts';
import type { V1Jobs } from '../jobs.ts';
import type { V1Policy } from '../policy.ts';

export interface V1RouteKit {
  readonly ctx: ReferenceContext;
  readonly jobs: V1Jobs;
  /** ctx.policy.v1 as it was when the routes were registered. */
  readonly policy: V1Policy;
  readonly files: V1Files;
  /** The X-API-Key check every v1 route but a keyless object_info runs first. */
  readonly auth: ReturnType<typeof v1Authenticate>;
  /** An onSend hook: under a control, the file routes' refusals go out with no body. */
  emptyRefusals(request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown>;
  /** The v1-renamed-classes control, asked where a class name is read or written: the engine's core classes have names of their own. */
  renamed(): boolean;
}

export function iso(ms: number | null): string | null {
  return ms === null ? null : new Date(ms).toISOString();
}

export function v1RouteKit(ctx: ReferenceContext, jobs: V1Jobs): V1RouteKit {
  const policy = ctx.policy.v1;
  const files = new V1Files(ctx);
  const auth = v1Authenticate();

  // The real engine answers some refusals of its file routes with no body at all (seed W: v1 error bodies not shown).
  const emptyRefusals = async (_request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> => {
    if (reply.statusCode < 400 || !ctx.isControl('v1-empty-error-bodies')) return payload;
    reply.removeHeader('content-type');
    reply.header('content-length', '0');
    return '';
  };
  const renamed = () => ctx.isControl('v1-renamed-classes');
  return { ctx, jobs, policy, files, auth, emptyRefusals, renamed };
}
