// Job listing (seed W § Errors: invalid_cursor, invalid_request for limit,
// invalid_metadata_filter, not_implemented; public docs: list jobs). The seed gives the list
// no order, no consistency and no cursor format: cursors are not said to be opaque.
import fc from 'fast-check';
import { randomUUID } from 'node:crypto';
import { test, rules } from '../../fixtures/test.ts';
import { check, checkStatus, ensure, notJudged, step } from '../../lib/check.ts';
import { SuiteCountBound } from '../../lib/violations.ts';
import { assertProperty } from '../../fixtures/property.ts';
import { accepted, anyWorkflow, postJob, refusedClasses, submitJob, type Job } from '../../lib/v2/jobs.ts';
import { LIST_WALK_PAGES_VAR, walkJobs } from '../../lib/v2/job-walk.ts';

interface Page {
  jobs: Array<{ id: string; metadata?: Record<string, string> }>;
  next_cursor?: string;
}

// A surface may keep no job labels (seed W:221:da2758a81dda, W:53:60fb6dc0818b) or refuse
// this one (W:220:7eb6baa5b560, limits not shown): then the walk cannot be scoped to the
// test's jobs.

test.describe('Job list', () => {
  test(
    'walking the list with random limits yields every job once, no duplicates, no gaps',
    rules('V2.JOB.LIST_WALK'),
    async ({ api, profile }, testInfo) => {
      const probe = await api.call('listJobs', { query: { limit: 1 } });
      if (probe.status === 501)
        return notJudged('V2.JOB.LIST_WALK', 'this surface does not list jobs yet (501 not_implemented)');
      // The server may hold any number of jobs the suite did not create: each walk is scoped to
      // this test's own jobs by a label only they carry and the list's label filter, where the
      // surface keeps labels and applies the filter; elsewhere it walks the whole list within a
      // page budget (lib/v2/job-walk.ts).
      const label = { walk: randomUUID().slice(0, 8) };
      const filter = { 'metadata[walk]': label.walk };
      let unscoped: string | undefined;
      const mine = new Set<string>();
      for (let i = 0; i < 7; i++) {
        const workflow = anyWorkflow(api);
        if (unscoped === undefined) {
          const res = await step('submit a labelled job (POST /api/v2/jobs)', async () => {
            const r = await postJob(api, { workflow, metadata: label });
            refusedClasses(api, r, workflow);
            // A refusal of the labels (with the seed's code or another: that is
            // V2.ERR.METADATA_NOT_SUPPORTED's question, judged in its own test) leaves the walk
            // unscoped; the unlabelled submits that follow are V2.JOB.SUBMIT's.
            if (i === 0 && r.status >= 400 && r.status < 500) return r;
            ensure('V2.JOB.SUBMIT', accepted(r), {
              what: `POST /api/v2/jobs answered ${r.status}${r.errorCode ? ` ${r.errorCode}` : ''}`,
              expected: 'a success (2xx; the public documents say 201)',
              received: r.status,
              on: r,
            });
            return r;
          });
          if (accepted(res)) {
            mine.add(res.json<Job>().id);
            continue;
          }
          unscoped = `this surface refuses job labels (${res.status} ${res.errorCode})`;
        }
        mine.add((await submitJob(api, { workflow })).id);
      }
      if (unscoped === undefined) {
        // A surface that keeps labels but cannot filter by them is LIST_FILTER's to judge.
        const filtered = await api.call('listJobs', { query: { limit: 1, ...filter } });
        if (filtered.status !== 200)
          unscoped = `the list refuses the label filter (${filtered.status}${filtered.errorCode ? ` ${filtered.errorCode}` : ''})`;
      }
      const scope = unscoped === undefined ? { query: filter, own: mine as ReadonlySet<string> } : {};
      let outOfBudget: { limit: number; pages: number; why: string } | undefined;
      await assertProperty(
        testInfo,
        { ...profile, numRuns: Math.min(profile.numRuns, 8) },
        fc.integer({ min: 1, max: 9 }),
        async (limit) => {
          // One walk past the budget says it: the next would cost as much.
          if (outOfBudget === undefined) {
            const walk = await walkJobs(api, { rule: 'V2.JOB.LIST_WALK', limit, ...scope });
            const { ids } = walk;
            check('V2.JOB.LIST_WALK', new Set(ids).size === ids.length, {
              what: `walk with limit ${limit}`,
              expected: 'no job twice',
              received: `${ids.length - new Set(ids).size} duplicates`,
            });
            if (walk.outOfBudget !== undefined)
              outOfBudget = {
                limit,
                pages: walk.outOfBudget,
                why: unscoped ?? 'the list did not apply the label filter, listing jobs of others',
              };
            else {
              const missing = [...mine].filter((id) => !ids.includes(id));
              // The likely cause first: where the walk ended, and why (a page without next_cursor).
              check('V2.JOB.LIST_WALK', missing.length === 0, {
                what: `walk with limit ${limit}`,
                expected: 'every job this test created',
                received:
                  `the walk ended after page ${walk.pages}, which ` +
                  `${walk.ended ? 'had no next_cursor' : 'gave a cursor it had given before'}, with ` +
                  `${missing.length} of this test's ${mine.size} jobs never listed: missing ${missing.join(', ')}`,
              });
            }
          }
        },
      );
      // What the walks reached was judged above; whether the whole list ends and holds every
      // job of this test could not be, within the suite's budget.
      if (outOfBudget)
        throw new SuiteCountBound(
          `walking the whole job list with limit ${outOfBudget.limit} (it could not be scoped to this test's jobs: ${outOfBudget.why}) did not end`,
          outOfBudget.pages,
          'pages',
          LIST_WALK_PAGES_VAR,
        );
    },
  );

  test(
    'a jobs-list limit below 1, or not a whole number, is refused 422 invalid_request; a cursor the server refuses is refused 400 invalid_cursor',
    rules('V2.ERR.LIST_REFUSALS'),
    async ({ api, profile }, testInfo) => {
      const probe = await api.call('listJobs', { query: { limit: 1 } });
      if (probe.status === 501)
        return notJudged('V2.ERR.LIST_REFUSALS', 'this surface does not list jobs yet (501 not_implemented)');
      // Each refusal is judged on its own: one wrong answer does not hide the others.
      // Seed W:217:ae18d5395772: a jobs-list limit below 1, or not a whole number, is 422 invalid_request.
      for (const limit of ['0', '-3', 'ten']) {
        const res = await api.call('listJobs', { query: { limit } });
        check('V2.ERR.LIST_REFUSALS', res.status === 422 && res.errorCode === 'invalid_request', {
          what: `the job list with limit=${limit}`,
          expected: '422 invalid_request',
          received: `${res.status} ${res.errorCode ?? ''}`.trim(),
          on: res,
        });
      }

      for (let i = 0; i < 3; i++) await submitJob(api, { workflow: anyWorkflow(api) });
      const first = await api.call('listJobs', { query: { limit: 1 } });
      const cursor = first.json<Page>().next_cursor;
      // Whether the list pages at all is V2.JOB.LIST_WALK's question (public docs); without a
      // cursor there is none to change.
      if (typeof cursor !== 'string' || cursor.length === 0)
        return notJudged(
          'V2.ERR.LIST_REFUSALS',
          'the first page of 1 (of several jobs) carries no next_cursor, so no cursor could be changed (paging is V2.JOB.LIST_WALK)',
        );
      // v2 cursors are not said to be opaque or tamper-evident (seed W:223:eb707c12e701 gives the
      // code only): a changed cursor may be read as another position. What is judged is that a
      // refusal of it is 400 invalid_cursor.
      await assertProperty(
        testInfo,
        { ...profile, numRuns: Math.min(profile.numRuns, 15) },
        fc.tuple(fc.nat(cursor.length - 1), fc.constantFrom('A', 'z', '0', '_', '-')),
        async ([at, ch]) => {
          const changed = cursor.slice(0, at) + (cursor[at] === ch ? 'B' : ch) + cursor.slice(at + 1);
          const res = await api.call('listJobs', { query: { limit: 1, cursor: changed } });
          check(
            'V2.ERR.LIST_REFUSALS',
            res.status === 200 || (res.status === 400 && res.errorCode === 'invalid_cursor'),
            {
              what: `a cursor with character ${at} changed`,
              expected: 'a page (200), or a refusal 400 invalid_cursor',
              received: `${res.status} ${res.errorCode ?? ''}`.trim(),
              on: res,
            },
          );
        },
      );
    },
  );

  test(
    'more metadata filters than the public documents allow (three) are refused 400 invalid_metadata_filter',
    rules('V2.JOB.LIST_FILTER_LIMIT'),
    async ({ api }) => {
      const probe = await api.call('listJobs', { query: { limit: 1 } });
      if (probe.status === 501)
        return notJudged('V2.JOB.LIST_FILTER_LIMIT', 'this surface does not list jobs yet (501 not_implemented)');
      const fourFilters = { 'metadata[a]': '1', 'metadata[b]': '2', 'metadata[c]': '3', 'metadata[d]': '4' };
      const res = await api.call('listJobs', { query: fourFilters });
      check('V2.JOB.LIST_FILTER_LIMIT', res.status === 400 && res.errorCode === 'invalid_metadata_filter', {
        what: 'the job list with four metadata filters',
        expected: '400 invalid_metadata_filter (the public documents allow three)',
        received: `${res.status} ${res.errorCode ?? ''}`.trim(),
        on: res,
      });
    },
  );

  test(
    "a cursor issued to another account is refused 400 invalid_cursor, and never shows that account's jobs",
    rules('V2.ERR.LIST_REFUSALS'),
    async ({ api, requireScenario }) => {
      const other = api.as({ bearer: requireScenario('other_account_token', "second account's key") as string });
      const theirs = [
        (await submitJob(other, { workflow: anyWorkflow(other) })).id,
        (await submitJob(other, { workflow: anyWorkflow(other) })).id,
      ];
      const first = await other.call('listJobs', { query: { limit: 1 } });
      const cursor = first.json<Page>().next_cursor;
      if (typeof cursor !== 'string' || cursor.length === 0)
        return notJudged(
          'V2.ERR.LIST_REFUSALS',
          "the other account's first page of 1 (of several jobs) carries no next_cursor, so there is no foreign cursor to send (paging is V2.JOB.LIST_WALK)",
        );
      const res = await api.call('listJobs', { query: { limit: 5, cursor } });
      if (res.status === 400) return checkStatus('V2.ERR.LIST_REFUSALS', res, [400], 'invalid_cursor');
      // A server whose cursors are positions only may accept it, but only as a place in the
      // caller's own list: the other account's jobs must not appear.
      const leaked =
        res.status === 200
          ? res
              .json<Page>()
              .jobs.map((j) => j.id)
              .filter((id) => theirs.includes(id))
          : [];
      check('V2.ERR.LIST_REFUSALS', res.status === 200 && leaked.length === 0, {
        what: "a list request with the other account's cursor",
        expected: "400 invalid_cursor (or a page of the caller's own jobs)",
        received: `${res.status} ${res.errorCode ?? ''}${leaked.length ? ` with the other account's jobs ${leaked.join(', ')}` : ''}`,
        on: res,
      });
    },
  );

  test(
    'label filters select exactly the jobs whose labels match every filter',
    rules('V2.JOB.LIST_FILTER'),
    async ({ api }) => {
      const run = randomUUID().slice(0, 8);
      const a = await submitJob(api, { workflow: anyWorkflow(api), metadata: { run, side: 'a' } });
      const b = await submitJob(api, { workflow: anyWorkflow(api), metadata: { run, side: 'b' } });
      const { ids: both } = await walkJobs(api, {
        rule: 'V2.JOB.LIST_WALK',
        limit: 10,
        query: { 'metadata[run]': run },
        own: new Set([a.id, b.id]),
        stopOnForeign: true,
      });
      check('V2.JOB.LIST_FILTER', both.length === 2 && both.includes(a.id) && both.includes(b.id), {
        what: `filter run=${run}`,
        expected: 'exactly the two jobs labelled with it',
        received: both,
      });
      const { ids: onlyA } = await walkJobs(api, {
        rule: 'V2.JOB.LIST_WALK',
        limit: 10,
        query: { 'metadata[run]': run, 'metadata[side]': 'a' },
        own: new Set([a.id]),
        stopOnForeign: true,
      });
      check('V2.JOB.LIST_FILTER', onlyA.length === 1 && onlyA[0] === a.id, {
        what: `filters run=${run} and side=a`,
        expected: `only ${a.id}`,
        received: onlyA,
      });
    },
  );

  test(
    'a surface that does not list jobs yet answers 501 not_implemented',
    rules('V2.ERR.NOT_IMPLEMENTED'),
    async ({ api }) => {
      // Listing may arrive on this surface at any time (v2 is additive): a 200 list is fine
      // (its body is the contract's to judge), but a refusal must be 501 not_implemented (seed
      // W:224:cee6106f4ee8). The seed gives the list no order and no consistency, so a 200 is
      // not asked to show a job submitted a moment ago.
      const res = await api.call('listJobs');
      check(
        'V2.ERR.NOT_IMPLEMENTED',
        res.status === 200 || (res.status === 501 && res.errorCode === 'not_implemented'),
        {
          what: 'the job list',
          expected: '200 (the surface lists jobs) or 501 not_implemented',
          received: `${res.status} ${res.errorCode ?? ''}`.trim(),
          on: res,
        },
      );
    },
  );
});
