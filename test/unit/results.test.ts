// Check results are values: a broken check in the middle of a test does not stop the
// independent checks after it, a step the rest needs blocks only what it leaves
// unjudged (naming the step), and the test still fails at its end listing each broken rule.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { check, ensure, notJudged, step } from '../../lib/check.ts';
import { ResultLog, setActiveLog, type TestEvidence } from '../../lib/results.ts';
import { RuleViolation, SuiteError } from '../../lib/violations.ts';
import { runLikeATest } from './run-like-a-test.ts';

const outcomes = (e: TestEvidence, rule: string) => e.results.filter((r) => r.rule === rule).map((r) => r.outcome);

test('a broken check in the middle of a test leaves the later independent rules judged', async () => {
  const { evidence, thrown } = await runLikeATest(
    ['V2.ASSET.DEDUP', 'V2.ASSET.FIELDS', 'V2.ASSET.IMMUTABLE'],
    async () => {
      check('V2.ASSET.DEDUP', false, { what: 'created_new on a second upload', expected: 'false', received: true });
      check('V2.ASSET.FIELDS', true, { what: 'size_bytes', expected: '1', received: 1 });
      check('V2.ASSET.IMMUTABLE', false, { what: 'the bytes served', expected: 'the upload', received: 'other bytes' });
    },
  );
  assert.deepEqual(outcomes(evidence, 'V2.ASSET.DEDUP'), ['broken']);
  assert.deepEqual(outcomes(evidence, 'V2.ASSET.FIELDS'), ['held'], 'judged after the broken check');
  assert.deepEqual(outcomes(evidence, 'V2.ASSET.IMMUTABLE'), ['broken'], 'judged (and broken) after the broken check');
  assert.ok(thrown, 'the test still fails at its end');
  assert.match(thrown.message, /2 rule\(s\) broken/);
  assert.match(thrown.message, /\[rule:V2\.ASSET\.DEDUP\]/);
  assert.match(thrown.message, /\[rule:V2\.ASSET\.IMMUTABLE\]/);
});

test('a step the rest needs blocks the dependent rules, naming the step; the rules judged before it stand', async () => {
  const { evidence, status } = await runLikeATest(['V2.ASSET.FIELDS', 'V2.ASSET.FRESH_URL'], async () => {
    check('V2.ASSET.FIELDS', true, { what: 'size_bytes', expected: '1', received: 1 });
    await step('create an asset', async () => {
      throw new SuiteError('POST /api/v2/assets answered 422 invalid_request');
    });
    check('V2.ASSET.FRESH_URL', true, { what: 'never reached', expected: '', received: '' });
  });
  assert.equal(status, 'failed');
  const blocked = evidence.results.find((r) => r.rule === 'V2.ASSET.FRESH_URL');
  assert.equal(blocked?.outcome, 'blocked');
  assert.equal(blocked?.step, 'create an asset');
  assert.match(blocked?.what ?? '', /422 invalid_request/);
  // A rule that held before the stop may still have had checks to come: it is blocked too, never a pass.
  assert.deepEqual(outcomes(evidence, 'V2.ASSET.FIELDS'), ['held', 'blocked']);
});

test('ensure stops the test at a broken check the rest depends on, and names that check as the step', async () => {
  const { evidence } = await runLikeATest(['V2.JOB.SUBMIT', 'V2.JOB.OUTPUTS_REAL'], async () => {
    ensure('V2.JOB.SUBMIT', false, { what: 'POST /api/v2/jobs', expected: '201', received: '400 invalid_workflow' });
    check('V2.JOB.OUTPUTS_REAL', true, { what: 'never reached', expected: '', received: '' });
  });
  assert.deepEqual(outcomes(evidence, 'V2.JOB.SUBMIT'), ['broken']);
  const b = evidence.results.find((r) => r.rule === 'V2.JOB.OUTPUTS_REAL');
  assert.equal(b?.outcome, 'blocked');
  assert.match(b?.step ?? '', /V2\.JOB\.SUBMIT/);
  assert.deepEqual(b?.by, ['V2.JOB.SUBMIT']);
});

test('not judged is recorded with its reason, and is not a broken check', async () => {
  const { evidence, thrown } = await runLikeATest(['V1.VIEW.SIGNED_OPENABLE'], async () => {
    notJudged('V1.VIEW.SIGNED_OPENABLE', 'GET /api/view answered 200, so there was no signed URL to open');
  });
  assert.equal(thrown, undefined);
  assert.deepEqual(outcomes(evidence, 'V1.VIEW.SIGNED_OPENABLE'), ['not_judged']);
});

test('outside a test (no log) a broken check throws at once, and a misspelt rule id fails even when the check holds', () => {
  assert.throws(() => check('V2.ASSET.DEDUP', false, { what: 'x', expected: 'y', received: 'z' }), RuleViolation);
  assert.equal(check('V2.ASSET.DEDUP', true, { what: 'x', expected: 'y', received: 'z' }), true);
  assert.throws(
    // @ts-expect-error: an unknown rule id is a type error, and a load-time error as well
    () => check('V2.ASSET.NO_SUCH_RULE', true, { what: 'x', expected: 'y', received: 'z' }),
    /not in contracts\/rules\.yaml/,
  );
});

test("a check of an answer made after its test ended is that test's, never the test running then", () => {
  const ended = new ResultLog();
  const running = new ResultLog();
  ended.ended = true;
  setActiveLog(running);
  try {
    // Work the ended test left running judges an answer it asked for.
    const late = {
      status: 200,
      errorCode: undefined,
      operationId: 'getJob',
      url: 'http://x/jobs/1',
      ref: undefined,
      asker: ended,
    };
    check('V2.ASSET.DEDUP', false, { what: 'a late read', expected: 'x', received: 'y', on: late });
    assert.equal(running.results.length, 0, 'nothing reached the running test');
    assert.equal(ended.results.length, 0, 'the ended test takes no more results');
    // The running test's own answers and findings are its own.
    check('V2.ASSET.FIELDS', true, { what: 'its own', expected: 'x', received: 'x', on: { ...late, asker: running } });
    check('V2.ASSET.IMMUTABLE', true, { what: 'no answer', expected: 'x', received: 'x' });
    assert.deepEqual(
      running.results.map((r) => r.rule),
      ['V2.ASSET.FIELDS', 'V2.ASSET.IMMUTABLE'],
    );
  } finally {
    setActiveLog(undefined);
  }
});
