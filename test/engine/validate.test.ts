import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createCatalog } from '../../reference/engine/catalog.ts';
import { compareNodeIds, validateWorkflow, type ValidateOptions } from '../../reference/engine/validate.ts';
import type { NodeErrorType, Refusal } from '../../reference/engine/types.ts';

const catalog = createCatalog();
const ASSET = '9f8a1c0d-2b3e-4f56-8a7b-1c2d3e4f5a6b';
const opts: ValidateOptions = {
  catalog,
  assetExists: (id) => id === ASSET,
  inputFileExists: (name) => name === 'photo.png',
};
const validate = (w: unknown): Refusal | undefined => validateWorkflow(w, opts);

const good = {
  '1': { class_type: 'LoadImage', inputs: { image: 'photo.png' } },
  '2': { class_type: 'ImageInvert', inputs: { image: ['1', 0] } },
  '3': { class_type: 'SaveImage', inputs: { images: ['2', 0], filename_prefix: 'out' } },
};

function onlyError(r: Refusal | undefined, nodeId: string): { type: NodeErrorType; message: string; details?: string } {
  assert.equal(r?.code, 'invalid_workflow');
  const entry = r.details?.node_errors?.[nodeId];
  assert.ok(entry, `node ${nodeId} named`);
  assert.equal(entry.errors.length, 1, JSON.stringify(entry));
  return entry.errors[0];
}

test('a valid workflow passes, including numeric link ids and every class with its optional inputs', () => {
  assert.equal(validate(good), undefined);
  assert.equal(
    validate({
      '1': { class_type: 'EmptyImage', inputs: { width: 8, height: 8, color: 0xff0000 } },
      '2': { class_type: 'Sleep', inputs: { seconds: 0.5, image: [1, 0], steps: 3 } },
      '3': { class_type: 'PreviewImage', inputs: { images: ['2', 0] } },
      '4': { class_type: 'PartnerImageNode', inputs: { prompt: 'a cat', width: 16 } },
      '5': { class_type: 'TextOutput', inputs: { text: 'hi' } },
      '6': { class_type: 'FailNode', inputs: { message: 'boom' }, _meta: { title: 'x' } },
      '7': {
        class_type: 'LoadImage',
        inputs: { image: { __type: 'core/ASSET', info: { id: ASSET, file_path: 'a.png' } } },
      },
    }),
    undefined,
  );
});

test('not an object, an array, null or an empty workflow: invalid_workflow without node_errors', () => {
  for (const w of [null, 'x', 42, [], [good['1']], {}]) {
    const r = validate(w);
    assert.equal(r?.code, 'invalid_workflow', JSON.stringify(w));
    assert.equal(r.details, undefined);
  }
});

test('the interface (UI) format is refused with workflow_format_ui', () => {
  const r = validate({ last_node_id: 3, nodes: [{ id: 1, type: 'LoadImage' }], links: [], version: 0.4 });
  assert.equal(r?.code, 'workflow_format_ui');
  assert.equal(r.details, undefined);
});

test('invalid_node: a node that is not an object, or whose inputs is not an object', () => {
  assert.equal(onlyError(validate({ '1': 5 }), '1').type, 'invalid_node');
  assert.equal(validate({ '1': 5 })?.details?.node_errors?.['1']?.class_type, '');
  assert.equal(onlyError(validate({ '1': { class_type: 'ImageInvert', inputs: 'x' } }), '1').type, 'invalid_node');
  assert.equal(onlyError(validate({ '1': { class_type: 'ImageInvert' } }), '1').type, 'invalid_node');
  assert.equal(
    validate({ '1': { class_type: 'ImageInvert', inputs: [] } })?.details?.node_errors?.['1']?.class_type,
    'ImageInvert',
  );
});

test('invalid_class_type: class_type missing or not a string', () => {
  for (const node of [{ inputs: {} }, { class_type: 42, inputs: {} }, { class_type: '', inputs: {} }]) {
    assert.equal(onlyError(validate({ '7': node }), '7').type, 'invalid_class_type');
  }
});

