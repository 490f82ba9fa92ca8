// Seed W § What the service does (design rules 1, 2, 4), Job record, Job metadata,
// Output URL forms (job outputs) and Asset rule 4, exercised through real jobs.
import { randomUUID } from 'node:crypto';
// Key order of a JSON object carries no meaning: compare values, not serialisations.
import { isDeepStrictEqual } from 'node:util';
import { setTimeout as delay } from 'node:timers/promises';
import { test, rules } from '../../fixtures/test.ts';
import { check, checkStatus, ensure, notJudged } from '../../lib/check.ts';
import { slowWorkflow } from '../../lib/data/workflows.ts';
import { honourRetryAfter, instant, jobBound, JOB_DEADLINE_VAR, pollUntil } from '../../lib/time.ts';
import type { ApiClient } from '../../lib/api.ts';
import { createAsset, downloadVia, sameBytes, type Asset } from '../../lib/v2/assets.ts';
import { judgeEventStream, reachedStatus } from '../../lib/v2/events.ts';
import { checkOneJobPerKey, checkOtherRequestRefused } from '../../lib/v2/idempotency.ts';
import { jobStates, PUBLIC_JOB_STATES } from '../../lib/v2/states.ts';
import {
  accepted,
  anyWorkflow,
  checkDocumentedFields,
  classes,
  firstOutput,
  followable,
  jobUrl,
  outputAssetId,
  pollToEnd,
  postJob,
  refusedClasses,
  submitJob,
  submitLabelled,
  uploadedImageWorkflow,
  type Job,
} from '../../lib/v2/jobs.ts';
import { cassette } from '../../lib/cassette.ts';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** A finished job that worked from a freshly uploaded image, so its output is unique to this test. */
async function finishedImageJob(
  api: ApiClient,
  body: { metadata?: Record<string, string> } = {},
  prefix = 'conformance',
): Promise<Job> {
  return pollToEnd(api, await submitJob(api, { workflow: await uploadedImageWorkflow(api, prefix), ...body }));
}

/** How soon short_retention_token's jobs must expire for the gone-job check to wait for one. */
const GONE_WITHIN_MS = 60_000;

const readAsset = async (api: ApiClient, id: string) => {
  const res = await api.call('getAsset', { path: { id } });
  checkStatus('V2.ASSET.FIELDS', res, [200]);
  return { asset: res.json<Asset>(), res };
};

