// The router arbitraries generate what they claim (lib/arbitraries/router.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import {
  CURSOR_PATTERN,
  MODEL_ID_MAX,
  MODEL_MAX,
  PROVIDER_MAX,
  SEGMENT_PATTERN,
  breakablePoints,
  brokenBody,
  forgedCursor,
  httpsUrl,
  idempotencyKey,
  invalidModelAddress,
  invalidSegment,
  isValidAddress,
  mutatedCursor,
  outOfRangeKey,
  segmentOfLength,
  validBody,
  validModelAddress,
  validSegment,
  type Schema,
} from '../../lib/arbitraries/router.ts';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
const RUNS = { numRuns: 300, seed: 42 };

// The input schemas of the reference's scenario models, as their documents publish them.
const IMAGE: Schema = {
  type: 'object',
  required: ['prompt'],
  additionalProperties: false,
  properties: {
    prompt: { type: 'string', minLength: 1, maxLength: 2000 },
    num_images: { type: 'integer', minimum: 1, maximum: 4 },
    width: { type: 'integer', minimum: 256, maximum: 2048, multipleOf: 64 },
    seed: { type: 'integer', minimum: 0, maximum: 2147483647 },
    style: { type: 'string', enum: ['photo', 'illustration', 'render'] },
    image: { type: 'string', format: 'uri', maxLength: 2048 },
    options: {
      type: 'object',
      properties: {
        guidance: { type: 'number', minimum: 0, maximum: 20 },
        steps: { type: 'integer', minimum: 1, maximum: 50 },
      },
    },
  },
};
const VIDEO: Schema = {
  type: 'object',
  required: ['content'],
  properties: {
    content: {
      type: 'array',
      minItems: 1,
      maxItems: 8,
      items: {
        type: 'object',
        required: ['type'],
        properties: {
          type: { type: 'string', enum: ['text', 'image_url'] },
          text: { type: 'string', minLength: 1, maxLength: 100 },
          image_url: { type: 'object', required: ['url'], properties: { url: { type: 'string', format: 'uri' } } },
          role: { type: 'string', enum: ['first_frame', 'reference_image'] },
        },
      },
    },
    duration: { type: 'integer', minimum: 2, maximum: 12 },
  },
};

function validatorOf(schema: Schema) {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  return ajv.compile(schema);
}

test('valid segments match the pattern and stay within 64 / 128 characters, reaching both bounds', () => {
  for (const [max, name] of [
    [PROVIDER_MAX, 'provider'],
    [MODEL_MAX, 'model'],
  ] as const) {
    const lengths = new Set<number>();
    fc.assert(
      fc.property(validSegment(max), (s) => {
        lengths.add(s.length);
        return SEGMENT_PATTERN.test(s) && s.length >= 1 && s.length <= max;
      }),
      RUNS,
    );
    assert.ok(lengths.has(max), `${name} segments reach ${max}`);
    assert.ok(lengths.has(1), `${name} segments reach 1`);
  }
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 200 }).chain(segmentOfLength), (s) => SEGMENT_PATTERN.test(s)),
    RUNS,
  );
  fc.assert(
    fc.property(
      fc.integer({ min: 1, max: 200 }).chain((n) => segmentOfLength(n).map((s) => [n, s] as const)),
      ([n, s]) => s.length === n,
    ),
    RUNS,
  );
});

test('valid model addresses are valid and reach the 193-character ID', () => {
  let longest = 0;
  fc.assert(
    fc.property(validModelAddress(), (a) => {
      longest = Math.max(longest, a.provider.length + 1 + a.model.length);
      return isValidAddress(a);
    }),
    RUNS,
  );
  assert.equal(longest, MODEL_ID_MAX);
});

test('invalid segments break the pattern or the length, each way is generated', () => {
  for (const max of [PROVIDER_MAX, MODEL_MAX]) {
    const whys = new Set<string>();
    fc.assert(
      fc.property(invalidSegment(max), ({ segment, why }) => {
        whys.add(why);
        return !(SEGMENT_PATTERN.test(segment) && segment.length <= max) && segment.length > 0;
      }),
      RUNS,
    );
    assert.deepEqual([...whys].sort(), ['character', 'separator', 'too-long', 'uppercase']);
  }
  fc.assert(
    fc.property(invalidModelAddress(), (a) => !isValidAddress(a)),
    RUNS,
  );
});

