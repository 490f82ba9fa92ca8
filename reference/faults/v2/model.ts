// v2 faults only a sequence of actions shows (issue #24 § 5): each breaks its rule after some
// earlier action changed the server's state, the way a real server keeps state wrong. No
// single-scenario check takes the path that leads there; the v2 state machine
// (specs/v2/model.property.spec.ts) draws sequences that do, and catches each under the rule.
import type { FastifyRequest } from 'fastify';
import type { FaultUnit } from '../unit.ts';
import { formatHash } from '../../blobs.ts';
import type { SurfaceName } from '../../context.ts';
import { CONTENT, param, record } from './shared.ts';

const ok = (status: number) => status >= 200 && status < 300;

/** One caller of one listing: surface, deployment and credential. */
function callerOf(surface: SurfaceName, request: FastifyRequest): string {
  const deployment = (request.params as Record<string, unknown> | undefined)?.deployment;
  return `${surface}\n${typeof deployment === 'string' ? deployment : ''}\n${request.headers.authorization ?? ''}`;
}

const OFFSET_CURSOR = /^off\.(\d+)\.(\d+)$/;

export const MODEL_FAULTS = [
  {
    name: 'dedup-lost-after-range',
    breaks: 'V2.ASSET.DEDUP',
    description:
      "after a ranged read of an asset's content, the self-hosted proxy takes the same bytes for new " +
      'at their next upload (201, created_new true): serving the slice re-stages the blob and drops it ' +
      'from the dedup index. Caught by the v2 state machine alone; no hand-written check uploads bytes ' +
      'again after a ranged read of them',
    install(s) {
      const restaged = new Set<string>();
      s.respond({ surfaces: ['local'], routes: [CONTENT] }, (out) => {
        if (out.status !== 206) return;
        const rec = out.ctx.assets.get(param(out, 'id'));
        if (rec !== undefined) restaged.add(`${rec.account}\n${rec.hex}`);
      });
      s.respond({ surfaces: ['local'], routes: ['POST /api/v2/assets'] }, (out) => {
        const body = record(out);
        const rec = body === undefined ? undefined : out.ctx.assets.get(body.id as string);
        // A dedup hit (the answer with a matching output carries its job and is left alone).
        if (body === undefined || rec === undefined || body.created_new !== false || body.job_id !== undefined) return;
        if (!restaged.delete(`${rec.account}\n${rec.hex}`)) return;
        out.status = 201;
        body.created_new = true;
      });
    },
  },
  {
    name: 'key-freed-by-cancel',
    breaks: 'V2.JOB.IDEMPOTENT',
    statements: ['W:19:bd358774d6ec'],
    description:
      'canceling a job frees the Idempotency-Key it was submitted under (the cancel runs the clean-up ' +
      'meant for a refused submit), so the key then makes a second job. Caught by the v2 state machine ' +
      'alone; no hand-written check uses a key again after a cancel',
    install(s) {
      const keyOf = new Map<string, string>();
      s.respond({ routes: ['POST /api/v2/jobs'] }, (out) => {
        const body = record(out);
        const key = out.request.headers['idempotency-key'];
        if (body !== undefined && ok(out.status) && typeof key === 'string' && key.length > 0)
          keyOf.set(body.id as string, key);
      });
      s.respond({ routes: ['POST /api/v2/jobs/:id/cancel'] }, (out) => {
        if (!ok(out.status)) return;
        const id = param(out, 'id');
        const job = out.ctx.jobs.get(id);
        const key = keyOf.get(id);
        if (job !== undefined && key !== undefined) out.ctx.jobs.releaseKey(job.scope, job.account, key);
      });
    },
  },
  {
    name: 'filtered-list-offset-skips',
    breaks: 'V2.JOB.LIST_WALK',
    description:
      'a job list filtered by labels pages by offset, moving the offset on by every job the caller ' +
      'submitted since the cursor was issued, whether the filter selects it or not: a job submitted ' +
      'between two pages that the filter does not select makes the walk skip one it does. Caught by ' +
      'the v2 state machine alone, which submits between the pages of a walk; the hand-written walks ' +
      'submit all their jobs first',
    install(s) {
      const submitted = new Map<string, number>();
      const pending = new WeakMap<FastifyRequest, { offset: number; at: number; limit: number }>();
      const filtered = (request: FastifyRequest) =>
        Object.keys(request.query as Record<string, unknown>).some((k) => k.startsWith('metadata['));
      s.respond({ routes: ['POST /api/v2/jobs'] }, (out) => {
        if (!ok(out.status)) return;
        const who = callerOf(out.surface, out.request);
        submitted.set(who, (submitted.get(who) ?? 0) + 1);
      });
      // A cursor of its own making is taken off the request, which is asked for the first
      // hundred filtered jobs; the answer is then cut at the offset.
      s.request(
        { routes: ['GET /api/v2/jobs'] },
        ({ request }) => {
          const q = request.query as Record<string, string>;
          const m = typeof q.cursor === 'string' ? OFFSET_CURSOR.exec(q.cursor) : null;
          if (!filtered(request) || m === null) return;
          const limit =
            q.limit === undefined
              ? 20
              : /^\d+$/.test(q.limit) && Number(q.limit) >= 1
                ? Math.min(Number(q.limit), 100)
                : undefined;
          if (limit === undefined) return;
          pending.set(request, { offset: Number(m[1]), at: Number(m[2]), limit });
          delete q.cursor;
          q.limit = '100';
        },
        'preHandler',
      );
      s.respond({ routes: ['GET /api/v2/jobs'] }, (out) => {
        const body = out.body as { jobs?: unknown[]; next_cursor?: string } | undefined;
        if (out.status !== 200 || body === undefined || !Array.isArray(body.jobs) || !filtered(out.request)) return;
        const now = submitted.get(callerOf(out.surface, out.request)) ?? 0;
        const from = pending.get(out.request);
        if (from === undefined) {
          if (body.next_cursor) body.next_cursor = `off.${body.jobs.length}.${now}`;
          return;
        }
        const all = body.jobs;
        const start = from.offset + (now - from.at);
        body.jobs = all.slice(start, start + from.limit);
        if (all.length > start + from.limit) body.next_cursor = `off.${start + from.limit}.${now}`;
        else delete body.next_cursor;
      });
    },
  },
  {
    name: 'dedup-hit-hash-of-last-blob',
    breaks: 'V2.ASSET.HASH_BLAKE3',
    description:
      'a dedup-hit upload is given the hash of the last new blob the account stored instead of its own ' +
      '(the upload path keeps the digest of the last blob it wrote and reads it before the lookup), on ' +
      'its answer and on every read of that record. Caught by the v2 state machine alone; the ' +
      'hand-written checks upload the same bytes twice in a row, when the last blob written is their ' +
      'own',
    install(s) {
      const last = new Map<string, string>();
      const given = new Map<string, string>();
      s.respond({ routes: ['POST /api/v2/assets'] }, (out) => {
        const body = record(out);
        const rec = body === undefined ? undefined : out.ctx.assets.get(body.id as string);
        if (body === undefined || rec === undefined) return;
        const who = `${out.surface}\n${rec.account}`;
        if (body.created_new === true) {
          last.set(who, rec.hex);
          return;
        }
        const lastHex = last.get(who);
        if (body.created_new !== false || body.job_id !== undefined || lastHex === undefined || lastHex === rec.hex)
          return;
        given.set(rec.id, formatHash(lastHex));
        body.hash = given.get(rec.id);
      });
      s.respond({ routes: ['GET /api/v2/assets/:id', 'POST /api/v2/assets/from-hash'] }, (out) => {
        const body = record(out);
        const hash = body === undefined ? undefined : given.get(body.id as string);
        if (body !== undefined && hash !== undefined) body.hash = hash;
      });
    },
  },
] as const satisfies ReadonlyArray<FaultUnit>;
