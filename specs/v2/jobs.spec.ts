// Seed W § What the service does (design rules 1, 2, 4), Job record, Job metadata,
// Output URL forms (job outputs) and Asset rule 4, exercised through real jobs.
import { randomUUID } from 'node:crypto';
// Key order of a JSON object carries no meaning: compare values, not serialisations.
import { isDeepStrictEqual } from 'node:util';
import { test, rules } from '../../fixtures/test.ts';
import { check, checkStatus, ensure } from '../../lib/check.ts';
import { assetRef, emptyImageWorkflow, invertWorkflow, slowWorkflow } from '../../lib/data/workflows.ts';
import { instant } from '../../lib/time.ts';
import { createAsset, downloadVia, type Asset } from '../../lib/v2/assets.ts';
import { firstOutput, pollToEnd, postJob, submitJob, type Job } from '../../lib/v2/jobs.ts';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

test.describe('Jobs: submit, poll, retrieve', () => {
  test('a submitted workflow reaches a terminal state by plain GET polling of its self URL', rules('V2.JOB.SUBMIT', 'V2.JOB.POLL_FIRST', 'V2.JOB.FOLLOW_URLS'), async ({ api }) => {
    const { asset } = await createAsset(api);
    const job = await submitJob(api, { workflow: invertWorkflow(assetRef(asset.id)) });
    check('V2.JOB.SUBMIT', typeof job.id === 'string' && job.id.length > 0, 'the submit answer', 'a job with an id', job);
    const done = await pollToEnd(api, job);
    check('V2.JOB.POLL_FIRST', done.status === 'succeeded', 'the terminal status of a valid image workflow', 'succeeded', `${done.status} ${done.error ? JSON.stringify(done.error) : ''}`);
  });

  test("a succeeded job's outputs are assets whose bytes can be read", rules('V2.JOB.OUTPUTS_REAL'), async ({ api }) => {
    const done = await pollToEnd(api, await submitJob(api, { workflow: emptyImageWorkflow() }));
    const out = firstOutput(done);
    const bytes = await downloadVia(api, out.url);
    check('V2.JOB.OUTPUTS_REAL', bytes.subarray(0, 8).equals(PNG_SIGNATURE) && bytes.length === out.size_bytes, 'the bytes behind the output url', `a PNG of size_bytes ${out.size_bytes}`, `${bytes.length} bytes starting ${bytes.subarray(0, 8).toString('hex')}`);
  });

  test('a job output url is the authenticated content endpoint', rules('V2.URL.OUTPUT_CONTENT_ENDPOINT'), async ({ api, target }) => {
    const done = await pollToEnd(api, await submitJob(api, { workflow: emptyImageWorkflow() }));
    const out = firstOutput(done);
    const res = await api.follow(out.url, { auth: 'none' });
    ensure('V2.URL.OUTPUT_CONTENT_ENDPOINT', res.operationId === 'getAssetContent', "the output's url", `the content endpoint ${target.baseUrl}/api/v2/assets/{id}/content`, out.url);
    // That the endpoint refuses a keyless read is the content endpoint's own rule.
    if (target.token && target.surface !== 'local') check('V2.ASSET.CONTENT_AUTH', res.status === 401, 'the output url opened without a key', '401', res.status);
  });

  test("url_expires_at on a job output is not the signed URL's expiry", rules('V2.URL.OUTPUT_EXPIRY'), async ({ api }) => {
    const done = await pollToEnd(api, await submitJob(api, { workflow: emptyImageWorkflow() }));
    const out = firstOutput(done);
    const asset = (await api.call('getAsset', { path: { id: out.id } })).json<Asset>();
    // The asset's url_expires_at is the signed URL's. Reads a moment apart may differ by
    // a second or two, so "the same" means within 5 s: a real output expiry is days away from it.
    const apart = Math.abs(instant(out.url_expires_at) - instant(asset.url_expires_at));
    check('V2.URL.OUTPUT_EXPIRY', apart > 5_000, 'output url_expires_at vs the signed URL expiry of its asset', 'a different lifetime (on the hosted cloud, the job expires_at)', { output: out.url_expires_at, signed: asset.url_expires_at });
  });

  test('an output asset names its job; job_metadata is read through the job', rules('V2.ASSET.JOB_METADATA_READ'), async ({ api, target }) => {
    const labels = target.surface === 'local' ? undefined : { run: randomUUID().slice(0, 8), suite: 'conformance' };
    const done = await pollToEnd(api, await submitJob(api, { workflow: emptyImageWorkflow(), ...(labels ? { metadata: labels } : {}) }));
    const out = firstOutput(done);
    const asset = (await api.call('getAsset', { path: { id: out.id } })).json<Asset>();
    check('V2.ASSET.JOB_METADATA_READ', asset.job_id === done.id, 'job_id of the output asset', done.id, asset.job_id);
    // Absent is always allowed (no labels, surface keeps none, labels unreadable); present must be the job's.
    // Compared with the labels this test sent, so a job read that drops them is V2.JOB.LABELS_EXACT's failure.
    if (asset.job_metadata !== undefined) {
      check('V2.ASSET.JOB_METADATA_READ', labels !== undefined && isDeepStrictEqual(asset.job_metadata, labels), 'job_metadata of the output asset', JSON.stringify(labels ?? null), asset.job_metadata);
    }
  });

  test('job state and outputs stay retrievable by ID (until expires_at)', rules('V2.JOB.RETRIEVABLE'), async ({ api }) => {
    const done = await pollToEnd(api, await submitJob(api, { workflow: emptyImageWorkflow() }));
    check('V2.JOB.RETRIEVABLE', instant(done.expires_at) > Date.now(), 'expires_at of a fresh job', 'in the future', done.expires_at);
    const again = await api.call('getJob', { path: { id: done.id } });
    checkStatus('V2.JOB.RETRIEVABLE', again, [200]);
    const j = again.json<Job>();
    check('V2.JOB.RETRIEVABLE', j.status === done.status && j.outputs.length === done.outputs.length, 'a second read of the finished job', `${done.status} with ${done.outputs.length} outputs`, `${j.status} with ${j.outputs.length} outputs`);
  });

  test('the workflow read of a v2 job returns the submitted graph in API format', rules('V2.JOB.WORKFLOW_READ'), async ({ api }) => {
    const workflow = emptyImageWorkflow(5, 3);
    const job = await submitJob(api, { workflow });
    const res = await api.call('getJobWorkflow', { path: { id: job.id } });
    checkStatus('V2.JOB.WORKFLOW_READ', res, [200]);
    const body = res.json<{ workflow: unknown; format: string }>();
    check('V2.JOB.WORKFLOW_READ', body.format === 'api' && isDeepStrictEqual(body.workflow, workflow), 'the workflow read', 'format "api" and the graph as submitted', body);
  });

  test('the live event stream is an enhancement: its last status agrees with polling', rules('V2.JOB.EVENTS_AGREE'), async ({ api, target }) => {
    // A job that takes a moment makes the stream carry live changes, not only the final state.
    const slow = target.scenario.slow_node_class;
    const job = await submitJob(api, { workflow: typeof slow === 'string' ? slowWorkflow(slow, 1) : emptyImageWorkflow() });
    const res = await api.follow(job.urls.events, { headers: { accept: 'text/event-stream' }, timeoutMs: 20_000 });
    check('V2.JOB.FOLLOW_URLS', res.operationId === 'streamJobEvents', "the job's urls.events", 'the event stream operation', res.operationId ?? job.urls.events);
    const statuses = [...res.body.toString('utf8').matchAll(/event: status\ndata: (.*)\n/g)].map((m) => (JSON.parse(m[1]!) as { status: string }).status);
    const polled = await pollToEnd(api, job);
    check('V2.JOB.EVENTS_AGREE', statuses.length > 0 && statuses[statuses.length - 1] === polled.status, 'the last status event of the stream', `the polled status ${polled.status}`, statuses.join(' → ') || 'no status events');
  });
});

