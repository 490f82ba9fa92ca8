// Seed W § Resources and their fields › Asset, and the v2 asset operations.
import { test, rules } from '../../fixtures/test.ts';
import { check, checkStatus, notJudged } from '../../lib/check.ts';
import { uniquePng } from '../../lib/data/png.ts';
import { headOnTheWire } from '../../lib/http.ts';
import { instant, pollUntil } from '../../lib/time.ts';
import type { ApiClient } from '../../lib/api.ts';
import {
  blake3Of,
  checkCreated,
  createAsset,
  defaultFilePath,
  downloadVia,
  isContentBlocked,
  postAsset,
  postOwnAsset,
  sameBytes,
  settledHash,
  urlRefreshMs,
  type Asset,
} from '../../lib/v2/assets.ts';
import { checkNotFound, checkNotTheirs } from '../../lib/v2/not-found.ts';

const readAsset = async (api: ApiClient, id: string) => {
  const res = await api.call('getAsset', { path: { id } });
  checkStatus('V2.ASSET.FIELDS', res, [200]);
  return { asset: res.json<Asset>(), res };
};

test.describe('Asset', () => {
  test(
    'the hash is the server-computed blake3 of the bytes, written blake3:<hex>, and the fields of a create and a read are as the Asset table gives them',
    rules('V2.ASSET.CREATE', 'V2.ASSET.HASH_BLAKE3', 'V2.ASSET.FIELDS'),
    async ({ api }) => {
      // Types, formats and presence of each member are the contract's Asset schema, judged on every answer.
      const { asset, bytes, res, filePath } = await createAsset(api);
      const expected = blake3Of(bytes);
      check('V2.ASSET.FIELDS', asset.size_bytes === bytes.length, {
        what: 'size_bytes of the created asset',
        expected: String(bytes.length),
        received: asset.size_bytes,
        on: res,
      });
      const read = await readAsset(api, asset.id);
      for (const [where, a, r] of [
        ['create', asset, res],
        ['read', read.asset, read.res],
      ] as const) {
        // W:40:4bbdefa95f47: optional, but where sent it is the name or path the upload gave.
        check('V2.ASSET.FIELDS', a.file_path == null || a.file_path === filePath, {
          what: `file_path of the asset (${where})`,
          expected: `${JSON.stringify(filePath)} as sent (or null, or absent)`,
          received: a.file_path,
          on: r,
        });
      }
      // W:41:3c616acfc126: created_new belongs to create answers only.
      check('V2.ASSET.FIELDS', !('created_new' in read.asset), {
        what: 'created_new on a read of the asset',
        expected: "absent (a create answer's member only)",
        received: read.asset.created_new,
        on: read.res,
      });
      check('V2.ASSET.FIELDS', read.asset.id === asset.id && read.asset.size_bytes === bytes.length, {
        what: 'id and size_bytes of a read of the asset',
        expected: `id ${asset.id}, size_bytes ${bytes.length}`,
        received: { id: read.asset.id, size_bytes: read.asset.size_bytes },
        on: read.res,
      });
      // Nullable means "filled lazily": a null is re-read until it comes; a wrong value never passes.
      const hash = await settledHash(api, asset);
      check('V2.ASSET.HASH_BLAKE3', hash === expected, {
        what: `hash of asset ${asset.id}`,
        expected,
        received: hash,
        on: res,
      });
    },
  );

  test(
    'a blob is immutable: the bytes served are the bytes uploaded, on every read',
    rules('V2.ASSET.IMMUTABLE'),
    async ({ api }) => {
      const { asset, bytes } = await createAsset(api);
      for (let read = 1; read <= 2; read++) {
        const { asset: fresh, res } = await readAsset(api, asset.id);
        const served = await downloadVia(api, fresh.url);
        check('V2.ASSET.IMMUTABLE', sameBytes(served, bytes), {
          what: `read ${read} of the asset's url`,
          expected: `${bytes.length} bytes equal to the upload`,
          received: `${served.length} bytes${served.length === bytes.length ? ' that differ' : ''}`,
          on: res,
        });
      }
    },
  );

  test(
    'identical bytes are not stored twice: a create of bytes already held answers created_new false',
    rules('V2.ASSET.DEDUP'),
    async ({ api }) => {
      const bytes = uniquePng();
      const first = await createAsset(api, { bytes });
      const second = await createAsset(api, { bytes });
      // created_new is optional (seed Asset table): judged where the server sends it.
      if (first.asset.created_new === undefined && second.asset.created_new === undefined) {
        notJudged(
          'V2.ASSET.DEDUP',
          'created_new is absent from both create answers (an optional member), so the dedup hit is judged by the hashes alone',
        );
      } else {
        check('V2.ASSET.DEDUP', first.asset.created_new !== false, {
          what: 'created_new on the first upload of new bytes',
          expected: 'true (or absent)',
          received: first.asset.created_new,
          on: first.res,
        });
        check('V2.ASSET.DEDUP', second.asset.created_new === false, {
          what: 'created_new on a second upload of the same bytes',
          expected: 'false (dedup hit)',
          received: second.asset.created_new,
          on: second.res,
        });
      }
      // The same bytes are one blob: both records name it by the same server-computed hash.
      const [h1, h2] = [await settledHash(api, first.asset), await settledHash(api, second.asset)];
      // (Whether that hash is the right blake3 is V2.ASSET.HASH_BLAKE3's question.)
      check('V2.ASSET.DEDUP', h1 === h2, {
        what: 'the hashes of the two records over the same bytes',
        expected: 'the same hash (one blob)',
        received: { first: h1, second: h2 },
        on: second.res,
      });
      check('V2.ASSET.DEDUP', second.asset.size_bytes === bytes.length, {
        what: 'size_bytes of the dedup-hit record',
        expected: String(bytes.length),
        received: second.asset.size_bytes,
        on: second.res,
      });
    },
  );

  test(
    'each read of an asset carries a newly issued url and url_expires_at',
    rules('V2.ASSET.FRESH_URL'),
    async ({ api, target }, testInfo) => {
      const { asset, bytes } = await createAsset(api);
      const first = await readAsset(api, asset.id);
      // Fresh means usable now: the url a read returns serves the asset's bytes at once.
      check('V2.ASSET.FRESH_URL', sameBytes(await downloadVia(api, first.asset.url), bytes), {
        what: 'the url of a read, opened at once',
        expected: "the asset's bytes",
        received: 'other bytes',
        on: first.res,
      });
      // Seed W:79:36c2db9881b8: the proxy has no signed URLs; its url is its content endpoint,
      // and its url_expires_at may be a constant, so nothing there has to change between reads.
      if (target.surface === 'local')
        return notJudged(
          'V2.ASSET.FRESH_URL',
          'the self-hosted proxy has no signed URLs (its url is its content endpoint, its expiry may be ' +
            "constant), so only that each read's url serves the bytes is judged there",
        );
      // On hosted surfaces a fresh url is a new signing: a later read carries a new url with a
      // later expiry. A signer may round its expiries (to the minute, say), so the reads span
      // the scenario input url_refresh_seconds (default 65 s); a correct signer answers sooner.
      const windowMs = urlRefreshMs(api);
      testInfo.setTimeout(testInfo.timeout + windowMs);
      let last = first;
      const later = await pollUntil(
        async () => {
          last = await readAsset(api, asset.id);
          const moved =
            instant(last.asset.url_expires_at) > instant(first.asset.url_expires_at) &&
            last.asset.url !== first.asset.url;
          return moved ? last : undefined;
        },
        { deadlineMs: windowMs, intervalMs: 1_000 },
      );
      check('V2.ASSET.FRESH_URL', later !== undefined, {
        what: `url and url_expires_at over repeated reads for ${windowMs / 1000} s`,
        expected: 'a newly signed url with a later url_expires_at on a later read',
        received:
          `the url and ${first.asset.url_expires_at} on every read (a signer that rounds its expiries ` +
          `more coarsely than ${windowMs / 1000} s: set scenario input url_refresh_seconds)`,
        on: last.res,
      });
    },
  );

  test(
    'url_expires_at of a response is a time after that response was sent',
    rules('V2.URL.EXPIRY_IN_RESPONSE'),
    async ({ api }) => {
      const { asset } = await createAsset(api);
      const { asset: read, res } = await readAsset(api, asset.id);
      const sent = instant(res.header('date')) || Date.now();
      const expires = instant(read.url_expires_at);
      check('V2.URL.EXPIRY_IN_RESPONSE', expires > sent, {
        what: 'url_expires_at against the response Date',
        expected: `later than ${new Date(sent).toISOString()}`,
        received: read.url_expires_at,
        on: res,
      });
    },
  );

  test(
    'expires_at (retention) differs from url_expires_at (validity of url)',
    rules('V2.ASSET.EXPIRES_DISTINCT'),
    async ({ api }) => {
      const created = await createAsset(api);
      const read = await readAsset(api, created.asset.id);
      for (const [where, a, res] of [
        ['create', created.asset, created.res],
        ['read', read.asset, read.res],
      ] as const) {
        const same = a.expires_at != null && instant(a.expires_at) === instant(a.url_expires_at);
        check('V2.ASSET.EXPIRES_DISTINCT', !same, {
          what: `expires_at on ${where}`,
          expected: 'a retention deadline distinct from url_expires_at (or none)',
          received: { expires_at: a.expires_at, url_expires_at: a.url_expires_at },
          on: res,
        });
      }
    },
  );

  test(
    'referencing held content again can push its retention deadline later, never earlier',
    rules('V2.ASSET.RETENTION_EXTENDS'),
    async ({ api, target }) => {
      test.skip(
        !target.capabilities.retention,
        'not exercised: target does not declare the retention capability (expires_in honoured)',
      );
      const bytes = uniquePng();
      const skew = 5_000;
      const a = await createAsset(api, { bytes, expiresIn: 7200 });
      const firstDeadline = instant(a.asset.expires_at);
      check('V2.ASSET.RETENTION_EXTENDS', Number.isFinite(firstDeadline), {
        what: 'expires_at after a create with expires_in 7200',
        expected: 'a retention deadline',
        received: a.asset.expires_at,
        on: a.res,
      });
      const shorter = await createAsset(api, { bytes, expiresIn: 120 });
      check('V2.ASSET.RETENTION_EXTENDS', instant(shorter.asset.expires_at) >= firstDeadline, {
        what: 'expires_at after a dedup-hit create asking for 120 s',
        expected: `not before the earlier deadline ${a.asset.expires_at}`,
        received: shorter.asset.expires_at,
        on: shorter.res,
      });
      const longer = await createAsset(api, { bytes, expiresIn: 3 * 86400 });
      const wanted = Date.now() + 3 * 86400_000 - skew;
      check('V2.ASSET.RETENTION_EXTENDS', instant(longer.asset.expires_at) >= wanted, {
        what: 'expires_at after a dedup-hit create asking for 3 days',
        expected: `at least now + 3 days (${new Date(wanted).toISOString()})`,
        received: longer.asset.expires_at,
        on: longer.res,
      });
    },
  );

  test(
    'an asset no job produced has no job_id and no job_metadata',
    rules('V2.ASSET.NO_JOB_FOR_UPLOAD'),
    async ({ api }) => {
      const created = await createAsset(api);
      const read = await readAsset(api, created.asset.id);
      for (const [where, a, res] of [
        ['create', created.asset, created.res],
        ['read', read.asset, read.res],
      ] as const) {
        check('V2.ASSET.NO_JOB_FOR_UPLOAD', a.job_id == null, {
          what: `job_id of a fresh upload (${where})`,
          expected: 'absent',
          received: a.job_id,
          on: res,
        });
        check('V2.ASSET.NO_JOB_FOR_UPLOAD', !('job_metadata' in a), {
          what: `job_metadata of a fresh upload (${where})`,
          expected: 'absent',
          received: a.job_metadata,
          on: res,
        });
      }
    },
  );

  test(
    'an upload whose expected hash does not match is refused 409 hash_mismatch and mints nothing',
    rules('V2.ASSET.HASH_MISMATCH', 'V2.ASSET.EXPECTED_HASH'),
    async ({ api }) => {
      // The seed pairs hash_mismatch with 409 (W:205:ab835388c387) but names no field through which
      // a client states a hash: the suite sends the public documents' expected_hash.
      const bytes = uniquePng();
      const { res } = await postOwnAsset(api, { bytes, expectedHash: blake3Of(uniquePng()) });
      if (res.status >= 200 && res.status < 300) {
        check('V2.ASSET.EXPECTED_HASH', false, {
          what: 'an upload whose expected_hash is not the hash of its bytes',
          expected: 'refused (409 hash_mismatch)',
          received: `${res.status}: accepted`,
          on: res,
        });
        return notJudged(
          'V2.ASSET.HASH_MISMATCH',
          'the server accepted the upload, so it did not read the expected_hash the suite sent (a field ' +
            'only the public documents name); no mismatch refusal was seen',
        );
      }
      checkStatus('V2.ASSET.HASH_MISMATCH', res, [409], 'hash_mismatch');
      // That the refused bytes mint nothing is the public documents' (the seed gives only the code).
      const held = await api.call('checkAssetByHash', { path: { hash: blake3Of(bytes) } });
      check('V2.ASSET.EXPECTED_HASH', held.status === 404, {
        what: 'by-hash for the refused bytes',
        expected: '404 (nothing minted)',
        received: held.status,
        on: held,
      });
    },
  );

  test(
    'a malformed asset upload or asset-from-hash field is refused 422 invalid_request',
    rules('V2.ASSET.INVALID_UPLOAD'),
    async ({ api }) => {
      const noFile = await postAsset(api, { omitFile: true });
      checkStatus('V2.ASSET.INVALID_UPLOAD', noFile.res, [422], 'invalid_request');
      const noHash = await api.call('assetFromHash', { json: { file_path: defaultFilePath(api) } });
      checkStatus('V2.ASSET.INVALID_UPLOAD', noHash, [422], 'invalid_request');
      // A hash outside the blake3:<hex> format is a malformed field, not a lookup that missed.
      const badHash = await api.call('assetFromHash', {
        json: { hash: 'blake3:not-hex', file_path: defaultFilePath(api) },
      });
      checkStatus('V2.ASSET.INVALID_UPLOAD', badHash, [422], 'invalid_request');
    },
  );

  test('deleting an asset answers 204 and the record then reads 404', rules('V2.ASSET.DELETE'), async ({ api }) => {
    const bytes = uniquePng();
    const keep = (await createAsset(api, { bytes })).asset;
    const gone = (await createAsset(api, { bytes })).asset;
    const del = await api.call('deleteAsset', { path: { id: gone.id } });
    // The asset was just created and is the caller's: a 404 (in the v2 error envelope or not,
    // as a server answers any path it has no route for, W:198:f7c1d8f67073) or a 405 to its
    // delete says the operation is not there, not that the asset is missing.
    if (del.notOffered || del.status === 404 || del.status === 405) {
      notJudged(
        'V2.ASSET.DELETE',
        `not offered by this server: DELETE /api/v2/assets/{id} of an asset it holds answered ${del.status}` +
          `${del.errorCode ? ` ${del.errorCode}` : ''} (an operation only the public documents give)`,
      );
      return;
    }
    checkStatus('V2.ASSET.DELETE', del, [204]);
    checkNotFound('V2.ASSET.DELETE', await api.call('getAsset', { path: { id: gone.id } }));
    checkStatus('V2.ASSET.DELETE', await api.call('deleteAsset', { path: { id: gone.id } }), [404]);
    // The blob is shared: another record over the same bytes still serves them (the
    // same record, where the server answered the dedup hit with it, is gone).
    if (keep.id === gone.id)
      return notJudged(
        'V2.ASSET.DELETE',
        'the dedup hit answered the same record, so no second holder of the blob is left to read',
      );
    const content = await api.call('getAssetContent', { path: { id: keep.id } });
    checkStatus('V2.ASSET.DELETE', content, [200, 302]);
    const still = (await api.call('getAsset', { path: { id: keep.id } })).json<Asset>();
    check('V2.ASSET.IMMUTABLE', sameBytes(await downloadVia(api, still.url), bytes), {
      what: 'the other asset over the same blob',
      expected: 'the uploaded bytes',
      received: 'different bytes',
      on: content,
    });
  });
});

