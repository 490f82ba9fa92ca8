// Job listing with opaque cursors (seed W § Errors: invalid_cursor, invalid_request for
// limit, invalid_metadata_filter, not_implemented; public docs: list jobs).
import fc from 'fast-check';
import { randomUUID } from 'node:crypto';
import { test, rules } from '../../fixtures/test.ts';
import { check, checkStatus, ensure, notJudged } from '../../lib/check.ts';
import { emptyImageWorkflow } from '../../lib/data/workflows.ts';
import { assertProperty } from '../../fixtures/property.ts';
import type { ApiClient } from '../../lib/api.ts';
import { submitJob } from '../../lib/v2/jobs.ts';

interface Page {
  jobs: Array<{ id: string; metadata?: Record<string, string> }>;
  next_cursor?: string;
}

async function walk(api: ApiClient, limit: number, query: Record<string, string> = {}, maxPages = 60): Promise<{ ids: string[]; cursors: string[] }> {
  const ids: string[] = [];
  const cursors: string[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < maxPages; page++) {
    const res = await api.call('listJobs', { query: { limit, ...query, ...(cursor ? { cursor } : {}) } });
    checkStatus('V2.JOB.LIST_WALK', res, [200]);
    const body = res.json<Page>();
    check('V2.JOB.LIST_WALK', body.jobs.length <= limit, `page ${page + 1} with limit ${limit}`, `at most ${limit} jobs`, body.jobs.length);
    ids.push(...body.jobs.map((j) => j.id));
    if (!body.next_cursor) return { ids, cursors };
    cursors.push(body.next_cursor);
    cursor = body.next_cursor;
  }
  check('V2.JOB.LIST_WALK', false, `walking with limit ${limit}`, `an end within ${maxPages} pages`, 'more pages');
  return { ids, cursors };
}

