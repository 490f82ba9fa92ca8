// v2 faults of assets (seed W § Assets) and the URLs they hand out.
import type { FaultUnit } from '../unit.ts';
import { createHash, randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { Transform, pipeline, type Readable } from 'node:stream';
import { formatHash } from '../../blobs.ts';
import { ApiError, upstreamError } from '../../errors.ts';
import {
  ASSET_ROUTES,
  CONTENT,
  HOSTED,
  JOB_ROUTES,
  UUID_RE,
  eachOutput,
  errorObject,
  iso,
  isObj,
  param,
  record,
} from './shared.ts';

const isReadable = (v: unknown): v is Readable => isObj(v) && typeof (v as { pipe?: unknown }).pipe === 'function';

/** Where a served body starts in its blob, and the blob's size. */
function servedRange(contentRange: string | undefined, length: number): { start: number; size: number } {
  const m = /(\d+)-\d+\/(\d+)$/.exec(contentRange ?? '');
  return m ? { start: Number(m[1]), size: Number(m[2]) } : { start: 0, size: length };
}

// Flips the byte at absolute position `target` of a stream that begins at `offset`.
function flipAt(offset: number, target: number): Transform {
  let pos = offset;
  return new Transform({
    transform(chunk: Buffer, _enc, done) {
      if (target >= pos && target < pos + chunk.length) {
        const copy = Buffer.from(chunk);
        copy[target - pos] = (copy[target - pos] ?? 0) ^ 0xff;
        chunk = copy;
      }
      pos += chunk.length;
      done(null, chunk);
    },
  });
}

export const ASSET_FAULTS = [
  {
    name: 'stale-asset-url',
    breaks: 'V2.ASSET.FRESH_URL',
    statements: ['W:51:a24e448658c6', 'W:110:80ba9c4c481f'],
    description: 'GET asset returns the url and url_expires_at computed at create time instead of fresh ones',
    install(s) {
      // Reads serve the url (and its expiry) the asset was first presented with.
      const first = new Map<string, { url: unknown; url_expires_at: unknown }>();
      s.respond({ routes: ASSET_ROUTES }, (out) => {
        const rec = record(out);
        if (rec === undefined) return;
        const seen = first.get(rec.id as string);
        if (seen === undefined) first.set(rec.id as string, { url: rec.url, url_expires_at: rec.url_expires_at });
        else if (out.request.method === 'GET') Object.assign(rec, seen);
      });
    },
  },
  {
    name: 'drop-url-expires-at',
    breaks: 'V2.ASSET.FIELDS',
    statements: ['W:44:b77f940fe617'],
    description: 'asset responses omit url_expires_at',
    install(s) {
      s.respond({ routes: ASSET_ROUTES }, (out) => {
        delete record(out)?.url_expires_at;
      });
    },
  },
  // V2.ASSET.FIELDS, one per row of the Asset table a serializer or a store plausibly gets wrong.
  {
    name: 'asset-id-undashed',
    breaks: 'V2.ASSET.FIELDS',
    statements: ['W:36:e53f8124b869'],
    description:
      'asset ids are serialized as 32 bare hex digits (a UUID column written with its hex form), not as a UUID string',
    install(s) {
      s.respond({ routes: ASSET_ROUTES }, (out) => {
        const rec = record(out);
        if (rec !== undefined && typeof rec.id === 'string') rec.id = rec.id.replace(/-/g, '');
      });
    },
  },
  {
    name: 'size-bytes-string',
    breaks: 'V2.ASSET.FIELDS',
    statements: ['W:38:17a4a1fd2440'],
    description:
      'size_bytes is sent as a JSON string (an int64 written the way the protobuf JSON mapping writes 64-bit integers)',
    install(s) {
      s.respond({ routes: ASSET_ROUTES }, (out) => {
        const rec = record(out);
        if (rec !== undefined && typeof rec.size_bytes === 'number') rec.size_bytes = String(rec.size_bytes);
      });
    },
  },
  {
    name: 'content-type-extension',
    breaks: 'V2.ASSET.FIELDS',
    statements: ['W:39:ed25394420ef'],
    description: 'content_type carries the file extension the server derived from the name ("png"), not a media type',
    install(s) {
      s.respond({ routes: ASSET_ROUTES }, (out) => {
        const rec = record(out);
        if (rec !== undefined && typeof rec.content_type === 'string')
          rec.content_type = rec.content_type.split('/').pop()!.split(';')[0].trim();
      });
    },
  },
  {
    name: 'file-path-placed',
    breaks: 'V2.ASSET.FIELDS',
    statements: ['W:40:4bbdefa95f47'],
    description:
      "file_path reports where the server placed the upload (under the engine's input/ folder), not the name or path the client sent",
    install(s) {
      s.respond({ routes: ASSET_ROUTES }, (out) => {
        const rec = record(out);
        if (
          rec !== undefined &&
          typeof rec.file_path === 'string' &&
          rec.job_id === undefined &&
          !rec.file_path.startsWith('input/')
        )
          rec.file_path = `input/${rec.file_path}`;
      });
    },
  },
  {
    name: 'read-carries-created-new',
    breaks: 'V2.ASSET.FIELDS',
    statements: ['W:41:3c616acfc126'],
    description: 'created_new is stored on the record and serialized on every read too, not on create answers only',
    install(s) {
      const flag = new Map<string, unknown>();
      s.respond({ routes: ASSET_ROUTES }, (out) => {
        const rec = record(out);
        if (rec === undefined) return;
        if (out.request.method === 'POST' && 'created_new' in rec) flag.set(rec.id as string, rec.created_new);
        else if (out.request.method === 'GET' && flag.has(rec.id as string))
          rec.created_new = flag.get(rec.id as string);
      });
    },
  },
  {
    name: 'created-at-naive',
    breaks: 'V2.ASSET.FIELDS',
    statements: ['W:42:fd8062df0379'],
    description:
      'created_at is written without a time zone (a naive datetime serialized as 2026-01-01T12:00:00.123), so it is no RFC 3339 date-time',
    install(s) {
      s.respond({ routes: ASSET_ROUTES }, (out) => {
        const rec = record(out);
        if (rec !== undefined && typeof rec.created_at === 'string')
          rec.created_at = rec.created_at.replace(/(Z|[+-]\d\d:\d\d)$/, '');
      });
    },
  },
  {
    name: 'asset-read-no-url',
    breaks: 'V2.ASSET.FIELDS',
    statements: ['W:108:a058750b30d3', 'W:110:80ba9c4c481f'],
    description:
      'the metadata read serializes the stored row only: no url and no url_expires_at (the signed url is minted on create alone)',
    install(s) {
      s.respond({ routes: ['GET /api/v2/assets/:id'] }, (out) => {
        const rec = record(out);
        if (rec === undefined) return;
        delete rec.url;
        delete rec.url_expires_at;
      });
    },
  },
  {
    name: 'dedup-created-new',
    breaks: 'V2.ASSET.DEDUP',
    statements: ['W:41:3c616acfc126', 'W:20:526e164037c9'],
    description: 'a dedup-hit create still answers 201 with created_new true',
    install(s) {
      s.respond({ routes: ['POST /api/v2/assets'] }, (out) => {
        const rec = record(out);
        // A dedup hit, not the answer with a matching output (which carries its job).
        if (rec === undefined || out.status !== 200 || rec.created_new !== false || rec.job_id !== undefined) return;
        out.status = 201;
        rec.created_new = true;
      });
    },
  },
  {
    name: 'retention-shortened',
    breaks: 'V2.ASSET.RETENTION_EXTENDS',
    statements: ['W:52:18c3153ad923'],
    description: 'a dedup-hit create sets the retention deadline to now + requested even when that is earlier',
    install(s) {
      s.policy.v2.extendRetention = (_existing, wanted) => wanted;
    },
  },
  {
    name: 'by-hash-never',
    breaks: 'V2.ASSET.BY_HASH',
    statements: ['W:113:089995d7131f', 'W:115:bcfc2eb922b2'],
    description: 'HEAD by-hash answers 404 even for a blob the account holds',
    install(s) {
      s.respond({ routes: ['HEAD /api/v2/assets/by-hash/:hash'] }, (out) => {
        if (out.status === 200) out.status = 404;
      });
    },
  },
  {
    name: 'moderation-ignored',
    breaks: 'V2.ERR.CONTENT_BLOCKED',
    statements: ['W:218:96c1e20e9439'],
    description: 'asset reads serve bytes that content moderation flagged',
    install(s) {
      s.policy.v2.blocked = () => false;
    },
  },
  {
    name: 'range-ignored',
    breaks: 'V2.ASSET.CONTENT_RANGE',
    statements: ['W:119:69514e76b20b'],
    description: 'the local content endpoint ignores Range and answers 200 with every byte',
    install(s) {
      s.request({ routes: [CONTENT] }, ({ request }) => {
        delete request.headers.range;
      });
    },
  },
  {
    name: 'by-hash-global',
    breaks: 'V2.ASSET.BY_HASH_SCOPE',
    statements: ['W:115:e42af039b9b9'],
    description: 'HEAD by-hash answers 200 when any account holds the blob',
    install(s) {
      s.policy.v2.heldForByHash = (assets, _account, hex) => assets.heldByAnyone(hex);
    },
  },
  {
    name: 'rate-limit-after-lookup',
    breaks: 'V2.ERR.RATE_LIMIT_SCOPE',
    statements: ['W:111:86fcfe7b7066', 'W:209:87254be6d3b3'],
    description:
      'GET asset looks the asset up before rate limiting, so unknown or foreign ids answer 404 past the limit',
    install(s) {
      // The limiter moves behind the lookup, which is the defect.
      s.policy.v2.rateLimitBeforeLookup = false;
    },
  },
  {
    name: 'hash-not-blake3',
    breaks: 'V2.ASSET.HASH_BLAKE3',
    statements: ['W:20:41074f62a818', 'W:37:2496d3126d8b'],
    description: 'the hash field carries blake3: followed by the SHA-256 hex of the bytes',
    install(s) {
      // The correct server never needs SHA-256: this fault hashes the stored bytes itself.
      s.respond({ routes: ASSET_ROUTES }, async (out) => {
        const rec = record(out);
        const stored = rec === undefined ? undefined : out.ctx.assets.get(rec.id as string);
        if (rec === undefined || stored === undefined) return;
        const bytes = await readFile(out.ctx.blobs.pathOf(stored.hex));
        rec.hash = formatHash(createHash('sha256').update(bytes).digest('hex'));
      });
    },
  },
  {
    name: 'non-v4-id-500',
    breaks: 'V2.ASSET.UNKNOWN_ID_404',
    statements: ['W:109:b6998bfbcc33', 'W:111:60ee272be59d', 'W:211:da3c48062a69'],
    description: 'GET asset for an unknown well-formed non-v4 UUID answers 500 upstream_error',
    install(s) {
      s.respond({ routes: ['GET /api/v2/assets/:id'] }, (out) => {
        const id = param(out, 'id');
        const lookup = out.error?.code === 'not_found' || out.error?.code === 'content_blocked';
        if (lookup && UUID_RE.test(id) && id[14] !== '4') out.fail(upstreamError());
      });
    },
  },
  {
    name: 'foreign-asset-visible',
    breaks: 'V2.ASSET.OWNER_SCOPE',
    statements: ['W:32:d719d84bc43b'],
    description: "GET asset returns another account's asset",
    install(s) {
      s.policy.v2.assetReadable = () => true;
    },
  },
  {
    name: 'proxy-redirects',
    breaks: 'V2.URL.PROXY_DIRECT',
    statements: ['W:79:36c2db9881b8'],
    description: 'local content endpoint answers 302 to a signed URL instead of streaming the bytes',
    install(s) {
      s.policy.v2.redirectContent = () => true;
    },
  },
  {
    name: 'expires-equals-url-expiry',
    breaks: 'V2.ASSET.EXPIRES_DISTINCT',
    statements: ['W:52:47132f410264', 'W:45:b7b8840df7f6'],
    description: 'cloud asset reads report expires_at equal to url_expires_at',
    install(s) {
      // Only on reads, so the fault breaks the distinction and not the retention arithmetic of creates.
      s.respond({ surfaces: HOSTED, routes: ['GET /api/v2/assets/:id'] }, (out) => {
        const rec = record(out);
        if (rec !== undefined) rec.expires_at = rec.url_expires_at;
      });
    },
  },
  {
    name: 'expires-equals-url-expiry-local',
    breaks: 'V2.ASSET.EXPIRES_DISTINCT',
    statements: ['W:52:47132f410264'],
    description:
      'the self-hosted proxy reports an asset expires_at equal to its url_expires_at (one expiry copied into both)',
    install(s) {
      s.respond({ surfaces: ['local'], routes: ['GET /api/v2/assets/:id', 'POST /api/v2/assets'] }, (out) => {
        const rec = record(out);
        if (rec !== undefined && rec.url_expires_at != null) rec.expires_at = rec.url_expires_at;
      });
    },
  },
  {
    name: 'upload-has-job',
    breaks: 'V2.ASSET.NO_JOB_FOR_UPLOAD',
    statements: ['W:46:329a430e2973', 'W:53:60fb6dc0818b'],
    description: 'fresh uploads carry a random job_id and empty job_metadata',
    install(s) {
      // Every record an upload mints gets a made-up job (which then also counts as an output).
      const madeUp = new Map<string, string>();
      s.respond({ routes: ASSET_ROUTES }, (out) => {
        const rec = record(out);
        if (rec === undefined) return;
        const id = rec.id as string;
        if (out.request.url.split('?')[0].endsWith('/api/v2/assets') && rec.job_id === undefined && !madeUp.has(id))
          madeUp.set(id, randomUUID());
        const job = madeUp.get(id);
        if (job !== undefined) Object.assign(rec, { job_id: job, job_metadata: {} });
      });
      s.policy.v2.outputMatch = (assets, account, hex, path) => {
        const rec = assets.findByPath(account, hex, path);
        return rec !== undefined && (rec.job_id !== undefined || madeUp.has(rec.id)) ? rec : undefined;
      };
    },
  },
  {
    name: 'from-hash-any-blob',
    breaks: 'V2.ASSET.FROM_HASH',
    statements: ['W:115:e42af039b9b9'],
    description: 'from-hash mints from a blob only another account holds',
    install(s) {
      s.policy.v2.heldForFromHash = (assets, account, hex) => assets.holds(account, hex) || assets.heldByAnyone(hex);
    },
  },
  {
    name: 'delete-keeps-record',
    breaks: 'V2.ASSET.DELETE',
    statements: ['W:3:8ea6d978bda1'],
    description: 'DELETE answers 204 but the record stays readable',
    install(s) {
      s.policy.v2.deleteAsset = () => undefined;
    },
  },
  {
    // The field is the public documents' (the seed names no way to state a hash): a server
    // that ignores it departs from the SHOULD rule, and the seed's 409 is then not provoked.
    name: 'hash-mismatch-accepted',
    breaks: 'V2.ASSET.EXPECTED_HASH',
    statements: ['W:205:ab835388c387'],
    description: 'a mismatching expected_hash is ignored and the asset minted',
    install(s) {
      s.policy.v2.hashMatches = () => true;
    },
  },
  {
    name: 'hash-mismatch-as-invalid-request',
    breaks: 'V2.ASSET.HASH_MISMATCH',
    statements: ['W:205:ab835388c387'],
    description:
      'an upload whose content hash does not match is refused as a malformed upload (422 invalid_request) instead of 409 hash_mismatch',
    install(s) {
      // The server treats the mismatch as one more bad upload field.
      s.respond({ routes: ['POST /api/v2/assets'] }, (out) => {
        const inner = errorObject(out);
        if (inner === undefined || out.error?.code !== 'hash_mismatch') return;
        out.status = 422;
        inner.code = 'invalid_request';
        inner.details = { field: 'expected_hash' };
      });
    },
  },
  {
    name: 'from-hash-size-zero',
    breaks: 'V2.ASSET.FROM_HASH_MINTS',
    description:
      'an asset minted from a hash reports size_bytes 0 (the server fills the record from the request, which carries no size)',
    install(s) {
      s.respond({ routes: ['POST /api/v2/assets/from-hash'] }, (out) => {
        const rec = record(out);
        if (rec !== undefined && out.status >= 200 && out.status < 300) rec.size_bytes = 0;
      });
    },
  },
  {
    name: 'content-bytes-flipped',
    breaks: 'V2.ASSET.IMMUTABLE',
    statements: ['W:50:d0c2ad08553a', 'W:20:41074f62a818', 'W:32:d719d84bc43b'],
    description: 'served content of uploaded assets has its last byte XOR 0xff',
    install(s) {
      // Uploaded bytes only, so it breaks immutability and nothing built on outputs.
      s.respond({ routes: [CONTENT, 'GET /storage/blobs/:hex'] }, (out) => {
        if ((out.status !== 200 && out.status !== 206) || !isReadable(out.payload)) return;
        const viaAsset = out.request.routeOptions.url?.endsWith('/content') === true;
        const upload = viaAsset
          ? out.ctx.assets.get(param(out, 'id'))?.job_id === undefined
          : !out.ctx.assets.isOutputBlob(param(out, 'hex'));
        if (!upload) return;
        const { start, size } = servedRange(out.header('content-range'), Number(out.header('content-length')));
        // pipeline() tears both streams down on error; the reply sees the failure on the output side.
        out.payload = pipeline(out.payload, flipAt(start, size - 1), () => undefined);
      });
    },
  },
  {
    name: 'invalid-upload-500',
    breaks: 'V2.ASSET.INVALID_UPLOAD',
    statements: ['W:217:ae18d5395772'],
    description: 'an upload without a file part answers 500 upstream_error',
    install(s) {
      s.respond({ routes: ['POST /api/v2/assets'] }, (out) => {
        if (out.error?.code === 'invalid_request' && out.error.message === 'file: a file part is required')
          out.fail(upstreamError());
      });
    },
  },
  {
    name: 'url-expiry-past',
    breaks: 'V2.URL.EXPIRY_IN_RESPONSE',
    statements: ['W:78:fe3cea07ef79', 'W:238:8ce2b8bb282d', 'W:44:b77f940fe617'],
    description: 'cloud url_expires_at is reported 10 minutes in the past (the URL still works)',
    install(s) {
      // The URL still works; only the reported expiry lies 10 minutes in the past.
      s.respond({ surfaces: HOSTED, routes: ASSET_ROUTES }, (out) => {
        const rec = record(out);
        if (rec !== undefined && 'url_expires_at' in rec) rec.url_expires_at = iso(Date.now() - 600_000);
      });
    },
  },
  {
    name: 'job-metadata-empty',
    breaks: 'V2.ASSET.JOB_METADATA_READ',
    statements: ['W:53:5c648a19d79d', 'W:47:308e96a897db'],
    description: 'output assets report job_metadata {} instead of reading the job labels',
    install(s) {
      s.respond({ routes: ASSET_ROUTES }, (out) => {
        const rec = record(out);
        if (rec !== undefined && typeof rec.job_id === 'string' && out.ctx.jobs.get(rec.job_id) !== undefined)
          rec.job_metadata = {};
      });
    },
  },
  {
    name: 'output-match-ignored',
    breaks: 'V2.ASSET.OUTPUT_MATCH',
    statements: ['W:54:9e9934245bd4'],
    description: 'an upload matching an output path and bytes mints a new asset',
    install(s) {
      s.policy.v2.outputMatch = () => undefined;
    },
  },
  {
    name: 'upload-needs-name',
    breaks: 'V2.ASSET.CREATE',
    description:
      'a well-formed upload is refused 400 invalid_request for want of a "name" field the contract does not have',
    install(s) {
      s.policy.v2.requiredUploadFields = ['name'];
    },
  },
  {
    name: 'content-range-unitless',
    breaks: 'V2.CONTRACT.HEADERS',
    statements: ['W:7:93fc661d1cd2'],
    description: 'a 206 answer from the content endpoint sends Content-Range without its unit ("0-9/100")',
    install(s) {
      s.respond({ routes: [CONTENT] }, (out) => {
        const range = out.header('content-range');
        if (out.status === 206 && range !== undefined) out.setHeader('content-range', range.replace(/^bytes /, ''));
      });
    },
  },
  {
    name: 'from-hash-asset-unusable',
    breaks: 'V2.FLOW.ROUND_TRIP',
    statements: ['W:7:0f4046711093'],
    description: 'an asset minted from a hash cannot be used as a workflow input (refused missing_asset)',
    install(s) {
      const minted = new Set<string>();
      s.respond({ routes: ['POST /api/v2/assets/from-hash'] }, (out) => {
        const rec = record(out);
        if (rec !== undefined && out.status === 201) minted.add(rec.id as string);
      });
      s.policy.v2.inputAssetUsable = (rec) => !minted.has(rec.id);
    },
  },
  // Issue #13: checks with teeth (each fault passed the check before it was sharpened).
  {
    name: 'asset-url-reused',
    breaks: 'V2.ASSET.FRESH_URL',
    statements: ['W:51:a24e448658c6', 'W:110:80ba9c4c481f'],
    description: 'cloud asset reads return the signed URL minted at create, with a fresh url_expires_at beside it',
    install(s) {
      // The signed URL first handed out for an asset comes back on every read; only its expiry is fresh.
      const first = new Map<string, unknown>();
      s.respond({ surfaces: HOSTED, routes: ASSET_ROUTES }, (out) => {
        const rec = record(out);
        if (rec === undefined) return;
        const seen = first.get(rec.id as string);
        if (seen === undefined) first.set(rec.id as string, rec.url);
        else if (out.request.method === 'GET') rec.url = seen;
      });
    },
  },
  {
    name: 'by-hash-bare-hex',
    breaks: 'V2.ASSET.BY_HASH',
    statements: ['W:114:6be4fa19d24a'],
    description:
      'HEAD by-hash reads its path parameter as a bare hex digest (the key of the blob index), so a hash written blake3:<hex> never matches and answers 404',
    install(s) {
      s.respond({ routes: ['HEAD /api/v2/assets/by-hash/:hash'] }, (out) => {
        if (out.status === 200 && param(out, 'hash').startsWith('blake3:')) out.status = 404;
      });
    },
  },
  {
    name: 'output-url-unversioned',
    breaks: 'V2.URL.OUTPUT_CONTENT_ENDPOINT',
    statements: ['W:118:d05e026cb1b2', 'W:247:94a5e4400851'],
    description:
      'job output urls lack the /api/v2 prefix ({base}/assets/{id}/content): a gateway strips the ' +
      'version prefix before forwarding, and the server builds its links from the path it saw',
    install(s) {
      eachOutput(s, (o) => {
        if (typeof o.url === 'string') o.url = o.url.replace('/api/v2/assets/', '/assets/');
      });
    },
  },
  {
    name: 'output-expiry-day-precision',
    breaks: 'V2.URL.OUTPUT_EXPIRY',
    statements: ['W:80:0e06cfe7a0b0'],
    description:
      "on the hosted cloud, job output url_expires_at is the job's expiry cut to the day (kept in a date column), not the job's expires_at itself",
    install(s) {
      s.respond({ surfaces: ['cloud'], routes: JOB_ROUTES }, (out) => {
        const job = record(out);
        if (!Array.isArray(job?.outputs)) return;
        for (const o of job.outputs)
          if (isObj(o) && typeof o.url_expires_at === 'string')
            o.url_expires_at = `${o.url_expires_at.slice(0, 10)}T00:00:00.000Z`;
      });
    },
  },
  {
    name: 'output-expiry-signer-default',
    breaks: 'V2.URL.OUTPUT_EXPIRY',
    statements: ['W:80:0936972dc54e'],
    description:
      "job output url_expires_at is stamped by the URL helper with the signer's default lifetime from " +
      'now, though the output url is the content endpoint, which no signature bounds',
    install(s) {
      eachOutput(s, (o, ctx) => {
        const rec = ctx.assets.get(o.id as string);
        if (rec !== undefined) o.url_expires_at = iso(ctx.signer.sign(rec.hex, rec.content_type).expiresAtMs);
      });
    },
  },
  {
    name: 'blob-missing-as-not-found',
    breaks: 'V2.ASSET.FROM_HASH',
    statements: ['W:206:296d6be987e6'],
    description:
      'create-from-hash of a blob nobody holds answers 404 not_found, the generic lookup error, instead of blob_not_found',
    install(s) {
      s.respond({ routes: ['POST /api/v2/assets/from-hash'] }, (out) => {
        const inner = errorObject(out);
        if (inner !== undefined && out.error?.code === 'blob_not_found') inner.code = 'not_found';
      });
    },
  },
  {
    name: 'moderation-as-forbidden',
    breaks: 'V2.ERR.CONTENT_BLOCKED',
    statements: ['W:218:96c1e20e9439'],
    description:
      'bytes content moderation flagged are refused 403 forbidden (the moderation layer reuses the permission refusal) instead of 451 content_blocked',
    install(s) {
      s.respond({ routes: [...ASSET_ROUTES, CONTENT] }, (out) => {
        if (out.error?.code === 'content_blocked') out.fail(new ApiError('forbidden', 'this content is not available'));
      });
    },
  },
  {
    name: 'by-hash-head-body',
    breaks: 'V2.ASSET.BY_HASH',
    statements: ['W:116:01f04bbd4dcd'],
    description: 'HEAD by-hash answers carry a JSON body on the wire (as when HEAD is served by the GET handler)',
    install(s) {
      s.respond({ routes: ['HEAD /api/v2/assets/by-hash/:hash'] }, (out) => {
        if (out.error !== undefined || (out.status !== 200 && out.status !== 404)) return;
        const found = out.status === 200;
        const body = JSON.stringify(
          found ? { found: true } : { error: { code: 'not_found', message: 'blob not found' } },
        );
        // Written by hand with a body, as a server that builds HEAD from its GET handler does:
        // fetch drops those bytes, but they are on the wire all the same. Node would drop a
        // HEAD body, so the answer goes to the socket, and what fastify writes after this hook
        // goes nowhere.
        const raw = out.reply.raw;
        raw.writeHead = () => raw;
        raw.end = () => raw;
        out.request.raw.socket.end(
          `HTTP/1.1 ${found ? '200 OK' : '404 Not Found'}\r\nContent-Type: ` +
            `application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
        );
      });
    },
  },
  {
    name: 'job-metadata-unlabelled-empty',
    breaks: 'V2.ASSET.JOB_METADATA_READ',
    statements: ['W:53:60fb6dc0818b'],
    description: 'on hosted surfaces the outputs of a job sent without labels report job_metadata {}',
    install(s) {
      s.respond({ surfaces: HOSTED, routes: ASSET_ROUTES }, (out) => {
        const rec = record(out);
        if (rec === undefined || typeof rec.job_id !== 'string' || 'job_metadata' in rec) return;
        if (out.ctx.jobs.get(rec.job_id) !== undefined) rec.job_metadata = {};
      });
    },
  },
  {
    name: 'job-metadata-outlives-job',
    breaks: 'V2.ASSET.JOB_METADATA_READ',
    statements: ['W:53:60fb6dc0818b', 'W:53:5c648a19d79d'],
    description:
      "an output asset keeps a copy of its job's labels taken when the job was sent, so job_metadata is still shown once the job is gone",
    install(s) {
      // The labels are copied by job id when a job answer carries them (a denormalised copy),
      // and an asset read falls back to the copy when the job itself no longer has them.
      const copies = new Map<string, Record<string, unknown>>();
      s.respond({ surfaces: HOSTED, routes: JOB_ROUTES }, (out) => {
        const job = record(out);
        if (job !== undefined && isObj(job.metadata)) copies.set(job.id as string, { ...job.metadata });
      });
      s.respond({ surfaces: HOSTED, routes: ASSET_ROUTES }, (out) => {
        const rec = record(out);
        if (rec === undefined || typeof rec.job_id !== 'string' || rec.job_metadata !== undefined) return;
        const copy = copies.get(rec.job_id);
        if (copy !== undefined) rec.job_metadata = { ...copy };
      });
    },
  },
] as const satisfies ReadonlyArray<FaultUnit>;