test.describe('Asset from hash and by-hash check', () => {
  test(
    'HEAD by-hash answers 200 when the account can create from the blob, 404 otherwise, with no body',
    rules('V2.ASSET.BY_HASH'),
    async ({ api, target }) => {
      const { asset, bytes } = await createAsset(api);
      // A client asks with the blake3 it computed; the server may fill its own lazily, so
      // the question is asked once that is filled.
      await settledHash(api, asset);
      const hash = blake3Of(bytes);
      const held = await api.call('checkAssetByHash', { path: { hash } });
      checkStatus('V2.ASSET.BY_HASH', held, [200]);
      const unknown = await api.call('checkAssetByHash', { path: { hash: blake3Of(uniquePng()) } });
      checkStatus('V2.ASSET.BY_HASH', unknown, [404]);
      // Refusals are status-only (W:116:01f04bbd4dcd): fetch never hands over a HEAD body, so
      // the bytes the server wrote after the headers are read off the connection itself.
      for (const r of [held, unknown]) {
        const wire = await headOnTheWire(
          r.url,
          target.token ? { authorization: `Bearer ${target.token}` } : {},
          api.bounds.httpTimeoutMs,
        );
        check('V2.ASSET.BY_HASH', wire.trailing.length === 0, {
          what: `bytes after the header block of HEAD ${new URL(r.url).pathname} (${wire.status})`,
          expected: 'none (no body)',
          received: `${wire.trailing.length} bytes: ${wire.trailing.subarray(0, 80).toString('utf8')}`,
          on: r,
        });
      }
    },
  );

  test(
    'create-from-hash mints an asset over a held blob and answers 404 blob_not_found otherwise',
    rules('V2.ASSET.FROM_HASH', 'V2.ASSET.FROM_HASH_MINTS'),
    async ({ api }) => {
      const { asset, bytes } = await createAsset(api);
      const serverHash = await settledHash(api, asset);
      const hash = blake3Of(bytes);
      // The request (path, hash and file_path) and its success are the public documents' (W:123:f9a38dca0104).
      const minted = await api.call('assetFromHash', { json: { hash, file_path: defaultFilePath(api) } });
      const mintedOk = minted.status >= 200 && minted.status < 300;
      check('V2.ASSET.FROM_HASH_MINTS', mintedOk, {
        what: 'create-from-hash of a blob the account holds',
        expected: 'a success (200 or 201) with an asset over it',
        received: `${minted.status} ${minted.errorCode ?? ''}`,
        on: minted,
      });
      if (mintedOk) {
        const m = minted.json<Asset>();
        // Same blob as the original record; whether that hash is right is V2.ASSET.HASH_BLAKE3's question.
        const same = m.size_bytes === asset.size_bytes && (m.hash === null || m.hash === serverHash);
        check('V2.ASSET.FROM_HASH_MINTS', same, {
          what: 'the asset minted from the hash',
          expected: `the original blob: size ${asset.size_bytes}, hash ${serverHash}`,
          received: { size_bytes: m.size_bytes, hash: m.hash },
          on: minted,
        });
      }
      const missing = await api.call('assetFromHash', {
        json: { hash: blake3Of(uniquePng()), file_path: defaultFilePath(api) },
      });
      // A server that refuses the public documents' request itself as malformed did not look the blob up.
      if (
        !mintedOk &&
        minted.status === 422 &&
        minted.errorCode === 'invalid_request' &&
        missing.errorCode === 'invalid_request'
      ) {
        return notJudged(
          'V2.ASSET.FROM_HASH',
          "the server refused the public documents' create-from-hash request as malformed (422 invalid_request), so no blob lookup was seen",
        );
      }
      checkStatus('V2.ASSET.FROM_HASH', missing, [404], 'blob_not_found');
    },
  );
});

