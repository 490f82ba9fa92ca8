// Never cry wolf: the reference under each harmless variation (reference/controls.ts)
// is still a correct server, so the whole suite (every project) passes it: no rule
// fails, nothing errors, and the run exits 0. A probe first shows each control is in
// effect, so a clean run is not a control that did nothing.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { CONTROLS, EXTRA_MEMBER, UNKNOWN_BUCKET, type ControlInfo, type ControlName } from '../../reference/controls.ts';
import { CLOUD_KEYS, ROUTER_KEYS } from '../../reference/accounts.ts';
import { streamUrl, WsSession } from '../../lib/ws/session.ts';
import type { TextMessage } from '../../lib/ws/schemas.ts';
import { startReference, type RunningReference } from '../../reference/server.ts';
import { failedRules, rulesWith } from '../support/run-suite.ts';
import { runBatch, type CaseReport } from '../support/batch/run.ts';
import { resolveTarget } from '../../lib/targets.ts';
import { familiesOn } from '../../lib/families.ts';
import { freePortBase } from '../support/ports.ts';
import { assertJudgedOnEvidence } from '../support/judged.ts';
import { pollUntil } from '../../lib/time.ts';
import { recordScore } from '../support/score.ts';
import { SUITE_WORKERS } from '../support/concurrency.ts';

const only = new Set((process.env.CONTROLS ?? '').split(',').filter(Boolean));
const selected = CONTROLS.filter((c) => only.size === 0 || only.has(c.name));

type Refs = { plain: RunningReference; ctl: RunningReference };
const router = (ref: RunningReference, path: string, init: RequestInit = {}) =>
  fetch(`${ref.surfaces.router}${path}`, { ...init, headers: { 'X-API-Key': ROUTER_KEYS.alice, 'content-type': 'application/json', ...(init.headers ?? {}) } });
const catalogPage = async (ref: RunningReference) => (await (await router(ref, '/v2/models?limit=1')).json()) as Record<string, unknown>;
const SLOW_JOB = {
  workflow: {
    '1': { class_type: 'EmptyImage', inputs: { width: 4, height: 4, batch_size: 1, color: 0 } },
    '2': { class_type: 'Sleep', inputs: { seconds: 2, image: ['1', 0] } },
    '3': { class_type: 'SaveImage', inputs: { images: ['2', 0], filename_prefix: 'control' } },
  },
};

const v1 = (ref: RunningReference, path: string, init: RequestInit = {}) =>
  fetch(`${ref.surfaces.cloud}${path}`, { ...init, headers: { 'X-API-Key': CLOUD_KEYS.alice, 'content-type': 'application/json', ...(init.headers ?? {}) } });
/** Runs a v1 prompt on a fresh connection and returns its messages and the binary frame types seen. */
async function v1Run(ref: RunningReference, prompt: object, announce = true): Promise<{ messages: TextMessage[]; frameTypes: Array<number | string> }> {
  const session = await WsSession.open(streamUrl(ref.surfaces.cloud, CLOUD_KEYS.alice), undefined, { announcePreviewMetadata: announce });
  try {
    const res = await v1(ref, '/api/prompt', { method: 'POST', body: JSON.stringify({ prompt }) });
    const { prompt_id } = (await res.json()) as { prompt_id: string };
    const stream = await session.streamOf(prompt_id, 20_000);
    return { messages: stream.messages, frameTypes: session.frames().map((f) => f.frame_type) };
  } finally {
    session.close();
  }
}
const PREVIEW = { '1': { class_type: 'EmptyImage', inputs: { width: 4, height: 4, batch_size: 1, color: 7 } }, '2': { class_type: 'PreviewImage', inputs: { images: ['1', 0] } } };