test('unknown_node_class lists the class; waits_for_browser lists the browser classes', () => {
  const u = validate({ ...good, '9': { class_type: 'KSampler', inputs: {} } });
  assert.equal(onlyError(u, '9').type, 'unknown_node_class');
  assert.deepEqual(u?.details?.unknown_node_classes, ['KSampler']);
  assert.equal(u?.details?.node_errors?.['9']?.class_type, 'KSampler');
  assert.equal(Object.keys(u?.details?.node_errors ?? {}).length, 1);

  const b = validate({ ...good, '4': { class_type: 'BrowserWaitNode', inputs: { image: ['2', 0] } } });
  assert.equal(onlyError(b, '4').type, 'waits_for_browser');
  assert.deepEqual(b?.details?.browser_wait_node_classes, ['BrowserWaitNode']);
  assert.equal(b?.details?.unknown_node_classes, undefined);
  assert.equal(b?.details?.node_errors_truncated, undefined);
});

test('invalid_inputs names the input: missing, wrong type, out of range, bad links, missing file', () => {
  const cases: Array<[Record<string, unknown>, string, string, RegExp]> = [
    [{ '1': { class_type: 'EmptyImage', inputs: { height: 4 } } }, '1', 'width', /missing/],
    [{ '1': { class_type: 'EmptyImage', inputs: { width: '4', height: 4 } } }, '1', 'width', /integer/],
    [{ '1': { class_type: 'EmptyImage', inputs: { width: 4.5, height: 4 } } }, '1', 'width', /integer/],
    [{ '1': { class_type: 'EmptyImage', inputs: { width: 4, height: 5000 } } }, '1', 'height', /maximum 4096/],
    [{ '1': { class_type: 'EmptyImage', inputs: { width: 0, height: 4 } } }, '1', 'width', /minimum 1/],
    [{ '1': { class_type: 'EmptyImage', inputs: { width: 4, height: 4, color: 0x1000000 } } }, '1', 'color', /maximum/],
    [{ '1': { class_type: 'Sleep', inputs: { seconds: 31 } } }, '1', 'seconds', /maximum 30/],
    [{ '1': { class_type: 'Sleep', inputs: { seconds: 1, steps: 0 } } }, '1', 'steps', /minimum 1/],
    [{ '1': { class_type: 'TextOutput', inputs: { text: 5 } } }, '1', 'text', /string/],
    [{ '1': { class_type: 'ImageInvert', inputs: { image: 'photo.png' } } }, '1', 'image', /link/],
    [{ '1': { class_type: 'ImageInvert', inputs: { image: ['9', 0] } } }, '1', 'image', /node 9, which does not exist/],
    [{ ...good, '2': { class_type: 'ImageInvert', inputs: { image: ['1', 1] } } }, '2', 'image', /output 1 of node 1/],
    [{ ...good, '4': { class_type: 'ImageInvert', inputs: { image: ['3', 0] } } }, '4', 'image', /0 output/],
    [{ '1': { class_type: 'LoadImage', inputs: { image: 'nope.png' } } }, '1', 'image', /no uploaded input file/],
    [{ '1': { class_type: 'LoadImage', inputs: { image: ['2', 0] } }, '2': good['1'] }, '1', 'image', /file name/],
    [{ '1': { class_type: 'LoadImage', inputs: { image: { id: ASSET } } } }, '1', 'image', /core\/ASSET/],
  ];
  for (const [w, node, input, re] of cases) {
    const e = onlyError(validate(w), node);
    assert.equal(e.type, 'invalid_inputs', JSON.stringify(w));
    assert.equal(e.details, input, JSON.stringify(w));
    assert.match(e.message, re);
  }
  // Several bad inputs on one node are all reported, each naming its input.
  const many = validate({ '1': { class_type: 'EmptyImage', inputs: { width: -1 } } });
  assert.deepEqual(
    many?.details?.node_errors?.['1']?.errors.map((e) => e.details),
    ['width', 'height'],
  );
});