test.describe('Jobs: submit, poll, retrieve', () => {
  test(
    'a submitted workflow reaches a terminal state by plain GET polling of its self URL',
    rules('V2.JOB.SUBMIT', 'V2.JOB.POLL_FIRST', 'V2.JOB.FOLLOW_URLS'),
    async ({ api }) => {
      // submitJob judges the submit (a 2xx with a job the suite can follow); pollToEnd follows
      // urls.self where the job embeds it (V2.JOB.FOLLOW_URLS), else the job read path.
      const job = await submitJob(api, { workflow: await uploadedImageWorkflow(api) });
      const done = await pollToEnd(api, job);
      // v2 state names are not shown in the seed (W:100:65afe34f1ab1): the success name is scenario
      // input job_success_state (default the public documents' succeeded; lib/v2/states.ts).
      const { success } = jobStates(api.target.scenario);
      check('V2.JOB.POLL_FIRST', done.status === success, {
        what: 'the terminal status of a valid image workflow',
        expected: `${success} (scenario input job_success_state)`,
        received: `${done.status} ${done.error ? JSON.stringify(done.error) : ''}`,
      });
      // The follow-up URLs the seed itself names on a job (W:62:0daa6bf082cc): each output's url,
      // the content endpoint, which answers the bytes (proxy) or a redirect to them (hosted).
      for (const out of done.outputs) {
        const res = await api.follow(out.url);
        check(
          'V2.JOB.FOLLOW_URLS',
          res.operationId === 'getAssetContent' && (res.status === 200 || res.status === 302),
          {
            what: "GET of an output's url",
            expected: 'the content endpoint: 200 with the bytes, or 302 to them',
            received: `${res.operationId ?? out.url} ${res.status}`,
            on: res,
          },
        );
      }
    },
  );

  test(
    "a succeeded job's outputs are assets whose bytes can be read",
    rules('V2.JOB.OUTPUTS_REAL'),
    async ({ api }) => {
      const done = await finishedImageJob(api);
      const out = firstOutput(done);
      const bytes = await downloadVia(api, out.url);
      check('V2.JOB.OUTPUTS_REAL', bytes.subarray(0, 8).equals(PNG_SIGNATURE), {
        what: 'the bytes behind the output url',
        expected: 'a PNG (the SaveImage output)',
        received: `${bytes.length} bytes starting ${bytes.subarray(0, 8).toString('hex')}`,
      });
      const { asset, res } = await readAsset(api, outputAssetId(out));
      check('V2.JOB.OUTPUTS_REAL', sameBytes(await downloadVia(api, asset.url), bytes), {
        what: "the bytes behind the output's asset url",
        expected: 'the same bytes as behind the output url',
        received: 'other bytes',
        on: res,
      });
    },
  );

  test(
    'a job record and its outputs carry the members the public documents name',
    rules('V2.JOB.FIELDS_DOCUMENTED', 'V2.JOB.OUTPUT_FIELDS_DOCUMENTED'),
    async ({ api, contract }) => {
      const done = await finishedImageJob(api);
      const res = await api.call('getJob', { path: { id: done.id } });
      checkStatus('V2.JOB.FIELDS_DOCUMENTED', res, [200]);
      checkDocumentedFields(contract, res);
      // The public documents' state names, judged here at SHOULD (the seed shows none).
      check('V2.JOB.FIELDS_DOCUMENTED', done.status === PUBLIC_JOB_STATES.success, {
        what: 'the status of a valid image workflow that ran through',
        expected: `${PUBLIC_JOB_STATES.success} (the public documents' name)`,
        received: done.status,
        on: res,
      });
      const out = firstOutput(done);
      if (typeof out.size_bytes === 'number') {
        const bytes = await downloadVia(api, out.url);
        check('V2.JOB.OUTPUT_FIELDS_DOCUMENTED', out.size_bytes === bytes.length, {
          what: 'size_bytes of the output',
          expected: `${bytes.length} (the bytes served)`,
          received: out.size_bytes,
          on: res,
        });
      }
    },
  );

  test(
    'a job output url is the authenticated content endpoint',
    rules('V2.URL.OUTPUT_CONTENT_ENDPOINT'),
    async ({ api, target }) => {
      const out = firstOutput(await finishedImageJob(api));
      const res = await api.follow(out.url, { auth: 'none' });
      ensure('V2.URL.OUTPUT_CONTENT_ENDPOINT', res.operationId === 'getAssetContent', {
        what: "the output's url",
        expected: `the content endpoint ${target.baseUrl}/api/v2/assets/{id}/content`,
        received: out.url,
        on: res,
      });
      // That the endpoint refuses a keyless read is the content endpoint's own rule.
      if (target.token && target.surface !== 'local')
        check('V2.ASSET.CONTENT_AUTH', res.status === 401, {
          what: 'the output url opened without a key',
          expected: '401',
          received: res.status,
          on: res,
        });
    },
  );

  test(
    "an output's content-endpoint url is stable while the asset exists",
    rules('V2.URL.CONTENT_STABLE'),
    async ({ api }) => {
      const done = await finishedImageJob(api);
      const out = firstOutput(done);
      // Only a content-endpoint url is promised stable (a signed one is short-lived by design).
      const opened = await api.follow(out.url);
      if (opened.operationId !== 'getAssetContent')
        return notJudged(
          'V2.URL.CONTENT_STABLE',
          `the output url is not this surface's content endpoint (${out.url}); that is V2.URL.OUTPUT_CONTENT_ENDPOINT's failure`,
        );
      const bytes = await downloadVia(api, out.url);
      // Read again a moment later, as a client that kept the job would.
      const again = await pollUntil(
        async () => {
          const res = await api.call('getJob', { path: { id: done.id } });
          checkStatus('V2.URL.CONTENT_STABLE', res, [200]);
          return res;
        },
        { deadlineMs: 1_000, intervalMs: 1_000 },
      );
      const later = again!.json<Job>().outputs.find((o) => outputAssetId(o) === outputAssetId(out));
      // An output missing from a later read is V2.JOB.RETRIEVABLE's failure, not a url that moved.
      if (later === undefined)
        return notJudged(
          'V2.URL.CONTENT_STABLE',
          'the output is missing from a later read of the job (see V2.JOB.RETRIEVABLE)',
        );
      check('V2.URL.CONTENT_STABLE', later.url === out.url, {
        what: "the output's url on a later read of the job",
        expected: out.url,
        received: later.url,
        on: again,
      });
      check('V2.URL.CONTENT_STABLE', sameBytes(await downloadVia(api, out.url), bytes), {
        what: 'the url kept from the first read, opened again',
        expected: 'the same bytes',
        received: 'other bytes',
        on: again,
      });
    },
  );

  test(
    "url_expires_at on a job output is not the signed URL's expiry",
    rules('V2.URL.OUTPUT_EXPIRY'),
    async ({ api, target }) => {
      const done = await finishedImageJob(api);
      const out = firstOutput(done);
      // The hosted cloud puts the job's own expires_at there (W:80:0e06cfe7a0b0): the same instant.
      if (target.surface === 'cloud')
        check('V2.URL.OUTPUT_EXPIRY', Math.abs(instant(out.url_expires_at) - instant(done.expires_at)) < 1_000, {
          what: 'url_expires_at of a job output on the hosted cloud',
          expected: `the job's own expires_at (${String(done.expires_at)})`,
          received: out.url_expires_at,
        });
      const { asset, res } = await readAsset(api, outputAssetId(out));
      // The asset's url_expires_at is the signed URL's. Reads a moment apart may differ by
      // a second or two, so "the same" means within 5 s: a real output expiry is days away from it.
      const apart = Math.abs(instant(out.url_expires_at) - instant(asset.url_expires_at));
      check('V2.URL.OUTPUT_EXPIRY', apart > 5_000, {
        what: 'output url_expires_at vs the signed URL expiry of its asset',
        expected: 'a different lifetime (on the hosted cloud, the job expires_at)',
        received: { output: out.url_expires_at, signed: asset.url_expires_at },
        on: res,
      });
    },
  );

  test(
    'an output asset names its job; job_metadata is read through the job',
    rules('V2.ASSET.JOB_METADATA_READ'),
    async ({ api, target }) => {
      // A job sent without labels: its output's job_metadata is absent (seed W § Asset rule 4).
      const plain = firstOutput(await finishedImageJob(api));
      const unlabelled = await readAsset(api, outputAssetId(plain));
      check('V2.ASSET.JOB_METADATA_READ', unlabelled.asset.job_id != null, {
        what: 'job_id of an output asset',
        expected: 'the id of the job that produced it',
        received: unlabelled.asset.job_id,
        on: unlabelled.res,
      });
      check('V2.ASSET.JOB_METADATA_READ', unlabelled.asset.job_metadata === undefined, {
        what: 'job_metadata of the output of a job sent without labels',
        expected: 'absent',
        received: unlabelled.asset.job_metadata,
        on: unlabelled.res,
      });
      const labels = { run: randomUUID().slice(0, 8), suite: 'conformance' };
      const { job, labelled, refused } = await submitLabelled(api, {
        workflow: await uploadedImageWorkflow(api),
        metadata: labels,
      });
      const done = await pollToEnd(api, job);
      if (refused)
        return notJudged(
          'V2.ASSET.JOB_METADATA_READ',
          `the labelled submit was refused ${refused} and taken without the labels (the labels tests judge that refusal), so the read-through is not seen`,
        );
      if (!labelled) {
        // A surface that keeps no job labels (it refused them 422 metadata_not_supported) shows
        // none on any read (W:53:60fb6dc0818b): the output of the job it took without them neither.
        const { asset, res } = await readAsset(api, outputAssetId(firstOutput(done)));
        return check('V2.ASSET.JOB_METADATA_READ', asset.job_metadata === undefined, {
          what: `job_metadata of an output on the ${target.surface} surface, which keeps no job labels (it refused them 422 metadata_not_supported)`,
          expected: 'absent',
          received: asset.job_metadata,
          on: res,
        });
      }
      const { asset, res } = await readAsset(api, outputAssetId(firstOutput(done)));
      check('V2.ASSET.JOB_METADATA_READ', asset.job_id === done.id, {
        what: 'job_id of the output asset',
        expected: done.id,
        received: asset.job_id,
        on: res,
      });
      // Absent is allowed (the surface keeps none, the labels could not be read); present must be the job's.
      if (asset.job_metadata === undefined)
        notJudged(
          'V2.ASSET.JOB_METADATA_READ',
          "job_metadata of a labelled job's output is absent, which the seed allows (labels not kept or not readable), so the read-through is not seen",
        );
      else
        check('V2.ASSET.JOB_METADATA_READ', isDeepStrictEqual(asset.job_metadata, labels), {
          what: 'job_metadata of the output asset',
          expected: JSON.stringify(labels),
          received: asset.job_metadata,
          on: res,
        });
    },
  );

  test(
    'job_metadata is absent once the producing job is gone',
    rules('V2.ASSET.JOB_METADATA_READ'),
    async ({ api, requireScenario, target }) => {
      // W:53:60fb6dc0818b names a gone job as one reason job_metadata is absent: read through the
      // job on every read, the labels go with it. A job is gone past its own expires_at; the
      // scenario account's jobs expire within a minute, so the test waits that out.
      const rule = 'V2.ASSET.JOB_METADATA_READ';
      if (target.surface === 'local')
        return notJudged(rule, 'labels are not sent to the self-hosted proxy (the seed does not say it keeps them)');
      const brief = api.as({
        bearer: requireScenario('short_retention_token', 'an account whose jobs expire within a minute') as string,
      });
      const labels = { run: randomUUID().slice(0, 8), suite: 'conformance' };
      const done = await finishedImageJob(brief, { metadata: labels });
      const outputId = outputAssetId(firstOutput(done));
      const alive = await readAsset(brief, outputId);
      if (alive.asset.job_metadata === undefined)
        return notJudged(
          rule,
          `the output of labelled job ${done.id} shows no job_metadata while the job lives (which the seed allows), so its going cannot be seen`,
        );
      const left = instant(done.expires_at) - Date.now();
      if (!(left <= GONE_WITHIN_MS))
        return notJudged(
          rule,
          `job ${done.id} of short_retention_token expires at ${String(done.expires_at)}, not within ` +
            `a minute: the input must name an account whose jobs expire that soon`,
        );
      // A second past expires_at: a server may round the instant to the second.
      await delay(Math.max(0, left) + 1_000);
      const job = await brief.call('getJob', { path: { id: done.id } });
      if (job.status !== 404 && job.status !== 410)
        return notJudged(rule, `job ${done.id} still answers ${job.status} past its expires_at, so it is not gone`);
      const after = await brief.call('getAsset', { path: { id: outputId } });
      if (after.status !== 200)
        return notJudged(
          rule,
          `the output asset ${outputId} went with its job (${after.status}), so no job_metadata is left to read`,
        );
      const gone = after.json<Asset>();
      check(rule, gone.job_metadata === undefined, {
        what: `job_metadata of output asset ${outputId} once its job ${done.id} is gone (the job read answers ${job.status})`,
        expected: 'absent: the labels are read through the job, which is gone',
        received: gone.job_metadata,
        on: after,
      });
    },
  );

  test(
    'job state and outputs stay retrievable by ID (until expires_at)',
    rules('V2.JOB.RETRIEVABLE'),
    async ({ api }) => {
      const done = await finishedImageJob(api);
      check('V2.JOB.RETRIEVABLE', instant(done.expires_at) > Date.now(), {
        what: 'expires_at of a fresh job',
        expected: 'in the future',
        received: done.expires_at,
      });
      const again = await api.call('getJob', { path: { id: done.id } });
      checkStatus('V2.JOB.RETRIEVABLE', again, [200]);
      const j = again.json<Job>();
      check('V2.JOB.RETRIEVABLE', j.status === done.status && j.outputs.length === done.outputs.length, {
        what: 'a second read of the finished job',
        expected: `${done.status} with ${done.outputs.length} outputs`,
        received: `${j.status} with ${j.outputs.length} outputs`,
        on: again,
      });
    },
  );

  test(
    'the workflow read of a v2 job returns the submitted graph in API format',
    rules('V2.JOB.WORKFLOW_READ'),
    async ({ api }) => {
      const workflow = anyWorkflow(api, 5, 3);
      const job = await submitJob(api, { workflow });
      const res = await api.call('getJobWorkflow', { path: { id: job.id } });
      if (res.notOffered || res.status === 404 || res.status === 405) {
        return notJudged(
          'V2.JOB.WORKFLOW_READ',
          `not offered by this server: GET /api/v2/jobs/{id}/workflow of a job it holds answered ${res.status} (an operation only the public documents give)`,
        );
      }
      checkStatus('V2.JOB.WORKFLOW_READ', res, [200]);
      const body = res.json<{ workflow: unknown; format: string }>();
      check('V2.JOB.WORKFLOW_READ', body.format === 'api' && isDeepStrictEqual(body.workflow, workflow), {
        what: 'the workflow read',
        expected: 'format "api" and the graph as submitted',
        received: body,
        on: res,
      });
    },
  );

  test(
    'the live event stream is an enhancement: its last status agrees with polling',
    rules('V2.JOB.EVENTS_AGREE', 'V2.JOB.EVENTS_FORMAT'),
    async ({ api, target }) => {
      // A job that takes a moment makes the stream carry live changes, not only the final state.
      const slow = target.scenario.slow_node_class;
      const job = await submitJob(api, {
        workflow: typeof slow === 'string' ? slowWorkflow(slow, 1, classes(api)) : await uploadedImageWorkflow(api),
      });
      // The stream may stay open after the job ends: the read stops at its first terminal status
      // event (a status the target names in job_terminal_states, lib/v2/states.ts). A job that
      // outlasts the suite's job deadline is that bound's error, not the server's.
      const read = {
        headers: { accept: 'text/event-stream' },
        timeoutMs: api.bounds.jobDeadlineMs,
        boundVariable: JOB_DEADLINE_VAR,
        readUntil: (body: Buffer) => reachedStatus(body, jobStates(api.target.scenario).terminal),
      };
      // The stream's URL as the job embeds it (urls.events, a public-docs name), else the public documents' path.
      const events = jobUrl(job, 'events');
      const res =
        events !== undefined
          ? await api.follow(events, read)
          : await api.call('streamJobEvents', { path: { id: job.id }, ...read });
      if (events !== undefined)
        check('V2.JOB.FOLLOW_URLS', res.operationId === 'streamJobEvents', {
          what: "the job's urls.events",
          expected: 'the event stream operation',
          received: res.operationId ?? events,
          on: res,
        });
      const polled = await pollToEnd(api, job);
      judgeEventStream(res, polled.status, jobStates(api.target.scenario).terminal);
    },
  );
});

