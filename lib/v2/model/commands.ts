// The v2 state machine's commands. Each sends what a client sends, then judges the answer
// against the model (lib/v2/model/state.ts) under the rule the difference belongs to, and
// updates the model. Every observable difference has one rule:
//   created_new                           V2.ASSET.DEDUP
//   a filled hash vs the bytes' blake3    V2.ASSET.HASH_BLAKE3
//   size_bytes                            V2.ASSET.FIELDS (V2.ASSET.FROM_HASH_MINTS on a mint)
//   bytes through the content endpoint    V2.ASSET.IMMUTABLE (a slice: V2.ASSET.CONTENT_RANGE's status and length)
//   bytes through a read's url            V2.ASSET.FRESH_URL when the content endpoint still
//                                         serves the right ones, else V2.ASSET.IMMUTABLE
//   job_id of an upload / of an output    V2.ASSET.NO_JOB_FOR_UPLOAD / V2.ASSET.JOB_METADATA_READ
//   job_metadata of an output             V2.JOB.LABELS_EXACT
//   submits under a key                   V2.JOB.IDEMPOTENT (both readings of a retry)
//   cancel                                V2.JOB.CANCEL
//   the event stream's last status        V2.JOB.EVENTS_AGREE
//   the job-list walk                     V2.JOB.LIST_WALK
import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { setTimeout as delay } from 'node:timers/promises';
import fc from 'fast-check';
import type { ApiClient, ApiResponse } from '../../api.ts';
import { check, checkStatus, ensure, notJudged, step } from '../../check.ts';
import { uniquePng } from '../../data/png.ts';
import { assetReference, emptyImageWorkflow, invertWorkflow, slowWorkflow } from '../../data/workflows.ts';
import { ModelCommand, type Phase } from '../../model-run.ts';
import { honourRetryAfter, jobBound, JOB_DEADLINE_VAR } from '../../time.ts';
import { SuiteCountBound, SuiteError } from '../../violations.ts';
import {
  blake3Of,
  isContentBlocked,
  openSigned,
  postAsset,
  refusedPlacement,
  defaultFilePath,
  downloadVia,
  sameBytes,
  type Asset,
} from '../assets.ts';
import { reachedStatus, parseSse, statusesOf } from '../events.ts';
import { acceptedJobId, checkOneJobPerKey, checkOtherRequestRefused, isReuseRefusal } from '../idempotency.ts';
import { IDLE_PAGES, LIST_WALK_PAGES_VAR, type JobListPage } from '../job-walk.ts';
import {
  accepted,
  assetFormRefusal,
  classes,
  followable,
  jobUrl,
  namingAnAsset,
  outputAssetId,
  postJob,
  readJob,
  refusedClasses,
  type Job,
  type SubmitBody,
} from '../jobs.ts';
import {
  pick,
  RUN_LABEL_KEY,
  type AssetModel,
  type JobModel,
  type Labels,
  type V2Model,
  type V2Real,
} from './state.ts';
import type { RuleId } from '../../rule-ids.ts';

/** Says once per test why a rule could not be judged here. */
function notJudgedOnce(r: V2Real, rule: RuleId, why: string): void {
  if (r.facts.said.has(`${rule}\0${why}`)) return;
  r.facts.said.add(`${rule}\0${why}`);
  notJudged(rule, why);
}

const desc = (res: ApiResponse) => `${res.status}${res.errorCode ? ` ${res.errorCode}` : ''}`;
const assetName = (m: V2Model, a: AssetModel) => {
  const i = m.assets.indexOf(a);
  if (a.origin === 'output') return `asset #${i} (an output of job #${m.jobs.findIndex((j) => j.id === a.job)})`;
  return `asset #${i} (${a.origin === 'upload' ? 'uploaded' : 'minted from the hash of'} blob #${a.blob})`;
};
const jobName = (m: V2Model, j: JobModel) => `job #${m.jobs.indexOf(j)}`;

// ---------------------------------------------------------------- assets

async function upload(
  api: ApiClient,
  bytes: Buffer,
  filePath?: string,
): Promise<{ asset: Asset; res: ApiResponse; filePath: string }> {
  return step(
    'upload an asset (POST /api/v2/assets)',
    async () => {
      const input = { bytes, ...(filePath !== undefined ? { filePath } : {}) };
      const sent = await postAsset(api, input);
      refusedPlacement(sent.res, sent.filePath, input);
      if (isContentBlocked(sent.res))
        throw new SuiteError(
          'content moderation refused the random bytes the model uploaded (451 content_blocked), so the sequence could not go on',
        );
      checkStatus('V2.ASSET.CREATE', sent.res, [200, 201, 202]);
      return { asset: sent.res.json<Asset>(), res: sent.res, filePath: sent.filePath };
    },
    { input: 'upload_file_path' },
  );
}

/** The bytes behind the content endpoint: streamed, or behind the signed URL its 302 names. */
async function contentBytes(api: ApiClient, id: string): Promise<{ bytes: Buffer; res: ApiResponse }> {
  const res = await api.call('getAssetContent', { path: { id } });
  if (res.status === 302) {
    const location = res.location();
    ensure('V2.ASSET.CONTENT_REDIRECT', location !== undefined, {
      what: 'the 302 from the content endpoint',
      expected: 'a Location header',
      received: res.header('location') ?? 'none',
      on: res,
    });
    return { bytes: await openSigned(api, location), res };
  }
  ensure('V2.ASSET.IMMUTABLE', res.status === 200, {
    what: `GET the content of asset ${id}`,
    expected: '200 with the bytes (or 302 to them)',
    received: desc(res),
    on: res,
  });
  return { bytes: res.body, res };
}

