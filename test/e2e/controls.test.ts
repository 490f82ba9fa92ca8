// Never cry wolf: the reference under each harmless variation (reference/controls.ts)
// is still a correct server, so the suite passes it on every test that could see the
// variation: no rule fails, nothing errors, and the verdict is pass. A probe first shows each control is in
// effect, so a clean run is not a control that did nothing. The plain reference runs
// first: it is judged as the correct server, and is each control's baseline.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import {
  CONTROLS,
  EXTRA_MEMBER,
  UNKNOWN_BUCKET,
  installControl,
  rewriteWatched,
  type ControlInfo,
  type ControlName,
} from '../../reference/controls.ts';
import { CLOUD_KEYS, CLOUD_OAUTH_TOKENS, ROUTER_KEYS } from '../../reference/accounts.ts';
import { BLOCKED_CONTENT_MARKER } from '../../reference/v2/moderation.ts';
import { streamUrl, WsSession } from '../../lib/ws/session.ts';
import type { TextMessage } from '../../lib/ws/schemas.ts';
import type { RunningReference } from '../../reference/server.ts';
import { failedRules, ROOT, rulesWith } from '../support/run-suite.ts';
import { runCases } from '../support/harness/run.ts';
import { caseReport, matrixOf, type CaseReport } from '../support/harness/outcomes.ts';
import { specMap, testKey, type ListedTest, type SpecMap } from '../support/spec-map.ts';
import { creditedFromStack, stacksOf, type Stack, type StackCandidate } from '../support/control-stacks.ts';
import { controlInputs } from '../../lib/control-inputs.ts';
import { resolveTarget } from '../../lib/targets.ts';
import { familiesOn, projectName, type Family, type Surface } from '../../lib/families.ts';
import { startOnFreePorts } from '../support/ports.ts';
import { assertJudgedOnEvidence } from '../support/judged.ts';
import { rulesWithoutFault } from '../support/fault-coverage.ts';
import { pollUntil } from '../../lib/time.ts';
import { runConfig } from '../../lib/config/env.ts';
import { recordScore } from '../support/score.ts';
import { SUITE_WORKERS } from '../support/concurrency.ts';
import { ruleOrThrow } from '../../lib/rules.ts';
import { textOf } from '../../lib/values.ts';

const only = new Set((process.env.CONTROLS ?? '').split(',').filter(Boolean));
const selected = CONTROLS.filter((c) => only.size === 0 || only.has(c.name));

type Refs = { plain: RunningReference; ctl: RunningReference };
const router = (ref: RunningReference, path: string, init: RequestInit = {}) =>
  fetch(`${ref.surfaces.router}${path}`, {
    ...init,
    headers: { 'X-API-Key': ROUTER_KEYS.alice, 'content-type': 'application/json', ...(init.headers ?? {}) },
  });
const catalogPage = async (ref: RunningReference) =>
  (await (await router(ref, '/v2/models?limit=1')).json()) as Record<string, unknown>;
const SLOW_JOB = {
  workflow: {
    '1': { class_type: 'EmptyImage', inputs: { width: 4, height: 4, batch_size: 1, color: 0 } },
    '2': { class_type: 'Sleep', inputs: { seconds: 2, image: ['1', 0] } },
    '3': { class_type: 'SaveImage', inputs: { images: ['2', 0], filename_prefix: 'control' } },
  },
};

const v1 = (ref: RunningReference, path: string, init: RequestInit = {}) =>
  fetch(`${ref.surfaces.cloud}${path}`, {
    ...init,
    headers: { 'X-API-Key': CLOUD_KEYS.alice, 'content-type': 'application/json', ...(init.headers ?? {}) },
  });
/** Runs a v1 prompt on a fresh connection and returns its messages and the binary frame types seen. */
async function v1Run(
  ref: RunningReference,
  prompt: object,
  announce = true,
): Promise<{ messages: TextMessage[]; frameTypes: Array<number | string> }> {
  const session = await WsSession.open(streamUrl(ref.surfaces.cloud, CLOUD_KEYS.alice), {
    announcePreviewMetadata: announce,
    bounds: runConfig().bounds,
  });
  try {
    const res = await v1(ref, '/api/prompt', { method: 'POST', body: JSON.stringify({ prompt }) });
    const { prompt_id } = (await res.json()) as { prompt_id: string };
    const stream = await session.streamOf(prompt_id, 20_000);
    return { messages: stream.messages, frameTypes: session.frames().map((f) => f.frame_type) };
  } finally {
    session.close();
  }
}
/** Returns once the clock reads later than `since` (times in these answers have millisecond resolution). */
const clockPast = (since: number) =>
  pollUntil(async () => (Date.now() > since ? true : undefined), { deadlineMs: 1000, intervalMs: 1 });

/** EmptyImage (of this colour) -> Sleep(seconds) -> SaveImage, as a v1 prompt. */
const v1Slow = (seconds: number, color: number) => ({
  '1': { class_type: 'EmptyImage', inputs: { width: 4, height: 4, batch_size: 1, color } },
  '2': { class_type: 'Sleep', inputs: { seconds, image: ['1', 0] } },
  '3': { class_type: 'SaveImage', inputs: { images: ['2', 0], filename_prefix: `control-slow-${color}` } },
});
const PREVIEW = {
  '1': { class_type: 'EmptyImage', inputs: { width: 4, height: 4, batch_size: 1, color: 7 } },
  '2': { class_type: 'PreviewImage', inputs: { images: ['1', 0] } },
};

/** A read by tiny (5 requests per 2 s) of an asset that does not exist: 404 when admitted, 429 past the allowance. */
const tinyRead = (ref: RunningReference) =>
  fetch(`${ref.surfaces.cloud}/api/v2/assets/${'0'.repeat(8)}-0000-4000-8000-${'0'.repeat(12)}`, {
    headers: { authorization: `Bearer ${CLOUD_KEYS.tiny}` },
  });

/** The form of an upload at `filePath` of bytes no other upload has (ending in `marker`, if given). */
function pngUpload(filePath: string, marker = ''): FormData {
  const form = new FormData();
  form.append('content_type', 'image/png');
  form.append('file_path', filePath);
  form.append('file', new Blob([Buffer.from(`control ${Math.random()}${marker}`)], { type: 'image/png' }), 'x.png');
  return form;
}

/** Uploads fresh bytes to a reference's local surface; the asset id. */
const uploadLocal = async (ref: RunningReference): Promise<string> =>
  (
    (await (
      await fetch(`${ref.surfaces.local}/api/v2/assets`, {
        method: 'POST',
        body: pngUpload(`control-${Math.random()}.png`),
      })
    ).json()) as { id: string }
  ).id;

const ALICE_CLOUD = { authorization: `Bearer ${CLOUD_KEYS.alice}` };

/** Uploads fresh bytes as alice to a reference's cloud surface, at a path starting `prefix`; the asset id. */
const uploadCloud = async (ref: RunningReference, prefix: string): Promise<string> =>
  (
    (await (
      await fetch(`${ref.surfaces.cloud}/api/v2/assets`, {
        method: 'POST',
        body: pngUpload(`${prefix}-${Math.random()}.png`),
        headers: ALICE_CLOUD,
      })
    ).json()) as { id: string }
  ).id;

/** Submits the slow job to a reference's local surface; its id. */
const submitLocal = async (ref: RunningReference): Promise<string> =>
  (
    (await (
      await fetch(`${ref.surfaces.local}/api/v2/jobs`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(SLOW_JOB),
      })
    ).json()) as { id: string }
  ).id;

