// Reading v1 answers the way the seed tells clients to (lib/v1/status.ts): status
// by terminal vs in flight in either vocabulary, and /api/prompt's `error` first.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { classifyPromptAnswer, classifyStatus } from '../../lib/v1/status.ts';

test('the five terminal values and the second vocabulary are terminal; every other name is in flight', () => {
  for (const s of ['success', 'completed']) assert.equal(classifyStatus(s), 'success');
  for (const s of ['error', 'non_retryable_error', 'lost', 'cancelled', 'failed'])
    assert.equal(classifyStatus(s), 'failure');
  for (const s of [
    'submitted',
    'queued_waiting',
    'preparing',
    'executing',
    'cancel_requested',
    'pending',
    'in_progress',
    'waiting_to_dispatch',
  ])
    assert.equal(classifyStatus(s), 'in_flight');
  const known = new Set(['success', 'completed', 'error', 'non_retryable_error', 'lost', 'cancelled', 'failed']);
  fc.assert(
    fc.property(
      fc.string({ minLength: 1, maxLength: 30 }).filter((s) => !known.has(s)),
      (s) => classifyStatus(s) === 'in_flight',
    ),
    { numRuns: 300, seed: 7 },
  );
});

test('a 200 from /api/prompt that carries error is a refusal, even with a prompt_id beside it', () => {
  assert.deepEqual(classifyPromptAnswer(200, { prompt_id: 'p1', number: 0, node_errors: {} }), {
    kind: 'accepted',
    promptId: 'p1',
  });
  assert.equal(classifyPromptAnswer(200, { prompt_id: 'p1', error: { type: 'x', message: 'no' } }).kind, 'refused');
  assert.equal(classifyPromptAnswer(200, { error: 'no' }).kind, 'refused');
  assert.equal(
    classifyPromptAnswer(400, { error: { type: 'prompt_outputs_failed_validation' }, node_errors: {} }).kind,
    'refused',
  );
  assert.equal(classifyPromptAnswer(200, { prompt_id: 'p1', error: null }).kind, 'accepted');
  fc.assert(
    fc.property(
      fc.uuid(),
      fc.anything().filter((e) => e !== undefined && e !== null && e !== ''),
      (id, error) => classifyPromptAnswer(200, { prompt_id: id, error }).kind === 'refused',
    ),
    { numRuns: 200, seed: 8 },
  );
});
