import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createCatalog, defaultCatalog, objectInfo } from '../../reference/engine/catalog.ts';
import { decodePng, encodePng } from '../../reference/engine/png.ts';
import { craftPng, harness, image, label, runJob } from './helpers.ts';

const ASSET = '9f8a1c0d-2b3e-4f56-8a7b-1c2d3e4f5a6b';

test('object_info describes every class in the v1 NodeInfo shape', () => {
  const info = objectInfo();
  const names = [
    'LoadImage',
    'EmptyImage',
    'ImageInvert',
    'SaveImage',
    'PreviewImage',
    'Sleep',
    'FailNode',
    'BrowserWaitNode',
    'PartnerImageNode',
    'TextOutput',
  ];
  assert.deepEqual(Object.keys(info).sort(), [...names].sort());
  for (const n of names) {
    const i = info[n];
    for (const k of [
      'input',
      'input_order',
      'output',
      'output_is_list',
      'output_name',
      'name',
      'display_name',
      'description',
      'python_module',
      'category',
      'output_node',
      'output_tooltips',
      'deprecated',
      'experimental',
      'api_node',
    ]) {
      assert.ok(k in i, `${n}.${k}`);
    }
    assert.equal(i.name, n);
    assert.equal(typeof i.input.required, 'object');
    assert.deepEqual(i.input_order.required, Object.keys(i.input.required));
    assert.equal(i.output.length, i.output_is_list.length);
    assert.equal(i.output.length, i.output_name.length);
  }
  assert.deepEqual(info.EmptyImage.input.required.width, ['INT', { default: 64, min: 1, max: 4096, step: 1 }]);
  assert.deepEqual(info.EmptyImage.input_order.optional, ['color']);
  assert.deepEqual(info.Sleep.input.required.seconds?.[0], 'FLOAT');
  assert.equal(info.SaveImage.output_node, true);
  assert.equal(info.PartnerImageNode.api_node, true);
  assert.equal(info.ImageInvert.api_node, false);
  assert.deepEqual(info.ImageInvert.output, ['IMAGE']);
  // LoadImage's combo lists the account's uploaded files when given.
  assert.deepEqual(objectInfo(defaultCatalog(), { inputFiles: ['b.png', 'a.png'] }).LoadImage.input.required.image, [
    ['a.png', 'b.png'],
    { image_upload: true, tooltip: 'An uploaded input file name, or a v2 asset reference.' },
  ]);
  assert.deepEqual(JSON.parse(JSON.stringify(info)), info, 'plain JSON');
});

test('the catalog flags partner and browser-waiting classes', () => {
  const c = createCatalog();
  assert.equal(c.get('PartnerImageNode')?.apiNode, true);
  assert.equal(c.get('BrowserWaitNode')?.waitsForBrowser, true);
  assert.equal(c.get('Nope'), undefined);
  assert.match(
    createCatalog({ partnerKeyField: 'api_key_acme_org' }).get('PartnerImageNode')!.description,
    /api_key_acme_org/,
  );
});

test('LoadImage (uploaded file and asset) -> ImageInvert -> SaveImage really inverts the pixels', async () => {
  const h = harness();
  const src = image(5, 4, 4, 3);
  h.host.addInput('alice', 'photo.png', craftPng(src, { filter: (y) => y % 5 }));
  h.host.addAsset('alice', ASSET, encodePng(src));
  for (const source of ['photo.png', { __type: 'core/ASSET', info: { id: ASSET } }]) {
    h.host.stored.length = 0;
    const { state } = await runJob(h, `job-${typeof source}`, {
      '1': { class_type: 'LoadImage', inputs: { image: source } },
      '2': { class_type: 'ImageInvert', inputs: { image: ['1', 0] } },
      '3': { class_type: 'SaveImage', inputs: { images: ['2', 0], filename_prefix: 'inv' } },
    });
    assert.equal(state.status, 'succeeded');
    assert.equal(h.host.stored.length, 1);
    const call = h.host.stored[0];
    assert.equal(call.kind, 'output');
    assert.equal(call.filenamePrefix, 'inv');
    assert.equal(call.nodeId, '3');
    const out = decodePng(call.png);
    assert.equal(out.channels, 4);
    for (let i = 0; i < src.data.length; i++)
      assert.equal(out.data[i], i % 4 === 3 ? src.data[i] : 255 - src.data[i], `byte ${i}`);
    assert.deepEqual(
      state.outputs.map((o) => [o.nodeId, o.type, o.filename]),
      [['3', 'output', 'inv_00001_.png']],
    );
  }
});