// What each control visibly changes on a response of the reference.
const PROBES: Record<ControlName, (r: Refs) => Promise<void>> = {
  'extra-fields': async ({ ctl }) => {
    const page = await catalogPage(ctl);
    assert.ok(EXTRA_MEMBER in page, 'an unknown member on the page');
    assert.ok(EXTRA_MEMBER in (page.data as Array<Record<string, unknown>>)[0], 'and on the nested entry');
  },
  'reordered-keys': async ({ plain, ctl }) => {
    assert.deepEqual(Object.keys(await catalogPage(ctl)), Object.keys(await catalogPage(plain)).reverse());
  },
  'extra-headers': async ({ ctl }) => {
    assert.equal((await router(ctl, '/v2/models?limit=1')).headers.get('x-reference-control'), 'extra-headers');
  },
  'unknown-in-flight-status': async ({ ctl }) => {
    const res = await fetch(`${ctl.surfaces.local}/api/v2/jobs`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(SLOW_JOB),
    });
    const job = (await res.json()) as { status: string };
    assert.match(job.status, /_reference_control$/, 'an in-flight status the suite does not know');
  },
  'unknown-error-bucket': async ({ ctl }) => {
    const big = JSON.stringify({ prompt: 'x'.repeat(2 * 1024 * 1024) });
    const model = ((await catalogPage(ctl)).data as Array<{ id: string }>)[0].id;
    const res = await router(ctl, `/v2/models/${model}`, { method: 'POST', body: big });
    assert.equal(res.status, 413);
    assert.equal(res.headers.get('x-comfy-error-type'), UNKNOWN_BUCKET);
    assert.equal(((await res.json()) as { error_type: string }).error_type, UNKNOWN_BUCKET);
  },
  'retry-after-varied': async ({ plain, ctl }) => {
    // The limited caller's allowance runs out within a burst; both servers answer 429 with Retry-After.
    const burst = async (ref: RunningReference) => {
      for (let i = 0; i < 20; i++) {
        const res = await fetch(`${ref.surfaces.router}/v2/models?limit=1`, {
          headers: { 'X-API-Key': ROUTER_KEYS.limited },
        });
        if (res.status === 429) return Number(res.headers.get('retry-after'));
      }
      return undefined;
    };
    const [p, c] = [await burst(plain), await burst(ctl)];
    assert.ok(p !== undefined && c !== undefined, 'both answered 429');
    assert.ok(c > p, `Retry-After ${c} under the control, ${p} without`);
  },
  'ws-cached-nodes': async ({ ctl }) => {
    const prompt = {
      '1': { class_type: 'EmptyImage', inputs: { width: 4, height: 4, batch_size: 1, color: 9 } },
      '2': { class_type: 'SaveImage', inputs: { images: ['1', 0], filename_prefix: 'control-cached' } },
    };
    await v1Run(ctl, prompt);
    const { messages } = await v1Run(ctl, prompt);
    assert.deepEqual(messages.find((m) => m.type === 'execution_cached')?.data.nodes, ['1', '2']);
    assert.ok(!messages.some((m) => m.type === 'executing' && m.data.node != null), 'no node executing');
    assert.ok(
      messages.some((m) => m.type === 'executed' && m.data.node === '2'),
      'the cached output node still gets executed',
    );
  },
  'ws-final-executing-after-success': async ({ ctl }) => {
    const types = (await v1Run(ctl, PREVIEW)).messages.map((m) =>
      m.type === 'executing' && m.data.node == null ? 'final' : m.type,
    );
    assert.ok(types.indexOf('final') > types.indexOf('execution_success'), types.join(' '));
  },
  'ws-previews-without-metadata': async ({ plain, ctl }) => {
    assert.deepEqual(
      (await v1Run(plain, PREVIEW, true)).frameTypes,
      [4],
      'the reference sends type 4 to a client that announced it',
    );
    assert.deepEqual((await v1Run(plain, PREVIEW, false)).frameTypes, [1], 'and type 1 to one that did not');
    assert.deepEqual((await v1Run(ctl, PREVIEW, true)).frameTypes, [1], 'under the control, type 1 to every client');
  },
  'ws-no-final-executing': async ({ plain, ctl }) => {
    const finals = async (ref: RunningReference) =>
      (await v1Run(ref, PREVIEW)).messages.filter((m) => m.type === 'executing' && m.data.node == null).length;
    assert.equal(await finals(plain), 1, 'the plain reference sends one final executing');
    assert.equal(await finals(ctl), 0, 'under the control, none');
  },
  'ws-text-without-node': async ({ plain, ctl }) => {
    const empties = async (ref: RunningReference) => {
      const session = await WsSession.open(streamUrl(ref.surfaces.cloud, CLOUD_KEYS.alice), {
        bounds: runConfig().bounds,
      });
      try {
        const res = await v1(ref, '/api/prompt', { method: 'POST', body: JSON.stringify({ prompt: PREVIEW }) });
        await session.streamOf(((await res.json()) as { prompt_id: string }).prompt_id, 20_000);
        return session.frames().filter((f) => f.frame_type === 3 && f.node_id === '').length;
      } finally {
        session.close();
      }
    };
    assert.equal(await empties(plain), 0);
    assert.ok((await empties(ctl)) >= 1, 'a TEXT frame with an empty node id, decoded without complaint');
  },
  'v1-object-info-open': async ({ plain, ctl }) => {
    assert.equal(
      (await fetch(`${plain.surfaces.cloud}/api/object_info`)).status,
      401,
      'the plain reference wants the key',
    );
    const open = await fetch(`${ctl.surfaces.cloud}/api/object_info`);
    assert.equal(open.status, 200);
    assert.ok('EmptyImage' in ((await open.json()) as Record<string, unknown>));
  },
  'v1-null-display-names': async ({ ctl }) => {
    const info = (await (await v1(ctl, '/api/object_info')).json()) as Record<string, { display_name: unknown }>;
    assert.ok(Object.values(info).some((n) => n.display_name === null));
  },
  'v1-empty-error-bodies': async ({ plain, ctl }) => {
    const missing = '/api/view?filename=control-missing.png&type=output';
    const [p, c] = [await v1(plain, missing), await v1(ctl, missing)];
    assert.equal(p.status, 404);
    assert.ok((await p.text()).length > 0);
    assert.equal(c.status, 404);
    assert.equal(await c.text(), '');
  },
  'placement-roots-only': async ({ plain, ctl }) => {
    const upload = (ref: RunningReference, filePath: string) =>
      fetch(`${ref.surfaces.local}/api/v2/assets`, { method: 'POST', body: pngUpload(filePath) });
    assert.equal((await upload(plain, 'conformance/x.png')).status, 201, 'the plain reference places it');
    const refused = await upload(ctl, 'conformance/x.png');
    assert.equal(refused.status, 422);
    assert.match(JSON.stringify(await refused.json()), /not an allowlisted placement root/);
    assert.equal((await upload(ctl, `x-${Math.random()}.png`)).status, 201, 'a root-form path is placed');
  },
  'lazy-hash': async ({ ctl }) => {
    const form = new FormData();
    form.append('content_type', 'image/png');
    form.append('file_path', 'lazy.png');
    form.append('file', new Blob([Buffer.from(`control ${Math.random()}`)], { type: 'image/png' }), 'lazy.png');
    const created = (await (
      await fetch(`${ctl.surfaces.local}/api/v2/assets`, { method: 'POST', body: form })
    ).json()) as { id: string; hash: unknown };
    assert.equal(created.hash, null, 'null at first');
    const filled = await pollUntil(
      async () => {
        const read = (await (await fetch(`${ctl.surfaces.local}/api/v2/assets/${created.id}`)).json()) as {
          hash: unknown;
        };
        return read.hash === null ? undefined : read.hash;
      },
      { deadlineMs: 5_000, intervalMs: 100 },
    );
    assert.match(textOf(filled), /^blake3:[0-9a-f]{64}$/, 'filled a moment later');
  },
  'job-list-oldest-first': async ({ plain, ctl }) => {
    const order = async (ref: RunningReference) => {
      const a = await submitLocal(ref);
      await clockPast(Date.now()); // distinct creation times
      const b = await submitLocal(ref);
      const ids = (
        (await (await fetch(`${ref.surfaces.local}/api/v2/jobs?limit=100`)).json()) as { jobs: Array<{ id: string }> }
      ).jobs.map((j) => j.id);
      return ids.indexOf(a) - ids.indexOf(b);
    };
    assert.ok((await order(plain)) > 0, 'the plain reference lists newest first');
    assert.ok((await order(ctl)) < 0, 'under the control, oldest first');
  },
  'job-list-plain-cursors': async ({ plain, ctl }) => {
    const cursorOf = async (ref: RunningReference) => {
      for (let i = 0; i < 3; i++) await submitLocal(ref);
      return ((await (await fetch(`${ref.surfaces.local}/api/v2/jobs?limit=1`)).json()) as { next_cursor: string })
        .next_cursor;
    };
    const list = (ref: RunningReference, cursor: string) =>
      fetch(`${ref.surfaces.local}/api/v2/jobs?limit=1&cursor=${encodeURIComponent(cursor)}`);
    const own = await cursorOf(ctl);
    assert.match(own, /^\d+_[0-9a-f-]+$/, 'a bare position');
    const moved = own.replace(/^\d+/, '9999999999999');
    assert.equal((await list(ctl, moved)).status, 200, 'a changed position is read as a place in the list');
    assert.equal((await list(ctl, 'not a position')).status, 400, 'an unreadable one is refused');
    const signed = await cursorOf(plain);
    // The first character (the last may only carry base64 padding bits).
    assert.equal(
      (await list(plain, (signed.startsWith('A') ? 'B' : 'A') + signed.slice(1))).status,
      400,
      'the plain reference refuses a changed cursor',
    );
  },
  'proxy-constant-url-expiry': async ({ plain, ctl }) => {
    const expiries = async (ref: RunningReference) => {
      const id = await uploadLocal(ref);
      const read = async () =>
        ((await (await fetch(`${ref.surfaces.local}/api/v2/assets/${id}`)).json()) as { url_expires_at: string })
          .url_expires_at;
      const first = await read();
      await clockPast(Date.now()); // an expiry counted from a later instant
      return [first, await read()];
    };
    const [p1, p2] = await expiries(plain);
    assert.notEqual(p1, p2, 'the plain reference moves the expiry with each read');
    assert.deepEqual(
      await expiries(ctl),
      ['9999-12-31T23:59:59.000Z', '9999-12-31T23:59:59.000Z'],
      'under the control, one constant',
    );
  },
  'signed-url-minute-expiry': async ({ ctl }) => {
    const id = await uploadCloud(ctl, 'minute');
    const read = (await (
      await fetch(`${ctl.surfaces.cloud}/api/v2/assets/${id}`, { headers: ALICE_CLOUD })
    ).json()) as {
      url: string;
      url_expires_at: string;
    };
    assert.match(read.url_expires_at, /:00(\.000)?Z$/, 'an expiry on a whole minute');
    const opened = await fetch(read.url);
    assert.equal(opened.status, 200, 'the signed url still opens');
  },
  'moderation-at-upload': async ({ plain, ctl }) => {
    const upload = (ref: RunningReference) =>
      fetch(`${ref.surfaces.local}/api/v2/assets`, {
        method: 'POST',
        body: pngUpload(`flagged-${Math.random()}.png`, ` ${BLOCKED_CONTENT_MARKER}`),
      });
    assert.equal((await upload(plain)).status, 201, 'the plain reference mints the asset (its reads are refused)');
    const refused = await upload(ctl);
    assert.equal(refused.status, 451);
    assert.equal(((await refused.json()) as { error: { code: string } }).error.code, 'content_blocked');
  },
  'content-location-relative': async ({ plain, ctl }) => {
    const location = async (ref: RunningReference) => {
      const id = await uploadCloud(ref, 'located');
      return (
        (
          await fetch(`${ref.surfaces.cloud}/api/v2/assets/${id}/content`, { redirect: 'manual', headers: ALICE_CLOUD })
        ).headers.get('location') ?? ''
      );
    };
    assert.match(await location(plain), /^http:\/\/127\.0\.0\.1:\d+\/storage\//);
    assert.match(await location(ctl), /^\/storage\/blobs\/[0-9a-f]{64}\?/);
  },
  'owner-scope-forbidden': async ({ plain, ctl }) => {
    const foreignRead = async (ref: RunningReference) => {
      const id = await uploadCloud(ref, 'owned');
      return (
        await fetch(`${ref.surfaces.cloud}/api/v2/assets/${id}`, {
          headers: { authorization: `Bearer ${CLOUD_KEYS.bob}` },
        })
      ).status;
    };
    assert.equal(await foreignRead(plain), 404);
    assert.equal(await foreignRead(ctl), 403);
  },
  'malformed-job-id-422': async ({ plain, ctl }) => {
    assert.equal((await fetch(`${plain.surfaces.local}/api/v2/jobs/not-a-job`)).status, 404);
    const refused = await fetch(`${ctl.surfaces.local}/api/v2/jobs/not-a-job`);
    assert.equal(refused.status, 422);
    assert.equal(((await refused.json()) as { error: { code: string } }).error.code, 'invalid_request');
    assert.equal(
      (await fetch(`${ctl.surfaces.local}/api/v2/jobs/${'0'.repeat(8)}-0000-4000-8000-${'0'.repeat(12)}`)).status,
      404,
      'a well-formed unknown id is still not found',
    );
  },
  'asset-ref-url-invalid-workflow': async ({ plain, ctl }) => {
    const workflow = {
      '1': {
        class_type: 'LoadImage',
        inputs: { image: { __type: 'core/ASSET', info: { id: 'https://assets.elsewhere.invalid/x.png' } } },
      },
      '2': { class_type: 'SaveImage', inputs: { images: ['1', 0], filename_prefix: 'control' } },
    };
    const code = async (ref: RunningReference) =>
      (
        (await (
          await fetch(`${ref.surfaces.local}/api/v2/jobs`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ workflow }),
          })
        ).json()) as { error: { code: string } }
      ).error.code;
    assert.equal(await code(plain), 'missing_asset');
    assert.equal(await code(ctl), 'invalid_workflow');
  },
  'jwt-refusal-plain-words': async ({ plain, ctl }) => {
    const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJjb250cm9sIn0.c2lnbmF0dXJl';
    const message = async (ref: RunningReference) => {
      const res = await fetch(
        `${ref.surfaces.serverless}/deployment/dep-ready/api/v2/assets/${'0'.repeat(8)}-0000-4000-8000-${'0'.repeat(12)}`,
        { headers: { authorization: `Bearer ${jwt}` } },
      );
      assert.equal(res.status, 401);
      return ((await res.json()) as { error: { message: string } }).error.message;
    };
    assert.match(await message(plain), /JWT/);
    const words = await message(ctl);
    assert.doesNotMatch(words, /jwt/i);
    assert.match(words, /not accepted/);
  },
  'workflow-route-html': async ({ plain, ctl }) => {
    for (const surface of ['local', 'cloud'] as const) {
      assert.equal(
        (await fetch(`${plain.surfaces[surface]}/workflow`)).status,
        404,
        `the plain reference's ${surface} has no such route`,
      );
      const page = await fetch(`${ctl.surfaces[surface]}/workflow`);
      assert.equal(page.status, 200);
      assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
    }
  },
  'job-read-without-labels': async ({ plain, ctl }) => {
    const labelled = async (ref: RunningReference) => {
      const auth = { authorization: `Bearer ${CLOUD_KEYS.alice}`, 'content-type': 'application/json' };
      const job = (await (
        await fetch(`${ref.surfaces.cloud}/api/v2/jobs`, {
          method: 'POST',
          headers: auth,
          body: JSON.stringify({ ...SLOW_JOB, metadata: { control: 'labels' } }),
        })
      ).json()) as { id: string; metadata?: unknown };
      return job.metadata;
    };
    assert.deepEqual(await labelled(plain), { control: 'labels' });
    assert.equal(await labelled(ctl), undefined);
  },
  'deployment-workflow-annotated': async ({ plain, ctl }) => {
    const read = async (ref: RunningReference) =>
      (await (
        await fetch(`${ref.surfaces.serverless}/deployment/dep-ready/workflow`, {
          headers: { authorization: `Bearer ${CLOUD_KEYS.alice}` },
        })
      ).json()) as Record<string, Record<string, unknown>>;
    const [p, c] = [await read(plain), await read(ctl)];
    assert.ok(!('x_reference_control' in p), 'the plain reference answers the graph alone');
    assert.ok('x_reference_control' in c, 'an unknown top-level member');
    assert.ok(
      Object.entries(c)
        .filter(([k]) => k !== 'x_reference_control')
        .every(([, n]) => '_meta' in n),
      'a _meta on every node',
    );
  },
  'idempotent-replay': async ({ plain, ctl }) => {
    const submit = (ref: RunningReference, key: string, width = 4) =>
      fetch(`${ref.surfaces.local}/api/v2/jobs`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'idempotency-key': key },
        body: JSON.stringify({
          workflow: {
            ...SLOW_JOB.workflow,
            '1': { class_type: 'EmptyImage', inputs: { width, height: 4, batch_size: 1, color: 0 } },
          },
        }),
      });
    const key = `control-${Math.random()}`;
    assert.equal((await submit(plain, key)).status, 201);
    assert.equal((await submit(plain, key)).status, 422, 'the plain reference refuses the retry');
    const first = (await (await submit(ctl, key)).json()) as { id: string };
    const retry = await submit(ctl, key);
    assert.equal(retry.status, 201, 'the retry is answered');
    assert.equal(((await retry.json()) as { id: string }).id, first.id, 'with the job the key made');
    assert.equal((await submit(ctl, key, 5)).status, 422, 'another request under the key is still refused');
  },
  'labels-not-kept': async ({ plain, ctl }) => {
    const auth = { authorization: `Bearer ${CLOUD_KEYS.alice}`, 'content-type': 'application/json' };
    const labelled = async (ref: RunningReference) => {
      const res = await fetch(`${ref.surfaces.cloud}/api/v2/jobs`, {
        method: 'POST',
        headers: auth,
        body: JSON.stringify({ ...SLOW_JOB, metadata: { control: 'labels' } }),
      });
      assert.equal(res.status, 201, 'the labels are taken, not refused');
      const { id, metadata } = (await res.json()) as { id: string; metadata?: unknown };
      const read = (await (await fetch(`${ref.surfaces.cloud}/api/v2/jobs/${id}`, { headers: auth })).json()) as {
        metadata?: unknown;
      };
      return [metadata, read.metadata];
    };
    assert.deepEqual(await labelled(plain), [{ control: 'labels' }, { control: 'labels' }]);
    assert.deepEqual(await labelled(ctl), [undefined, undefined], 'kept nowhere');
  },
  'job-without-urls': async ({ plain, ctl }) => {
    const submitted = async (ref: RunningReference) =>
      (await (
        await fetch(`${ref.surfaces.local}/api/v2/jobs`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(SLOW_JOB),
        })
      ).json()) as { id: string; urls?: unknown };
    assert.ok((await submitted(plain)).urls !== undefined, 'the plain reference embeds urls');
    const job = await submitted(ctl);
    assert.equal(job.urls, undefined, 'under the control, none');
    assert.equal(
      (await fetch(`${ctl.surfaces.local}/api/v2/jobs/${job.id}`)).status,
      200,
      'the job is read at its documented path',
    );
  },
  'events-state-member': async ({ plain, ctl }) => {
    // The first status event of a job's live stream (sent on connect).
    const firstStatus = async (ref: RunningReference) => {
      const job = (await (
        await fetch(`${ref.surfaces.local}/api/v2/jobs`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(SLOW_JOB),
        })
      ).json()) as { id: string };
      const res = await fetch(`${ref.surfaces.local}/api/v2/jobs/${job.id}/events`, {
        headers: { accept: 'text/event-stream' },
      });
      const reader = res.body!.getReader();
      let text = '';
      while (!/event: status\ndata: [^\n]*\n/.test(text)) {
        const { value, done } = await reader.read();
        if (done) break;
        text += Buffer.from(value).toString('utf8');
      }
      await reader.cancel();
      return JSON.parse(/event: status\ndata: ([^\n]*)\n/.exec(text)![1]) as Record<string, unknown>;
    };
    assert.equal(typeof (await firstStatus(plain)).status, 'string', 'the plain reference names it status');
    const data = await firstStatus(ctl);
    assert.ok(typeof data.state === 'string' && !('status' in data), JSON.stringify(data));
  },
  'job-submit-200': async ({ plain, ctl }) => {
    const submit = async (ref: RunningReference, surface: 'cloud' | 'local') =>
      (
        await fetch(`${ref.surfaces[surface]}/api/v2/jobs`, {
          method: 'POST',
          headers: { authorization: `Bearer ${CLOUD_KEYS.alice}`, 'content-type': 'application/json' },
          body: JSON.stringify(SLOW_JOB),
        })
      ).status;
    assert.equal(await submit(plain, 'cloud'), 201);
    assert.equal(await submit(ctl, 'cloud'), 200, 'the hosted cloud answers 200');
    assert.equal(await submit(ctl, 'local'), 201, 'the proxy still 201');
  },
  'ws-no-executing': async ({ plain, ctl }) => {
    const kinds = async (ref: RunningReference) => (await v1Run(ref, PREVIEW)).messages.map((m) => m.type);
    assert.ok((await kinds(plain)).includes('executing'), 'the plain reference sends executing');
    const types = await kinds(ctl);
    assert.ok(!types.includes('executing'), types.join(' '));
    assert.ok(types.includes('execution_start') && types.includes('execution_success'), types.join(' '));
  },
  'v1-subscription-fails-later': async ({ plain, ctl }) => {
    const headers = { 'X-API-Key': CLOUD_KEYS.broke, 'content-type': 'application/json' };
    const prompt = {
      '1': { class_type: 'EmptyImage', inputs: { width: 4, height: 4, batch_size: 1, color: 3 } },
      '2': { class_type: 'SaveImage', inputs: { images: ['1', 0], filename_prefix: 'control-subscription' } },
    };
    const submit = (ref: RunningReference) =>
      fetch(`${ref.surfaces.cloud}/api/prompt`, { method: 'POST', headers, body: JSON.stringify({ prompt }) });
    assert.equal((await submit(plain)).status, 402, 'the plain reference refuses at submit');
    const accepted = await submit(ctl);
    assert.equal(accepted.status, 200);
    const { prompt_id } = (await accepted.json()) as { prompt_id: string };
    const status = await pollUntil(
      async () => {
        const s = (
          (await (await fetch(`${ctl.surfaces.cloud}/api/job/${prompt_id}/status`, { headers })).json()) as {
            status: string;
          }
        ).status;
        return ['success', 'error'].includes(s) ? s : undefined;
      },
      { deadlineMs: 10_000, intervalMs: 100 },
    );
    assert.equal(status, 'error', 'the job then fails');
  },
  'registry-refusals-4xx': async ({ plain, ctl }) => {
    const attach = (ref: RunningReference, headers: Record<string, string>) =>
      fetch(`${ref.surfaces.registry}/nodes/ref-image-tools/translations`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ data: { fr: { title: 'x' } } }),
      });
    assert.equal((await attach(plain, {})).status, 401);
    assert.equal((await attach(ctl, {})).status, 404, 'no credential: 404');
    assert.equal((await attach(ctl, { authorization: 'Basic Y29udHJvbDp4' })).status, 400, 'not Bearer: 400');
    assert.equal(
      (await attach(ctl, { authorization: 'Bearer not-a-credential' })).status,
      400,
      'a bearer that is no credential: 400',
    );
    assert.equal(
      (await attach(ctl, { authorization: `Bearer ${CLOUD_KEYS.alice}` })).status,
      201,
      'a good key still works',
    );
  },
  // The v2 jobs slice's controls (issue #29).
  'engine-cached-work': async ({ plain, ctl }) => {
    // Run time of the same slow job (a 2 s node) submitted a second time, once the first is done.
    const secondRun = async (ref: RunningReference) => {
      const runOnce = async () => {
        const since = Date.now();
        const id = await submitLocal(ref);
        await pollUntil(
          async () =>
            ((await (await fetch(`${ref.surfaces.local}/api/v2/jobs/${id}`)).json()) as { status: string }).status ===
            'succeeded'
              ? true
              : undefined,
          { deadlineMs: 10_000, intervalMs: 50 },
        );
        return Date.now() - since;
      };
      await runOnce();
      return runOnce();
    };
    assert.ok((await secondRun(plain)) >= 1_800, 'the plain reference runs the node again');
    assert.ok((await secondRun(ctl)) < 1_000, 'under the control the cached node finishes at once');
  },
  'asset-ref-file-name': async ({ plain, ctl }) => {
    const submit = (ref: RunningReference, image: unknown) =>
      fetch(`${ref.surfaces.local}/api/v2/jobs`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          workflow: {
            '1': { class_type: 'LoadImage', inputs: { image } },
            '2': { class_type: 'SaveImage', inputs: { images: ['1', 0], filename_prefix: 'control' } },
          },
        }),
      });
    const uploaded = async (ref: RunningReference) => {
      const id = await uploadLocal(ref);
      return {
        id,
        name: ((await (await fetch(`${ref.surfaces.local}/api/v2/assets/${id}`)).json()) as { file_path: string })
          .file_path,
      };
    };
    const p = await uploaded(plain);
    assert.equal(
      (await submit(plain, { __type: 'core/ASSET', info: { id: p.id } })).status,
      201,
      'the plain reference takes the reference object',
    );
    const c = await uploaded(ctl);
    const refused = await submit(ctl, { __type: 'core/ASSET', info: { id: c.id } });
    assert.equal(refused.status, 422);
    assert.equal(
      ((await refused.json()) as { error: { code: string } }).error.code,
      'invalid_workflow',
      'the object is an invalid input under the control',
    );
    assert.equal((await submit(ctl, c.name)).status, 201, 'the plain file name is taken');
    const missing = await submit(ctl, `control-missing-${Math.random()}.png`);
    assert.equal(
      ((await missing.json()) as { error: { code: string } }).error.code,
      'missing_asset',
      'a name no asset has is a missing asset',
    );
  },
  'node-errors-engine-types': async ({ plain, ctl }) => {
    const typeOf = async (ref: RunningReference) => {
      const res = await fetch(`${ref.surfaces.local}/api/v2/jobs`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ workflow: { '1': { class_type: 'SaveImage', inputs: { filename_prefix: 'x' } } } }),
      });
      return (
        (await res.json()) as {
          error: { details: { node_errors: Record<string, { errors: Array<{ type: string }> }> } };
        }
      ).error.details.node_errors['1'].errors[0].type;
    };
    assert.equal(await typeOf(plain), 'invalid_inputs');
    assert.equal(await typeOf(ctl), 'required_input_missing');
  },
  'unknown-classes-unnamed': async ({ plain, ctl }) => {
    const refusal = async (ref: RunningReference) => {
      const res = await fetch(`${ref.surfaces.local}/api/v2/jobs`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ workflow: { '1': { class_type: 'ConformanceNoSuchClass', inputs: {} } } }),
      });
      return {
        status: res.status,
        ...((await res.json()) as { error: { code: string; details?: Record<string, unknown> } }).error,
      };
    };
    const before = await refusal(plain);
    assert.deepEqual(before.details?.unknown_node_classes, ['ConformanceNoSuchClass']);
    const after = await refusal(ctl);
    assert.equal(after.status, 422);
    assert.equal(after.code, 'invalid_workflow');
    assert.deepEqual(after.details, { node_errors: {} });
  },
  'v2-own-state-names': async ({ plain, ctl }) => {
    const status = async (ref: RunningReference) =>
      (
        (await (
          await fetch(`${ref.surfaces.local}/api/v2/jobs`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify(SLOW_JOB),
          })
        ).json()) as { status: string }
      ).status;
    assert.ok(['queued', 'running'].includes(await status(plain)), 'the public names without the control');
    assert.ok(['waiting', 'working'].includes(await status(ctl)), "the server's own names under it");
  },
  'deployment-workflow-history-form': async ({ plain, ctl }) => {
    const read = async (ref: RunningReference) =>
      (await (
        await fetch(`${ref.surfaces.serverless}/deployment/dep-ready/workflow`, {
          headers: { authorization: `Bearer ${CLOUD_KEYS.alice}` },
        })
      ).json()) as Record<string, unknown>;
    assert.ok(!('prompt' in (await read(plain))), 'the plain reference answers the graph alone');
    const entry = await read(ctl);
    assert.ok(Array.isArray(entry.prompt) && typeof entry.prompt[2] === 'object', JSON.stringify(entry));
  },
  // The router's readings of seed R (reference/router/variations.ts).
  'router-renamed-members': async ({ plain, ctl }) => {
    assert.equal((await catalogPage(plain)).limit, 1, 'the plain reference names the page size limit');
    const page = await catalogPage(ctl);
    assert.ok(!('limit' in page) && page.page_size === 1, 'under the control, page_size');
    const entry = (page.data as Array<Record<string, unknown>>)[0];
    assert.equal(entry.model_id, `${String(entry.provider)}/${String(entry.model)}`);
    assert.ok(!('id' in entry) && !('billing' in entry), 'no id or billing member');
    assert.equal(typeof (entry.billing_facts as Record<string, unknown>).charged_on_policy_rejection, 'string');
    const detail = (await (await router(ctl, '/v2/models/pixelforge/pf-flux-lite')).json()) as Record<string, unknown>;
    assert.match(String(detail.schema_url), /^https:\/\/.+\/openapi\.json$/);
    assert.deepEqual(detail.alternates, ['fal', 'wavespeed']);
    assert.ok(!('input_schema_url' in detail) && !('model_providers' in detail));
  },
  'router-alternate-names': async ({ plain, ctl }) => {
    const legs = async (ref: RunningReference) =>
      ((await (await router(ref, '/v2/models/pixelforge/pf-flux-lite')).json()) as { model_providers: string[] })
        .model_providers;
    assert.deepEqual(await legs(plain), ['fal', 'wavespeed']);
    assert.deepEqual(await legs(ctl), ['fal', 'wavespeed-ai']);
    const estimate = (ref: RunningReference) =>
      router(ref, '/v2/models/pixelforge/pf-flux-lite/estimate?model_provider=wavespeed-ai', {
        method: 'POST',
        body: JSON.stringify({ prompt: 'a lighthouse' }),
      });
    assert.equal((await estimate(plain)).status, 400, 'the plain reference registers no wavespeed-ai');
    const quoted = await estimate(ctl);
    assert.equal(quoted.status, 200, 'the name the detail lists is a registered provider with a leg');
    assert.equal(((await quoted.json()) as { provider: string }).provider, 'wavespeed-ai');
  },
  'router-quotes-without-credits': async ({ plain, ctl }) => {
    const quote = async (ref: RunningReference) =>
      (await (
        await router(ref, '/v2/models/pixelforge/pf-flux-lite/estimate', {
          method: 'POST',
          body: JSON.stringify({ prompt: 'a lighthouse' }),
        })
      ).json()) as Record<string, unknown>;
    assert.equal(typeof (await quote(plain)).credits, 'number');
    const q = await quote(ctl);
    assert.equal(q.source, 'exact');
    assert.ok(
      typeof q.amount === 'string' && typeof q.amount_cents === 'number' && !('credits' in q),
      JSON.stringify(q),
    );
  },
  'router-text-default-cap': async ({ plain, ctl }) => {
    const quote = async (ref: RunningReference) =>
      (await (
        await router(ref, '/v2/models/textile/chat-small/estimate', {
          method: 'POST',
          body: JSON.stringify({ messages: [{ role: 'user', content: 'say hello' }] }),
        })
      ).json()) as Record<string, unknown>;
    const p = await quote(plain);
    assert.deepEqual([p.source, p.reason], ['unknown', 'not_quotable']);
    const c = await quote(ctl);
    assert.equal(c.source, 'estimated');
    assert.ok(typeof c.min_amount === 'string' && typeof c.max_amount === 'string', JSON.stringify(c));
  },
  'router-format-annotation': async ({ plain, ctl }) => {
    const run = (ref: RunningReference) =>
      router(ref, '/v2/models/pixelforge/pf-flux-lite', {
        method: 'POST',
        body: JSON.stringify({ prompt: 'a lighthouse', image: 'not a url' }),
      });
    assert.equal((await run(plain)).status, 422, 'the plain reference asserts format uri');
    assert.equal((await run(ctl)).status, 200, 'under the control it is an annotation');
  },
  'router-provider-requirements': async ({ plain, ctl }) => {
    const run = (ref: RunningReference) =>
      router(ref, '/v2/models/pixelforge/pf-flux-lite', {
        method: 'POST',
        body: JSON.stringify({ prompt: 'a lighthouse', num_images: 4 }),
      });
    assert.equal((await run(plain)).status, 200);
    const refused = await run(ctl);
    assert.equal(refused.status, 400);
    assert.equal(refused.headers.get('x-comfy-error-type'), 'invalid_input');
    assert.equal(refused.headers.get('x-comfy-upstream-status'), '400', 'the provider called it malformed');
    assert.match(refused.headers.get('x-comfy-upstream-detail') ?? '', /at most 3 images/);
  },
  'router-spend-headers-on-limits-only': async ({ plain, ctl }) => {
    const run = (ref: RunningReference, key: string) =>
      fetch(`${ref.surfaces.router}/v2/models/pixelforge/pf-flux-lite`, {
        method: 'POST',
        headers: { 'X-API-Key': key, 'content-type': 'application/json' },
        body: JSON.stringify({ prompt: 'a lighthouse' }),
      });
    assert.ok(
      (await run(plain, ROUTER_KEYS.alice)).headers.get('x-committed-spend-limit'),
      'the plain reference sends them on a 200',
    );
    const ok = await run(ctl, ROUTER_KEYS.alice);
    assert.equal(ok.status, 200);
    assert.equal(ok.headers.get('x-committed-spend-limit'), null, 'not on a 200 under the control');
    let limited: Response | undefined;
    for (let i = 0; i < 20 && limited?.status !== 429; i++) limited = await run(ctl, ROUTER_KEYS.limited);
    assert.equal(limited?.status, 429);
    assert.ok(limited.headers.get('x-committed-spend-limit'), 'still on a 429');
  },
  'router-no-submit-estimates': async ({ plain, ctl }) => {
    const submit = async (ref: RunningReference) => {
      const res = await router(ref, '/v2/models/pixelforge/pf-flux-lite/requests', {
        method: 'POST',
        body: JSON.stringify({ prompt: `a lighthouse ${Math.random()}` }),
      });
      assert.equal(res.status, 201);
      return (await res.json()) as Record<string, unknown>;
    };
    assert.ok('estimate' in (await submit(plain)));
    assert.ok(!('estimate' in (await submit(ctl))));
  },
  'router-limits-runs-only': async ({ plain, ctl }) => {
    const burst = async (ref: RunningReference, init?: RequestInit, path = '/v2/models?limit=1') => {
      for (let i = 0; i < 20; i++) {
        const res = await fetch(`${ref.surfaces.router}${path}`, {
          ...init,
          headers: { 'X-API-Key': ROUTER_KEYS.limited, 'content-type': 'application/json' },
        });
        if (res.status === 429) return true;
      }
      return false;
    };
    assert.ok(await burst(plain), 'the plain reference limits catalog reads');
    assert.ok(!(await burst(ctl)), 'under the control catalog reads are never 429');
    assert.ok(
      await burst(
        ctl,
        { method: 'POST', body: JSON.stringify({ prompt: 'a lighthouse' }) },
        '/v2/models/pixelforge/pf-flux-lite',
      ),
      'runs still are',
    );
  },
  'router-provider-failure-402': async ({ plain, ctl }) => {
    const run = (ref: RunningReference) =>
      router(ref, '/v2/models/pixelforge/pf-flaky?fallback_provider=false', {
        method: 'POST',
        body: JSON.stringify({ prompt: 'a lighthouse' }),
      });
    assert.equal((await run(plain)).status, 502);
    const failed = await run(ctl);
    assert.equal(failed.status, 402);
    assert.equal(((await failed.json()) as { error_type: string }).error_type, 'provider_error');
  },
  'router-schema-failure-unavailable': async ({ plain, ctl }) => {
    const doc = (ref: RunningReference) => router(ref, '/v2/models/pixelforge/pf-schema-lost/openapi.json');
    const p = await doc(plain);
    assert.deepEqual([p.status, p.headers.get('x-comfy-error-type')], [500, 'internal_error']);
    const c = await doc(ctl);
    assert.deepEqual([c.status, c.headers.get('x-comfy-error-type')], [500, 'service_unavailable']);
  },
  'router-unknown-without-reason': async ({ plain, ctl }) => {
    const quote = async (ref: RunningReference) =>
      (await (
        await router(ref, '/v2/models/textile/chat-small/estimate', {
          method: 'POST',
          body: JSON.stringify({ messages: [{ role: 'user', content: 'say hello' }] }),
        })
      ).json()) as Record<string, unknown>;
    assert.deepEqual([(await quote(plain)).source, (await quote(plain)).reason], ['unknown', 'not_quotable']);
    const q = await quote(ctl);
    assert.ok(q.source === 'unknown' && !('reason' in q), JSON.stringify(q));
  },
  'router-policy-upstream-detail': async ({ plain, ctl }) => {
    const run = (ref: RunningReference) =>
      router(ref, '/v2/models/pixelforge/pf-flux-lite', {
        method: 'POST',
        body: JSON.stringify({ prompt: '[[policy:input_text]]' }),
      });
    const p = await run(plain);
    assert.deepEqual([p.status, p.headers.get('x-comfy-upstream-detail')], [400, null]);
    const c = await run(ctl);
    assert.equal(c.headers.get('x-comfy-error-type'), 'content_policy_violation');
    assert.match(c.headers.get('x-comfy-upstream-detail') ?? '', /content-policy/);
    assert.ok(!('upstream_detail' in ((await c.json()) as Record<string, unknown>)), 'no body member');
  },
  'router-deadline-own-clock': async ({ plain, ctl }) => {
    const run = (ref: RunningReference) =>
      router(ref, '/v2/models/pixelforge/pf-timeout', {
        method: 'POST',
        body: JSON.stringify({ prompt: 'a lighthouse' }),
      });
    assert.ok(
      (await run(plain)).headers.get('x-comfy-upstream-status'),
      'the plain reference reports an upstream status',
    );
    const c = await run(ctl);
    assert.deepEqual(
      [c.status, c.headers.get('x-comfy-error-type'), c.headers.get('x-comfy-upstream-status')],
      [504, 'deadline_exceeded', null],
    );
    assert.ok(c.headers.get('retry-after'), 'still with Retry-After');
  },
  'router-capacity-own-bucket': async ({ plain, ctl }) => {
    const run = (ref: RunningReference) =>
      router(ref, '/v2/models/pixelforge/pf-busy', {
        method: 'POST',
        body: JSON.stringify({ prompt: 'a lighthouse' }),
      });
    assert.equal((await run(plain)).headers.get('x-comfy-error-type'), 'service_unavailable');
    const c = await run(ctl);
    assert.deepEqual([c.status, c.headers.get('x-comfy-error-type')], [503, 'capacity_exhausted']);
    assert.ok(c.headers.get('retry-after'), 'with Retry-After');
  },
  'router-429-without-retry-after': async ({ plain, ctl }) => {
    const limited = async (ref: RunningReference): Promise<Response> => {
      const found = await pollUntil(
        async () => {
          const res = await fetch(`${ref.surfaces.router}/v2/models/pixelforge/pf-flux-lite`, {
            method: 'POST',
            headers: { 'X-API-Key': ROUTER_KEYS.limited, 'content-type': 'application/json' },
            body: JSON.stringify({ prompt: 'a lighthouse' }),
          });
          return res.status === 429 ? res : undefined;
        },
        { deadlineMs: 5000, intervalMs: 0 },
      );
      assert.ok(found, 'a 429 within the allowance window');
      return found;
    };
    assert.ok((await limited(plain)).headers.get('retry-after'), 'the plain reference names a Retry-After');
    const c = await limited(ctl);
    assert.equal(c.headers.get('x-comfy-error-type'), 'rate_limited');
    assert.equal(c.headers.get('retry-after'), null);
    assert.ok(c.headers.get('x-committed-spend-limit'), 'still with the spend headers');
  },
  'router-video-quotes-by-role': async ({ plain, ctl }) => {
    const content = (role: string) => [
      { type: 'text', text: 'a paper boat' },
      { type: 'image_url', image_url: { url: 'https://example.com/frame.png' }, role },
    ];
    const amount = async (ref: RunningReference, role: string) =>
      (
        (await (
          await router(ref, '/v2/models/vidra/seedance-sim/estimate', {
            method: 'POST',
            body: JSON.stringify({ content: content(role), duration: 5 }),
          })
        ).json()) as { amount: string }
      ).amount;
    assert.equal(await amount(plain, 'reference_image'), await amount(plain, 'first_frame'));
    assert.notEqual(
      await amount(ctl, 'reference_image'),
      await amount(ctl, 'first_frame'),
      'quoted by role under the control',
    );
    const credits = async (role: string) =>
      (
        await router(ctl, '/v2/models/vidra/seedance-sim', {
          method: 'POST',
          body: JSON.stringify({ content: content(role), duration: 5 }),
        })
      ).headers.get('x-comfy-credits-used');
    assert.equal(await credits('reference_image'), await credits('first_frame'), 'runs still bill by media kind');
  },
  'router-alternate-answers-raw': async ({ plain, ctl }) => {
    const run = async (ref: RunningReference, query: string, body: object) =>
      (await (
        await router(ref, `/v2/models/pixelforge/pf-flux-lite${query}`, { method: 'POST', body: JSON.stringify(body) })
      ).json()) as Record<string, unknown>;
    assert.ok(
      'images' in (await run(plain, '?model_provider=wavespeed', { prompt: 'a lighthouse' })),
      'translated back to the native output without the control',
    );
    const raw = await run(ctl, '?model_provider=wavespeed', { prompt: 'a lighthouse' });
    assert.deepEqual(Object.keys(raw), ['data'], "wavespeed's own answer under the control");
    assert.deepEqual(
      Object.keys(await run(ctl, '?model_provider=wavespeed&strict_mode=true', { text: 'a lighthouse' })),
      ['data'],
      'the shape strict mode returns',
    );
    assert.ok(
      'images' in (await run(ctl, '?model_provider=fal', { prompt: 'a lighthouse' })),
      'other alternates still translated back',
    );
  },
  'router-queue-own-names': async ({ plain, ctl }) => {
    const waiting = async (ref: RunningReference) => {
      const res = await router(ref, '/v2/models/pixelforge/pf-slow/requests', {
        method: 'POST',
        body: JSON.stringify({ prompt: 'a lighthouse' }),
      });
      assert.equal(res.status, 201);
      const h = (await res.json()) as { status: string; status_url: string };
      const read = (await (await fetch(h.status_url, { headers: { 'X-API-Key': ROUTER_KEYS.alice } })).json()) as {
        status: string;
      };
      return [h.status, read.status];
    };
    assert.deepEqual(await waiting(plain), ['IN_QUEUE', 'IN_QUEUE']);
    assert.deepEqual(await waiting(ctl), ['QUEUED', 'QUEUED'], 'a waiting request under the control');
  },
  // Issue #29, v2 assets, auth, errors and load (engineer v2assets).
  'rate-limit-clock-windows': async ({ plain, ctl }) => {
    // tiny's allowance is 5 per 2 s. Five calls late in a clock window, then one just past its end:
    // a clock-aligned window has started afresh, a window opened by the first call has not.
    const afterBurst = async (ref: RunningReference) => {
      // Any window an earlier probe opened for tiny lapses first.
      await new Promise((r) => setTimeout(r, 2100));
      await pollUntil(async () => (Date.now() % 2000 >= 1400 && Date.now() % 2000 < 1500 ? true : undefined), {
        deadlineMs: 3000,
        intervalMs: 5,
      });
      for (let i = 0; i < 5; i++) assert.equal((await tinyRead(ref)).status, 404, 'within the allowance');
      await pollUntil(async () => (Date.now() % 2000 >= 100 && Date.now() % 2000 < 400 ? true : undefined), {
        deadlineMs: 3000,
        intervalMs: 5,
      });
      return (await tinyRead(ref)).status;
    };
    assert.equal(await afterBurst(plain), 429);
    assert.equal(await afterBurst(ctl), 404);
  },
  'rate-limit-token-bucket': async ({ plain, ctl }) => {
    // Past the allowance, a bucket refills a token every 0.4 s; a fixed window stays shut for its 2 s.
    const halfSecondLater = async (ref: RunningReference) => {
      await new Promise((r) => setTimeout(r, 2100));
      let status = 0;
      for (let i = 0; i < 8 && status !== 429; i++) status = (await tinyRead(ref)).status;
      assert.equal(status, 429, 'past the allowance');
      await new Promise((r) => setTimeout(r, 500));
      return (await tinyRead(ref)).status;
    };
    assert.equal(await halfSecondLater(plain), 429);
    assert.equal(await halfSecondLater(ctl), 404);
  },
  'cloud-refuses-jwt': async ({ plain, ctl }) => {
    const read = (ref: RunningReference) =>
      fetch(`${ref.surfaces.cloud}/api/v2/assets/${'0'.repeat(8)}-0000-4000-8000-${'0'.repeat(12)}`, {
        headers: { authorization: `Bearer ${Object.keys(CLOUD_OAUTH_TOKENS)[0]}` },
      });
    assert.equal((await read(plain)).status, 404, 'the plain cloud takes the OAuth token');
    const refused = await read(ctl);
    assert.equal(refused.status, 401);
    assert.match(((await refused.json()) as { error: { message: string } }).error.message, /does not accept JWT/);
  },
  'asset-optional-members-absent': async ({ plain, ctl }) => {
    const created = async (ref: RunningReference) =>
      (await (
        await fetch(`${ref.surfaces.local}/api/v2/assets`, {
          method: 'POST',
          body: pngUpload(`control-${Math.random()}.png`),
        })
      ).json()) as Record<string, unknown>;
    const full = await created(plain);
    assert.ok('file_path' in full && 'created_new' in full, 'the plain reference sends both');
    const bare = await created(ctl);
    assert.ok(!('file_path' in bare) && !('created_new' in bare), 'the control sends neither');
  },
  'asset-delete-not-offered': async ({ plain, ctl }) => {
    const del = async (ref: RunningReference) =>
      fetch(`${ref.surfaces.local}/api/v2/assets/${await uploadLocal(ref)}`, { method: 'DELETE' });
    assert.equal((await del(plain)).status, 204);
    const refused = await del(ctl);
    assert.equal(refused.status, 404, 'the asset is held, its delete has no route');
    assert.equal(
      ((await refused.json()) as { error: { code: string } }).error.code,
      'not_found',
      'in the v2 error envelope',
    );
  },
  // Slice v1ws (issue #29): the v1 operations, their WebSocket and the registry.
  'ws-sid-own': async ({ plain, ctl }) => {
    const sid = async (ref: RunningReference) => {
      const session = await WsSession.open(streamUrl(ref.surfaces.cloud, CLOUD_KEYS.alice, 'control-client-id'), {
        bounds: runConfig().bounds,
      });
      try {
        await session.waitFor(
          () => session.messages().some((m) => m.type === 'status'),
          5_000,
          () => new Error('no status message on connect'),
        );
        return (session.messages().find((m) => m.type === 'status')!.data as { sid?: unknown }).sid;
      } finally {
        session.close();
      }
    };
    assert.equal(await sid(plain), 'control-client-id', 'the plain reference names the session after the clientId');
    const own = await sid(ctl);
    assert.ok(
      typeof own === 'string' && own !== 'control-client-id',
      `under the control, an id of its own (${String(own)})`,
    );
  },
  'ws-no-execution-start': async ({ plain, ctl }) => {
    const starts = async (ref: RunningReference) =>
      (await v1Run(ref, PREVIEW)).messages.filter((m) => m.type === 'execution_start').length;
    assert.equal(await starts(plain), 1);
    assert.equal(await starts(ctl), 0, 'under the control, none');
  },
  'ws-no-progress': async ({ plain, ctl }) => {
    const progress = async (ref: RunningReference) =>
      (await v1Run(ref, v1Slow(0.3, 11))).messages.filter((m) => m.type === 'progress' || m.type === 'progress_state')
        .length;
    assert.ok((await progress(plain)) > 0, 'the plain reference reports step progress');
    assert.equal(await progress(ctl), 0, 'under the control, none');
  },
  'engine-cached-work-instant': async ({ plain, ctl }) => {
    const twice = async (ref: RunningReference) => {
      const prompt = v1Slow(1, 4242);
      await v1Run(ref, prompt);
      const started = Date.now();
      const { messages } = await v1Run(ref, prompt);
      return { ms: Date.now() - started, cached: messages.find((m) => m.type === 'execution_cached')?.data.nodes };
    };
    assert.ok((await twice(plain)).ms >= 1_000, 'the plain reference runs the same slow work again');
    const again = await twice(ctl);
    assert.ok(again.ms < 1_000, `under the control the same work finishes at once (${again.ms} ms)`);
    assert.deepEqual(again.cached, ['1', '2', '3']);
  },
  'v1-second-vocabulary-only': async ({ plain, ctl }) => {
    const finished = async (ref: RunningReference) => {
      const res = await v1(ref, '/api/prompt', { method: 'POST', body: JSON.stringify({ prompt: PREVIEW }) });
      const { prompt_id } = (await res.json()) as { prompt_id: string };
      return pollUntil(
        async () => {
          const { status } = (await (await v1(ref, `/api/job/${prompt_id}/status`)).json()) as { status: string };
          return ['success', 'completed', 'error', 'failed'].includes(status) ? status : undefined;
        },
        { deadlineMs: 10_000, intervalMs: 100 },
      );
    };
    assert.equal(await finished(plain), 'success');
    assert.equal(await finished(ctl), 'completed', "the first account's finished job, in the second listing's names");
  },
  'registry-publisher-only': async ({ plain, ctl }) => {
    const write = (ref: RunningReference, key: string) =>
      fetch(`${ref.surfaces.registry}/nodes/ref-image-tools/translations`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ data: { fr: { title: 'titre' } } }),
      });
    assert.equal((await write(plain, CLOUD_KEYS.bob)).status, 201, 'the plain reference lets any valid key write');
    assert.equal(
      (await write(ctl, CLOUD_KEYS.bob)).status,
      403,
      "another account's valid key is authenticated and not allowed",
    );
    assert.equal((await write(ctl, CLOUD_KEYS.alice)).status, 201, "the publisher's key writes");
  },
  'v1-renamed-classes': async ({ plain, ctl }) => {
    const classes = async (ref: RunningReference) =>
      Object.keys((await (await v1(ref, '/api/object_info')).json()) as Record<string, unknown>);
    assert.ok((await classes(plain)).includes('EmptyImage'), 'the plain reference has the public names');
    const renamed = await classes(ctl);
    assert.ok(renamed.includes('BlankImage') && !renamed.includes('EmptyImage'), renamed.join(', '));
    const refused = await v1(ctl, '/api/prompt', { method: 'POST', body: JSON.stringify({ prompt: PREVIEW }) });
    assert.equal(refused.status, 400, 'a prompt using the public names is refused');
    assert.match(JSON.stringify(await refused.json()), /unknown_node_class/);
    const own = {
      '1': { class_type: 'BlankImage', inputs: { width: 4, height: 4, batch_size: 1, color: 7 } },
      '2': { class_type: 'ImagePreviewTemp', inputs: { images: ['1', 0] } },
    };
    assert.ok(
      (await v1Run(ctl, own)).messages.some((m) => m.type === 'execution_success'),
      'its own names run',
    );
  },
  // Router surface (issue #29 §2, slice routersurface).
  'router-catalog-of-three': async ({ plain, ctl }) => {
    const five = async (ref: RunningReference) =>
      (await (await router(ref, '/v2/models?limit=5')).json()) as {
        data: unknown[];
        has_more: boolean;
        next_cursor?: string;
      };
    assert.equal((await five(plain)).has_more, true);
    const c = await five(ctl);
    assert.deepEqual([c.data.length, c.has_more, c.next_cursor], [3, false, undefined]);
    assert.equal(
      (await router(ctl, '/v2/models/pixelforge/pf-tiny')).status,
      200,
      'an unlisted model is still read by its ID',
    );
  },
  'router-schemas-without-max-length': async ({ plain, ctl }) => {
    const doc = async (ref: RunningReference) =>
      await (await router(ref, '/v2/models/pixelforge/pf-flux-lite/openapi.json')).text();
    assert.ok((await doc(plain)).includes('"maxLength"'));
    assert.ok(!(await doc(ctl)).includes('"maxLength"'));
    const long = (ref: RunningReference) =>
      router(ref, '/v2/models/pixelforge/pf-flux-lite', {
        method: 'POST',
        body: JSON.stringify({ prompt: 'x'.repeat(3000) }),
      });
    assert.equal((await long(plain)).status, 422);
    assert.equal((await long(ctl)).status, 200, 'a prompt past the old maxLength is run');
  },
  'router-estimate-ignores-capacity': async ({ plain, ctl }) => {
    const est = (ref: RunningReference) =>
      router(ref, '/v2/models/pixelforge/pf-busy/estimate', {
        method: 'POST',
        body: JSON.stringify({ prompt: 'a lighthouse' }),
      });
    const p = await est(plain);
    assert.deepEqual([p.status, Boolean(p.headers.get('retry-after'))], [503, true]);
    assert.equal((await est(ctl)).status, 200);
  },
  'router-quote-other-names': async ({ plain, ctl }) => {
    const quote = async (ref: RunningReference) =>
      (await (
        await router(ref, '/v2/models/pixelforge/pf-flux-lite/estimate', {
          method: 'POST',
          body: JSON.stringify({ prompt: 'a lighthouse' }),
        })
      ).json()) as Record<string, unknown>;
    assert.equal((await quote(plain)).currency, 'USD');
    const q = await quote(ctl);
    assert.deepEqual(
      [q.currency, q.currency_code, q.model, q.provider_leg],
      [undefined, 'USD', 'pixelforge/pf-flux-lite', 'pixelforge'],
    );
  },
  'router-quote-open-vocabulary': async ({ plain, ctl }) => {
    const quote = async (ref: RunningReference) =>
      (await (
        await router(ref, '/v2/models/textile/chat-small/estimate', {
          method: 'POST',
          body: JSON.stringify({ messages: [{ role: 'user', content: 'say hello' }] }),
        })
      ).json()) as Record<string, unknown>;
    const p = await quote(plain);
    assert.deepEqual([p.source, p.reason], ['unknown', 'not_quotable']);
    const c = await quote(ctl);
    assert.deepEqual([c.source, c.reason], ['indeterminate', 'priced_after_run']);
  },
  // Slice routerruns (issue #29): runs, the queue and idempotency.
  'router-queued-cap': async ({ plain, ctl }) => {
    const burst = async (ref: RunningReference) => {
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++)
        statuses.push(
          (
            await router(ref, '/v2/models/pixelforge/pf-slow/requests', {
              method: 'POST',
              body: JSON.stringify({ prompt: `cap ${i}` }),
            })
          ).status,
        );
      return statuses;
    };
    assert.deepEqual(await burst(plain), [201, 201, 201, 201]);
    assert.deepEqual(await burst(ctl), [201, 201, 201, 429], 'the fourth unfinished request under the control');
  },
  'router-cancel-never-effective': async ({ plain, ctl }) => {
    const cancelled = async (ref: RunningReference) => {
      const h = (await (
        await router(ref, '/v2/models/pixelforge/pf-slow/requests', {
          method: 'POST',
          body: JSON.stringify({ prompt: 'cancel me' }),
        })
      ).json()) as { cancel_url: string; status_url: string };
      assert.equal(
        (await fetch(h.cancel_url, { method: 'PUT', headers: { 'X-API-Key': ROUTER_KEYS.alice } })).status,
        202,
      );
      return (
        (await (await fetch(h.status_url, { headers: { 'X-API-Key': ROUTER_KEYS.alice } })).json()) as {
          status: string;
        }
      ).status;
    };
    assert.equal(await cancelled(plain), 'COMPLETED');
    assert.notEqual(await cancelled(ctl), 'COMPLETED', 'a cancelled request still unfinished under the control');
  },
  'router-slow-nondeterministic': async ({ plain, ctl }) => {
    const twice = async (ref: RunningReference) => {
      const run = () =>
        router(ref, '/v2/models/pixelforge/pf-slow', {
          method: 'POST',
          body: JSON.stringify({ prompt: 'a lighthouse' }),
        }).then((r) => r.text());
      return [await run(), await run()];
    };
    const [a, b] = await twice(plain);
    assert.equal(a, b, 'the plain reference answers the same input alike');
    const [c, d] = await twice(ctl);
    assert.notEqual(c, d, 'two runs of the same input differ under the control');
  },
};

