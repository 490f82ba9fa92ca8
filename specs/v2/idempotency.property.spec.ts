// Idempotent submission as a property (seed W:19:bd358774d6ec, W:207:65c2b70e7bc8): for any
// key, any number of concurrent submits of one request under it make exactly one job (every
// other answer is that job again or 422 idempotency_key_reuse: both readings of "idempotent",
// lib/v2/idempotency.ts), a later request of another workflow under it is refused 422, and
// distinct keys never share a job.
import fc from 'fast-check';
import { randomUUID } from 'node:crypto';
import { test, rules } from '../../fixtures/test.ts';
import { check } from '../../lib/check.ts';
import { checkOneJobPerKey, checkOtherRequestRefused } from '../../lib/v2/idempotency.ts';
import { assertProperty } from '../../fixtures/property.ts';
import { anyWorkflow, pollToEnd, postJob, refusedClasses, type Job } from '../../lib/v2/jobs.ts';

// Header-safe key bodies; each run prefixes its own nonce so that two runs that draw the
// same key still send distinct keys (a repeat would rightly be refused as a reuse).
const keyBody = fc.stringMatching(/^[A-Za-z0-9._~-]{1,48}$/);

test.describe('Idempotent submission (property)', () => {
  test(
    'submission is idempotent for any key: concurrent submits of one request make one job, ' +
      'another request under the key is refused 422 idempotency_key_reuse, distinct keys give distinct jobs',
    rules('V2.JOB.IDEMPOTENT'),
    async ({ api, profile }, testInfo) => {
      const jobs = new Set<string>();
      const nonce = randomUUID().slice(0, 8);
      let run = 0;
      // Each run creates a job and waits for it, so the account's queue never fills.
      await assertProperty(
        testInfo,
        { ...profile, numRuns: Math.min(profile.numRuns, 10) },
        fc.tuple(keyBody, fc.integer({ min: 1, max: 4 })),
        async ([body, parallel]) => {
          const key = `${nonce}-${run++}-${body}`;
          const workflow = anyWorkflow(api);
          const answers = await Promise.all(Array.from({ length: parallel }, () => postJob(api, { workflow }, key)));
          for (const a of answers) refusedClasses(api, a, workflow);
          // Inside a property a broken check throws, so past this line there is exactly one job.
          const jobId = checkOneJobPerKey(answers, `${parallel} concurrent submit(s) with key ${key}`)!;
          check('V2.JOB.IDEMPOTENT', !jobs.has(jobId), {
            what: `the job created with the fresh key ${key}`,
            expected: 'a job no other key created',
            received: jobId,
          });
          jobs.add(jobId);
          // A later reuse with another workflow is refused.
          checkOtherRequestRefused(await postJob(api, { workflow: anyWorkflow(api, 3, 3) }, key), jobId);
          const job = answers.find((r) => r.status >= 200 && r.status < 300)!.json<Job>();
          await pollToEnd(api, job);
        },
      );
    },
  );
});
