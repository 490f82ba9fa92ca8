// The job-list walk (lib/v2/job-walk.ts) against scripted pages: a walk scoped to the test's
// own jobs ends within what they need or breaks V2.JOB.LIST_WALK; short pages that bring
// new own jobs are fair; an unscoped walk stops at the page budget (the suite's bound, for
// the caller to end error), never as a broken rule. Outside a test a broken check throws.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ApiResponse, type ApiClient } from '../../lib/api.ts';
import { RuleViolation } from '../../lib/violations.ts';
import { walkJobs, LIST_WALK_PAGES_VAR } from '../../lib/v2/job-walk.ts';
import { resetRunConfig, runConfig } from '../../lib/config/index.ts';

type Query = { limit: number; cursor?: string } & Record<string, unknown>;

function fake(
  page: (q: Query, call: number) => { jobs: string[]; next_cursor?: string },
): ApiClient & { calls: number } {
  const api = {
    calls: 0,
    // The run's bounds as the fixtures hand them to the specs' client (the page budget among them).
    bounds: runConfig().bounds,
    async call(operationId: string, opts: { query: Query }) {
      const p = page(opts.query, api.calls++);
      const body = { jobs: p.jobs.map((id) => ({ id })), ...(p.next_cursor ? { next_cursor: p.next_cursor } : {}) };
      const raw = {
        status: 200,
        headers: { 'content-type': 'application/json' },
        body: Buffer.from(JSON.stringify(body)),
        truncated: false,
        elapsedMs: 1,
      };
      return new ApiResponse(operationId, 'GET', 'http://127.0.0.1:1/api/v2/jobs', raw, body);
    },
  };
  return api as unknown as ApiClient & { calls: number };
}

/** A correct position-cursor list of `all`, `limit` (capped at `cap`) a page. */
const list =
  (all: string[], cap = Infinity) =>
  (q: Query) => {
    const from = q.cursor ? all.indexOf(q.cursor) + 1 : 0;
    const jobs = all.slice(from, from + Math.min(q.limit, cap));
    return { jobs, ...(from + jobs.length < all.length ? { next_cursor: jobs[jobs.length - 1] } : {}) };
  };

const own = ['a', 'b', 'c', 'd', 'e', 'f', 'g'];
const others = Array.from({ length: 500 }, (_, i) => `x${i}`);

test('a scoped walk of the own jobs ends in ceil(N/limit) pages; short pages that bring new jobs are fair', async () => {
  const walk = await walkJobs(fake(list(own)), { rule: 'V2.JOB.LIST_WALK', limit: 2, own: new Set(own) });
  assert.deepEqual([walk.ids, walk.pages, walk.ended, walk.foreign], [own, 4, true, false]);
  const capped = await walkJobs(fake(list(own, 1)), { rule: 'V2.JOB.LIST_WALK', limit: 9, own: new Set(own) });
  assert.deepEqual([capped.pages, capped.ended], [7, true]);
});

test('a scoped walk whose cursors go on past its own jobs breaks V2.JOB.LIST_WALK (ends)', async () => {
  const api = fake((q) => (q.cursor ? { jobs: [], next_cursor: `${q.cursor}+` } : { jobs: own, next_cursor: 'c1' }));
  await assert.rejects(
    walkJobs(api, { rule: 'V2.JOB.LIST_WALK', limit: 9, own: new Set(own) }),
    (e: unknown) =>
      e instanceof RuleViolation && e.rule === 'V2.JOB.LIST_WALK' && /an end within 1 pages and 2 more/.test(e.message),
  );
  assert.equal(api.calls, 4);
});

test('a cursor given back twice breaks V2.JOB.LIST_WALK, scoped or not', async () => {
  const api = fake((q) => ({ jobs: q.cursor ? [] : ['x1'], next_cursor: 'same' }));
  await assert.rejects(
    walkJobs(api, { rule: 'V2.JOB.LIST_WALK', limit: 3 }),
    (e: unknown) => e instanceof RuleViolation && /a next_cursor not given before/.test(e.message),
  );
});

test('a page over the limit breaks V2.JOB.LIST_WALK', async () => {
  await assert.rejects(
    walkJobs(
      fake((q) => ({ jobs: own.slice(0, q.limit + 1) })),
      { rule: 'V2.JOB.LIST_WALK', limit: 3, own: new Set(own) },
    ),
    (e: unknown) => e instanceof RuleViolation && /at most 3 jobs/.test(e.message),
  );
});

test('an unscoped walk of a long list stops at the page budget, judged only as far as it went', async () => {
  process.env[LIST_WALK_PAGES_VAR] = '5';
  resetRunConfig();
  try {
    const walk = await walkJobs(fake(list([...own, ...others])), { rule: 'V2.JOB.LIST_WALK', limit: 3 });
    assert.deepEqual([walk.pages, walk.ended, walk.outOfBudget, walk.ids.length], [5, false, 5, 15]);
    // A filter the list does not apply turns a scoped walk into an unscoped one.
    const ignored = await walkJobs(fake(list([...others.slice(0, 4), ...own])), {
      rule: 'V2.JOB.LIST_WALK',
      limit: 1,
      own: new Set(own),
    });
    assert.deepEqual([ignored.foreign, ignored.ended, ignored.outOfBudget], [true, false, 5]);
    const stopped = await walkJobs(fake(list([...others.slice(0, 4), ...own])), {
      rule: 'V2.JOB.LIST_WALK',
      limit: 1,
      own: new Set(own),
      stopOnForeign: true,
    });
    assert.deepEqual([stopped.foreign, stopped.pages], [true, 1]);
  } finally {
    delete process.env[LIST_WALK_PAGES_VAR];
    resetRunConfig();
  }
});
