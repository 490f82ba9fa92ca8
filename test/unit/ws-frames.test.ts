// The v1 stream's binary frame codec (lib/ws/frames.ts) and the schema judgement
// of decoded frames and text messages (lib/ws/schemas.ts): arbitrary frames
// round-trip; corrupted ones are rejected, with a message that says what is wrong,
// under the rule they break.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { decodeFrame, encodeFrame, FrameError, FRAME_RULES, type FrameSpec } from '../../lib/ws/frames.ts';
import { frameSpec, imageBytes, nodeId, previewMetadata, unknownFrameType } from '../../lib/ws/arbitraries.ts';
import { judgeFrame, judgeText } from '../../lib/ws/schemas.ts';
import { RuleViolation } from '../../lib/violations.ts';

const RUNS = { numRuns: 300, seed: 4 };

function rejects(bytes: Uint8Array, rule: string, message: RegExp): void {
  assert.throws(
    () => decodeFrame(bytes),
    (err: unknown) => err instanceof FrameError && err.rule === rule && message.test(err.message),
    `expected ${rule} matching ${message}`,
  );
}

function headerLength(spec: FrameSpec): number {
  if (spec.kind === 'preview') return 8 + 3; // the shortest signature
  if (spec.kind === 'text') return 8 + Buffer.byteLength(spec.nodeId, 'utf8');
  return 8 + Buffer.byteLength(JSON.stringify(spec.metadata), 'utf8') + 3;
}

const ruleOf = (spec: FrameSpec): string =>
  spec.kind === 'preview' ? FRAME_RULES.preview : spec.kind === 'text' ? FRAME_RULES.text : FRAME_RULES.metadata;

test('every frame round-trips through the encoder and decoder, and its decoded shape passes the schema', () => {
  fc.assert(
    fc.property(frameSpec, (spec) => {
      const frame = decodeFrame(encodeFrame(spec));
      assert.ok(frame.frame_type !== 'unknown');
      if (spec.kind === 'preview') {
        assert.equal(frame.frame_type, 1);
        assert.ok(
          frame.frame_type === 1 &&
            frame.image_type === spec.imageType &&
            Buffer.from(frame.data).equals(Buffer.from(spec.image)),
        );
      } else if (spec.kind === 'text') {
        assert.deepEqual(frame, { frame_type: 3, node_id: spec.nodeId, text: spec.text });
      } else {
        assert.ok(frame.frame_type === 4);
        assert.deepEqual(frame.metadata, JSON.parse(JSON.stringify(spec.metadata)));
        assert.ok(Buffer.from(frame.data).equals(Buffer.from(spec.image)));
      }
      assert.equal(judgeFrame(frame), undefined);
    }),
    RUNS,
  );
});

test('the layout is big-endian at the documented offsets', () => {
  const text = encodeFrame({ kind: 'text', nodeId: 'ü', text: 'hi' });
  assert.equal(text.toString('hex'), '00000003' + '00000002' + 'c3bc' + '6869');
  const png = encodeFrame({
    kind: 'preview',
    imageType: 2,
    image: Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  });
  assert.equal(png.subarray(0, 8).toString('hex'), '0000000100000002');
});

test('a frame cut anywhere inside its header, node id or metadata is rejected as truncated or of a wrong length', () => {
  fc.assert(
    fc.property(frameSpec, fc.nat(), (spec, cutSeed) => {
      const full = encodeFrame(spec);
      const cut = cutSeed % headerLength(spec);
      const truncated = full.subarray(0, cut);
      const rule = cut < 4 ? FRAME_RULES.layout : ruleOf(spec);
      rejects(truncated, rule, /truncated|exceeds|neither JPEG nor PNG|not UTF-8|not JSON|is 0/);
    }),
    RUNS,
  );
});

test('a frame type the seed does not define is not a violation: it is returned as unknown, with its type and length', () => {
  fc.assert(
    fc.property(unknownFrameType, fc.uint8Array({ maxLength: 32 }), (type, rest) => {
      const head = Buffer.alloc(4);
      head.writeUInt32BE(type, 0);
      assert.deepEqual(decodeFrame(Buffer.concat([head, rest])), {
        frame_type: 'unknown',
        type,
        length: 4 + rest.length,
      });
    }),
    RUNS,
  );
});

test('a frame shorter than its 4-byte type breaks the layout', () => {
  rejects(Uint8Array.from([0, 0, 1]), FRAME_RULES.layout, /truncated frame: 3 byte/);
});

test('little-endian headers are rejected, and the message says they read as little-endian', () => {
  fc.assert(
    fc.property(frameSpec, (spec) => {
      const bytes = Buffer.from(encodeFrame(spec));
      bytes.writeUInt32LE(bytes.readUInt32BE(0), 0);
      bytes.writeUInt32LE(bytes.readUInt32BE(4), 4);
      rejects(bytes, FRAME_RULES.layout, /little-endian/);
    }),
    RUNS,
  );
});

test('a metadata_len off by any amount is rejected under the metadata rule', () => {
  fc.assert(
    fc.property(
      previewMetadata,
      fc.constantFrom('jpeg' as const, 'png' as const).chain(imageBytes),
      fc.integer({ min: -20, max: 20 }).filter((d) => d !== 0),
      (metadata, image, delta) => {
        const bytes = Buffer.from(encodeFrame({ kind: 'preview_with_metadata', metadata, image }));
        const len = bytes.readUInt32BE(4);
        bytes.writeUInt32BE(Math.max(0, len + delta), 4);
        rejects(bytes, FRAME_RULES.metadata, /metadata|exceeds|is 0/);
      },
    ),
    RUNS,
  );
});

