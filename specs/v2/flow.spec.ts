// One stateful round trip per surface, as a client lives it (seed W § What the service
// does): every step follows the URLs the previous answer embedded.
import { isDeepStrictEqual } from 'node:util';
import { test, rules } from '../../fixtures/test.ts';
import { check, checkStatus } from '../../lib/check.ts';
import { uniquePng } from '../../lib/data/png.ts';
import { assetRef, invertWorkflow } from '../../lib/data/workflows.ts';
import { blake3Of, createAsset, downloadVia, type Asset } from '../../lib/v2/assets.ts';
import { firstOutput, pollToEnd, postJob, type Job } from '../../lib/v2/jobs.ts';

test.describe('Round trip', () => {
  test('upload, dedup, submit with labels, poll, outputs, asset read, content', rules('V2.FLOW.ROUND_TRIP'), async ({ api, target }) => {
    const rule = 'V2.FLOW.ROUND_TRIP';
    const bytes = uniquePng(16, 16);
    const hash = blake3Of(bytes);
    // Each step is judged by the rule that owns it; this test's own rule is what only the
    // composition shows: an asset minted from a hash is a workflow input like any upload,
    // and the run produces a new image from it.
    // The dedup fast path: ask before sending bytes, upload once, then mint from the hash.
    checkStatus('V2.ASSET.BY_HASH', await api.call('checkAssetByHash', { path: { hash } }), [404]);
    const { asset } = await createAsset(api, { bytes });
    checkStatus('V2.ASSET.BY_HASH', await api.call('checkAssetByHash', { path: { hash } }), [200]);
    const again = await api.call('assetFromHash', { json: { hash, file_path: `conformance/flow-${asset.id}.png` } });
    checkStatus('V2.ASSET.FROM_HASH', again, [200, 201]);
    const input = again.json<Asset>();

    const labels = target.surface === 'local' ? undefined : { flow: asset.id.slice(0, 8) };
    // The asset minted from the hash is a first-class input, like an uploaded one.
    const submitted = await postJob(api, { workflow: invertWorkflow(assetRef(input.id)), ...(labels ? { metadata: labels } : {}) });
    // Refused as a missing asset, the minted asset is not an input like an upload: this
    // test's own rule. Any other refusal of this valid workflow is the submit rule's.
    checkStatus(submitted.errorCode === 'missing_asset' ? rule : 'V2.JOB.SUBMIT', submitted, [201]);
    const job = submitted.json<Job>();
    const done = await pollToEnd(api, job);
    const out = firstOutput(done);

    const outAsset = (await api.call('getAsset', { path: { id: out.id } })).json<Asset>();
    check('V2.ASSET.JOB_METADATA_READ', outAsset.job_id === done.id, 'the output asset', `job_id ${done.id}`, outAsset.job_id);
    if (labels && outAsset.job_metadata !== undefined) check('V2.ASSET.JOB_METADATA_READ', isDeepStrictEqual(outAsset.job_metadata, labels), 'job_metadata of the output asset', JSON.stringify(labels), outAsset.job_metadata);
    const produced = await downloadVia(api, outAsset.url);
    check(rule, !produced.equals(bytes), 'the output bytes', 'a new (inverted) image, not the input', `${produced.length} bytes equal to the input`);
    const viaEndpoint = await downloadVia(api, out.url);
    check('V2.ASSET.IMMUTABLE', viaEndpoint.equals(produced), 'the output through its content endpoint', 'the same bytes as through the asset url', `${viaEndpoint.length} other bytes`);
  });
});
