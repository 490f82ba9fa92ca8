// Seed W § Endpoints › v2 operations; § Resources › Job record. The api fixture judges
// every answer against the contract (status, media type, body, headers, and the job
// record's members; what only the public documents give, at SHOULD: V2.CONTRACT.DOCUMENTED); this test provokes one answer of each operation a client drives in
// the usual order, so a break in any of them shows here without the rest of the suite.
// The live event stream is read by jobs.spec.ts (a stream may stay open on some servers).
import { test, rules } from '../../fixtures/test.ts';
import { blake3Of, createAsset, defaultFilePath } from '../../lib/v2/assets.ts';
import { anyWorkflow, pollToEnd, submitJob } from '../../lib/v2/jobs.ts';

test.describe('Contract', () => {
  test(
    "every answer has a status, media type, body and headers the contract declares for its operation, and every job record the seed's members",
    rules(
      'V2.CONTRACT.STATUS_DECLARED',
      'V2.CONTRACT.BODY',
      'V2.CONTRACT.HEADERS',
      'V2.CONTRACT.DOCUMENTED',
      'V2.JOB.FIELDS',
      'V2.JOB.OUTPUT_FIELDS',
    ),
    async ({ api, surface }) => {
      // Assets: upload, read, look up and mint by hash, the content (whole and a range), delete.
      const { asset, bytes } = await createAsset(api);
      const hash = blake3Of(bytes);
      await api.call('getAsset', { path: { id: asset.id } });
      await api.call('checkAssetByHash', { path: { hash } });
      const minted = await api.call('assetFromHash', { json: { hash, file_path: defaultFilePath(api) } });
      await api.call('getAssetContent', { path: { id: asset.id } });
      await api.call('getAssetContent', { path: { id: asset.id }, headers: { range: 'bytes=0-3' } });
      // Jobs: a job read to its end (a record with outputs), its workflow, the list, and a
      // cancel of a fresh job (queued or running on most servers; either way the job record).
      const done = await pollToEnd(api, await submitJob(api, { workflow: anyWorkflow(api) }));
      await api.call('getJob', { path: { id: done.id } });
      await api.call('getJobWorkflow', { path: { id: done.id } });
      await api.call('listJobs', { query: { limit: 2 } });
      const fresh = await submitJob(api, { workflow: anyWorkflow(api, 9, 7) });
      await api.call('cancelJob', { path: { id: fresh.id } });
      if (surface === 'serverless') await api.call('getDeploymentWorkflow');
      const mintedId = minted.status < 300 ? (minted.json<{ id?: unknown }>().id as string | undefined) : undefined;
      await api.call('deleteAsset', { path: { id: typeof mintedId === 'string' ? mintedId : asset.id } });
    },
  );
});
