// Seed W § Resources and their fields › Asset, and the v2 asset operations.
import { test, rules } from '../../fixtures/test.ts';
import { check, checkStatus } from '../../lib/check.ts';
import { uniquePng } from '../../lib/data/png.ts';
import { instant, pollUntil } from '../../lib/time.ts';
import { blake3Of, createAsset, downloadVia, postAsset, sameBytes, type Asset } from '../../lib/v2/assets.ts';

test.describe('Asset', () => {
  test('the hash is the server-computed blake3 of the bytes, written blake3:<hex>', rules('V2.ASSET.HASH_BLAKE3', 'V2.ASSET.FIELDS'), async ({ api }) => {
    const { asset, bytes } = await createAsset(api);
    const expected = blake3Of(bytes);
    check('V2.ASSET.FIELDS', asset.size_bytes === bytes.length, 'size_bytes of the created asset', String(bytes.length), asset.size_bytes);
    // The hash may be filled lazily: null now is allowed, a wrong value never is.
    const hash = asset.hash ?? (await api.call('getAsset', { path: { id: asset.id } })).json<Asset>().hash;
    check('V2.ASSET.HASH_BLAKE3', hash === null || hash === expected, 'hash of the uploaded bytes', expected, hash);
  });

  test('a blob is immutable: the bytes served are the bytes uploaded, on every read', rules('V2.ASSET.IMMUTABLE'), async ({ api }) => {
    const { asset, bytes } = await createAsset(api);
    for (let read = 1; read <= 2; read++) {
      const fresh = (await api.call('getAsset', { path: { id: asset.id } })).json<Asset>();
      const served = await downloadVia(api, fresh.url);
      check('V2.ASSET.IMMUTABLE', sameBytes(served, bytes), `read ${read} of the asset's url`, `${bytes.length} bytes equal to the upload`, `${served.length} bytes${served.length === bytes.length ? ' that differ' : ''}`);
    }
  });

  test('identical bytes are not stored twice: a create of bytes already held answers created_new false', rules('V2.ASSET.DEDUP'), async ({ api }) => {
    const bytes = uniquePng();
    const first = (await createAsset(api, { bytes })).asset;
    check('V2.ASSET.DEDUP', first.created_new !== false, 'created_new on the first upload of new bytes', 'true (or absent)', first.created_new);
    const second = (await createAsset(api, { bytes })).asset;
    check('V2.ASSET.DEDUP', second.created_new === false, 'created_new on a second upload of the same bytes', 'false (dedup hit)', second.created_new);
    check('V2.ASSET.DEDUP', second.id !== first.id || second.hash === first.hash, 'the second record', 'the same hash over the same blob', { first: first.hash, second: second.hash });
  });

  test('every fetch of an asset returns a fresh url and url_expires_at', rules('V2.ASSET.FRESH_URL'), async ({ api }) => {
    const { asset } = await createAsset(api);
    const read = async () => (await api.call('getAsset', { path: { id: asset.id } })).json<Asset>();
    const first = await read();
    // A fresh signing moves the expiry forward as time passes; a cached URL never does.
    const later = await pollUntil(async () => {
      const next = await read();
      return instant(next.url_expires_at) > instant(first.url_expires_at) ? next : undefined;
    }, { deadlineMs: 3_000, intervalMs: 250 });
    check('V2.ASSET.FRESH_URL', later !== undefined, 'url_expires_at over repeated reads for 3 s', 'a later url_expires_at on a later read', `${first.url_expires_at} on every read`);
  });

  test('url_expires_at of a response is a time after that response was sent', rules('V2.URL.EXPIRY_IN_RESPONSE'), async ({ api }) => {
    const { asset } = await createAsset(api);
    const res = await api.call('getAsset', { path: { id: asset.id } });
    const sent = instant(res.header('date')) || Date.now();
    const expires = instant(res.json<Asset>().url_expires_at);
    check('V2.URL.EXPIRY_IN_RESPONSE', expires > sent, 'url_expires_at against the response Date', `later than ${new Date(sent).toISOString()}`, res.json<Asset>().url_expires_at);
  });

  test('expires_at (retention) differs from url_expires_at (validity of url)', rules('V2.ASSET.EXPIRES_DISTINCT'), async ({ api }) => {
    const { asset } = await createAsset(api);
    const read = (await api.call('getAsset', { path: { id: asset.id } })).json<Asset>();
    for (const [where, a] of [['create', asset], ['read', read]] as const) {
      const same = a.expires_at != null && instant(a.expires_at) === instant(a.url_expires_at);
      check('V2.ASSET.EXPIRES_DISTINCT', !same, `expires_at on ${where}`, 'a retention deadline distinct from url_expires_at (or none)', { expires_at: a.expires_at, url_expires_at: a.url_expires_at });
    }
  });

  test('re-referencing content extends retention and never shortens it', rules('V2.ASSET.RETENTION_EXTENDS'), async ({ api, target }) => {
    test.skip(!target.capabilities.retention, 'not exercised: target does not declare the retention capability (expires_in honoured)');
    const bytes = uniquePng();
    const skew = 5_000;
    const a = (await createAsset(api, { bytes, expiresIn: 7200 })).asset;
    const firstDeadline = instant(a.expires_at);
    check('V2.ASSET.RETENTION_EXTENDS', Number.isFinite(firstDeadline), 'expires_at after a create with expires_in 7200', 'a retention deadline', a.expires_at);
    const shorter = (await createAsset(api, { bytes, expiresIn: 120 })).asset;
    check('V2.ASSET.RETENTION_EXTENDS', instant(shorter.expires_at) >= firstDeadline, 'expires_at after a dedup-hit create asking for 120 s', `not before the earlier deadline ${a.expires_at}`, shorter.expires_at);
    const longer = (await createAsset(api, { bytes, expiresIn: 3 * 86400 })).asset;
    const wanted = Date.now() + 3 * 86400_000 - skew;
    check('V2.ASSET.RETENTION_EXTENDS', instant(longer.expires_at) >= wanted, 'expires_at after a dedup-hit create asking for 3 days', `at least now + 3 days (${new Date(wanted).toISOString()})`, longer.expires_at);
  });

  test('an asset no job produced has no job_id and no job_metadata', rules('V2.ASSET.NO_JOB_FOR_UPLOAD'), async ({ api }) => {
    const { asset } = await createAsset(api);
    const read = (await api.call('getAsset', { path: { id: asset.id } })).json<Asset>();
    for (const [where, a] of [['create', asset], ['read', read]] as const) {
      check('V2.ASSET.NO_JOB_FOR_UPLOAD', a.job_id == null, `job_id of a fresh upload (${where})`, 'absent', a.job_id);
      check('V2.ASSET.NO_JOB_FOR_UPLOAD', !('job_metadata' in a), `job_metadata of a fresh upload (${where})`, 'absent', a.job_metadata);
    }
  });

  test('an upload whose expected hash does not match is refused 409 hash_mismatch and mints nothing', rules('V2.ASSET.HASH_MISMATCH'), async ({ api }) => {
    const bytes = uniquePng();
    const { res } = await postAsset(api, { bytes, expectedHash: blake3Of(uniquePng()) });
    checkStatus('V2.ASSET.HASH_MISMATCH', res, [409], 'hash_mismatch');
    const held = await api.call('checkAssetByHash', { path: { hash: blake3Of(bytes) } });
    check('V2.ASSET.HASH_MISMATCH', held.status === 404, 'by-hash for the refused bytes', '404 (nothing minted)', held.status);
  });

  test('a malformed asset upload or asset-from-hash field is refused 422 invalid_request', rules('V2.ASSET.INVALID_UPLOAD'), async ({ api }) => {
    const noFile = await postAsset(api, { omitFile: true });
    checkStatus('V2.ASSET.INVALID_UPLOAD', noFile.res, [422], 'invalid_request');
    const badHash = await api.call('assetFromHash', { json: { hash: 'blake3:not-hex', file_path: 'x.png' } });
    checkStatus('V2.ASSET.INVALID_UPLOAD', badHash, [422], 'invalid_request');
  });

  test('deleting an asset answers 204 and the record then reads 404 not_found', rules('V2.ASSET.DELETE'), async ({ api }) => {
    const bytes = uniquePng();
    const keep = (await createAsset(api, { bytes })).asset;
    const gone = (await createAsset(api, { bytes })).asset;
    checkStatus('V2.ASSET.DELETE', await api.call('deleteAsset', { path: { id: gone.id } }), [204]);
    checkStatus('V2.ASSET.DELETE', await api.call('getAsset', { path: { id: gone.id } }), [404], 'not_found');
    checkStatus('V2.ASSET.DELETE', await api.call('deleteAsset', { path: { id: gone.id } }), [404]);
    // The blob is shared: the other asset over the same bytes still serves them.
    const content = await api.call('getAssetContent', { path: { id: keep.id } });
    checkStatus('V2.ASSET.DELETE', content, [200, 302]);
    const still = (await api.call('getAsset', { path: { id: keep.id } })).json<Asset>();
    check('V2.ASSET.IMMUTABLE', sameBytes(await downloadVia(api, still.url), bytes), 'the other asset over the same blob', 'the uploaded bytes', 'different bytes');
  });
});