test('LoadImage fails at run time when the file vanished or is not a decodable PNG', async () => {
  const h = harness();
  h.host.addInput('alice', 'grey.png', craftPng(image(2, 2, 3), { colorType: 0 }));
  const bad = await runJob(h, 'bad', { '1': { class_type: 'LoadImage', inputs: { image: 'grey.png' } } });
  assert.equal(bad.state.status, 'failed');
  assert.equal(bad.state.failure?.exception_type, 'ValueError');
  assert.match(bad.state.failure?.exception_message ?? '', /colour type 0/);
  const gone = await runJob(h, 'gone', { '1': { class_type: 'LoadImage', inputs: { image: 'gone.png' } } });
  assert.equal(gone.state.failure?.exception_type, 'FileNotFoundError');
  assert.equal(gone.state.failure?.node_id, '1');
});

test('EmptyImage makes a solid colour; PreviewImage stores a temp output and sends a preview', async () => {
  const h = harness();
  const { events, state } = await runJob(h, 'p', {
    '1': { class_type: 'EmptyImage', inputs: { width: 3, height: 2, color: 0x102030 } },
    '2': { class_type: 'PreviewImage', inputs: { images: ['1', 0] } },
  });
  assert.equal(state.status, 'succeeded');
  const call = h.host.stored[0];
  assert.equal(call.kind, 'temp');
  const img = decodePng(call.png);
  assert.deepEqual([img.width, img.height, img.channels], [3, 2, 3]);
  assert.deepEqual([...img.data.subarray(0, 6)], [0x10, 0x20, 0x30, 0x10, 0x20, 0x30]);
  const preview = events.find((e) => e.kind === 'preview');
  assert.ok(preview && preview.kind === 'preview');
  assert.deepEqual(Buffer.from(preview.png), Buffer.from(call.png));
  assert.equal(state.lastPreview?.node, '2');
  assert.deepEqual(events.map(label).slice(-6), [
    'progress:2',
    'preview:2',
    'executed:2',
    'executing:null',
    'execution_success',
    'status:succeeded',
  ]);
  const executed = events.find((e) => e.kind === 'executed');
  assert.ok(executed?.kind === 'executed' && executed.outputs[0]?.type === 'temp');
});

test('Sleep reports each step, previews its image after the first step and passes the image through', async () => {
  const h = harness();
  const { events, state } = await runJob(h, 's', {
    '1': { class_type: 'EmptyImage', inputs: { width: 2, height: 2, color: 0xffffff } },
    '2': { class_type: 'Sleep', inputs: { seconds: 0.08, steps: 4, image: ['1', 0] } },
    '3': { class_type: 'ImageInvert', inputs: { image: ['2', 0] } },
    '4': { class_type: 'SaveImage', inputs: { images: ['3', 0] } },
  });
  assert.equal(state.status, 'succeeded');
  const sleepProgress = events.filter((e) => e.kind === 'progress' && e.node === '2');
  assert.deepEqual(
    sleepProgress.map((e) => (e.kind === 'progress' ? [e.value, e.max] : [])),
    [
      [1, 4],
      [2, 4],
      [3, 4],
      [4, 4],
    ],
  );
  const values = events.flatMap((e) => (e.kind === 'progress' ? [e.progress.value] : []));
  for (let i = 1; i < values.length; i++) assert.ok(values[i] >= values[i - 1], 'progress never goes back');
  assert.equal(values[values.length - 1], 1);
  const p2 = sleepProgress[1];
  assert.ok(p2?.kind === 'progress');
  assert.deepEqual(p2.progress, {
    value: (1 + 2 / 4) / 4,
    nodes_done: 1,
    nodes_total: 4,
    current_node: '2',
    current_node_class: 'Sleep',
    step: 2,
    steps: 4,
  });
  const seq = events.map(label).filter((l) => l.endsWith(':2'));
  assert.deepEqual(seq, ['executing:2', 'progress:2', 'preview:2', 'progress:2', 'progress:2', 'progress:2']);
  assert.deepEqual(
    [...decodePng(h.host.stored[0].png).data],
    new Array(12).fill(0),
    'white passed through Sleep, then inverted',
  );
  // Without an image, Sleep returns a 1x1 image.
  const alone = await runJob(h, 's2', {
    '1': { class_type: 'Sleep', inputs: { seconds: 0, steps: 1 } },
    '2': { class_type: 'SaveImage', inputs: { images: ['1', 0] } },
  });
  assert.equal(alone.state.status, 'succeeded');
  assert.deepEqual([decodePng(h.host.stored[1].png).width, decodePng(h.host.stored[1].png).height], [1, 1]);
});

