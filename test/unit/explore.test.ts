// The explorer's requests are what they claim (lib/explore/): a valid JSON body satisfies its
// schema, a mistaken one breaks it in exactly the place its label names and nowhere else, and
// a seed builds the same requests again.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { loadContract } from '../../lib/contracts/loader.ts';
import { operationModel, requestCases, type Hints } from '../../lib/explore/requests.ts';
import { pngOf } from '../../lib/explore/families.ts';
import { asObj, mistakes, valid, type Schema } from '../../lib/explore/schema.ts';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
const contract = loadContract('workflow-v2.openapi.yaml', 'Comfy', 'V2');
const doc = contract.document as Schema;
const ajv = addFormats(new Ajv2020({ strict: false, allErrors: true }));
ajv.addSchema(doc, 'doc');
const validator = (name: string) => ajv.compile({ $ref: `doc#/components/schemas/${name}` });

const file = { data: pngOf(new Uint8Array(48)), filename: 'x.png', contentType: 'image/png' };
const hints = (base: Record<string, unknown>): Hints => ({ base, valid: {}, file: fc.constant(file), baseFile: file });
const HASH = `blake3:${'ab'.repeat(32)}`;

test('valid values of a request schema satisfy it', () => {
  for (const name of ['AssetFromHashRequest', 'JobSubmitRequest', 'JobMetadata']) {
    const check = validator(name);
    fc.assert(
      fc.property(
        valid(doc, { $ref: `#/components/schemas/${name}` }, 'json'),
        (v) => check(v) || assert.fail(`${name}: ${JSON.stringify(v)} ${JSON.stringify(check.errors)}`),
      ),
      { numRuns: 200 },
    );
  }
});

test('every mistake of a schema breaks it', () => {
  const schema = { type: 'integer', minimum: 60, maximum: 604800 };
  const check = ajv.compile(schema);
  for (const m of mistakes(doc, schema, 'json', { required: true })) {
    if (m.remove) continue;
    fc.assert(
      fc.property(m.value!, (v) => !check(v)),
      { numRuns: 50 },
    );
  }
  const kinds = (s: Schema) => [...new Set(mistakes(doc, s, 'json', { required: false }).map((m) => m.kind))].sort();
  assert.deepEqual(kinds({ type: 'string', enum: ['a', 'b'] }), ['enum', 'type']);
  assert.deepEqual(kinds({ type: 'string', pattern: '^[a-z]+$', maxLength: 4 }), ['format', 'oversized', 'type']);
});

test('a mistaken from-hash body breaks its schema at the place its label names, and only there', () => {
  const model = operationModel(contract, 'assetFromHash');
  const cases = requestCases(contract, model, hints({ body: { hash: HASH, file_path: 'x.png' } }));
  const check = validator('AssetFromHashRequest');
  assert.ok(check({ hash: HASH, file_path: 'x.png' }), 'the base body is valid');
  let mistaken = 0;
  fc.assert(
    fc.property(cases.arbitrary, (c) => {
      // An oversized value where the schema states no bound is past what servers take, not past the schema.
      if (!c.mistake || !c.mistake.exact) return;
      mistaken++;
      if (c.mistake.where === 'body') return assert.ok(c.json === undefined || !asObj(c.json), c.label);
      assert.equal(check(c.json), false, `${c.label}: ${JSON.stringify(c.json)}`);
      const member = c.mistake.where.slice('body.'.length);
      const places = new Set(
        (check.errors ?? []).map((e) =>
          e.keyword === 'required'
            ? (e.params as { missingProperty: string }).missingProperty
            : e.instancePath.split('/')[1],
        ),
      );
      assert.deepEqual([...places], [member], `${c.label}: errors ${JSON.stringify(check.errors)}`);
    }),
    { numRuns: 300 },
  );
  assert.ok(mistaken > 100);
});

test('the same seed builds the same requests, the base request and each mistake first', () => {
  const model = operationModel(contract, 'listJobs');
  const cases = requestCases(contract, model, hints({}));
  const a = cases.examples(1234, Number.MAX_SAFE_INTEGER);
  const b = cases.examples(1234, Number.MAX_SAFE_INTEGER);
  assert.deepEqual(a, b);
  assert.equal(a[0].label, 'valid');
  assert.ok(
    a.some((c) => c.label === 'query.limit range below') && a.some((c) => c.label === 'query.cursor oversized'),
    a.map((c) => c.label).join(', '),
  );
  assert.deepEqual(
    fc.sample(cases.arbitrary, { seed: 99, numRuns: 30 }),
    fc.sample(cases.arbitrary, { seed: 99, numRuns: 30 }),
  );
  // A capped budget keeps the base request and as many mistakes as fit.
  assert.equal(cases.examples(1234, 3).length, 3);
});