test.describe('Asset from hash and by-hash check', () => {
  test('HEAD by-hash answers 200 when the account can create from the blob, 404 otherwise, with no body', rules('V2.ASSET.BY_HASH'), async ({ api }) => {
    const { bytes } = await createAsset(api);
    const held = await api.call('checkAssetByHash', { path: { hash: blake3Of(bytes) } });
    checkStatus('V2.ASSET.BY_HASH', held, [200]);
    const unknown = await api.call('checkAssetByHash', { path: { hash: blake3Of(uniquePng()) } });
    checkStatus('V2.ASSET.BY_HASH', unknown, [404]);
    for (const r of [held, unknown]) check('V2.ASSET.BY_HASH', r.body.length === 0, `HEAD answer ${r.status}`, 'no body', `${r.body.length} bytes`);
  });

  test('create-from-hash mints an asset over a held blob and answers 404 blob_not_found otherwise', rules('V2.ASSET.FROM_HASH'), async ({ api }) => {
    const { asset, bytes } = await createAsset(api);
    const hash = blake3Of(bytes);
    const minted = await api.call('assetFromHash', { json: { hash, file_path: `conformance/from-hash-${Date.now()}.png` } });
    checkStatus('V2.ASSET.FROM_HASH', minted, [200, 201]);
    const m = minted.json<Asset>();
    // Same blob as the original record; whether that hash is right is V2.ASSET.HASH_BLAKE3's question.
    const same = m.size_bytes === asset.size_bytes && (m.hash === null || asset.hash === null || m.hash === asset.hash);
    check('V2.ASSET.FROM_HASH', same, 'the asset minted from the hash', `the original blob: size ${asset.size_bytes}, hash ${asset.hash}`, { size_bytes: m.size_bytes, hash: m.hash });
    const missing = await api.call('assetFromHash', { json: { hash: blake3Of(uniquePng()), file_path: 'conformance/none.png' } });
    checkStatus('V2.ASSET.FROM_HASH', missing, [404], 'blob_not_found');
  });
});