/** What a record says about its bytes, judged against what the model knows of them. */
function judgeRecord(m: V2Model, a: AssetModel, got: Asset, res: ApiResponse, where: string): void {
  const name = assetName(m, a);
  if (a.bytes !== undefined && typeof got.hash === 'string') {
    check('V2.ASSET.HASH_BLAKE3', got.hash === blake3Of(a.bytes), {
      what: `hash of ${name} (${where})`,
      expected: `${blake3Of(a.bytes)} (the blake3 of its ${a.bytes.length} bytes), or null while filled lazily`,
      received: got.hash,
      on: res,
    });
  }
  if (a.origin === 'output') {
    check('V2.ASSET.JOB_METADATA_READ', got.job_id === a.job, {
      what: `job_id of ${name} (${where})`,
      expected: `the job that made it, ${a.job}`,
      received: got.job_id ?? 'absent',
      on: res,
    });
    // Absent proves nothing (the surface may keep no labels, W:53:60fb6dc0818b); present, it is the labels as sent.
    if (got.job_metadata !== undefined) {
      const want = a.labels ?? undefined;
      check('V2.JOB.LABELS_EXACT', want !== undefined && isDeepStrictEqual(got.job_metadata, want), {
        what: `job_metadata of ${name} (${where})`,
        expected: want ? JSON.stringify(want) : 'absent (its job was sent without labels)',
        received: got.job_metadata,
        on: res,
      });
    }
  } else {
    check('V2.ASSET.NO_JOB_FOR_UPLOAD', got.job_id == null && !('job_metadata' in got), {
      what: `job_id and job_metadata of ${name} (${where})`,
      expected: 'absent (no job made it)',
      received: { job_id: got.job_id, job_metadata: got.job_metadata },
      on: res,
    });
  }
}

class UploadNew extends ModelCommand<V2Model, V2Real> {
  constructor(readonly side: number) {
    super();
  }
  check(): boolean {
    return true;
  }
  toString(): string {
    return `upload new bytes (${this.side}x${this.side} png)`;
  }
  protected async act(m: V2Model, r: V2Real): Promise<void> {
    const bytes = uniquePng(this.side, this.side);
    r.trace.say(`upload new bytes as blob #${m.blobs.length} (${bytes.length} bytes)`);
    const { asset, res, filePath } = await upload(r.api, bytes);
    check('V2.ASSET.DEDUP', asset.created_new !== false, {
      what: `created_new on the first upload of blob #${m.blobs.length}`,
      expected: 'true (or absent): new bytes',
      received: asset.created_new,
      on: res,
    });
    m.blobs.push({ bytes, hash: blake3Of(bytes), paths: [filePath] });
    const a: AssetModel = { id: asset.id, origin: 'upload', blob: m.blobs.length - 1, bytes };
    m.assets.push(a);
    m.recent = { ...m.recent, blob: m.blobs.length - 1, asset: a };
    judgeRecord(m, a, asset, res, 'its create answer');
    check('V2.ASSET.FIELDS', asset.size_bytes === bytes.length, {
      what: `size_bytes of ${assetName(m, a)} (its create answer)`,
      expected: String(bytes.length),
      received: asset.size_bytes,
      on: res,
    });
  }
}

class UploadAgain extends ModelCommand<V2Model, V2Real> {
  constructor(
    readonly n: number,
    readonly samePath: boolean,
  ) {
    super();
  }
  check(m: Readonly<V2Model>): boolean {
    return m.blobs.length > 0;
  }
  toString(): string {
    return `upload known bytes again (${this.samePath ? 'under a path they were sent under' : 'under another path'})`;
  }
  protected async act(m: V2Model, r: V2Real): Promise<void> {
    const i = pick(
      m.blobs.map((_, k) => k),
      this.n,
      m.recent.blob,
    );
    const blob = m.blobs[i];
    const path = this.samePath ? pick(blob.paths, this.n) : undefined;
    r.trace.say(
      `upload the bytes of blob #${i} again, ${path !== undefined ? `under its path ${path}` : 'under another path'}`,
    );
    const { asset, res, filePath } = await upload(r.api, blob.bytes, path);
    // created_new is optional (seed Asset table): judged where the server sends it.
    check('V2.ASSET.DEDUP', asset.created_new === undefined || asset.created_new === false, {
      what: `created_new on an upload of the bytes of blob #${i}, already held`,
      expected: 'false (a dedup hit on bytes already held), or absent',
      received: asset.created_new,
      on: res,
    });
    if (!blob.paths.includes(filePath)) blob.paths.push(filePath);
    const a: AssetModel = { id: asset.id, origin: 'upload', blob: i, bytes: blob.bytes };
    const known = m.assets.find((x) => x.id === asset.id);
    if (known === undefined) m.assets.push(a);
    m.recent = { ...m.recent, blob: i, asset: known ?? a };
    judgeRecord(m, known ?? a, asset, res, 'the dedup-hit create answer');
    check('V2.ASSET.FIELDS', asset.size_bytes === blob.bytes.length, {
      what: `size_bytes of the dedup-hit record over blob #${i}`,
      expected: String(blob.bytes.length),
      received: asset.size_bytes,
      on: res,
    });
  }
}