test.describe('Job metadata (labels)', () => {
  test('labels are stored exactly as sent, and absent when the job was sent with none', rules('V2.JOB.LABELS_EXACT'), async ({ api }) => {
    const labels = { team: 'conformance', 'run.id': randomUUID().slice(0, 8), note: 'ünïcode ok' };
    const labelled = await submitJob(api, { workflow: emptyImageWorkflow(), metadata: labels });
    const read = (await api.call('getJob', { path: { id: labelled.id } })).json<Job>();
    check('V2.JOB.LABELS_EXACT', isDeepStrictEqual(read.metadata, labels), 'metadata of a labelled job', JSON.stringify(labels), read.metadata);
    const plain = (await api.call('getJob', { path: { id: (await submitJob(api, { workflow: emptyImageWorkflow() })).id } })).json<Job>();
    check('V2.JOB.LABELS_EXACT', plain.metadata === undefined, 'metadata of a job sent without labels', 'absent', plain.metadata);
  });

  test('labels breaking a limit are refused 422 metadata_invalid, with details.key except for too many pairs', rules('V2.ERR.METADATA_INVALID'), async ({ api }) => {
    const badKey = await postJob(api, { workflow: emptyImageWorkflow(), metadata: { 'Bad Key!': 'x' } });
    checkStatus('V2.ERR.METADATA_INVALID', badKey, [422], 'metadata_invalid');
    const details = badKey.json<{ error: { details?: { key?: string } | null } }>().error.details;
    check('V2.ERR.METADATA_INVALID', details?.key === 'Bad Key!', 'details.key of a refused key', '"Bad Key!"', details);
    const many = Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`k${i}`, 'v']));
    const tooMany = await postJob(api, { workflow: emptyImageWorkflow(), metadata: many });
    checkStatus('V2.ERR.METADATA_INVALID', tooMany, [422], 'metadata_invalid');
    const d2 = tooMany.json<{ error: { details?: unknown } }>().error.details;
    check('V2.ERR.METADATA_INVALID', d2 === undefined || d2 === null, 'details of a too-many-pairs refusal', 'no details', d2);
  });

  test('a surface that keeps no job labels refuses them with 422 metadata_not_supported', rules('V2.ERR.METADATA_NOT_SUPPORTED'), async ({ api }) => {
    const res = await postJob(api, { workflow: emptyImageWorkflow(), metadata: { team: 'conformance' } });
    checkStatus('V2.ERR.METADATA_NOT_SUPPORTED', res, [422], 'metadata_not_supported');
  });
});