// Scenario inputs a control stretches: the embedded reference signs asset urls each second,
// so its targets entry waits 5 s for a fresh one (url_refresh_seconds); a signer that rounds
// to the minute needs the default a real target gets.
const SCENARIO: Partial<Record<ControlName, Record<string, number>>> = {
  'signed-url-minute-expiry': { url_refresh_seconds: 65 },
};

describe('each control is in effect', { concurrency: 1 }, () => {
  const refs = new Map<string, Refs>();
  let plain: RunningReference | undefined;
  before(async () => {
    plain = await startOnFreePorts({});
  });
  after(async () => {
    await plain?.close();
    for (const r of refs.values()) await r.ctl.close();
  });
  for (const control of selected) {
    test(control.name, async () => {
      const ctl = await startOnFreePorts({ control: control.name });
      refs.set(control.name, { plain: plain!, ctl });
      await PROBES[control.name]({ plain: plain!, ctl });
    });
  }
});

// Two or three runs (test/support/harness/). First the plain reference on every test of
// every project, with one reference per worker slot, which records which controls its code
// asked about while serving each test (reference/server.ts onConsult): only there could a
// control change what a test sees. Then each control on the tests of its families (and
// surfaces) that consulted it, a rewrite control on those whose answers it would change
// (reference/controls.ts watchRewrites); another control that acts through hooks
// (installControl), or one no test consulted, on every test of its families. Controls that can share a
// reference run stacked over the union of their tests (test/support/control-stacks.ts); a
// member its stack cannot vouch for runs alone in a third run. Each control's baseline is
// the plain reference's run of the same tests.
const referenceProjects = resolveTarget({}).surfaces.flatMap((s) =>
  familiesOn(s.surface).map((family) => ({ family, surface: s.surface })),
);
const projectsOf = (c: ControlInfo) =>
  referenceProjects.filter(
    (p) => (!c.families || c.families.includes(p.family)) && (!c.surfaces || c.surfaces.includes(p.surface)),
  );
