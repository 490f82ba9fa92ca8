// Seed W § What the service does (design rules 1, 2, 4), Job record, Job metadata,
// Output URL forms (job outputs) and Asset rule 4, exercised through real jobs.
import { randomUUID } from 'node:crypto';
// Key order of a JSON object carries no meaning: compare values, not serialisations.
import { isDeepStrictEqual } from 'node:util';
import { setTimeout as delay } from 'node:timers/promises';
import { test, rules } from '../../fixtures/test.ts';
import { check, checkStatus, ensure, notJudged } from '../../lib/check.ts';
import { slowWorkflow } from '../../lib/data/workflows.ts';
import { instant, pollUntil } from '../../lib/time.ts';
import type { ApiClient } from '../../lib/api.ts';
import { createAsset, downloadVia, sameBytes, type Asset } from '../../lib/v2/assets.ts';
import { parseSse, statusesOf } from '../../lib/v2/events.ts';
import { anyWorkflow, checkDocumentedFields, classes, firstOutput, outputAssetId, pollToEnd, postJob, refusedClasses, submitJob, uploadedImageWorkflow, type Job } from '../../lib/v2/jobs.ts';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** A finished job that worked from a freshly uploaded image, so its output is unique to this test. */
async function finishedImageJob(api: ApiClient, body: { metadata?: Record<string, string> } = {}, prefix = 'conformance'): Promise<Job> {
  return pollToEnd(api, await submitJob(api, { workflow: await uploadedImageWorkflow(api, prefix), ...body }));
}

const readAsset = async (api: ApiClient, id: string) => {
  const res = await api.call('getAsset', { path: { id } });
  checkStatus('V2.ASSET.FIELDS', res, [200]);
  return { asset: res.json<Asset>(), res };
};