test.describe('Asset ownership between accounts', () => {
  test(
    'an asset is a user-owned record: another account is refused it (404 not_found, or 403 forbidden: authenticated but not allowed)',
    rules('V2.ASSET.OWNER_SCOPE'),
    async ({ api, requireScenario }) => {
      const other = api.as({ bearer: requireScenario('other_account_token', "second account's key") as string });
      const { asset } = await createAsset(api);
      checkNotTheirs(
        'V2.ASSET.OWNER_SCOPE',
        await other.call('getAsset', { path: { id: asset.id } }),
        "another account's read of the asset",
      );
      checkNotTheirs(
        'V2.ASSET.OWNER_SCOPE',
        await other.call('getAssetContent', { path: { id: asset.id } }),
        "another account's read of the asset's content",
      );
    },
  );

  test(
    'by-hash is scoped per account: a blob only another account holds is a 404',
    rules('V2.ASSET.BY_HASH_SCOPE'),
    async ({ api, requireScenario }) => {
      const other = api.as({ bearer: requireScenario('other_account_token', "second account's key") as string });
      const { asset, bytes } = await createAsset(api);
      await settledHash(api, asset);
      checkStatus(
        'V2.ASSET.BY_HASH_SCOPE',
        await other.call('checkAssetByHash', { path: { hash: blake3Of(bytes) } }),
        [404],
      );
    },
  );

  test(
    'create-from-hash resolves only blobs the account may use',
    rules('V2.ASSET.FROM_HASH'),
    async ({ api, requireScenario }) => {
      const other = api.as({ bearer: requireScenario('other_account_token', "second account's key") as string });
      const { asset, bytes } = await createAsset(api);
      await settledHash(api, asset);
      const res = await other.call('assetFromHash', {
        json: { hash: blake3Of(bytes), file_path: defaultFilePath(api) },
      });
      // The request is the public documents': where the owner's same request is refused as
      // malformed too, the server does not take that request and no lookup was seen.
      const malformed = (r: typeof res) => r.status === 422 && r.errorCode === 'invalid_request';
      if (
        malformed(res) &&
        malformed(await api.call('assetFromHash', { json: { hash: blake3Of(bytes), file_path: defaultFilePath(api) } }))
      )
        return notJudged(
          'V2.ASSET.FROM_HASH',
          "the server refused the public documents' create-from-hash request as malformed (422 invalid_request), so no blob lookup was seen",
        );
      checkStatus('V2.ASSET.FROM_HASH', res, [404], 'blob_not_found');
    },
  );
});