// What each control visibly changes on a response of the reference.
const PROBES: Record<ControlName, (r: Refs) => Promise<void>> = {
  'extra-fields': async ({ ctl }) => {
    const page = await catalogPage(ctl);
    assert.ok(EXTRA_MEMBER in page, 'an unknown member on the page');
    assert.ok(EXTRA_MEMBER in (page.data as Array<Record<string, unknown>>)[0]!, 'and on the nested entry');
  },
  'reordered-keys': async ({ plain, ctl }) => {
    assert.deepEqual(Object.keys(await catalogPage(ctl)), Object.keys(await catalogPage(plain)).reverse());
  },
  'extra-headers': async ({ ctl }) => {
    assert.equal((await router(ctl, '/v2/models?limit=1')).headers.get('x-reference-control'), 'extra-headers');
  },
  'unknown-in-flight-status': async ({ ctl }) => {
    const res = await fetch(`${ctl.surfaces.local}/api/v2/jobs`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(SLOW_JOB) });
    const job = (await res.json()) as { status: string };
    assert.match(job.status, /_reference_control$/, 'an in-flight status the suite does not know');
  },
  'unknown-error-bucket': async ({ ctl }) => {
    const big = JSON.stringify({ prompt: 'x'.repeat(2 * 1024 * 1024) });
    const model = ((await catalogPage(ctl)).data as Array<{ id: string }>)[0]!.id;
    const res = await router(ctl, `/v2/models/${model}`, { method: 'POST', body: big });
    assert.equal(res.status, 413);
    assert.equal(res.headers.get('x-comfy-error-type'), UNKNOWN_BUCKET);
    assert.equal(((await res.json()) as { error_type: string }).error_type, UNKNOWN_BUCKET);
  },
  'retry-after-varied': async ({ plain, ctl }) => {
    // The limited caller's allowance runs out within a burst; both servers answer 429 with Retry-After.
    const burst = async (ref: RunningReference) => {
      for (let i = 0; i < 20; i++) {
        const res = await fetch(`${ref.surfaces.router}/v2/models?limit=1`, { headers: { 'X-API-Key': ROUTER_KEYS.limited } });
        if (res.status === 429) return Number(res.headers.get('retry-after'));
      }
      return undefined;
    };
    const [p, c] = [await burst(plain), await burst(ctl)];
    assert.ok(p !== undefined && c !== undefined, 'both answered 429');
    assert.ok(c > p, `Retry-After ${c} under the control, ${p} without`);
  },
  'ws-cached-nodes': async ({ ctl }) => {
    const prompt = { '1': { class_type: 'EmptyImage', inputs: { width: 4, height: 4, batch_size: 1, color: 9 } }, '2': { class_type: 'SaveImage', inputs: { images: ['1', 0], filename_prefix: 'control-cached' } } };
    await v1Run(ctl, prompt);
    const { messages } = await v1Run(ctl, prompt);
    assert.deepEqual(messages.find((m) => m.type === 'execution_cached')?.data.nodes, ['1', '2']);
    assert.ok(!messages.some((m) => m.type === 'executing' && m.data.node != null), 'no node executing');
    assert.ok(messages.some((m) => m.type === 'executed' && m.data.node === '2'), 'the cached output node still gets executed');
  },
  'ws-final-executing-after-success': async ({ ctl }) => {
    const types = (await v1Run(ctl, PREVIEW)).messages.map((m) => (m.type === 'executing' && m.data.node == null ? 'final' : m.type));
    assert.ok(types.indexOf('final') > types.indexOf('execution_success'), types.join(' '));
  },
  'ws-previews-without-metadata': async ({ plain, ctl }) => {
    assert.deepEqual((await v1Run(plain, PREVIEW, true)).frameTypes, [4], 'the reference sends type 4 to a client that announced it');
    assert.deepEqual((await v1Run(plain, PREVIEW, false)).frameTypes, [1], 'and type 1 to one that did not');
    assert.deepEqual((await v1Run(ctl, PREVIEW, true)).frameTypes, [1], 'under the control, type 1 to every client');
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
    const upload = (ref: RunningReference, filePath: string) => {
      const form = new FormData();
      form.append('content_type', 'image/png');
      form.append('file_path', filePath);
      form.append('file', new Blob([Buffer.from(`control ${Math.random()}`)], { type: 'image/png' }), 'x.png');
      return fetch(`${ref.surfaces.local}/api/v2/assets`, { method: 'POST', body: form });
    };
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
    const created = (await (await fetch(`${ctl.surfaces.local}/api/v2/assets`, { method: 'POST', body: form })).json()) as { id: string; hash: unknown };
    assert.equal(created.hash, null, 'null at first');
    const filled = await pollUntil(async () => {
      const read = (await (await fetch(`${ctl.surfaces.local}/api/v2/assets/${created.id}`)).json()) as { hash: unknown };
      return read.hash === null ? undefined : read.hash;
    }, { deadlineMs: 5_000, intervalMs: 100 });
    assert.match(String(filled), /^blake3:[0-9a-f]{64}$/, 'filled a moment later');
  },
};

describe('each control is in effect', { concurrency: 1 }, () => {
  const refs = new Map<string, Refs>();
  let plain: RunningReference | undefined;
  before(async () => {
    plain = await startReference({ portBase: await freePortBase() });
  });
  after(async () => {
    await plain?.close();
    for (const r of refs.values()) await r.ctl.close();
  });
  for (const control of selected) {
    test(control.name, async () => {
      const ctl = await startReference({ portBase: await freePortBase(), control: control.name });
      refs.set(control.name, { plain: plain!, ctl });
      await PROBES[control.name]({ plain: plain!, ctl });
    });
  }
});

// Every control's whole suite in one batched run (test/support/batch/): each control
// against its own reference, on every project of the families it varies; one matrix each.
const referenceProjects = resolveTarget({}).surfaces.flatMap((s) => familiesOn(s.surface).map((family) => ({ family, surface: s.surface })));
const projectsOf = (c: ControlInfo) => referenceProjects.filter((p) => !c.families || c.families.includes(p.family));
let batch: Promise<Map<string, CaseReport>> | undefined;
const runControls = () => (batch ??= runBatch(selected.map((c) => ({ id: c.name, control: c.name, projects: projectsOf(c), files: [] })), { workers: SUITE_WORKERS }));

describe('the suite raises no alarm on a correct server with harmless variations', { concurrency: true }, () => {
  for (const control of selected) {
    test(`${control.name}: ${control.description}`, async () => {
      let clean = false;
      try {
        const report = (await runControls()).get(control.name)!;
        assert.deepEqual(failedRules(report), [], `rules failed under control ${control.name}:\n${report.output}`);
        assert.deepEqual(rulesWith(report, 'error'), [], `rules the suite could not judge under control ${control.name}:\n${report.output}`);
        assert.deepEqual(report.unplaced, []);
        assert.equal(report.summary.verdict, 'pass', report.output);
        assertJudgedOnEvidence(report, `control ${control.name}`, (control as ControlInfo).families);
        clean = true;
      } finally {
        recordScore({ kind: 'control', name: control.name, ok: clean });
      }
    });
  }
});