class FromHash extends ModelCommand<V2Model, V2Real> {
  constructor(
    readonly n: number,
    readonly held: boolean,
  ) {
    super();
  }
  check(m: Readonly<V2Model>): boolean {
    return !this.held || m.blobs.length > 0;
  }
  toString(): string {
    return this.held
      ? 'create an asset from the hash of known bytes'
      : 'create an asset from the hash of bytes never uploaded';
  }
  protected async act(m: V2Model, r: V2Real): Promise<void> {
    if (r.facts.fromHash === 'refused')
      return notJudgedOnce(
        r,
        this.held ? 'V2.ASSET.FROM_HASH_MINTS' : 'V2.ASSET.FROM_HASH',
        "the server refused the public documents' create-from-hash request as malformed (422 invalid_request)",
      );
    const i = this.held
      ? pick(
          m.blobs.map((_, k) => k),
          this.n,
          m.recent.blob,
        )
      : -1;
    const hash = this.held ? m.blobs[i].hash : blake3Of(uniquePng(4, 4));
    r.trace.say(
      this.held
        ? `create an asset from the hash of blob #${i}`
        : 'create an asset from the hash of bytes never uploaded',
    );
    // The request (path, hash and file_path) and its success are the public documents' (W:123:f9a38dca0104).
    const res = await r.api.call('assetFromHash', { json: { hash, file_path: defaultFilePath(r.api) } });
    if (res.status === 422 && res.errorCode === 'invalid_request' && r.facts.fromHash === 'unknown') {
      r.facts.fromHash = 'refused';
      return notJudgedOnce(
        r,
        this.held ? 'V2.ASSET.FROM_HASH_MINTS' : 'V2.ASSET.FROM_HASH',
        "the server refused the public documents' create-from-hash request as malformed (422 invalid_request)",
      );
    }
    r.facts.fromHash = 'taken';
    if (!this.held) return void checkStatus('V2.ASSET.FROM_HASH', res, [404], 'blob_not_found');
    const blob = m.blobs[i];
    ensure('V2.ASSET.FROM_HASH_MINTS', accepted(res), {
      what: `create-from-hash of blob #${i}, which the account holds`,
      expected: 'a success (2xx) with an asset over it',
      received: desc(res),
      on: res,
    });
    const got = res.json<Asset>();
    const a: AssetModel = m.assets.find((x) => x.id === got.id) ?? {
      id: got.id,
      origin: 'from-hash',
      blob: i,
      bytes: blob.bytes,
    };
    if (!m.assets.includes(a)) m.assets.push(a);
    m.recent = { ...m.recent, blob: i, asset: a };
    judgeRecord(m, a, got, res, 'the create-from-hash answer');
    check('V2.ASSET.FROM_HASH_MINTS', got.size_bytes === blob.bytes.length, {
      what: `size_bytes of the asset minted from the hash of blob #${i}`,
      expected: `${blob.bytes.length} (the blob's)`,
      received: got.size_bytes,
      on: res,
    });
  }
}

/** The bytes a read's url serves: a mismatch is the url's fault when the content endpoint still serves the right ones. */
async function judgeUrl(m: V2Model, r: V2Real, a: AssetModel, url: string, res: ApiResponse): Promise<void> {
  const served = await downloadVia(r.api, url);
  if (a.bytes === undefined) {
    a.bytes = served;
    return;
  }
  const right = sameBytes(served, a.bytes);
  if (right)
    return void check('V2.ASSET.FRESH_URL', right, {
      what: `the url of a read of ${assetName(m, a)}, opened at once`,
      expected: "the asset's bytes",
      received: 'other bytes',
      on: res,
    });
  const direct = await contentBytes(r.api, a.id);
  const rule: RuleId = sameBytes(direct.bytes, a.bytes) ? 'V2.ASSET.FRESH_URL' : 'V2.ASSET.IMMUTABLE';
  check(rule, false, {
    what: `the url of a read of ${assetName(m, a)}, opened at once`,
    expected: `its ${a.bytes.length} bytes`,
    received:
      `${served.length} other bytes` +
      (rule === 'V2.ASSET.FRESH_URL'
        ? ' (its content endpoint serves the right ones)'
        : ', as does its content endpoint'),
    on: res,
  });
}

class ReadAsset extends ModelCommand<V2Model, V2Real> {
  constructor(readonly n: number) {
    super();
  }
  check(m: Readonly<V2Model>): boolean {
    return m.assets.length > 0;
  }
  toString(): string {
    return 'read an asset and open its url';
  }
  protected async act(m: V2Model, r: V2Real): Promise<void> {
    const a = pick(m.assets, this.n, m.recent.asset);
    m.recent = { ...m.recent, asset: a, ...(a.blob !== undefined ? { blob: a.blob } : {}) };
    r.trace.say(`read ${assetName(m, a)} and open its url`);
    const res = await r.api.call('getAsset', { path: { id: a.id } });
    checkStatus('V2.ASSET.FIELDS', res, [200]);
    const got = res.json<Asset>();
    await judgeUrl(m, r, a, got.url, res);
    judgeRecord(m, a, got, res, 'a read');
    if (a.bytes !== undefined)
      check('V2.ASSET.FIELDS', got.size_bytes === a.bytes.length, {
        what: `size_bytes of ${assetName(m, a)} (a read)`,
        expected: String(a.bytes.length),
        received: got.size_bytes,
        on: res,
      });
  }
}