test('a TEXT frame with node_id_len 0 is a frame with an empty node id, not an error; a metadata_len of 0 is', () => {
  const frame = decodeFrame(Buffer.concat([Buffer.from('0000000300000000', 'hex'), Buffer.from('queue note', 'utf8')]));
  assert.deepEqual(frame, { frame_type: 3, node_id: '', text: 'queue note' });
  assert.equal(judgeFrame(frame), undefined);
  rejects(
    Buffer.concat([Buffer.from('0000000400000000', 'hex'), Buffer.from([0x89, 0x50, 0x4e, 0x47])]),
    FRAME_RULES.metadata,
    /metadata_len is 0/,
  );
});

test('a node_id_len beyond the frame is rejected under the TEXT rule', () => {
  fc.assert(
    fc.property(nodeId, fc.string({ maxLength: 20 }), fc.integer({ min: 1, max: 1000 }), (id, text, extra) => {
      const bytes = Buffer.from(encodeFrame({ kind: 'text', nodeId: id, text }));
      bytes.writeUInt32BE(bytes.length - 8 + extra, 4);
      rejects(bytes, FRAME_RULES.text, /node_id_len \d+ exceeds the \d+ byte/);
    }),
    RUNS,
  );
});

test('a PREVIEW_IMAGE whose image_type does not match its bytes, or is not 1 or 2, is rejected', () => {
  const png = imageBytes('png');
  fc.assert(
    fc.property(png, (image) => {
      rejects(
        encodeFrame({ kind: 'preview', imageType: 1, image }),
        FRAME_RULES.preview,
        /image_type 1 \(JPEG\) but the bytes are PNG/,
      );
    }),
    RUNS,
  );
  const bad = Buffer.from(
    encodeFrame({
      kind: 'preview',
      imageType: 2,
      image: Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    }),
  );
  bad.writeUInt32BE(7, 4);
  rejects(bad, FRAME_RULES.preview, /image_type 7; expected 1 \(JPEG\) or 2 \(PNG\)/);
});

test('decoded metadata missing a field, or with a null prompt_id, breaks the metadata schema', () => {
  fc.assert(
    fc.property(
      previewMetadata,
      fc.constantFrom('node_id', 'display_node_id', 'real_node_id', 'prompt_id', 'parent_node_id'),
      (metadata, drop) => {
        const partial: Record<string, unknown> = { ...metadata };
        delete partial[drop];
        const frame = decodeFrame(
          encodeFrame({
            kind: 'preview_with_metadata',
            metadata: partial,
            image: Uint8Array.from([0xff, 0xd8, 0xff, 0]),
          }),
        );
        assert.ok(frame.frame_type !== 'unknown');
        const v = judgeFrame(frame);
        assert.ok(v instanceof RuleViolation && v.rule === FRAME_RULES.metadata, `dropping ${drop}`);
      },
    ),
    { numRuns: 100, seed: 5 },
  );
});

test('text messages: the envelope, prompt_id on execution messages, output lists and fields are judged under their own rules', () => {
  const rule = (raw: string): string | undefined => {
    const r = judgeText(raw);
    return r instanceof RuleViolation ? r.rule : undefined;
  };
  assert.equal(rule('not json'), 'WS.MESSAGE.ENVELOPE');
  assert.equal(rule(JSON.stringify({ status: { exec_info: { queue_remaining: 0 } } })), 'WS.MESSAGE.ENVELOPE');
  assert.equal(rule(JSON.stringify({ type: 'executing', data: { node: '1' } })), 'WS.MESSAGE.PROMPT_ID');
  assert.equal(
    rule(
      JSON.stringify({
        type: 'executed',
        data: { prompt_id: 'p', node: '2', output: { images: [{ filename: 'a.png', subfolder: '' }] } },
      }),
    ),
    'WS.EXECUTED.OUTPUT_LISTS',
  );
  assert.equal(rule(JSON.stringify({ type: 'progress', data: { prompt_id: 'p', value: 1 } })), 'WS.MESSAGE.FIELDS');
  // Accepted: both status shapes, a missing node on the final executing, unknown types and fields.
  assert.equal(
    rule(JSON.stringify({ type: 'status', data: { status: { exec_info: { queue_remaining: 2 } }, sid: 'x' } })),
    undefined,
  );
  assert.equal(rule(JSON.stringify({ type: 'status', data: { queue_remaining: 0 } })), undefined);
  assert.equal(rule(JSON.stringify({ type: 'executing', data: { prompt_id: 'p' } })), undefined);
  assert.equal(rule(JSON.stringify({ type: 'crystools.monitor', data: { cpu: 3 } })), undefined);
  assert.equal(
    rule(
      JSON.stringify({
        type: 'executed',
        data: {
          prompt_id: 'p',
          node: '2',
          output: {
            images: [],
            video: [{ filename: 'v.mp4', subfolder: '', type: 'output', format: 'mp4' }],
            extra: 1,
          },
        },
      }),
    ),
    undefined,
  );
});