test.describe('Idempotent submission', () => {
  test('a reused Idempotency-Key is refused 422 idempotency_key_reuse', rules('V2.JOB.IDEMPOTENT'), async ({ api }) => {
    const key = randomUUID();
    checkStatus('V2.JOB.IDEMPOTENT', await postJob(api, { workflow: emptyImageWorkflow() }, key), [201]);
    checkStatus('V2.JOB.IDEMPOTENT', await postJob(api, { workflow: emptyImageWorkflow() }, key), [422], 'idempotency_key_reuse');
    checkStatus('V2.JOB.IDEMPOTENT', await postJob(api, { workflow: emptyImageWorkflow(3, 3) }, key), [422], 'idempotency_key_reuse');
  });

  test('concurrent submits with one key create exactly one job', rules('V2.JOB.IDEMPOTENT'), async ({ api }) => {
    const key = randomUUID();
    const answers = await Promise.all(Array.from({ length: 6 }, () => postJob(api, { workflow: emptyImageWorkflow() }, key)));
    const created = answers.filter((r) => r.status === 201).length;
    const refused = answers.filter((r) => r.status === 422 && r.errorCode === 'idempotency_key_reuse').length;
    check('V2.JOB.IDEMPOTENT', created === 1 && refused === 5, 'six concurrent submits with one key', '1 created, 5 refused idempotency_key_reuse', `${created} created, ${refused} refused, others ${answers.filter((r) => r.status !== 201 && r.status !== 422).map((r) => r.status).join(',') || 'none'}`);
  });

  test('distinct keys create distinct jobs', rules('V2.JOB.IDEMPOTENT'), async ({ api }) => {
    const ids = new Set<string>();
    for (let i = 0; i < 3; i++) {
      const res = await postJob(api, { workflow: emptyImageWorkflow() }, randomUUID());
      checkStatus('V2.JOB.IDEMPOTENT', res, [201]);
      ids.add(res.json<Job>().id);
    }
    check('V2.JOB.IDEMPOTENT', ids.size === 3, 'three submits with three keys', 'three distinct jobs', [...ids]);
  });
});


test.describe('Asset rule 5: uploads that match an output', () => {
  test('a create whose file path and bytes match an existing output answers with that output', rules('V2.ASSET.OUTPUT_MATCH'), async ({ api }) => {
    // A unique prefix gives this output a path no other output has.
    const done = await pollToEnd(api, await submitJob(api, { workflow: emptyImageWorkflow(6, 6, `match-${randomUUID().slice(0, 8)}`) }));
    const out = firstOutput(done);
    const asset = (await api.call('getAsset', { path: { id: out.id } })).json<Asset>();
    const bytes = await downloadVia(api, asset.url);
    const again = await createAsset(api, { bytes, filePath: asset.file_path ?? out.id, contentType: asset.content_type });
    check('V2.ASSET.OUTPUT_MATCH', again.asset.id === out.id && again.asset.job_id === done.id, 'the create of the output bytes at the output path', `the output asset ${out.id} with job_id ${done.id}`, { id: again.asset.id, job_id: again.asset.job_id });
  });
});