test.describe('Jobs: submit, poll, retrieve', () => {
  test('a submitted workflow reaches a terminal state by plain GET polling of its self URL', rules('V2.JOB.SUBMIT', 'V2.JOB.POLL_FIRST', 'V2.JOB.FOLLOW_URLS'), async ({ api }) => {
    const job = await submitJob(api, { workflow: await uploadedImageWorkflow(api) });
    check('V2.JOB.SUBMIT', typeof job.id === 'string' && job.id.length > 0, 'the submit answer', 'a job with an id', job);
    const done = await pollToEnd(api, job);
    check('V2.JOB.POLL_FIRST', done.status === 'succeeded', 'the terminal status of a valid image workflow', 'succeeded', `${done.status} ${done.error ? JSON.stringify(done.error) : ''}`);
  });

  test("a succeeded job's outputs are assets whose bytes can be read", rules('V2.JOB.OUTPUTS_REAL'), async ({ api }) => {
    const done = await finishedImageJob(api);
    const out = firstOutput(done);
    const bytes = await downloadVia(api, out.url);
    check('V2.JOB.OUTPUTS_REAL', bytes.subarray(0, 8).equals(PNG_SIGNATURE), 'the bytes behind the output url', 'a PNG (the SaveImage output)', `${bytes.length} bytes starting ${bytes.subarray(0, 8).toString('hex')}`);
    const { asset, res } = await readAsset(api, outputAssetId(out));
    check('V2.JOB.OUTPUTS_REAL', sameBytes(await downloadVia(api, asset.url), bytes), "the bytes behind the output's asset url", 'the same bytes as behind the output url', 'other bytes', res);
  });

  test('a job record and its outputs carry the members the public documents name', rules('V2.JOB.FIELDS_DOCUMENTED', 'V2.JOB.OUTPUT_FIELDS_DOCUMENTED'), async ({ api, contract }) => {
    const done = await finishedImageJob(api);
    const res = await api.follow(done.urls.self);
    checkStatus('V2.JOB.FIELDS_DOCUMENTED', res, [200]);
    checkDocumentedFields(contract, res);
    const out = firstOutput(done);
    if (typeof out.size_bytes === 'number') {
      const bytes = await downloadVia(api, out.url);
      check('V2.JOB.OUTPUT_FIELDS_DOCUMENTED', out.size_bytes === bytes.length, 'size_bytes of the output', `${bytes.length} (the bytes served)`, out.size_bytes, res);
    }
  });

  test('a job output url is the authenticated content endpoint', rules('V2.URL.OUTPUT_CONTENT_ENDPOINT'), async ({ api, target }) => {
    const out = firstOutput(await finishedImageJob(api));
    const res = await api.follow(out.url, { auth: 'none' });
    ensure('V2.URL.OUTPUT_CONTENT_ENDPOINT', res.operationId === 'getAssetContent', "the output's url", `the content endpoint ${target.baseUrl}/api/v2/assets/{id}/content`, out.url, res);
    // That the endpoint refuses a keyless read is the content endpoint's own rule.
    if (target.token && target.surface !== 'local') check('V2.ASSET.CONTENT_AUTH', res.status === 401, 'the output url opened without a key', '401', res.status, res);
  });

  test("an output's content-endpoint url is stable while the asset exists", rules('V2.URL.CONTENT_STABLE'), async ({ api }) => {
    const done = await finishedImageJob(api);
    const out = firstOutput(done);
    // Only a content-endpoint url is promised stable (a signed one is short-lived by design).
    const opened = await api.follow(out.url);
    if (opened.operationId !== 'getAssetContent') return notJudged('V2.URL.CONTENT_STABLE', `the output url is not this surface's content endpoint (${out.url}); that is V2.URL.OUTPUT_CONTENT_ENDPOINT's failure`);
    const bytes = await downloadVia(api, out.url);
    // Read again a moment later, as a client that kept the job would.
    const again = await pollUntil(async () => {
      const res = await api.call('getJob', { path: { id: done.id } });
      checkStatus('V2.URL.CONTENT_STABLE', res, [200]);
      return res;
    }, { deadlineMs: 1_000, intervalMs: 1_000 });
    const later = again!.json<Job>().outputs.find((o) => outputAssetId(o) === outputAssetId(out));
    // An output missing from a later read is V2.JOB.RETRIEVABLE's failure, not a url that moved.
    if (later === undefined) return notJudged('V2.URL.CONTENT_STABLE', 'the output is missing from a later read of the job (see V2.JOB.RETRIEVABLE)');
    check('V2.URL.CONTENT_STABLE', later.url === out.url, "the output's url on a later read of the job", out.url, later.url, again);
    check('V2.URL.CONTENT_STABLE', sameBytes(await downloadVia(api, out.url), bytes), 'the url kept from the first read, opened again', 'the same bytes', 'other bytes', again);
  });

  test("url_expires_at on a job output is not the signed URL's expiry", rules('V2.URL.OUTPUT_EXPIRY'), async ({ api }) => {
    const out = firstOutput(await finishedImageJob(api));
    const { asset, res } = await readAsset(api, outputAssetId(out));
    // The asset's url_expires_at is the signed URL's. Reads a moment apart may differ by
    // a second or two, so "the same" means within 5 s: a real output expiry is days away from it.
    const apart = Math.abs(instant(out.url_expires_at) - instant(asset.url_expires_at));
    check('V2.URL.OUTPUT_EXPIRY', apart > 5_000, 'output url_expires_at vs the signed URL expiry of its asset', 'a different lifetime (on the hosted cloud, the job expires_at)', { output: out.url_expires_at, signed: asset.url_expires_at }, res);
  });

  test('an output asset names its job; job_metadata is read through the job', rules('V2.ASSET.JOB_METADATA_READ'), async ({ api, target }) => {
    // A job sent without labels: its output's job_metadata is absent (seed W § Asset rule 4).
    const plain = firstOutput(await finishedImageJob(api));
    const unlabelled = await readAsset(api, outputAssetId(plain));
    check('V2.ASSET.JOB_METADATA_READ', unlabelled.asset.job_id != null, 'job_id of an output asset', 'the id of the job that produced it', unlabelled.asset.job_id, unlabelled.res);
    check('V2.ASSET.JOB_METADATA_READ', unlabelled.asset.job_metadata === undefined, 'job_metadata of the output of a job sent without labels', 'absent', unlabelled.asset.job_metadata, unlabelled.res);
    if (target.surface === 'local') return notJudged('V2.ASSET.JOB_METADATA_READ', 'labels are not sent to the self-hosted proxy (the seed does not say it keeps them), so only the unlabelled case is judged here');
    const labels = { run: randomUUID().slice(0, 8), suite: 'conformance' };
    const done = await finishedImageJob(api, { metadata: labels });
    const { asset, res } = await readAsset(api, outputAssetId(firstOutput(done)));
    check('V2.ASSET.JOB_METADATA_READ', asset.job_id === done.id, 'job_id of the output asset', done.id, asset.job_id, res);
    // Absent is allowed (the surface keeps none, the labels could not be read); present must be the job's.
    if (asset.job_metadata === undefined) notJudged('V2.ASSET.JOB_METADATA_READ', 'job_metadata of a labelled job\'s output is absent, which the seed allows (labels not kept or not readable), so the read-through is not seen');
    else check('V2.ASSET.JOB_METADATA_READ', isDeepStrictEqual(asset.job_metadata, labels), 'job_metadata of the output asset', JSON.stringify(labels), asset.job_metadata, res);
  });

  test('job state and outputs stay retrievable by ID (until expires_at)', rules('V2.JOB.RETRIEVABLE'), async ({ api }) => {
    const done = await finishedImageJob(api);
    check('V2.JOB.RETRIEVABLE', instant(done.expires_at) > Date.now(), 'expires_at of a fresh job', 'in the future', done.expires_at);
    const again = await api.call('getJob', { path: { id: done.id } });
    checkStatus('V2.JOB.RETRIEVABLE', again, [200]);
    const j = again.json<Job>();
    check('V2.JOB.RETRIEVABLE', j.status === done.status && j.outputs.length === done.outputs.length, 'a second read of the finished job', `${done.status} with ${done.outputs.length} outputs`, `${j.status} with ${j.outputs.length} outputs`, again);
  });

  test('the workflow read of a v2 job returns the submitted graph in API format', rules('V2.JOB.WORKFLOW_READ'), async ({ api }) => {
    const workflow = anyWorkflow(api, 5, 3);
    const job = await submitJob(api, { workflow });
    const res = await api.call('getJobWorkflow', { path: { id: job.id } });
    if (res.notOffered || res.status === 404 || res.status === 405) {
      return notJudged('V2.JOB.WORKFLOW_READ', `not offered by this server: GET /api/v2/jobs/{id}/workflow of a job it holds answered ${res.status} (an operation only the public documents give)`);
    }
    checkStatus('V2.JOB.WORKFLOW_READ', res, [200]);
    const body = res.json<{ workflow: unknown; format: string }>();
    check('V2.JOB.WORKFLOW_READ', body.format === 'api' && isDeepStrictEqual(body.workflow, workflow), 'the workflow read', 'format "api" and the graph as submitted', body, res);
  });

  test('the live event stream is an enhancement: its last status agrees with polling', rules('V2.JOB.EVENTS_AGREE', 'V2.JOB.EVENTS_FORMAT'), async ({ api, target }) => {
    // A job that takes a moment makes the stream carry live changes, not only the final state.
    const slow = target.scenario.slow_node_class;
    const job = await submitJob(api, { workflow: typeof slow === 'string' ? slowWorkflow(slow, 1, classes(api)) : await uploadedImageWorkflow(api) });
    const res = await api.follow(job.urls.events, { headers: { accept: 'text/event-stream' }, timeoutMs: 20_000 });
    check('V2.JOB.FOLLOW_URLS', res.operationId === 'streamJobEvents', "the job's urls.events", 'the event stream operation', res.operationId ?? job.urls.events, res);
    const polled = await pollToEnd(api, job);
    const type = res.header('content-type') ?? '';
    const { statuses, malformed } = statusesOf(parseSse(res.body.toString('utf8')));
    const readable = res.status === 200 && /^text\/event-stream/i.test(type) && statuses.length > 0;
    check('V2.JOB.EVENTS_FORMAT', readable, "the answer of the job's urls.events", 'text/event-stream with `event: status` frames', `${res.status} ${type || 'no content-type'}, ${statuses.length} status events`, res);
    check('V2.JOB.EVENTS_FORMAT', malformed.length === 0, 'the data of the status events', 'JSON {"status": string, ...}', malformed.map((f) => f.data).slice(0, 3), res);
    if (!readable) return notJudged('V2.JOB.EVENTS_AGREE', 'the stream could not be read as the public documents describe it (see V2.JOB.EVENTS_FORMAT), so its statuses cannot be compared with polling');
    check('V2.JOB.EVENTS_AGREE', statuses[statuses.length - 1] === polled.status, 'the last status event of the stream', `the polled status ${polled.status}`, statuses.join(' → '), res);
  });
});

