// A recording and its replay draw the same test data: every random source the suite imports
// from node:crypto (and Math.random) repeats itself under one seed, so a replayed request is
// the recorded one byte for byte (a slow workflow's colour, an upload's bytes, a fresh id).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { seedRandomness } from '../../lib/seeded-random.ts';

function draw(): unknown[] {
  return [crypto.randomUUID(), crypto.randomBytes(8).toString('hex'), crypto.randomInt(0x1000000), crypto.randomInt(5, 9), Math.random()];
}

test('under one seed, randomUUID, randomBytes, randomInt and Math.random draw the same values again; another seed draws others', () => {
  const saved = { uuid: crypto.randomUUID, bytes: crypto.randomBytes, int: crypto.randomInt, random: Math.random };
  try {
    seedRandomness('seed-a:test');
    const first = draw();
    seedRandomness('seed-a:test');
    assert.deepEqual(draw(), first);
    seedRandomness('seed-b:test');
    assert.notDeepEqual(draw(), first);
    for (let i = 0; i < 200; i++) {
      const n = crypto.randomInt(5, 9);
      assert.ok(Number.isInteger(n) && n >= 5 && n < 9, String(n));
    }
  } finally {
    const c = crypto as unknown as Record<string, unknown>;
    [c.randomUUID, c.randomBytes, c.randomInt, Math.random] = [saved.uuid, saved.bytes, saved.int, saved.random];
  }
});