class ReadContent extends ModelCommand<V2Model, V2Real> {
  constructor(
    readonly n: number,
    readonly range: { from: number; span: number } | undefined,
  ) {
    super();
  }
  check(m: Readonly<V2Model>): boolean {
    return m.assets.length > 0;
  }
  toString(): string {
    return this.range
      ? 'read a slice of an asset through its content endpoint (Range)'
      : 'read an asset through its content endpoint';
  }
  protected async act(m: V2Model, r: V2Real): Promise<void> {
    const a = pick(m.assets, this.n, m.recent.asset);
    m.recent = { ...m.recent, asset: a, ...(a.blob !== undefined ? { blob: a.blob } : {}) };
    const bytes = a.bytes;
    if (this.range && r.facts.range && bytes !== undefined && bytes.length > 1) {
      const start = Math.floor(this.range.from * (bytes.length - 1));
      const end = Math.min(
        bytes.length - 1,
        start + Math.max(0, Math.floor(this.range.span * (bytes.length - start)) - 1),
      );
      r.trace.say(`read bytes ${start}-${end} of ${assetName(m, a)} through its content endpoint (Range)`);
      const res = await r.api.call('getAssetContent', {
        path: { id: a.id },
        headers: { range: `bytes=${start}-${end}` },
      });
      if (res.status === 302) {
        r.facts.range = false;
        return notJudgedOnce(
          r,
          'V2.ASSET.CONTENT_RANGE',
          'this content endpoint redirects instead of streaming the bytes',
        );
      }
      checkStatus('V2.ASSET.CONTENT_RANGE', res, [206]);
      check('V2.ASSET.CONTENT_RANGE', res.body.length === end - start + 1, {
        what: `the body of a 206 for bytes=${start}-${end}`,
        expected: `${end - start + 1} bytes`,
        received: `${res.body.length} bytes`,
        on: res,
      });
      check('V2.ASSET.IMMUTABLE', sameBytes(res.body, bytes.subarray(start, end + 1)), {
        what: `the body of a 206 for bytes=${start}-${end} of ${assetName(m, a)}`,
        expected: `bytes ${start}..${end} of it`,
        received: 'other bytes',
        on: res,
      });
      return;
    }
    r.trace.say(`read ${assetName(m, a)} through its content endpoint`);
    const { bytes: served, res } = await contentBytes(r.api, a.id);
    if (bytes === undefined) a.bytes = served;
    else
      check('V2.ASSET.IMMUTABLE', sameBytes(served, bytes), {
        what: `the content of ${assetName(m, a)}`,
        expected: `its ${bytes.length} bytes`,
        received: `${served.length} other bytes`,
        on: res,
      });
  }
}

// ---------------------------------------------------------------- jobs

/** What the model learns from a record: a terminal status once reached, and a finished job's outputs. */
function observe(m: V2Model, r: V2Real, j: JobModel, rec: Job, res?: ApiResponse): void {
  j.record = rec;
  if (!r.facts.states.terminal.has(rec.status)) return;
  j.terminal = rec.status;
  if (rec.status !== r.facts.states.success || j.outputsKnown) return;
  j.outputsKnown = true;
  ensure('V2.JOB.OUTPUTS_REAL', Array.isArray(rec.outputs) && rec.outputs.length > 0, {
    what: `outputs of ${jobName(m, j)}, which ran through (${rec.status})`,
    expected: 'at least one output (every workflow of the model saves an image)',
    received: rec.outputs,
    on: res,
  });
  for (const out of rec.outputs) {
    const id = outputAssetId(out);
    if (id && !m.assets.some((a) => a.id === id))
      m.assets.push({ id, origin: 'output', job: j.id, labels: j.labels ?? null });
  }
}

/** Reads the job (by its urls.self) until a terminal state, honouring Retry-After. */
async function settle(m: V2Model, r: V2Real, j: JobModel, from: Job = j.record): Promise<Job> {
  const { terminal } = r.facts.states;
  const { jobDeadlineMs, retryAfterMaxMs } = r.api.bounds;
  const end = Date.now() + jobDeadlineMs;
  let current = from;
  let last: ApiResponse | undefined;
  while (!terminal.has(current.status)) {
    if (Date.now() > end) throw jobBound(`job ${j.id} did not finish (still ${current.status})`, jobDeadlineMs);
    last = await readJob(r.api, current);
    current = followable(last);
    if (terminal.has(current.status)) break;
    const retryAfter = Number(last.header('retry-after') ?? NaN);
    if (Number.isFinite(retryAfter) && retryAfter >= 0)
      await honourRetryAfter(retryAfter, { ceilingMs: retryAfterMaxMs, what: `the read of job ${j.id}` });
    else await delay(15);
  }
  observe(m, r, j, current, last);
  return current;
}