test.describe('Job metadata (labels)', () => {
  test('labels are stored exactly as sent (or refused metadata_not_supported), and absent when the job was sent with none', rules('V2.JOB.LABELS_EXACT', 'V2.ERR.METADATA_NOT_SUPPORTED'), async ({ api }) => {
    const labels = { team: 'conformance', 'run.id': randomUUID().slice(0, 8), note: 'ünïcode ok' };
    const workflow = anyWorkflow(api);
    const sent = await postJob(api, { workflow, metadata: labels });
    refusedClasses(api, sent, workflow);
    if (sent.status !== 201) {
      // A surface that keeps no labels says so with its own code.
      checkStatus('V2.ERR.METADATA_NOT_SUPPORTED', sent, [422], 'metadata_not_supported');
      return notJudged('V2.JOB.LABELS_EXACT', 'this surface keeps no job labels (422 metadata_not_supported)');
    }
    const read = await api.call('getJob', { path: { id: sent.json<Job>().id } });
    checkStatus('V2.JOB.LABELS_EXACT', read, [200]);
    const kept = read.json<Job>().metadata;
    if (kept === undefined) {
      // Accepted, yet the job read shows none. Whether the surface keeps them at all shows on
      // the job's output asset, which reads them through the job (seed W § Asset rule 4).
      const out = firstOutput(await pollToEnd(api, sent.json<Job>()));
      const { asset, res } = await readAsset(api, outputAssetId(out));
      if (isDeepStrictEqual(asset.job_metadata, labels)) return void check('V2.JOB.LABELS_EXACT', kept !== undefined, 'metadata on the read of a job whose output asset shows its labels', JSON.stringify(labels), 'absent', read);
      // Accepted and kept nowhere: a surface that keeps no labels must refuse them instead.
      return void check('V2.ERR.METADATA_NOT_SUPPORTED', kept !== undefined, 'a submit with labels on a surface that keeps none (the job and its output show none)', '422 metadata_not_supported', `${sent.status}, labels dropped`, res);
    }
    notJudged('V2.ERR.METADATA_NOT_SUPPORTED', 'this surface keeps job labels');
    check('V2.JOB.LABELS_EXACT', isDeepStrictEqual(kept, labels), 'metadata of a labelled job', JSON.stringify(labels), kept, read);
    const plain = await api.call('getJob', { path: { id: (await submitJob(api, { workflow: anyWorkflow(api) })).id } });
    check('V2.JOB.LABELS_EXACT', plain.json<Job>().metadata === undefined, 'metadata of a job sent without labels', 'absent', plain.json<Job>().metadata, plain);
  });

  test('labels breaking a limit are refused 422 metadata_invalid, with details.key except for too many pairs', rules('V2.ERR.METADATA_INVALID'), async ({ api, target }) => {
    // Label limits are "not shown" (seed W § Limits 6): the suite provokes them with what the
    // target names, else with guesses, and judges only what the server refuses.
    const badKey = typeof target.scenario.metadata_bad_key === 'string' ? target.scenario.metadata_bad_key : 'Bad Key!';
    const maxPairs = Number(target.scenario.metadata_max_pairs ?? 0);
    const keyRes = await postJob(api, { workflow: anyWorkflow(api), metadata: { [badKey]: 'x' } });
    if (keyRes.status === 201) notJudged('V2.ERR.METADATA_INVALID', `the server accepted the label key ${JSON.stringify(badKey)}; set scenario input metadata_bad_key to a key it refuses`);
    else {
      checkStatus('V2.ERR.METADATA_INVALID', keyRes, [422], 'metadata_invalid');
      const details = keyRes.json<{ error: { details?: { key?: string } | null } }>().error.details;
      check('V2.ERR.METADATA_INVALID', details?.key === badKey, 'details.key of a refused key', JSON.stringify(badKey), details, keyRes);
    }
    const pairs = Number.isInteger(maxPairs) && maxPairs > 0 ? maxPairs + 1 : 200;
    const many = Object.fromEntries(Array.from({ length: pairs }, (_, i) => [`k${i}`, 'v']));
    const tooMany = await postJob(api, { workflow: anyWorkflow(api), metadata: many });
    if (tooMany.status === 201) return notJudged('V2.ERR.METADATA_INVALID', `the server accepted ${pairs} label pairs; set scenario input metadata_max_pairs to its limit`);
    checkStatus('V2.ERR.METADATA_INVALID', tooMany, [422], 'metadata_invalid');
    const d2 = tooMany.json<{ error: { details?: unknown } }>().error.details;
    check('V2.ERR.METADATA_INVALID', d2 === undefined || d2 === null, `details of a refusal of ${pairs} pairs (too many)`, 'no details', d2, tooMany);
  });
});

