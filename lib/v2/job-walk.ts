// Walking the v2 job list with its cursors (next_cursor passed back as cursor), bounded by
// what the walk is about, so a server that already holds many jobs is walked fairly:
//
//   scoped    the query's label filter selects only jobs this test created (`own`): the walk
//             ends within what those need. Every page that brings none of them not seen
//             before is idle; more than IDLE_PAGES idle pages means the walk does not end.
//   unscoped  the whole list (a surface that keeps no labels, or does not apply the filter):
//             its length is the server's, not the suite's, so the walk is bounded by a page
//             budget the suite chose (CONFORMANCE_LIST_WALK_MAX_PAGES) and running out of it
//             is the suite's bound (the caller ends `error` naming it), never a failure.
//
// Judged on every walk, whatever its scope: each page answers 200 with at most `limit`
// jobs, and no cursor comes back twice (a walk that revisits a cursor goes round forever).
import type { ApiClient } from '../api.ts';
import { check, checkStatus } from '../check.ts';
import type { RuleId } from '../rule-ids.ts';

/** Raises the pages of an unscoped walk before the suite gives up (the walk takes them from ApiClient.bounds). */
export const LIST_WALK_PAGES_VAR = 'CONFORMANCE_LIST_WALK_MAX_PAGES';

/** Pages a scoped walk may take that bring no job of its own not seen before (an empty last page, a short one). */
export const IDLE_PAGES = 2;

export interface JobListPage {
  jobs: Array<{ id: string; metadata?: Record<string, string> }>;
  next_cursor?: string;
}

export interface WalkOptions {
  /** The rule the walk's own checks judge (paging is V2.JOB.LIST_WALK's). */
  rule: RuleId;
  limit: number;
  /** Extra query parameters, e.g. `metadata[<key>]` label filters. */
  query?: Record<string, string>;
  /** The jobs the query selects, all created by this test: the walk is scoped to them. Absent: an unscoped walk. */
  own?: ReadonlySet<string>;
  /** Stop at the first page holding a job outside `own` (a filter check needs no more). */
  stopOnForeign?: boolean;
}

export interface Walk {
  ids: string[];
  pages: number;
  /** The last page carried no next_cursor. */
  ended: boolean;
  /** Jobs outside `own` were listed (the filter was not applied): the walk went on unscoped. */
  foreign: boolean;
  /** It stopped at the page budget (unscoped): what it did not reach was not judged. */
  outOfBudget?: number;
}

export async function walkJobs(api: ApiClient, opts: WalkOptions): Promise<Walk> {
  const { rule, limit, own } = opts;
  const ids: string[] = [];
  const seenOwn = new Set<string>();
  const cursors = new Set<string>();
  const budget = api.bounds.listWalkMaxPages;
  let foreign = false;
  let idle = 0;
  let cursor: string | undefined;
  for (let page = 1; ; page++) {
    const res = await api.call('listJobs', { query: { limit, ...opts.query, ...(cursor ? { cursor } : {}) } });
    // Only a broken page is recorded: a walk of the whole list has hundreds of pages.
    if (res.status !== 200) checkStatus(rule, res, [200]);
    const body = res.json<JobListPage>();
    const jobs = Array.isArray(body.jobs) ? body.jobs : [];
    if (jobs.length > limit)
      check(rule, false, {
        what: `page ${page} with limit ${limit}`,
        expected: `at most ${limit} jobs`,
        received: jobs.length,
        on: res,
      });
    let fresh = 0;
    for (const j of jobs) {
      ids.push(j.id);
      if (own?.has(j.id)) {
        if (!seenOwn.has(j.id)) fresh++;
        seenOwn.add(j.id);
      } else if (own) foreign = true;
    }
    const next = body.next_cursor;
    if (!next) return { ids, pages: page, ended: true, foreign };
    if (foreign && opts.stopOnForeign) return { ids, pages: page, ended: false, foreign };
    if (cursors.has(next)) {
      check(rule, false, {
        what: `page ${page} with limit ${limit}`,
        expected: 'a next_cursor not given before in this walk (one given again makes the walk go round forever)',
        received: next,
        on: res,
      });
      return { ids, pages: page, ended: false, foreign };
    }
    cursors.add(next);
    cursor = next;
    if (own && !foreign) {
      if (fresh === 0) idle++;
      if (idle > IDLE_PAGES) {
        check(rule, false, {
          what: `walking the ${own.size} jobs the filter selects, with limit ${limit}`,
          expected: `an end within ${Math.ceil(own.size / limit)} pages and ${IDLE_PAGES} more`,
          received: `still a next_cursor after ${page} pages, ${idle} of them bringing none of these jobs not seen before`,
          on: res,
        });
        return { ids, pages: page, ended: false, foreign };
      }
    } else if (page >= budget) {
      return { ids, pages: page, ended: false, foreign, outOfBudget: budget };
    }
  }
}