test.describe('Asset ownership between accounts', () => {
  test('an asset is readable only by its owner; another account gets 404 not_found', rules('V2.ASSET.OWNER_SCOPE'), async ({ api, requireScenario }) => {
    const other = api.as({ bearer: requireScenario('other_account_token', "second account's key") as string });
    const { asset } = await createAsset(api);
    checkStatus('V2.ASSET.OWNER_SCOPE', await other.call('getAsset', { path: { id: asset.id } }), [404], 'not_found');
    checkStatus('V2.ASSET.OWNER_SCOPE', await other.call('getAssetContent', { path: { id: asset.id } }), [404], 'not_found');
  });

  test('by-hash is scoped per account: a blob only another account holds is a 404', rules('V2.ASSET.BY_HASH_SCOPE'), async ({ api, requireScenario }) => {
    const other = api.as({ bearer: requireScenario('other_account_token', "second account's key") as string });
    const { bytes } = await createAsset(api);
    checkStatus('V2.ASSET.BY_HASH_SCOPE', await other.call('checkAssetByHash', { path: { hash: blake3Of(bytes) } }), [404]);
  });

  test('create-from-hash resolves only blobs the account may use', rules('V2.ASSET.FROM_HASH'), async ({ api, requireScenario }) => {
    const other = api.as({ bearer: requireScenario('other_account_token', "second account's key") as string });
    const { bytes } = await createAsset(api);
    const res = await other.call('assetFromHash', { json: { hash: blake3Of(bytes), file_path: 'conformance/foreign.png' } });
    checkStatus('V2.ASSET.FROM_HASH', res, [404], 'blob_not_found');
  });
});

test.describe('Content moderation', () => {
  test('asset bytes flagged by content moderation are refused 451 content_blocked', rules('V2.ERR.CONTENT_BLOCKED'), async ({ api, requireScenario }) => {
    const marker = requireScenario('blocked_content_marker', 'marker that makes content moderation flag bytes') as string;
    const { asset } = await createAsset(api, { bytes: uniquePng(8, 8, marker) });
    checkStatus('V2.ERR.CONTENT_BLOCKED', await api.call('getAssetContent', { path: { id: asset.id } }), [451], 'content_blocked');
  });
});