test.describe('Idempotent submission', () => {
  test('a reused Idempotency-Key is refused 422 idempotency_key_reuse', rules('V2.JOB.IDEMPOTENT'), async ({ api }) => {
    const key = randomUUID();
    const workflow = anyWorkflow(api);
    const first = await postJob(api, { workflow }, key);
    refusedClasses(api, first, workflow);
    checkStatus('V2.JOB.IDEMPOTENT', first, [201]);
    checkStatus('V2.JOB.IDEMPOTENT', await postJob(api, { workflow }, key), [422], 'idempotency_key_reuse');
    checkStatus('V2.JOB.IDEMPOTENT', await postJob(api, { workflow: anyWorkflow(api, 3, 3) }, key), [422], 'idempotency_key_reuse');
  });

  test('concurrent submits with one key create exactly one job', rules('V2.JOB.IDEMPOTENT'), async ({ api }) => {
    const key = randomUUID();
    const workflow = anyWorkflow(api);
    const answers = await Promise.all(Array.from({ length: 6 }, () => postJob(api, { workflow }, key)));
    for (const a of answers) refusedClasses(api, a, workflow);
    const created = answers.filter((r) => r.status === 201).length;
    const refused = answers.filter((r) => r.status === 422 && r.errorCode === 'idempotency_key_reuse').length;
    check('V2.JOB.IDEMPOTENT', created === 1 && refused === 5, 'six concurrent submits with one key', '1 created, 5 refused idempotency_key_reuse', `${created} created, ${refused} refused, others ${answers.filter((r) => r.status !== 201 && r.status !== 422).map((r) => r.status).join(',') || 'none'}`, answers.find((r) => r.status !== 201 && r.errorCode !== 'idempotency_key_reuse') ?? answers[0]);
  });

  test('distinct keys create distinct jobs', rules('V2.JOB.IDEMPOTENT'), async ({ api }) => {
    const ids = new Set<string>();
    const workflow = anyWorkflow(api);
    for (let i = 0; i < 3; i++) {
      const res = await postJob(api, { workflow }, randomUUID());
      refusedClasses(api, res, workflow);
      checkStatus('V2.JOB.IDEMPOTENT', res, [201]);
      ids.add(res.json<Job>().id);
    }
    check('V2.JOB.IDEMPOTENT', ids.size === 3, 'three submits with three keys', 'three distinct jobs', [...ids]);
  });
});