test('a dependency cycle is refused as invalid_inputs on the nodes of the cycle', () => {
  const r = validate({
    '1': { class_type: 'ImageInvert', inputs: { image: ['2', 0] } },
    '2': { class_type: 'ImageInvert', inputs: { image: ['1', 0] } },
    '3': { class_type: 'SaveImage', inputs: { images: ['2', 0] } },
  });
  assert.equal(r?.code, 'invalid_workflow');
  assert.deepEqual(Object.keys(r.details?.node_errors ?? {}), ['1', '2']);
  assert.equal(r.details?.node_errors?.['1']?.errors[0]?.type, 'invalid_inputs');
  assert.equal(r.details?.node_errors?.['1']?.errors[0]?.details, 'image');
  const self = validate({ '1': { class_type: 'ImageInvert', inputs: { image: ['1', 0] } } });
  assert.equal(onlyError(self, '1').type, 'invalid_inputs');
});

test('missing_asset: an unknown or malformed asset reference, checked only when there are no node errors', () => {
  const ref = (id: unknown): Record<string, unknown> => ({
    '1': { class_type: 'LoadImage', inputs: { image: { __type: 'core/ASSET', info: { id } } } },
    '2': { class_type: 'SaveImage', inputs: { images: ['1', 0] } },
  });
  assert.equal(validate(ref(ASSET)), undefined);
  const missing = validate(ref('00000000-0000-4000-8000-000000000000'));
  assert.equal(missing?.code, 'missing_asset');
  assert.match(missing.message, /00000000-0000-4000-8000-000000000000/);
  assert.equal(validate(ref(7))?.code, 'missing_asset');
  assert.equal(
    validate({ '1': { class_type: 'LoadImage', inputs: { image: { __type: 'core/ASSET' } } } })?.code,
    'missing_asset',
  );
  // With a node error as well, the refusal is invalid_workflow and the asset is not looked at.
  const both = validate({ ...ref('00000000-0000-4000-8000-000000000000'), '3': { class_type: 'Nope', inputs: {} } });
  assert.equal(both?.code, 'invalid_workflow');
  assert.deepEqual(Object.keys(both.details?.node_errors ?? {}), ['3']);
});

test('node ids are ordered numerically when integers, then lexically; "__proto__" is an own key', () => {
  assert.deepEqual(['b', '10', '2', 'a', '01', '1'].sort(compareNodeIds), ['1', '2', '10', '01', 'a', 'b']);
  const r = validate({ b: 1, '10': 1, '2': 1, a: 1 });
  assert.deepEqual(Object.keys(r?.details?.node_errors ?? {}), ['2', '10', 'a', 'b']);
  const proto = validateWorkflow(JSON.parse('{"__proto__": {"class_type": "Nope", "inputs": {}}}'), opts);
  assert.ok(Object.prototype.hasOwnProperty.call(proto?.details?.node_errors, '__proto__'));
  assert.equal(Object.getPrototypeOf(proto?.details?.node_errors), Object.prototype);
});

// ---- caps (seed W § Errors, details rule 3) ----

function nodes(from: number, count: number, make: (i: number) => unknown): Record<string, unknown> {
  const w: Record<string, unknown> = {};
  for (let i = from; i < from + count; i++) w[String(i)] = make(i);
  return w;
}

const malformed = (i: number): unknown =>
  i % 3 === 0
    ? 'not a node'
    : i % 3 === 1
      ? { inputs: {} }
      : { class_type: 'EmptyImage', inputs: { width: 0, height: 1 } };
const browser = (): unknown => ({ class_type: 'BrowserWaitNode', inputs: {} });

test('60 malformed nodes: 50 named (lowest ids), truncated, malformed_node_count 60', () => {
  const r = validate(nodes(1, 60, malformed));
  const d = r?.details;
  assert.equal(r?.code, 'invalid_workflow');
  assert.deepEqual(
    Object.keys(d?.node_errors ?? {}),
    Array.from({ length: 50 }, (_, i) => String(i + 1)),
  );
  assert.equal(d?.node_errors_truncated, true);
  assert.equal(d?.malformed_node_count, 60);
  assert.deepEqual(
    new Set(Object.values(d?.node_errors ?? {}).map((e) => e.errors[0].type)),
    new Set(['invalid_node', 'invalid_class_type', 'invalid_inputs']),
  );
  for (const k of [
    'browser_wait_node_count',
    'unknown_node_count',
    'unknown_node_classes',
    'browser_wait_node_classes',
  ] as const)
    assert.equal(d?.[k], undefined);
});

