// Idempotent submission as a property (seed W § What the service does, design rule 2;
// Errors: idempotency_key_reuse 422): for any key, any number of concurrent submits with
// it create exactly one job, every other answer and any later reuse are refused 422,
// and distinct keys never share a job.
import fc from 'fast-check';
import { randomUUID } from 'node:crypto';
import { test, rules } from '../../fixtures/test.ts';
import { check, checkStatus } from '../../lib/check.ts';
import { emptyImageWorkflow } from '../../lib/data/workflows.ts';
import { assertProperty } from '../../fixtures/property.ts';
import { pollToEnd, postJob, type Job } from '../../lib/v2/jobs.ts';

// Header-safe key bodies; each run prefixes its own nonce so that two runs that draw the
// same key still send distinct keys (a repeat would rightly be refused as a reuse).
const keyBody = fc.stringMatching(/^[A-Za-z0-9._~-]{1,48}$/);

test.describe('Idempotent submission (property)', () => {
  test('for any key, concurrent submits create one job, the rest and any reuse are refused 422 idempotency_key_reuse; distinct keys give distinct jobs', rules('V2.JOB.IDEMPOTENT'), async ({ api, profile }, testInfo) => {
    const jobs = new Set<string>();
    const nonce = randomUUID().slice(0, 8);
    let run = 0;
    // Each run creates a job and waits for it, so the account's queue never fills.
    await assertProperty(testInfo, { ...profile, numRuns: Math.min(profile.numRuns, 10) }, fc.tuple(keyBody, fc.integer({ min: 1, max: 4 })), async ([body, parallel]) => {
      const key = `${nonce}-${run++}-${body}`;
      const answers = await Promise.all(Array.from({ length: parallel }, () => postJob(api, { workflow: emptyImageWorkflow() }, key)));
      const created = answers.filter((r) => r.status === 201);
      const refused = answers.filter((r) => r.status === 422 && r.errorCode === 'idempotency_key_reuse');
      check('V2.JOB.IDEMPOTENT', created.length === 1 && refused.length === parallel - 1, `${parallel} concurrent submit(s) with key ${key}`, `1 created, ${parallel - 1} refused idempotency_key_reuse`, answers.map((r) => `${r.status} ${r.errorCode ?? ''}`.trim()).join(', '));
      const job = created[0]!.json<Job>();
      check('V2.JOB.IDEMPOTENT', !jobs.has(job.id), `the job created with the fresh key ${key}`, 'a job no other key created', job.id);
      jobs.add(job.id);
      // A later reuse, even with another workflow, is refused too.
      checkStatus('V2.JOB.IDEMPOTENT', await postJob(api, { workflow: emptyImageWorkflow(3, 3) }, key), [422], 'idempotency_key_reuse');
      await pollToEnd(api, job);
    });
  });
});