type Shape = 'plain' | 'small' | 'slow' | 'image';
type KeyUse = 'none' | 'fresh' | 'same' | 'other';

class Submit extends ModelCommand<V2Model, V2Real> {
  constructor(
    readonly shape: Shape,
    /** 0..9: labels are sent when below 7, or below 2 while a walk is in progress (so that unselected jobs arrive between its pages). */
    readonly labelDraw: number,
    readonly extraLabel: string | undefined,
    readonly key: KeyUse,
    readonly n: number,
    readonly parallel: number,
  ) {
    super();
  }
  check(m: Readonly<V2Model>): boolean {
    return (this.key !== 'same' && this.key !== 'other') || m.keys.length > 0;
  }
  toString(): string {
    const what = {
      none: 'without a key',
      fresh: this.parallel > 1 ? `${this.parallel} at once under a fresh key` : 'under a fresh key',
      same: 'repeating the request first sent under a used key',
      other: 'another request under a used key',
    }[this.key];
    return `submit a ${this.shape} job ${what}`;
  }
  private labelled(m: V2Model, r: V2Real): boolean {
    return r.facts.labels && this.labelDraw < (m.walk !== undefined ? 2 : 7);
  }
  /** The asset in the target's asset_reference form (the seed shows none), filled from what the model knows of it. */
  private reference(m: V2Model, a: AssetModel, scenario: Record<string, unknown>): unknown {
    const blob = a.blob === undefined ? undefined : m.blobs[a.blob];
    return assetReference({ id: a.id, hash: blob?.hash ?? null, file_path: blob?.paths[0] ?? null }, scenario);
  }
  private body(m: V2Model, r: V2Real): SubmitBody {
    const api = r.api;
    const c = classes(api);
    // An image job reads an uploaded asset; before there is one it is a plain job.
    const inputs = m.assets.filter((a) => a.origin !== 'output');
    const workflow =
      this.shape === 'small'
        ? emptyImageWorkflow(3, 3, 'conformance', c)
        : this.shape === 'slow' && r.facts.slowClass !== undefined
          ? slowWorkflow(r.facts.slowClass, 0.1, c)
          : this.shape === 'image' && inputs.length > 0
            ? namingAnAsset(invertWorkflow(this.reference(m, pick(inputs, this.n), api.target.scenario), c))
            : emptyImageWorkflow(8, 8, 'conformance', c);
    const labels: Labels | undefined = this.labelled(m, r)
      ? { [RUN_LABEL_KEY]: r.runLabel, ...(this.extraLabel !== undefined ? { note: this.extraLabel } : {}) }
      : undefined;
    return { workflow, ...(labels ? { metadata: labels } : {}) };
  }
  protected async act(m: V2Model, r: V2Real): Promise<void> {
    const api = r.api;
    if (this.key === 'same' || this.key === 'other') {
      const k = pick(
        m.keys,
        this.n,
        m.keys.find((x) => x.job === m.recent.job?.id),
      );
      const owner = m.jobs.find((j) => j.id === k.job)!;
      m.recent = { ...m.recent, job: owner };
      r.trace.say(
        `submit ${this.key === 'same' ? 'the very request first sent' : 'another workflow'} under the key of ${jobName(m, owner)} (${k.key})`,
      );
      const body =
        this.key === 'same'
          ? k.body
          : { ...k.body, workflow: emptyImageWorkflow(6, 6, 'conformance-other', classes(api)) };
      const res = await postJob(api, body, k.key);
      refusedClasses(api, res, body.workflow);
      if (this.key === 'other') return checkOtherRequestRefused(res, k.job);
      const id = acceptedJobId(res);
      check('V2.JOB.IDEMPOTENT', isReuseRefusal(res) || id === k.job, {
        what: `a repeat of the request first sent under the key of ${jobName(m, owner)}`,
        expected: `that job again (${k.job}) or 422 idempotency_key_reuse, never another job`,
        received: id === undefined ? desc(res) : `${res.status} job ${id} (a second job for one key)`,
        on: res,
      });
      return;
    }
    const body = this.body(m, r);
    const key =
      this.key === 'fresh' ? `${r.facts.nonce}-${r.runLabel}-k${r.serial++}-${randomUUID().slice(0, 6)}` : undefined;
    const copies = key !== undefined ? this.parallel : 1;
    const index = m.jobs.length;
    r.trace.say(
      `submit job #${index}: ${this.toString().replace(/^submit /, '')}${body.metadata ? ` with labels ${JSON.stringify(body.metadata)}` : ''}`,
    );
    const answers = await Promise.all(Array.from({ length: copies }, () => postJob(api, body, key)));
    for (const a of answers) refusedClasses(api, a, body.workflow);
    if (key !== undefined && copies > 1)
      checkOneJobPerKey(answers, `${copies} concurrent submits of one request under the fresh key ${key}`);
    const res = answers.find(accepted) ?? answers[0];
    // A refusal of the suite's asset-reference form is the input's to set, not the rule's failure.
    const form = accepted(res) ? undefined : await assetFormRefusal(api, res, body);
    if (form) throw form;
    ensure('V2.JOB.SUBMIT', accepted(res), {
      what: `the submit of job #${index} (${this.shape})`,
      expected: 'a success (2xx; the public documents say 201)',
      received: desc(res),
      on: res,
    });
    const job = followable(res);
    if (key !== undefined)
      check('V2.JOB.IDEMPOTENT', !m.jobs.some((j) => j.id === job.id), {
        what: `the job made under the fresh key ${key}`,
        expected: 'a job no other key or submit of this run made',
        received: job.id,
        on: res,
      });
    const j: JobModel = {
      id: job.id,
      record: job,
      canceled: false,
      outputsKnown: false,
      ...(body.metadata ? { labels: body.metadata } : {}),
    };
    m.jobs.push(j);
    m.recent = { ...m.recent, job: j };
    if (key !== undefined) m.keys.push({ key, job: job.id, body });
    observe(m, r, j, job, res);
  }
}