test.describe('Content moderation', () => {
  test(
    'asset bytes flagged by content moderation are refused 451 content_blocked (at upload, or on a read of the asset or its content)',
    rules('V2.ERR.CONTENT_BLOCKED'),
    async ({ api, requireScenario }) => {
      const marker = requireScenario(
        'blocked_content_marker',
        'marker that makes content moderation flag bytes',
      ) as string;
      // The seed (W:218:96c1e20e9439) names no operation for moderation: the upload itself, the
      // asset read or the content read may be the one that answers 451 content_blocked.
      const { res: upload } = await postOwnAsset(api, { bytes: uniquePng(8, 8, marker) });
      if (isContentBlocked(upload))
        return void check('V2.ERR.CONTENT_BLOCKED', isContentBlocked(upload), {
          what: 'the upload of flagged bytes',
          expected: '451 content_blocked',
          received: upload.status,
          on: upload,
        });
      const { id } = checkCreated(upload);
      const read = await api.call('getAsset', { path: { id } });
      if (isContentBlocked(read))
        return void check('V2.ERR.CONTENT_BLOCKED', isContentBlocked(read), {
          what: 'a read of the asset over flagged bytes',
          expected: '451 content_blocked',
          received: read.status,
          on: read,
        });
      const content = await api.call('getAssetContent', { path: { id } });
      check('V2.ERR.CONTENT_BLOCKED', isContentBlocked(content), {
        what: 'the upload, the asset read and the content read of flagged bytes',
        expected: 'one of them refused 451 content_blocked',
        received: `upload ${upload.status}, asset read ${read.status}, content read ${content.status}${content.errorCode ? ` ${content.errorCode}` : ''}`,
        on: content,
      });
    },
  );
});