/** The case without a control: what each control's run must judge at least as well. */
const PLAIN = 'no-control';

/** Whether the control acts through response hooks, which see every answer of its families. */
function hooked(name: ControlName): boolean {
  let added = false;
  installControl({ addHook: () => (added = true) } as unknown as FastifyInstance, name);
  return added;
}

interface Selection {
  tests: Map<string, ListedTest[]>;
  keys: Set<string>;
  /** Every test of its families and surfaces. */
  whole: boolean;
  why: string;
}

/** What one control's verdict is read from: its own run, or its tests in its stack's run. */
interface ControlRun {
  report: CaseReport;
  /** Where the report comes from, for messages. */
  from: string;
}

interface ControlsRuns {
  plain: CaseReport;
  runs: Map<string, ControlRun>;
  selections: Map<string, Selection>;
  stacks: Array<Stack & { report: CaseReport }>;
}

/** The tests of a key set, by project, in listing order. */
function testsOfKeys(keys: ReadonlySet<string>, map: SpecMap): Map<string, ListedTest[]> {
  const out = new Map<string, ListedTest[]>();
  for (const [project, list] of map.tests) {
    const mine = list.filter((t) => keys.has(`${project} › ${testKey(t.file, t.titles)}`));
    if (mine.length > 0) out.set(project, mine);
  }
  return out;
}