test.describe('Job metadata (labels)', () => {
  test(
    'labels come back exactly as submitted (or are refused 422 metadata_not_supported), and are missing when the job had none',
    rules('V2.JOB.LABELS_EXACT', 'V2.ERR.METADATA_NOT_SUPPORTED', 'V2.JOB.FIELDS_DOCUMENTED'),
    async ({ api }) => {
      const labels = { team: 'conformance', 'run.id': randomUUID().slice(0, 8), note: 'ünïcode ok' };
      const workflow = anyWorkflow(api);
      const sent = await postJob(api, { workflow, metadata: labels });
      refusedClasses(api, sent, workflow);
      if (!accepted(sent)) {
        // A surface that keeps no labels and says so refuses them with its own code.
        checkStatus('V2.ERR.METADATA_NOT_SUPPORTED', sent, [422], 'metadata_not_supported');
        return notJudged('V2.JOB.LABELS_EXACT', 'this surface keeps no job labels (422 metadata_not_supported)');
      }
      // Accepting labels and keeping none is allowed too (W:53:60fb6dc0818b lists it as a reason
      // for an absent job_metadata): only a refusal is judged by the code.
      notJudged('V2.ERR.METADATA_NOT_SUPPORTED', 'this surface accepted the labels');
      const done = await pollToEnd(api, followable(sent));
      // The job read's `metadata` is the public documents' member (the seed's job record names no
      // labels member, W:62:bb4ec501a98f): where it is sent, it holds the labels as sent.
      if (done.metadata !== undefined)
        check('V2.JOB.FIELDS_DOCUMENTED', isDeepStrictEqual(done.metadata, labels), {
          what: "metadata of a labelled job (the public documents' member)",
          expected: JSON.stringify(labels),
          received: done.metadata,
        });
      // The seed shows a job's labels on its outputs' job_metadata, read through the job (W:47, W:53:5c648a19d79d).
      const { asset, res } = await readAsset(api, outputAssetId(firstOutput(done)));
      // Absent proves nothing: the seed lets job_metadata be absent when the surface keeps no labels
      // or they could not be read (W:53:60fb6dc0818b).
      if (asset.job_metadata === undefined)
        return notJudged(
          'V2.JOB.LABELS_EXACT',
          "the labelled job's output asset carries no job_metadata, which the seed allows (labels not " +
            'kept, or not readable), so how they were stored is not seen',
        );
      check('V2.JOB.LABELS_EXACT', isDeepStrictEqual(asset.job_metadata, labels), {
        what: "job_metadata of the labelled job's output asset",
        expected: JSON.stringify(labels),
        received: asset.job_metadata,
        on: res,
      });
      // A job sent without labels has none (W:58:2c59198f0025).
      const plain = await pollToEnd(api, await submitJob(api, { workflow: anyWorkflow(api) }));
      const unlabelled = await readAsset(api, outputAssetId(firstOutput(plain)));
      check('V2.JOB.LABELS_EXACT', unlabelled.asset.job_metadata === undefined, {
        what: 'job_metadata of the output of a job sent without labels',
        expected: 'absent',
        received: unlabelled.asset.job_metadata,
        on: unlabelled.res,
      });
      check('V2.JOB.FIELDS_DOCUMENTED', plain.metadata === undefined, {
        what: 'metadata of a job sent without labels',
        expected: 'absent',
        received: plain.metadata,
      });
    },
  );

  test(
    'labels breaking a limit are refused 422 metadata_invalid, with details.key except for too many pairs',
    rules('V2.ERR.METADATA_INVALID'),
    async ({ api, target }) => {
      // Label limits are "not shown" (seed W § Limits 6): the suite provokes them with what the
      // target names, else with guesses, and judges only what the server refuses.
      const badKey =
        typeof target.scenario.metadata_bad_key === 'string' ? target.scenario.metadata_bad_key : 'Bad Key!';
      const maxPairs = Number(target.scenario.metadata_max_pairs ?? 0);
      const keyRes = await postJob(api, { workflow: anyWorkflow(api), metadata: { [badKey]: 'x' } });
      if (accepted(keyRes))
        notJudged(
          'V2.ERR.METADATA_INVALID',
          `the server accepted the label key ${JSON.stringify(badKey)}; set scenario input metadata_bad_key to a key it refuses`,
        );
      else {
        checkStatus('V2.ERR.METADATA_INVALID', keyRes, [422], 'metadata_invalid');
        const details = keyRes.json<{ error: { details?: { key?: string } | null } }>().error.details;
        check('V2.ERR.METADATA_INVALID', details?.key === badKey, {
          what: 'details.key of a refused key',
          expected: JSON.stringify(badKey),
          received: details,
          on: keyRes,
        });
      }
      const pairs = Number.isInteger(maxPairs) && maxPairs > 0 ? maxPairs + 1 : 200;
      const many = Object.fromEntries(Array.from({ length: pairs }, (_, i) => [`k${i}`, 'v']));
      const tooMany = await postJob(api, { workflow: anyWorkflow(api), metadata: many });
      if (accepted(tooMany))
        return notJudged(
          'V2.ERR.METADATA_INVALID',
          `the server accepted ${pairs} label pairs; set scenario input metadata_max_pairs to its limit`,
        );
      checkStatus('V2.ERR.METADATA_INVALID', tooMany, [422], 'metadata_invalid');
      const d2 = tooMany.json<{ error: { details?: unknown } }>().error.details;
      check('V2.ERR.METADATA_INVALID', d2 === undefined || d2 === null, {
        what: `details of a refusal of ${pairs} pairs (too many)`,
        expected: 'no details',
        received: d2,
        on: tooMany,
      });
    },
  );
});

