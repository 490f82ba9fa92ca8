// One stateful round trip per surface, as a client lives it (seed W § What the service
// does): every step follows the URLs the previous answer embedded.
import { isDeepStrictEqual } from 'node:util';
import { test, rules } from '../../fixtures/test.ts';
import { check, checkStatus, ensure, notJudged } from '../../lib/check.ts';
import { uniquePng } from '../../lib/data/png.ts';
import { assetReference, invertWorkflow } from '../../lib/data/workflows.ts';
import { blake3Of, createAsset, defaultFilePath, downloadVia, settledHash, type Asset } from '../../lib/v2/assets.ts';
import {
  accepted,
  assetFormRefusal,
  classes,
  firstOutput,
  followable,
  namingAnAsset,
  outputAssetId,
  pollToEnd,
  postJob,
  refusedClasses,
} from '../../lib/v2/jobs.ts';

test.describe('Round trip', () => {
  test(
    'upload, dedup, submit with labels, poll, outputs, asset read, content',
    rules('V2.FLOW.ROUND_TRIP'),
    async ({ api, target }) => {
      const rule = 'V2.FLOW.ROUND_TRIP';
      const bytes = uniquePng(16, 16);
      // Each step is judged by the rule that owns it; this test's own rule is what only the
      // composition shows: an asset minted from a hash is a workflow input like any upload,
      // and the run produces a new image from it.
      // The dedup fast path: ask before sending bytes, upload once, then mint from the hash
      // (the server's own, once filled: it may be computed lazily).
      checkStatus('V2.ASSET.BY_HASH', await api.call('checkAssetByHash', { path: { hash: blake3Of(bytes) } }), [404]);
      const { asset } = await createAsset(api, { bytes });
      await settledHash(api, asset);
      const hash = blake3Of(bytes);
      checkStatus('V2.ASSET.BY_HASH', await api.call('checkAssetByHash', { path: { hash } }), [200]);
      const again = await api.call('assetFromHash', { json: { hash, file_path: defaultFilePath(api) } });
      ensure('V2.ASSET.FROM_HASH_MINTS', accepted(again), {
        what: 'create-from-hash of the uploaded blob',
        expected: 'a success (2xx) with an asset over it',
        received: `${again.status} ${again.errorCode ?? ''}`,
        on: again,
      });
      const input = again.json<Asset>();

      const labels = target.surface === 'local' ? undefined : { flow: asset.id.slice(0, 8) };
      // The asset minted from the hash is a first-class input, like an uploaded one.
      const workflow = namingAnAsset(
        invertWorkflow(
          assetReference({ id: input.id, hash: input.hash, file_path: input.file_path }, api.target.scenario),
          classes(api),
        ),
      );
      const body = { workflow, ...(labels ? { metadata: labels } : {}) };
      const submitted = await postJob(api, body);
      refusedClasses(api, submitted, workflow);
      // A refusal of the asset-reference form (scenario input asset_reference) is not judged.
      const form =
        accepted(submitted) || submitted.errorCode === 'missing_asset'
          ? undefined
          : await assetFormRefusal(api, submitted, body);
      if (form) throw form;
      // Refused as a missing asset, the minted asset is not an input like an upload: this
      // test's own rule. Any other refusal of this valid workflow is the submit rule's.
      ensure(submitted.errorCode === 'missing_asset' ? rule : 'V2.JOB.SUBMIT', accepted(submitted), {
        what: 'the submit of a workflow reading the asset minted from the hash',
        expected: 'a success (2xx)',
        received: `${submitted.status} ${submitted.errorCode ?? ''}`,
        on: submitted,
      });
      const job = followable(submitted);
      const done = await pollToEnd(api, job);
      const out = firstOutput(done);

      const read = await api.call('getAsset', { path: { id: outputAssetId(out) } });
      checkStatus('V2.ASSET.FIELDS', read, [200]);
      const outAsset = read.json<Asset>();
      check('V2.ASSET.JOB_METADATA_READ', outAsset.job_id === done.id, {
        what: 'the output asset',
        expected: `job_id ${done.id}`,
        received: outAsset.job_id,
        on: read,
      });
      // Absent job_metadata is allowed (seed W § Asset rule 4); present, it must be the job's labels.
      if (!labels)
        notJudged('V2.ASSET.JOB_METADATA_READ', 'no labels are sent to the self-hosted proxy in the round trip');
      else if (outAsset.job_metadata === undefined)
        notJudged(
          'V2.ASSET.JOB_METADATA_READ',
          'job_metadata of the round trip output is absent, which the seed allows (labels not kept or not readable)',
        );
      else
        check('V2.ASSET.JOB_METADATA_READ', isDeepStrictEqual(outAsset.job_metadata, labels), {
          what: 'job_metadata of the output asset',
          expected: JSON.stringify(labels),
          received: outAsset.job_metadata,
          on: read,
        });
      const produced = await downloadVia(api, outAsset.url);
      check(rule, !produced.equals(bytes), {
        what: 'the output bytes',
        expected: 'a new (inverted) image, not the input',
        received: `${produced.length} bytes equal to the input`,
        on: read,
      });
      const viaEndpoint = await downloadVia(api, out.url);
      check('V2.ASSET.IMMUTABLE', viaEndpoint.equals(produced), {
        what: 'the output through its content endpoint',
        expected: 'the same bytes as through the asset url',
        received: `${viaEndpoint.length} other bytes`,
        on: read,
      });
    },
  );
});