/** A case's inputs: the control's own scenario (ControlInfo.scenario: the form such a server's user sets) over those it stretches here. */
const scenarioOf = (c: ControlInfo): Record<string, unknown> => ({ ...SCENARIO[c.name as ControlName], ...c.scenario });

const isClean = (r: CaseReport) =>
  r.tests > 0 &&
  failedRules(r).length === 0 &&
  rulesWith(r, 'error').length === 0 &&
  r.unplaced.length === 0 &&
  r.summary.verdict === 'pass';

async function runControls(): Promise<ControlsRuns> {
  const map = await specMap(ROOT);
  const every = (projects: ReadonlyArray<{ family: Family; surface: Surface }>) =>
    new Map(
      projects.map((p) => {
        const name = projectName(p.family, p.surface);
        return [name, map.tests.get(name) ?? []] as const;
      }),
    );
  const seconds = (since: number) => `${Math.round((Date.now() - since) / 1000)} s`;
  const started = Date.now();
  const plainRun = await runCases([{ id: PLAIN, perSlot: true, tests: every(referenceProjects) }], {
    workers: SUITE_WORKERS,
  });
  const took = [`plain ${seconds(started)}`];
  assert.deepEqual(plainRun.runErrors, [], 'errors outside any test of the plain reference run');
  const consulted = plainRun.consulted[PLAIN] ?? {};
  const atStart = new Set(plainRun.consultedAtStart[PLAIN] ?? []);
  const selections = new Map<string, Selection>();
  for (const c of selected) {
    const info: ControlInfo = c;
    const whole = every(projectsOf(info));
    let tests = whole;
    let why = 'rewrites answers through hooks: every test of its families';
    // A control the code asks about, or a rewrite control the plain reference watched, runs
    // where it was asked about; another hook acts on every answer of its families.
    if (!hooked(c.name) || rewriteWatched(c.name)) {
      tests = new Map(
        [...whole].map(
          ([project, list]) =>
            [
              project,
              list.filter((t) => consulted[`${project} › ${testKey(t.file, t.titles)}`]?.includes(c.name)),
            ] as const,
        ),
      );
      why = hooked(c.name)
        ? 'the tests whose answers its hooks would change on the plain reference'
        : 'the tests that consulted it on the plain reference';
      if ([...tests.values()].every((l) => l.length === 0)) {
        tests = whole;
        why = 'consulted by no test of the plain reference: every test of its families';
      }
    }
    const keys = new Set(
      [...tests].flatMap(([project, list]) => list.map((t) => `${project} › ${testKey(t.file, t.titles)}`)),
    );
    selections.set(c.name, { tests, keys, whole: tests === whole, why });
  }
  const candidates = new Map<string, StackCandidate>(
    selected.map((c) => {
      const info: ControlInfo = c;
      const sel = selections.get(c.name)!;
      const isHooked = hooked(c.name);
      return [
        c.name,
        {
          name: c.name,
          keys: sel.keys,
          hooked: isHooked,
          ...(info.exclusive ? { exclusive: info.exclusive } : {}),
          stackable:
            !info.departsFrom?.length &&
            !info.leavesUnjudged?.length &&
            Object.keys(scenarioOf(info)).length === 0 &&
            referenceProjects.every((p) => Object.keys(controlInputs(c.name, p.surface)).length === 0) &&
            (isHooked || (!sel.whole && !atStart.has(c.name))),
        },
      ];
    }),
  );
  const { stacks, alone } = stacksOf([...candidates.values()]);
  const infoOf = (name: string): ControlInfo => selected.find((c) => c.name === name)!;
  const aloneCase = (name: string) => {
    const scenario = scenarioOf(infoOf(name));
    return {
      id: name,
      controls: [name],
      tests: selections.get(name)!.tests,
      ...(Object.keys(scenario).length > 0 ? { scenario } : {}),
    };
  };
  const secondStarted = Date.now();
  const run = await runCases(
    [
      ...stacks.map((s) => ({ id: s.id, controls: s.members, perSlot: true, tests: testsOfKeys(s.keys, map) })),
      ...alone.map(aloneCase),
    ],
    { workers: SUITE_WORKERS },
  );
  assert.deepEqual(run.runErrors, [], 'errors outside any test of the controls run');
  took.push(`stacks and controls alone ${seconds(secondStarted)}`);

  const runs = new Map<string, ControlRun>();
  for (const name of alone) runs.set(name, { report: run.reports.get(name)!, from: 'its own run' });
  const again: string[] = [];
  const credits: string[] = [];
  for (const s of stacks) {
    const whole = run.reports.get(s.id)!;
    for (const name of s.members) {
      const keys = selections.get(name)!.keys;
      const own = caseReport(
        name,
        whole.outcomes.filter((o) => keys.has(o.key)),
        whole.output,
      );
      const credit = creditedFromStack(candidates.get(name)!, isClean(own), run.consulted[s.id] ?? {});
      credits.push(`  ${name} in ${s.id}: ${credit.credited ? '' : 'not credited, run alone: '}${credit.why}`);
      if (credit.credited) runs.set(name, { report: own, from: `${s.id} (with ${s.members.join(', ')})` });
      else again.push(name);
    }
  }
  if (again.length > 0) {
    const thirdStarted = Date.now();
    const third = await runCases(again.map(aloneCase), { workers: SUITE_WORKERS });
    took.push(`run again alone ${seconds(thirdStarted)}`);
    assert.deepEqual(
      third.runErrors,
      [],
      'errors outside any test of the run of controls their stacks did not vouch for',
    );
    for (const name of again)
      runs.set(name, { report: third.reports.get(name)!, from: 'its own run (after its stack)' });
  }

  const narrowed = [...selections.values()].filter((x) => !x.whole);
  const stackedTests = stacks.reduce((n, s) => n + s.keys.size, 0);
  const memberTests = stacks.reduce((n, s) => n + s.members.reduce((m, c) => m + selections.get(c)!.keys.size, 0), 0);
  console.log(
    `controls: plain reference ${plainRun.reports.get(PLAIN)!.tests} tests; ` +
      `${selections.size - narrowed.length} controls on every test of their families, ` +
      `${narrowed.length} on the tests that consulted them ` +
      `(${narrowed.reduce((n, x) => n + x.keys.size, 0)} tests); ` +
      `${stacks.length} stacks of ${stacks.reduce((n, s) => n + s.members.length, 0)} controls ran ${stackedTests} tests ` +
      `for their members' ${memberTests}; ${again.length} run again alone; ` +
      `${run.projects + plainRun.projects} Playwright projects, ` +
      `${run.referenceStarts + plainRun.referenceStarts} references started; ${took.join(', ')}`,
  );
  for (const [name, x] of selections) console.log(`  ${name}: ${x.keys.size} tests, ${x.why}`);
  for (const line of credits) console.log(line);
  return {
    plain: plainRun.reports.get(PLAIN)!,
    runs,
    selections,
    stacks: stacks.map((s) => ({ ...s, report: run.reports.get(s.id)! })),
  };
}
let runs: ReturnType<typeof runControls> | undefined;
const controlRuns = () => (runs ??= runControls());
// The runs start now, beside the probes above (which mostly wait on their references); a
// failure of theirs is reported by every test that reads them.
controlRuns().catch(() => undefined);