test('exactly 50 malformed nodes: all named, no truncation and no count', () => {
  const d = validate(nodes(1, 50, malformed))?.details;
  assert.equal(Object.keys(d?.node_errors ?? {}).length, 50);
  assert.equal(d?.node_errors_truncated, undefined);
  assert.equal(d?.malformed_node_count, undefined);
});

test('60 browser-wait nodes: 50 named, truncated, browser_wait_node_count 60, classes listed', () => {
  const d = validate(nodes(1, 60, browser))?.details;
  assert.equal(Object.keys(d?.node_errors ?? {}).length, 50);
  assert.equal(d?.node_errors_truncated, true);
  assert.equal(d?.browser_wait_node_count, 60);
  assert.deepEqual(d?.browser_wait_node_classes, ['BrowserWaitNode']);
  assert.equal(d?.malformed_node_count, undefined);
  assert.ok(Object.values(d?.node_errors ?? {}).every((e) => e.errors[0].type === 'waits_for_browser'));
});

test('12 unknown classes, 70 nodes of the first: ten classes listed, 50 named, count = nodes of listed classes only', () => {
  // Nodes 1..70 are of class C0; nodes 71..81 are one each of C1..C11.
  const w = {
    ...nodes(1, 70, () => ({ class_type: 'C0', inputs: {} })),
    ...nodes(71, 11, (i) => ({ class_type: `C${i - 70}`, inputs: {} })),
  };
  const d = validate(w)?.details;
  assert.deepEqual(d?.unknown_node_classes, ['C0', 'C1', 'C2', 'C3', 'C4', 'C5', 'C6', 'C7', 'C8', 'C9']);
  assert.equal(Object.keys(d?.node_errors ?? {}).length, 50);
  assert.ok(
    Object.values(d?.node_errors ?? {}).every(
      (e) => e.class_type === 'C0' && e.errors[0].type === 'unknown_node_class',
    ),
  );
  assert.equal(d?.node_errors_truncated, true);
  assert.equal(d?.unknown_node_count, 79, '70 of C0 plus one each of C1..C9; C10 and C11 are not counted');
});

test('nodes of unknown classes beyond the first ten are neither named nor counted', () => {
  const w = nodes(1, 12, (i) => ({ class_type: `K${String(i).padStart(2, '0')}`, inputs: {} }));
  const d = validate(w)?.details;
  assert.equal(d?.unknown_node_classes?.length, 10);
  assert.deepEqual(Object.keys(d?.node_errors ?? {}), ['1', '2', '3', '4', '5', '6', '7', '8', '9', '10']);
  assert.equal(d?.node_errors_truncated, undefined);
  assert.equal(d?.unknown_node_count, undefined);
  // Classes are listed in node-id order of first appearance, not alphabetically.
  const order = validate({
    '1': { class_type: 'Zed', inputs: {} },
    '2': { class_type: 'Alpha', inputs: {} },
    '3': { class_type: 'Zed', inputs: {} },
  })?.details;
  assert.deepEqual(order?.unknown_node_classes, ['Zed', 'Alpha']);
});

/** Checks every stated invariant of a node-error refusal against the workflow's true counts. */
function checkInvariants(
  r: Refusal | undefined,
  truth: { malformed: number; browser: number; unknownListed: number },
): void {
  assert.equal(r?.code, 'invalid_workflow');
  const d = r.details!;
  const entries = Object.values(d.node_errors ?? {});
  assert.ok(entries.length <= 50, 'at most fifty nodes named');
  const namedOf = (types: NodeErrorType[]): number => entries.filter((e) => types.includes(e.errors[0].type)).length;
  const named = {
    malformed: namedOf(['invalid_node', 'invalid_inputs', 'invalid_class_type']),
    browser: namedOf(['waits_for_browser']),
    unknownListed: namedOf(['unknown_node_class']),
  };
  const field = {
    malformed: d.malformed_node_count,
    browser: d.browser_wait_node_count,
    unknownListed: d.unknown_node_count,
  };
  for (const k of ['malformed', 'browser', 'unknownListed'] as const) {
    if (truth[k] > 0) assert.ok(named[k] >= 1, `${k}: every kind found is named at least once`);
    if (named[k] < truth[k]) assert.equal(field[k], truth[k], `${k}: count present when some are unnamed`);
    else assert.equal(field[k], undefined, `${k}: no count when all are named`);
    if (truth[k] > 50) assert.equal(field[k], truth[k], `${k}: more than fifty found -> count`);
  }
  const anyCount = field.malformed !== undefined || field.browser !== undefined || field.unknownListed !== undefined;
  assert.equal(d.node_errors_truncated, anyCount ? true : undefined);
  if (d.unknown_node_classes) {
    assert.ok(d.unknown_node_classes.length <= 10);
    for (const e of entries)
      if (e.errors[0].type === 'unknown_node_class') assert.ok(d.unknown_node_classes.includes(e.class_type));
  }
}