class ReadJob extends ModelCommand<V2Model, V2Real> {
  constructor(readonly n: number) {
    super();
  }
  check(m: Readonly<V2Model>): boolean {
    return m.jobs.length > 0;
  }
  toString(): string {
    return 'read a job';
  }
  protected async act(m: V2Model, r: V2Real): Promise<void> {
    const j = pick(m.jobs, this.n, m.recent.job);
    m.recent = { ...m.recent, job: j };
    r.trace.say(`read ${jobName(m, j)}`);
    const res = await readJob(r.api, j.record);
    observe(m, r, j, followable(res), res);
  }
}

class Cancel extends ModelCommand<V2Model, V2Real> {
  constructor(readonly n: number) {
    super();
  }
  check(m: Readonly<V2Model>): boolean {
    return m.jobs.length > 0;
  }
  toString(): string {
    return 'cancel a job and read it to its end';
  }
  protected async act(m: V2Model, r: V2Real): Promise<void> {
    const j = pick(m.jobs, this.n, m.recent.job);
    m.recent = { ...m.recent, job: j };
    const before = j.terminal;
    r.trace.say(`cancel ${jobName(m, j)}${before ? ` (already ${before})` : ''} and read it to its end`);
    // By the job's urls.cancel where it embeds one (a public-docs name), else the public documents' path.
    const url = jobUrl(j.record, 'cancel');
    const res =
      url !== undefined
        ? await r.api.follow(url, { method: 'POST' })
        : await r.api.call('cancelJob', { path: { id: j.id } });
    if (url !== undefined)
      ensure('V2.JOB.FOLLOW_URLS', res.operationId === 'cancelJob', {
        what: `POST of the urls.cancel of ${jobName(m, j)}`,
        expected: 'the cancel operation',
        received: res.operationId ?? url,
        on: res,
      });
    ensure('V2.JOB.CANCEL', accepted(res), {
      what: `the cancel of ${jobName(m, j)}`,
      expected: 'a success (2xx) answering the job',
      received: desc(res),
      on: res,
    });
    j.canceled = true;
    // A cancel ends in a terminal state (one of job_terminal_states): settle() reads until one
    // comes, and a job that never ends is the suite's job bound, not a verdict.
    const done = await settle(m, r, j, followable(res));
    if (before !== undefined)
      check('V2.JOB.CANCEL', done.status === before, {
        what: `the status of ${jobName(m, j)} after a cancel, once it had finished ${before}`,
        expected: `${before} still (a cancel leaves a finished job as it was)`,
        received: done.status,
        on: res,
      });
  }
}

class Events extends ModelCommand<V2Model, V2Real> {
  constructor(readonly n: number) {
    super();
  }
  check(m: Readonly<V2Model>): boolean {
    return m.jobs.length > 0;
  }
  toString(): string {
    return "read a job's live event stream to its end";
  }
  protected async act(m: V2Model, r: V2Real): Promise<void> {
    const j = pick(m.jobs, this.n, m.recent.job);
    m.recent = { ...m.recent, job: j };
    r.trace.say(`read the event stream of ${jobName(m, j)} to its terminal status`);
    const read = {
      headers: { accept: 'text/event-stream' },
      timeoutMs: r.api.bounds.jobDeadlineMs,
      boundVariable: JOB_DEADLINE_VAR,
      readUntil: (body: Buffer) => reachedStatus(body, r.facts.states.terminal),
    };
    const events = jobUrl(j.record, 'events');
    const res =
      events !== undefined
        ? await r.api.follow(events, read)
        : await r.api.call('streamJobEvents', { path: { id: j.id }, ...read });
    const polled = await settle(m, r, j);
    const { statuses } = statusesOf(parseSse(res.body.toString('utf8')));
    const readable =
      res.status === 200 && /^text\/event-stream/i.test(res.header('content-type') ?? '') && statuses.length > 0;
    // Its format is the public documents' (V2.JOB.EVENTS_FORMAT, judged in jobs.spec.ts).
    if (!readable)
      return notJudgedOnce(
        r,
        'V2.JOB.EVENTS_AGREE',
        'the stream could not be read as the public documents describe it, so its statuses cannot be compared with polling',
      );
    check('V2.JOB.EVENTS_AGREE', statuses[statuses.length - 1] === polled.status, {
      what: `the last status event of the stream of ${jobName(m, j)}`,
      expected: `the polled status ${polled.status}`,
      received: statuses.join(' → '),
      on: res,
    });
  }
}