// The plain reference, the baseline of every control, is itself judged as the correct server:
// every rule it can judge passes on evidence, nothing errors, and each rule it does not judge says why.
test('the suite passes the correct reference on evidence, with a reason for every rule it does not judge', async () => {
  const { plain } = await controlRuns();
  assert.deepEqual(failedRules(plain), [], `rules failed on the correct reference:\n${plain.output}`);
  assert.deepEqual(
    rulesWith(plain, 'error'),
    [],
    `rules the suite could not judge on the correct reference:\n${plain.output}`,
  );
  assert.deepEqual(plain.unplaced, []);
  assert.equal(plain.summary.verdict, 'pass', plain.output);
  assertJudgedOnEvidence(plain, 'the reference');
  const without = rulesWithoutFault(plain.rules);
  console.log(`rules without a reference fault (${without.length}): ${without.map((r) => r.id).join(', ') || 'none'}`);
});

// A server may do several legal things at once: each stack's whole run is clean, not only
// each member's own tests in it (an alarm only the combination raises is the suite's).
test('controls run together on one reference raise no alarm as a whole', async () => {
  const { stacks } = await controlRuns();
  for (const s of stacks)
    assert.ok(
      isClean(s.report),
      `${s.id} (${s.members.join(', ')}): failed ${failedRules(s.report).join(', ') || 'none'}, ` +
        `errors ${rulesWith(s.report, 'error').join(', ') || 'none'}:\n${s.report.output}`,
    );
});