test('mixed kinds share the fifty slots: one per kind first, then node-id order; counts where cut', () => {
  // 40 malformed (1..40) then 30 browser-wait (41..70).
  const a = validate({ ...nodes(1, 40, malformed), ...nodes(41, 30, browser) });
  checkInvariants(a, { malformed: 40, browser: 30, unknownListed: 0 });
  assert.equal(a?.details?.malformed_node_count, undefined);
  assert.equal(a?.details?.browser_wait_node_count, 30);
  assert.deepEqual(
    Object.keys(a?.details?.node_errors ?? {}),
    Array.from({ length: 50 }, (_, i) => String(i + 1)),
  );

  // 60 browser-wait first (1..60), then 5 malformed (61..65) and 3 unknown (66..68): every kind still named.
  const b = validate({
    ...nodes(1, 60, browser),
    ...nodes(61, 5, malformed),
    ...nodes(66, 3, () => ({ class_type: 'Nope', inputs: {} })),
  });
  checkInvariants(b, { malformed: 5, browser: 60, unknownListed: 3 });
  assert.ok(b?.details?.node_errors?.['61'], 'first malformed node keeps its reserved slot');
  assert.ok(b?.details?.node_errors?.['66'], 'first unknown node keeps its reserved slot');
  assert.equal(b?.details?.malformed_node_count, 5);
  assert.equal(b?.details?.unknown_node_count, 3);
  assert.equal(b?.details?.browser_wait_node_count, 60);
});

test('the invariants hold for random mixtures of kinds, sizes and classes', () => {
  let seed = 12345;
  const rnd = (n: number): number => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed % n;
  };
  for (let round = 0; round < 200; round++) {
    const size = 1 + rnd(130);
    const w: Record<string, unknown> = {};
    const truth = { malformed: 0, browser: 0, unknownListed: 0 };
    const listed: string[] = [];
    const unknownNodes: string[] = [];
    for (let i = 1; i <= size; i++) {
      const kind = rnd(4);
      const id = rnd(5) === 0 ? `n${i}` : String(i);
      if (kind === 0) {
        w[id] = malformed(i);
        truth.malformed++;
      } else if (kind === 1) {
        w[id] = browser();
        truth.browser++;
      } else if (kind === 2) {
        const cls = `U${rnd(14)}`;
        w[id] = { class_type: cls, inputs: {} };
        unknownNodes.push(cls);
      } else {
        w[id] = { class_type: 'EmptyImage', inputs: { width: 1, height: 1 } };
      }
    }
    // Listed classes: first ten in node-id order.
    const ids = Object.keys(w).sort(compareNodeIds);
    for (const id of ids) {
      const n = w[id] as { class_type?: string };
      if (
        typeof n.class_type === 'string' &&
        n.class_type.startsWith('U') &&
        !listed.includes(n.class_type) &&
        listed.length < 10
      )
        listed.push(n.class_type);
    }
    truth.unknownListed = unknownNodes.filter((c) => listed.includes(c)).length;
    const r = validate(w);
    if (truth.malformed + truth.browser + truth.unknownListed === 0) {
      assert.equal(r, undefined);
      continue;
    }
    checkInvariants(r, truth);
    if (listed.length) assert.deepEqual(r?.details?.unknown_node_classes, listed);
  }
});