test('forged cursors have the cursor shape; mutated cursors always differ from the one served', () => {
  fc.assert(
    fc.property(forgedCursor(), (c) => CURSOR_PATTERN.test(c) && c.length >= 1 && c.length <= 512),
    RUNS,
  );
  const served = Buffer.from('a cursor the server produced, as bytes').toString('base64url');
  fc.assert(
    fc.property(mutatedCursor(served), (m) => m !== served && m.length >= 1),
    RUNS,
  );
  // Every mutation changes what the cursor decodes to, even for lenient base64 decoders.
  fc.assert(
    fc.property(
      mutatedCursor(served),
      (m) => /^\d+$/.test(m) || !Buffer.from(m, 'base64url').equals(Buffer.from(served, 'base64url')),
    ),
    RUNS,
  );
});

test('idempotency keys are 1 to 255 visible ASCII characters, reaching both bounds; out-of-range ones are 0 or 256+', () => {
  const lengths = new Set<number>();
  fc.assert(
    fc.property(idempotencyKey(), (k) => {
      lengths.add(k.length);
      return k.length >= 1 && k.length <= 255 && /^[\x21-\x7e]+$/.test(k);
    }),
    RUNS,
  );
  assert.ok(lengths.has(1) && lengths.has(255));
  const out = new Set<number>();
  fc.assert(
    fc.property(outOfRangeKey(), (k) => {
      out.add(k.length === 0 ? 0 : 256);
      return k.length === 0 || k.length >= 256;
    }),
    RUNS,
  );
  assert.deepEqual(
    [...out].sort((a, b) => a - b),
    [0, 256],
  );
});

test('https URLs parse as https URLs', () => {
  fc.assert(
    fc.property(httpsUrl(), (u) => new URL(u).protocol === 'https:'),
    RUNS,
  );
});

test('bodies drawn from a schema validate against it', () => {
  for (const schema of [IMAGE, VIDEO]) {
    const validate = validatorOf(schema);
    fc.assert(
      fc.property(validBody(schema), (body) => {
        const ok = validate(body);
        if (!ok) throw new Error(`${JSON.stringify(body)}: ${JSON.stringify(validate.errors)}`);
        return true;
      }),
      RUNS,
    );
  }
});

test('broken bodies fail their schema exactly at the field they name', () => {
  for (const schema of [IMAGE, VIDEO]) {
    const validate = validatorOf(schema);
    const kinds = new Set<string>();
    fc.assert(
      fc.property(brokenBody(schema), ({ body, loc, kind }) => {
        kinds.add(kind);
        assert.equal(validate(body), false, `${kind} at ${JSON.stringify(loc)} should fail: ${JSON.stringify(body)}`);
        const pointers = (validate.errors ?? []).map((e) =>
          e.keyword === 'required'
            ? `${e.instancePath}/${(e.params as { missingProperty: string }).missingProperty}`
            : e.instancePath,
        );
        const want = `/${loc.join('/')}`;
        assert.ok(pointers.includes(want), `${kind}: errors at ${JSON.stringify(pointers)}, expected ${want}`);
        // Nothing else is broken: every error sits at the named field (or under it).
        assert.ok(
          pointers.every((p) => p === want || p.startsWith(`${want}/`)),
          `${kind}: other fields broken too: ${JSON.stringify(pointers)}`,
        );
        return true;
      }),
      RUNS,
    );
    assert.ok(
      ['missing', 'type', 'enum', 'too-long', 'below', 'above'].every((k) => kinds.has(k)),
      `kinds generated: ${[...kinds].join(', ')}`,
    );
    // A `format` is an annotation in JSON Schema 2020-12 unless asserted: a body broken only there may be run.
    assert.ok(!kinds.has('format'), 'no body is broken by its format alone');
  }
  assert.ok(
    breakablePoints(VIDEO).some((p) => JSON.stringify(p.path) === '["content",0,"image_url","url"]'),
    'nested fields in array items are breakable',
  );
});