test.describe('Limits: concurrent jobs per tier', () => {
  test('jobs past the tier limit are accepted and queue; never more than the limit run at once', rules('V2.JOB.PARALLEL_QUEUE'), async ({ api, requireScenario }) => {
    const limit = Number(requireScenario('concurrency_limit', 'number of jobs the tier runs at once'));
    const slow = requireScenario('slow_node_class', 'node class that takes `seconds`') as string;
    // An account of its own (jobs_parallel_token) keeps other checks' jobs out of the tier's slots.
    const own = api.target.scenario.jobs_parallel_token ?? api.target.scenario.parallel_token;
    const keyed = typeof own === 'string' ? api.as({ bearer: own }) : api;
    const jobs = await Promise.all(Array.from({ length: limit + 1 }, () => submitJob(keyed, { workflow: slowWorkflow(slow, 1.5, classes(api)) })));
    let most = 0;
    const states = new Map<string, string>();
    // Watch every job until all have finished, counting the ones running at the same moment.
    // The reads of one round are not one instant (a job can finish and the next start between
    // two of them), so a job counts only when it read running in two rounds in a row: it was
    // running throughout the gap between them, where every job so counted was running too.
    let before = new Set<string>();
    const end = Date.now() + 60_000;
    while ([...jobs].some((j) => !['succeeded', 'failed', 'canceled', 'expired'].includes(states.get(j.id) ?? j.status)) && Date.now() < end) {
      const reads = await Promise.all(jobs.map((j) => keyed.follow(j.urls.self)));
      for (const [i, r] of reads.entries()) states.set(jobs[i]!.id, r.json<Job>().status);
      const running = new Set([...states].filter(([, s]) => s === 'running').map(([id]) => id));
      most = Math.max(most, [...running].filter((id) => before.has(id)).length);
      before = running;
      // Poll again as soon as the server allows: its longest Retry-After, else a short interval.
      const asked = Math.max(0, ...reads.map((r) => Number(r.header('retry-after'))).filter(Number.isFinite));
      await delay(asked > 0 ? Math.min(asked, 5) * 1000 : 100);
    }
    check('V2.JOB.PARALLEL_QUEUE', most <= limit, `the jobs of ${limit + 1} submitted at once seen running together`, `at most ${limit} (the tier's limit)`, most);
    check('V2.JOB.PARALLEL_QUEUE', [...states.values()].every((s) => s === 'succeeded'), `the ${limit + 1} jobs past the tier's limit`, 'all queued and then succeeded', [...states.values()]);
  });
});

test.describe('Asset rule 5: uploads that match an output', () => {
  test('a create whose file path and bytes match an existing output answers with that output', rules('V2.ASSET.OUTPUT_MATCH'), async ({ api }) => {
    // A unique prefix gives this output a path no other output has.
    const done = await finishedImageJob(api, {}, `match-${randomUUID().slice(0, 8)}`);
    const out = firstOutput(done);
    const id = outputAssetId(out);
    const { asset } = await readAsset(api, id);
    const bytes = await downloadVia(api, asset.url);
    const again = await createAsset(api, { bytes, filePath: asset.file_path ?? id, contentType: asset.content_type });
    check('V2.ASSET.OUTPUT_MATCH', again.asset.id === id && again.asset.job_id === done.id, 'the create of the output bytes at the output path', `the output asset ${id} with job_id ${done.id}`, { id: again.asset.id, job_id: again.asset.job_id }, again.res);
  });
});