describe('the suite raises no alarm on a correct server with harmless variations', { concurrency: true }, () => {
  for (const control of selected) {
    test(`${control.name}: ${control.description}`, async () => {
      let clean = false;
      try {
        const { plain, runs: verdicts, selections } = await controlRuns();
        const { report, from } = verdicts.get(control.name)!;
        const picked = selections.get(control.name)!;
        const selection = { ...picked, why: `${picked.why}; read from ${from}` };
        assert.equal(plain.summary.verdict, 'pass', `the plain reference, run beside the controls:\n${plain.output}`);
        // A control may depart from SHOULD rules that rest on public documents only: exactly those fail, and the run still passes.
        const departs = [...((control as ControlInfo).departsFrom ?? [])].sort();
        for (const id of departs)
          assert.ok(
            ruleOrThrow(id).level === 'SHOULD' && ruleOrThrow(id).source !== 'seed',
            `${control.name} departs from ${id}, which is not a SHOULD rule resting on public docs or an assumption`,
          );
        assert.ok(report.tests > 0, `control ${control.name} ran no test (${selection.why})`);
        assert.deepEqual(
          failedRules(report),
          departs,
          `rules failed under control ${control.name} (${selection.why}):\n${report.output}`,
        );
        assert.deepEqual(
          rulesWith(report, 'error'),
          [],
          `rules the suite could not judge under control ${control.name}:\n${report.output}`,
        );
        assert.deepEqual(report.unplaced, []);
        assert.equal(report.summary.verdict, 'pass', report.output);
        const info: ControlInfo = control;
        for (const id of info.leavesUnjudged ?? []) ruleOrThrow(id);
        // Judged as the suite's whole run of its families under the control: the tests that
        // consulted it as they ran under it, every other test as the plain reference ran it
        // (the control never came near it). The baseline is the plain run of the same tests:
        // a rule the plain reference passes there must pass here too, on evidence.
        const projects = new Set(projectsOf(info).map((p) => projectName(p.family, p.surface)));
        const mine = plain.outcomes.filter((o) => projects.has(o.key.split(' › ')[0]));
        const untouched = mine.filter((o) => !selection.keys.has(o.key));
        assertJudgedOnEvidence(
          { rules: matrixOf([...report.outcomes, ...untouched]).rows },
          `control ${control.name} (${selection.why})`,
          {
            families: info.families,
            surfaces: info.surfaces,
            departed: departs,
            leavesUnjudged: info.leavesUnjudged ?? [],
            baseline: { rules: matrixOf(mine).rows },
          },
        );
        clean = true;
      } finally {
        recordScore({ kind: 'control', name: control.name, ok: clean });
      }
    });
  }
});
