// GET /api/v2/jobs: the caller's jobs in this scope, newest first, filtered by labels and
// paged by a cursor bound to the listing it was issued for.
import type { FastifyInstance } from 'fastify';
import { ApiError, invalidRequest, upstreamError } from '../../errors.ts';
import { accountTraits } from '../account-traits.ts';
import { CursorCodec, type CursorPosition } from '../cursor.ts';
import type { V2Job } from '../job-store.ts';
import { parseFilters } from '../labels.ts';
import { iso, type JobKit } from './kit.ts';

const DEFAULT_LIMIT = 20;
const MAX_LIMIT = 100;

export function registerJobListRoute(app: FastifyInstance, kit: JobKit): void {
  const { ctx, guard, surface, policy } = kit;
  const { engine, jobs } = ctx;
  const codecs = { signed: new CursorCodec(), plain: new CursorCodec(true) };

  app.get('/api/v2/jobs', { onRequest: guard.admit }, async (request, reply) => {
    // Controls are asked per listing, not when the route is built, so only the tests that list
    // jobs count as consulting them (the self-test runs a control on those alone).
    const cursors = ctx.isControl('job-list-plain-cursors') ? codecs.plain : codecs.signed;
    // The seed gives the job list no order: newest first (public docs), or oldest first under a control.
    const oldestFirst = ctx.isControl('job-list-oldest-first');
    if (!surface.listing) throw new ApiError('not_implemented', 'this surface does not list jobs yet');
    const account = guard.requireAccount(request);
    if (accountTraits(account).upstreamFailure) throw upstreamError();
    const query = request.query as Record<string, unknown>;
    let limit = DEFAULT_LIMIT;
    if (query.limit !== undefined) {
      const raw = query.limit;
      if (typeof raw !== 'string' || !/^\d+$/.test(raw) || Number(raw) < 1)
        throw invalidRequest('limit', 'must be a positive integer');
      limit = Math.min(Number(raw), MAX_LIMIT);
    }
    const filters = parseFilters(query, request.url);
    if (query.cursor !== undefined && typeof query.cursor !== 'string')
      throw new ApiError('invalid_cursor', 'cursor must be given once');
    const cursor = query.cursor;
    // A cursor is bound to the listing it was issued for: surface, account and filters.
    const owner = cursor === undefined ? account : policy.listingOwner(account, cursor, cursors);
    const scope = `${surface.scope(request)}\n${owner}\n${JSON.stringify(Object.entries(filters).sort())}`;
    let list = jobs.list(surface.scope(request), owner).filter((j) => policy.matchesFilters(j.labels, filters));
    if (oldestFirst) list.reverse();
    const pos = cursor === undefined ? undefined : policy.cursorPosition(cursors, scope, cursor);
    const before = (j: V2Job, p: CursorPosition) =>
      j.createdAt < p.createdAt || (j.createdAt === p.createdAt && j.id < p.id);
    if (pos)
      list = list.filter((j) =>
        oldestFirst ? !before(j, pos) && !(j.createdAt === pos.createdAt && j.id === pos.id) : before(j, pos),
      );
    const page = list.slice(0, policy.pageSize(limit));
    const body: Record<string, unknown> = {
      jobs: page.map((j) => {
        const state = engine.get(j.id);
        return {
          id: j.id,
          status: state?.status ?? 'expired',
          created_at: iso(j.createdAt),
          expires_at: iso(j.expiresAt),
          ...(j.labels ? { metadata: { ...j.labels } } : {}),
        };
      }),
    };
    const last = page[page.length - 1];
    if (list.length > limit && last)
      body.next_cursor = cursors.encode(scope, { createdAt: last.createdAt, id: last.id });
    return reply.send(body);
  });
}