// ---------------------------------------------------------------- the job list

/** One page of the walk in progress: whether the walk ended (judged), and how many of its expected jobs the page listed first. */
async function walkPage(m: V2Model, r: V2Real): Promise<{ ended: boolean; reached: number }> {
  const w = m.walk!;
  const scoped = r.facts.listing === 'scoped';
  const query = {
    limit: w.limit,
    ...(scoped ? { [`metadata[${RUN_LABEL_KEY}]`]: r.runLabel } : {}),
    ...(w.cursor !== undefined ? { cursor: w.cursor } : {}),
  };
  const res = await r.api.call('listJobs', { query });
  checkStatus('V2.JOB.LIST_WALK', res, [200]);
  const body = res.json<JobListPage>();
  const jobs = Array.isArray(body.jobs) ? body.jobs : [];
  w.pages++;
  check('V2.JOB.LIST_WALK', jobs.length <= w.limit, {
    what: `page ${w.pages} of a walk with limit ${w.limit}`,
    expected: `at most ${w.limit} jobs`,
    received: jobs.length,
    on: res,
  });
  let fresh = 0;
  let reached = 0;
  for (const job of jobs) {
    const times = (w.seen.get(job.id) ?? 0) + 1;
    w.seen.set(job.id, times);
    if (times === 1) fresh++;
    if (times === 1 && w.expected.has(job.id)) reached++;
    const known = m.jobs.findIndex((x) => x.id === job.id);
    check('V2.JOB.LIST_WALK', times === 1, {
      what: `page ${w.pages} of a walk with limit ${w.limit}`,
      expected: 'no job listed twice in one walk',
      received: `${known >= 0 ? `job #${known}` : 'job'} ${job.id} listed again`,
      on: res,
    });
  }
  const missing = () =>
    [...w.expected].filter((id) => !w.seen.has(id)).map((id) => `job #${m.jobs.findIndex((x) => x.id === id)} ${id}`);
  const next = body.next_cursor;
  if (!next) {
    m.walk = undefined;
    const gaps = missing();
    check('V2.JOB.LIST_WALK', gaps.length === 0, {
      what: `the complete walk (${w.pages} page(s), limit ${w.limit}${scoped ? `, label ${RUN_LABEL_KEY}=${r.runLabel}` : ''})`,
      expected: `every job of this run${scoped ? ' carrying the label' : ''} that existed when the walk began, once`,
      received: `page ${w.pages} had no next_cursor, so the walk ended there with ${gaps.length} of them never listed: missing ${gaps.join(', ')}`,
      on: res,
    });
    return { ended: true, reached };
  }
  check('V2.JOB.LIST_WALK', !w.cursors.has(next), {
    what: `page ${w.pages} of a walk with limit ${w.limit}`,
    expected: 'a next_cursor not given before in this walk (one given again makes the walk go round forever)',
    received: next,
    on: res,
  });
  w.cursors.add(next);
  w.cursor = next;
  if (!scoped) {
    // The whole list holds other callers' jobs: the walk stops once every job of this run it
    // must list was listed once (a complete walk of everything is not the model's to afford).
    if (missing().length === 0) {
      m.walk = undefined;
      return { ended: true, reached };
    }
    if (w.pages >= r.api.bounds.listWalkMaxPages)
      throw new SuiteCountBound(
        `walking the whole job list (not scoped to this run's jobs by a label) with limit ${w.limit} did not reach them`,
        r.api.bounds.listWalkMaxPages,
        'pages',
        LIST_WALK_PAGES_VAR,
      );
    return { ended: false, reached };
  }
  if (fresh === 0) w.idle++;
  check('V2.JOB.LIST_WALK', w.idle <= IDLE_PAGES, {
    what: `walking the jobs the label ${RUN_LABEL_KEY}=${r.runLabel} selects, with limit ${w.limit}`,
    expected: `an end within the pages those jobs need and ${IDLE_PAGES} more`,
    received: `still a next_cursor after ${w.pages} pages, ${w.idle} of them bringing no job not seen before`,
    on: res,
  });
  return { ended: false, reached };
}

function startWalk(m: V2Model, r: V2Real, limit: number): void {
  const scoped = r.facts.listing === 'scoped';
  const expected = new Set(m.jobs.filter((j) => !scoped || j.labels !== undefined).map((j) => j.id));
  m.walk = { limit, expected, seen: new Map(), cursors: new Set(), pages: 0, idle: 0 };
}