test.describe('Idempotent submission', () => {
  // Seed W:19:bd358774d6ec (submission is idempotent) and W:207:65c2b70e7bc8 (a reused key is
  // 422 idempotency_key_reuse): a retry under its key is refused or answered with the first
  // job (both readings, lib/v2/idempotency.ts); it never makes a second job.
  test(
    'submission is idempotent: a retry under its key makes no second job, and another request under a used key is refused 422 idempotency_key_reuse',
    rules('V2.JOB.IDEMPOTENT'),
    async ({ api }) => {
      const key = randomUUID();
      const workflow = anyWorkflow(api);
      const first = await postJob(api, { workflow }, key);
      refusedClasses(api, first, workflow);
      ensure('V2.JOB.IDEMPOTENT', accepted(first), {
        what: 'the first submit under a fresh key',
        expected: 'a success (2xx)',
        received: `${first.status} ${first.errorCode ?? ''}`,
        on: first,
      });
      const retry = await postJob(api, { workflow }, key);
      const jobId = checkOneJobPerKey([first, retry], 'a submit and its retry under one key');
      checkOtherRequestRefused(await postJob(api, { workflow: anyWorkflow(api, 3, 3) }, key), jobId);
    },
  );

  test(
    'submission is idempotent: concurrent submits under one key make exactly one job',
    rules('V2.JOB.IDEMPOTENT'),
    async ({ api }) => {
      const key = randomUUID();
      const workflow = anyWorkflow(api);
      const answers = await Promise.all(Array.from({ length: 6 }, () => postJob(api, { workflow }, key)));
      for (const a of answers) refusedClasses(api, a, workflow);
      checkOneJobPerKey(answers, 'six concurrent submits with one key');
    },
  );

  test('distinct keys create distinct jobs', rules('V2.JOB.IDEMPOTENT'), async ({ api }) => {
    const ids = new Set<string>();
    const workflow = anyWorkflow(api);
    for (let i = 0; i < 3; i++) {
      const res = await postJob(api, { workflow }, randomUUID());
      refusedClasses(api, res, workflow);
      ensure('V2.JOB.IDEMPOTENT', accepted(res), {
        what: `submit ${i + 1} of 3 under its own key`,
        expected: 'a success (2xx)',
        received: `${res.status} ${res.errorCode ?? ''}`,
        on: res,
      });
      ids.add(res.json<Job>().id);
    }
    check('V2.JOB.IDEMPOTENT', ids.size === 3, {
      what: 'three submits with three keys',
      expected: 'three distinct jobs',
      received: [...ids],
    });
  });
});

