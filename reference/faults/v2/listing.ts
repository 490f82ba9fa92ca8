// v2 faults of job listing (seed W § Jobs, listing): pages, filters, cursors.
import type { FaultUnit } from '../unit.ts';
import { ApiError } from '../../errors.ts';

export const LISTING_FAULTS = [
  {
    name: 'cursor-follows-owner',
    breaks: 'V2.ERR.LIST_REFUSALS',
    statements: ['W:223:eb707c12e701'],
    description: "a job-list cursor issued to another account is accepted and continues that account's listing",
    install(s) {
      // A genuine cursor of another account continues that account's listing.
      s.policy.v2.listingOwner = (caller, cursor, cursors) => cursors.issuedScope(cursor)?.split('\n')[1] ?? caller;
    },
  },
  {
    // W:223: a cursor the server refuses is refused 400 invalid_cursor. The cursor is validated
    // with the other query fields, so a bad one gets their refusal.
    name: 'cursor-refused-invalid-request',
    breaks: 'V2.ERR.LIST_REFUSALS',
    statements: ['W:223:eb707c12e701'],
    description:
      'a job-list cursor the server cannot read is refused 422 invalid_request (validated like the limit) instead of 400 invalid_cursor',
    install(s) {
      s.respond({ routes: ['GET /api/v2/jobs'] }, (out) => {
        if (out.error?.code === 'invalid_cursor')
          out.fail(new ApiError('invalid_request', 'cursor: not a valid value'));
      });
    },
  },
  {
    name: 'list-page-one-extra',
    breaks: 'V2.JOB.LIST_WALK',
    description: 'job listing pages carry one job more than limit',
    install(s) {
      s.policy.v2.pageSize = (limit) => limit + 1;
    },
  },
  {
    name: 'list-filter-ignored',
    breaks: 'V2.JOB.LIST_FILTER',
    statements: ['W:222:ef000ea7c544'],
    description: 'job listing accepts metadata filters but does not apply them',
    install(s) {
      s.policy.v2.matchesFilters = () => true;
    },
  },
  {
    name: 'list-unimplemented-as-403',
    breaks: 'V2.ERR.NOT_IMPLEMENTED',
    statements: ['W:224:cee6106f4ee8'],
    description: 'the cloud job list answers 403 forbidden instead of 501 not_implemented',
    install(s) {
      s.respond({ routes: ['GET /api/v2/jobs'] }, (out) => {
        if (out.error?.code === 'not_implemented') out.fail(new ApiError('forbidden', 'listing is not allowed'));
      });
    },
  },
  {
    name: 'list-filters-unbounded',
    breaks: 'V2.JOB.LIST_FILTER_LIMIT',
    statements: ['W:222:ef000ea7c544'],
    description: 'the job list answers more metadata filters than three with an empty page instead of refusing them',
    install(s) {
      s.respond({ routes: ['GET /api/v2/jobs'] }, (out) => {
        if (out.error?.code !== 'invalid_metadata_filter' || !/at most \d+ filters/.test(out.error.message)) return;
        out.status = 200;
        out.body = { jobs: [] };
      });
    },
  },
  {
    name: 'list-cursor-wraps-around',
    breaks: 'V2.JOB.LIST_WALK',
    description:
      'the last page of a job listing carries, instead of no cursor, the cursor of its second page again, so a walk never ends',
    install(s) {
      // Per query (everything but the cursor), the first cursor handed out; the last page hands it out again.
      const second = new Map<string, string>();
      s.respond({ routes: ['GET /api/v2/jobs'] }, (out) => {
        const body = out.body as { next_cursor?: string } | undefined;
        if (out.status !== 200 || !body) return;
        const { cursor, ...rest } = out.request.query as Record<string, string>;
        const key = JSON.stringify(rest);
        if (body.next_cursor && !cursor) second.set(key, body.next_cursor);
        else if (!body.next_cursor && cursor && second.has(key)) body.next_cursor = second.get(key);
      });
    },
  },
  {
    name: 'list-empty-pages-forever',
    breaks: 'V2.JOB.LIST_WALK',
    // Serverless only: there the walk is scoped to the test's own jobs by label. The local
    // surface keeps no labels, so its walk is the whole list under a page budget, and
    // endless empty pages there end 'error' at the budget (a list of other callers' jobs
    // may legitimately page past empty pages), never a verdict.
    description:
      'past the last job, the serverless job listing keeps answering empty pages that each carry a new cursor',
    install(s) {
      const MARK = 'past-the-end-';
      let n = 0;
      const pastTheEnd = new WeakSet<object>();
      // A cursor of this fault's own making is taken off the request (the listing would refuse
      // it) and the answer replaced by one more empty page.
      const on = { surfaces: ['serverless'], routes: ['GET /api/v2/jobs'] } as const;
      s.request(
        on,
        (inc) => {
          const q = inc.request.query as Record<string, string>;
          if (!q.cursor?.startsWith(MARK)) return;
          delete q.cursor;
          pastTheEnd.add(inc.request);
        },
        'preHandler',
      );
      s.respond(on, (out) => {
        const body = out.body as { jobs?: unknown[]; next_cursor?: string } | undefined;
        if (out.status !== 200 || !body) return;
        if (pastTheEnd.has(out.request)) out.body = { jobs: [], next_cursor: `${MARK}${++n}` };
        else if (!body.next_cursor) body.next_cursor = `${MARK}${++n}`;
      });
    },
  },
] as const satisfies ReadonlyArray<FaultUnit>;