test('FailNode fails the job with a RuntimeError carrying node id, class, message and traceback', async () => {
  const h = harness();
  const { state } = await runJob(h, 'f', { '5': { class_type: 'FailNode', inputs: { message: 'kaput' } } });
  assert.equal(state.status, 'failed');
  assert.deepEqual(
    { ...state.failure, traceback: undefined },
    {
      node_id: '5',
      class_type: 'FailNode',
      exception_type: 'RuntimeError',
      exception_message: 'kaput',
      traceback: undefined,
    },
  );
  assert.ok(state.failure!.traceback.length >= 2);
  assert.equal(state.failure!.traceback[state.failure!.traceback.length - 1], 'RuntimeError: kaput');
});

test('BrowserWaitNode cannot run: refused at submit, and throws if executed anyway', async () => {
  const h = harness();
  assert.equal(
    h.executor.validate({ '1': { class_type: 'BrowserWaitNode', inputs: {} } }, 'alice')?.details?.node_errors?.['1']
      ?.errors[0]?.type,
    'waits_for_browser',
  );
  const { state } = await runJob(h, 'b', { '1': { class_type: 'BrowserWaitNode', inputs: {} } });
  assert.equal(state.status, 'failed');
  assert.match(state.failure?.exception_message ?? '', /browser/);
});

test('PartnerImageNode needs the partner key in extra_data; with it, it produces an image', async () => {
  const h = harness();
  const wf = {
    '1': { class_type: 'PartnerImageNode', inputs: { prompt: 'a red fox', width: 8, height: 4 } },
    '2': { class_type: 'SaveImage', inputs: { images: ['1', 0] } },
  };
  const without = await runJob(h, 'no-key', wf);
  assert.equal(without.state.status, 'failed');
  assert.equal(without.state.failure?.node_id, '1');
  assert.equal(without.state.failure?.class_type, 'PartnerImageNode');
  assert.match(without.state.failure?.exception_message ?? '', /partner key is missing.*api_key_comfy_org/);
  assert.equal(h.host.stored.length, 0);

  const withKey = await runJob(h, 'key', wf, { api_key_comfy_org: 'comfyui-secret' });
  assert.equal(withKey.state.status, 'succeeded');
  const img = decodePng(h.host.stored[0].png);
  assert.deepEqual([img.width, img.height], [8, 4]);
  assert.ok(!JSON.stringify(withKey.events.map(label)).includes('comfyui-secret'));

  // The field name is configurable (brand-lowercased), on the catalog or the executor.
  const acme = harness({ catalogKeyField: 'api_key_acme_org' });
  assert.equal((await runJob(acme, 'a1', wf, { api_key_comfy_org: 'k' })).state.status, 'failed');
  assert.equal((await runJob(acme, 'a2', wf, { api_key_acme_org: 'k' })).state.status, 'succeeded');
  const override = harness({ partnerKeyField: 'api_key_other_org' });
  assert.equal((await runJob(override, 'o1', wf, { api_key_other_org: 'k' })).state.status, 'succeeded');
});

test('TextOutput emits a text event and an executed event without stored outputs', async () => {
  const h = harness();
  const { events, state } = await runJob(h, 't', { '1': { class_type: 'TextOutput', inputs: { text: 'héllo' } } });
  assert.equal(state.status, 'succeeded');
  const text = events.find((e) => e.kind === 'text');
  assert.ok(text?.kind === 'text');
  assert.deepEqual([text.node, text.text], ['1', 'héllo']);
  const executed = events.find((e) => e.kind === 'executed');
  assert.ok(executed?.kind === 'executed');
  assert.deepEqual(executed.outputs, []);
  assert.deepEqual(state.outputs, []);
});