test.describe('Limits: concurrent jobs per tier', () => {
  test(
    'jobs past the tier limit are accepted and queue; never more than the limit run at once',
    rules('V2.JOB.PARALLEL_QUEUE'),
    async ({ api, requireScenario }) => {
      const limit = Number(requireScenario('concurrency_limit', 'number of jobs the tier runs at once'));
      const slow = requireScenario('slow_node_class', 'node class that takes `seconds`') as string;
      // An account of its own (jobs_parallel_token) keeps other checks' jobs out of the tier's slots.
      const own = api.target.scenario.jobs_parallel_token ?? api.target.scenario.parallel_token;
      const keyed = typeof own === 'string' ? api.as({ bearer: own }) : api;
      const seconds = 1.5;
      const since = Date.now();
      const jobs = await Promise.all(
        Array.from({ length: limit + 1 }, () =>
          submitJob(keyed, { workflow: slowWorkflow(slow, seconds, classes(api)) }),
        ),
      );
      let most = 0;
      const states = new Map<string, string>();
      // Watch every job until all have finished, counting the ones running at the same moment.
      // The reads of one round are not one instant (a job can finish and the next start between
      // two of them), so a job counts only when it read running in two rounds in a row: it was
      // running throughout the gap between them, where every job so counted was running too.
      let before = new Set<string>();
      // Two rounds of jobs: a bound the suite chose, so one that passes is its error (below).
      const bound = 2 * api.bounds.jobDeadlineMs;
      const end = Date.now() + bound;
      const named = jobStates(api.target.scenario);
      const unfinished = (): Job[] => jobs.filter((j) => !named.terminal.has(states.get(j.id) ?? j.status));
      // When the reads first showed every job finished (that answer came after they all had).
      let allDoneBy: number | undefined;
      while (unfinished().length > 0 && Date.now() < end) {
        // Each by its urls.self where it embeds one (a public-docs name), else by the job read path.
        const reads = await Promise.all(
          jobs.map((j) =>
            jobUrl(j, 'self') !== undefined
              ? keyed.follow(jobUrl(j, 'self')!)
              : keyed.call('getJob', { path: { id: j.id } }),
          ),
        );
        const refused = reads.find((r) => r.status === 429);
        if (refused) {
          // A rate limit (seed: 429 with Retry-After) is waited out; no pair of rounds spans the wait.
          before = new Set();
          await honourRetryAfter(Number(refused.header('retry-after')) || 1, {
            ceilingMs: api.bounds.retryAfterMaxMs,
            what: 'the job reads of the tier check',
          });
          continue;
        }
        for (const [i, r] of reads.entries()) states.set(jobs[i].id, r.json<Job>().status);
        const running = new Set([...states].filter(([, s]) => named.running.has(s)).map(([id]) => id));
        most = Math.max(most, [...running].filter((id) => before.has(id)).length);
        before = running;
        if (unfinished().length === 0) allDoneBy = Date.now();
        // The seed ties Retry-After to 429 answers: a hint on a successful read does not slow the
        // rounds, or a job of 1.5 s could run unseen between two of them.
        else await delay(100);
      }
      check('V2.JOB.PARALLEL_QUEUE', most <= limit, {
        what: `the jobs of ${limit + 1} submitted at once seen running together`,
        expected: `at most ${limit} (the tier's limit)`,
        received: most,
      });
      // Whatever the running state is named: each job runs its slow node `seconds`, so with at
      // most `limit` at once the last of limit + 1 cannot be done before twice that (a tenth off
      // for timers). Every job finished sooner means more than the limit ran together.
      // A replay answers at once: the recorded answers carry no wall-clock time, so the time
      // part is judged only live (the rest of the rule, from the states read, on both).
      if (
        cassette()?.mode !== 'replay' &&
        allDoneBy !== undefined &&
        [...states.values()].every((st) => st === named.success)
      ) {
        const took = allDoneBy - since;
        check('V2.JOB.PARALLEL_QUEUE', took >= 2 * seconds * 1000 * 0.9, {
          what: `the ${limit + 1} jobs submitted at once (each running a ${seconds} s node)`,
          expected: `the last done no sooner than ${2 * seconds} s after the first submit, as at most ${limit} run at once`,
          received: `all ${named.success} within ${took} ms`,
        });
      }
      if (unfinished().length > 0)
        throw jobBound(`${unfinished().length} of the ${limit + 1} jobs did not finish`, bound);
      check(
        'V2.JOB.PARALLEL_QUEUE',
        [...states.values()].every((s) => s === named.success),
        {
          what: `the ${limit + 1} jobs past the tier's limit`,
          expected: `all queued and then ${named.success} (scenario input job_success_state)`,
          received: [...states.values()],
        },
      );
    },
  );
});