class ListPage extends ModelCommand<V2Model, V2Real> {
  constructor(
    /** Picks the walk's limit, below the number of jobs it must list so that it takes several pages. */
    readonly draw: number,
    /** Scoped walks list only labelled jobs of the run. */
    readonly scoped: boolean,
  ) {
    super();
  }
  check(m: Readonly<V2Model>): boolean {
    // A walk is worth starting once the run has jobs it must list: two, scoped, so that it pages.
    return (
      m.walk !== undefined ||
      m.jobs.filter((j) => !this.scoped || j.labels !== undefined).length >= (this.scoped ? 2 : 1)
    );
  }
  toString(): string {
    return 'walk the job list one page further';
  }
  protected async act(m: V2Model, r: V2Real): Promise<void> {
    if (m.walk === undefined) {
      const inScope = m.jobs.filter((j) => !this.scoped || j.labels !== undefined).length;
      // The whole list (unscoped) holds other callers' jobs too, perhaps before this run's: larger pages.
      startWalk(m, r, this.scoped ? 1 + (this.draw % Math.max(1, inScope - 1)) : [3, 10, 25][this.draw % 3]);
    }
    const w = m.walk!;
    r.trace.say(
      (w.pages === 0 ? `start a walk of the job list with limit ${w.limit}` : `walk on to page ${w.pages + 1}`) +
        (r.facts.listing === 'scoped' ? ` (label ${RUN_LABEL_KEY}=${r.runLabel})` : ''),
    );
    // The whole list (unscoped) may hold pages of other callers' jobs: walk past them to the next job of this run.
    for (;;) {
      const page = await walkPage(m, r);
      if (page.ended || page.reached > 0 || r.facts.listing === 'scoped') return;
    }
  }
}

/** After the last command: the walk in progress is taken to its end, and every job to its terminal state. */
export async function windDown(m: V2Model, r: V2Real): Promise<void> {
  while (m.walk !== undefined) await walkPage(m, r);
  // Together: they run side by side, so waiting for each in turn would add up their waits.
  await Promise.all(m.jobs.filter((j) => !r.facts.states.terminal.has(j.record.status)).map((j) => settle(m, r, j)));
}

// ---------------------------------------------------------------- arbitraries

/**
 * The phases of every run (lib/model-run.ts): everything mixed (which also leaves blobs and
 * jobs for the phases after it), then assets (uploads, dedup hits, reads, ranged reads), jobs
 * (submits, keys, cancels, reads, the stream) and the job-list walk with submits between its
 * pages (where the walk is scoped by the run's label). Within a phase, repetition weights a
 * command; what the surface cannot do is left out.
 */
export function v2Phases(r: { facts: V2Real['facts'] }): Array<Phase<V2Model, V2Real>> {
  const index = fc.nat({ max: 7 });
  const uploadNew = fc.constantFrom(4, 8).map((s) => new UploadNew(s));
  const uploadAgain = fc.tuple(index, fc.boolean()).map(([n, same]) => new UploadAgain(n, same));
  const fromHash = fc.tuple(index, fc.boolean()).map(([n, held]) => new FromHash(n, held || n % 3 !== 0));
  const readAsset = index.map((n) => new ReadAsset(n));
  const slice = fc.record({
    from: fc.double({ min: 0, max: 0.9, noNaN: true }),
    span: fc.double({ min: 0.05, max: 1, noNaN: true }),
  });
  const readContent = fc
    .tuple(index, r.facts.range ? fc.option(slice, { freq: 4 }) : fc.constant(null))
    .map(([n, range]) => new ReadContent(n, range ?? undefined));
  const shapes: Shape[] = ['plain', 'small', 'image', ...(r.facts.slowClass !== undefined ? (['slow'] as const) : [])];
  const submitWith = (keys: KeyUse[]) =>
    fc
      .record({
        shape: fc.constantFrom(...shapes),
        labelDraw: fc.nat({ max: 9 }),
        extra: fc.option(fc.constantFrom('plain', 'with space', 'ünïcode ok'), { nil: undefined }),
        key: fc.constantFrom(...keys),
        n: index,
        parallel: fc.integer({ min: 1, max: 3 }),
      })
      .map((s) => new Submit(s.shape, s.labelDraw, s.extra, s.key, s.n, s.parallel));
  const submit = submitWith(['none', 'fresh', 'fresh', 'same', 'other']);
  // Submits that make a job: between the pages of a walk.
  const submitNew = submitWith(['none', 'fresh']);
  const readJob = index.map((n) => new ReadJob(n));
  const cancel = index.map((n) => new Cancel(n));
  const events = index.map((n) => new Events(n));
  const listPage = fc.nat({ max: 5 }).map((draw) => new ListPage(draw, r.facts.listing === 'scoped'));
  const times = <T>(n: number, arb: fc.Arbitrary<T>) => Array.from({ length: n }, () => arb);
  const range = r.facts.range;
  const listing = r.facts.listing !== 'none';
  const mixed = [
    ...times(3, uploadNew),
    ...times(3, uploadAgain),
    fromHash,
    readAsset,
    ...times(range ? 3 : 1, readContent),
    ...times(4, submit),
    readJob,
    ...times(2, cancel),
    events,
    ...(listing ? times(3, listPage) : []),
  ];
  const assets = [
    ...times(2, uploadNew),
    ...times(3, uploadAgain),
    fromHash,
    readAsset,
    ...times(range ? 5 : 2, readContent),
  ];
  const jobs = [...times(4, submit), readJob, ...times(3, cancel), events, uploadNew];
  const walk = [...times(5, submitNew), ...times(2, listPage), readJob];
  return [
    { name: 'mixed', commands: mixed },
    { name: 'assets', commands: assets },
    { name: 'jobs', commands: jobs },
    // A walk with submits between its pages tells something only where it is scoped to the
    // run's jobs; through the whole list the mixed phase's pages are enough.
    ...(r.facts.listing === 'scoped' ? [{ name: 'walk', commands: walk }] : []),
  ];
}