test.describe('Job list', () => {
  test('walking the list with random limits yields every job once, no duplicates, no gaps', rules('V2.JOB.LIST_WALK'), async ({ api, profile }, testInfo) => {
    const mine = new Set<string>();
    for (let i = 0; i < 7; i++) mine.add((await submitJob(api, { workflow: emptyImageWorkflow() })).id);
    await assertProperty(testInfo, { ...profile, numRuns: Math.min(profile.numRuns, 8) }, fc.integer({ min: 1, max: 9 }), async (limit) => {
      const { ids } = await walk(api, limit);
      check('V2.JOB.LIST_WALK', new Set(ids).size === ids.length, `walk with limit ${limit}`, 'no job twice', `${ids.length - new Set(ids).size} duplicates`);
      const missing = [...mine].filter((id) => !ids.includes(id));
      check('V2.JOB.LIST_WALK', missing.length === 0, `walk with limit ${limit}`, 'every job this test created', `missing ${missing.join(', ')}`);
    });
  });

  test('a mutated cursor is refused 400 invalid_cursor, a bad filter 400 invalid_metadata_filter, a non-positive limit 422 invalid_request', rules('V2.ERR.LIST_REFUSALS'), async ({ api, profile }, testInfo) => {
    for (let i = 0; i < 3; i++) await submitJob(api, { workflow: emptyImageWorkflow() });
    const first = await api.call('listJobs', { query: { limit: 1 } });
    const cursor = first.json<Page>().next_cursor;
    ensure('V2.ERR.LIST_REFUSALS', typeof cursor === 'string' && cursor.length > 0, 'next_cursor of a first page of 1 with more jobs', 'a cursor', cursor);
    const pageIds = (res: { json<T>(): T }) => res.json<Page>().jobs.map((j) => j.id).join(',');
    const baseline = pageIds(await api.call('listJobs', { query: { limit: 1, cursor } }));
    await assertProperty(testInfo, { ...profile, numRuns: Math.min(profile.numRuns, 15) }, fc.tuple(fc.nat(cursor.length - 1), fc.constantFrom('A', 'z', '0', '_', '-')), async ([at, ch]) => {
      const mutated = cursor.slice(0, at) + (cursor[at] === ch ? 'B' : ch) + cursor.slice(at + 1);
      const res = await api.call('listJobs', { query: { limit: 1, cursor: mutated } });
      if (res.status === 400) return checkStatus('V2.ERR.LIST_REFUSALS', res, [400], 'invalid_cursor');
      // An opaque cursor may have equivalent spellings (e.g. base64 padding bits): accepted is
      // fine only if it is the same cursor, giving the same page; anything else is reinterpretation.
      check('V2.ERR.LIST_REFUSALS', res.status === 200 && pageIds(res) === baseline, `a cursor with character ${at} changed`, '400 invalid_cursor, or exactly the page of the original cursor', `${res.status} ${res.status === 200 ? pageIds(res) : res.errorCode ?? ''}`);
    });
    for (const limit of ['0', '-3', 'ten']) checkStatus('V2.ERR.LIST_REFUSALS', await api.call('listJobs', { query: { limit } }), [422], 'invalid_request');
    const fourFilters = { 'metadata[a]': '1', 'metadata[b]': '2', 'metadata[c]': '3', 'metadata[d]': '4' };
    checkStatus('V2.ERR.LIST_REFUSALS', await api.call('listJobs', { query: fourFilters }), [400], 'invalid_metadata_filter');
  });

  test("a cursor issued to another account is refused 400 invalid_cursor, and never shows that account's jobs", rules('V2.ERR.LIST_REFUSALS'), async ({ api, requireScenario }) => {
    const other = api.as({ bearer: requireScenario('other_account_token', "second account's key") as string });
    const theirs = [(await submitJob(other, { workflow: emptyImageWorkflow() })).id, (await submitJob(other, { workflow: emptyImageWorkflow() })).id];
    const first = await other.call('listJobs', { query: { limit: 1 } });
    const cursor = first.json<Page>().next_cursor;
    check('V2.ERR.LIST_REFUSALS', typeof cursor === 'string' && cursor.length > 0, "the other account's first page of 1 (it has more jobs)", 'a next_cursor', cursor);
    const res = await api.call('listJobs', { query: { limit: 5, cursor } });
    if (res.status === 400) return checkStatus('V2.ERR.LIST_REFUSALS', res, [400], 'invalid_cursor');
    // A server whose cursors are positions only may accept it, but only as a place in the
    // caller's own list: the other account's jobs must not appear.
    const leaked = res.status === 200 ? res.json<Page>().jobs.map((j) => j.id).filter((id) => theirs.includes(id)) : [];
    check('V2.ERR.LIST_REFUSALS', res.status === 200 && leaked.length === 0, "a list request with the other account's cursor", "400 invalid_cursor (or a page of the caller's own jobs)", `${res.status} ${res.errorCode ?? ''}${leaked.length ? ` with the other account's jobs ${leaked.join(', ')}` : ''}`);
  });

  test('label filters select exactly the jobs whose labels match every filter', rules('V2.JOB.LIST_FILTER'), async ({ api }) => {
    const run = randomUUID().slice(0, 8);
    const a = await submitJob(api, { workflow: emptyImageWorkflow(), metadata: { run, side: 'a' } });
    const b = await submitJob(api, { workflow: emptyImageWorkflow(), metadata: { run, side: 'b' } });
    const { ids: both } = await walk(api, 10, { 'metadata[run]': run });
    check('V2.JOB.LIST_FILTER', both.length === 2 && both.includes(a.id) && both.includes(b.id), `filter run=${run}`, 'exactly the two jobs labelled with it', both);
    const { ids: onlyA } = await walk(api, 10, { 'metadata[run]': run, 'metadata[side]': 'a' });
    check('V2.JOB.LIST_FILTER', onlyA.length === 1 && onlyA[0] === a.id, `filters run=${run} and side=a`, `only ${a.id}`, onlyA);
  });

  test('a surface that does not list jobs yet answers 501 not_implemented', rules('V2.ERR.NOT_IMPLEMENTED'), async ({ api }) => {
    // Listing may arrive on this surface at any time (v2 is additive): a 200 is fine,
    // but a surface that does not list must say so with 501 not_implemented.
    const res = await api.call('listJobs');
    if (res.status === 200) return notJudged('V2.ERR.NOT_IMPLEMENTED', 'this surface lists jobs (200), so there is no refusal of an unimplemented operation to judge');
    checkStatus('V2.ERR.NOT_IMPLEMENTED', res, [501], 'not_implemented');
  });
});