test.describe('Asset rule 5: uploads that match an output', () => {
  test(
    'creating an asset from the path and bytes of an existing output gives back that output itself',
    rules('V2.ASSET.OUTPUT_MATCH'),
    async ({ api }) => {
      // Labels where the surface keeps them, so the answer's job_metadata is the output's too (W:54:9e9934245bd4).
      // A unique prefix gives this output a path no other output has.
      const labels = { run: randomUUID().slice(0, 8), suite: 'conformance-match' };
      const { job, labelled, refused } = await submitLabelled(api, {
        workflow: await uploadedImageWorkflow(api, `match-${randomUUID().slice(0, 8)}`),
        metadata: labels,
      });
      const done = await pollToEnd(api, job);
      const out = firstOutput(done);
      const id = outputAssetId(out);
      const { asset } = await readAsset(api, id);
      const bytes = await downloadVia(api, asset.url);
      const again = await createAsset(api, { bytes, filePath: asset.file_path ?? id, contentType: asset.content_type });
      check('V2.ASSET.OUTPUT_MATCH', again.asset.id === id && again.asset.job_id === done.id, {
        what: 'the create of the output bytes at the output path',
        expected: `the output asset ${id} with job_id ${done.id}`,
        received: { id: again.asset.id, job_id: again.asset.job_id },
        on: again.res,
      });
      // The output read shows the job's labels or, where they are not kept or not readable, none
      // (W:53:60fb6dc0818b): the matching create answers with whatever the output carries.
      if (!labelled || asset.job_metadata === undefined)
        return notJudged(
          'V2.ASSET.OUTPUT_MATCH',
          'the output shows no job_metadata (' +
            (labelled
              ? 'the labels are not shown on its read'
              : refused
                ? `the labelled submit was refused ${refused}`
                : 'this surface keeps no labels') +
            "), so the answer's job_metadata has nothing to match",
        );
      check('V2.ASSET.OUTPUT_MATCH', isDeepStrictEqual(again.asset.job_metadata, asset.job_metadata), {
        what: "job_metadata of the create that matched a labelled job's output",
        expected: `the output's: ${JSON.stringify(asset.job_metadata)}`,
        received: again.asset.job_metadata,
        on: again.res,
      });
    },
  );
});
