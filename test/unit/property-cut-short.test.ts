// A property's first counterexample is its verdict even when shrinking it ends in an
// exchange the suite could not complete: under load another worker may open the breaker
// while this one shrinks, and the run then lost the rule it had already seen broken.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { TestInfo } from '@playwright/test';
import { assertProperty } from '../../fixtures/property.ts';
import { RuleViolation, SuiteError } from '../../lib/violations.ts';

const info = { titlePath: ['file', 'a property'] } as unknown as TestInfo;

test('a breaker opening while a counterexample shrinks leaves the broken rule as the property verdict', async () => {
  let calls = 0;
  const err = await assertProperty(info, { numRuns: 20, seed: 7 } as never, fc.integer(), async () => {
    calls++;
    if (calls === 1)
      throw new RuleViolation('V2.CONTRACT.BODY', 'getAsset 200: body is not JSON', {
        expected: 'JSON',
        received: 'text/html',
      });
    throw new SuiteError('the target does not speak the API: getAsset answered 200 text/html; not sent');
  }).then(
    () => undefined,
    (e: unknown) => e as Error,
  );
  assert.ok(err, 'the property failed');
  assert.match(err.message, /\[rule:V2\.CONTRACT\.BODY\] getAsset 200: body is not JSON/);
  assert.match(err.message, /Shrinking was cut short: .*does not speak the API/);
});

test('an exchange the suite could not complete, with no counterexample before it, stays a suite error', async () => {
  const err = await assertProperty(info, { numRuns: 5, seed: 7 } as never, fc.integer(), async () => {
    throw new SuiteError('target stopped answering at GET /api/v2/jobs/x');
  }).then(
    () => undefined,
    (e: unknown) => e as Error,
  );
  assert.ok(err instanceof SuiteError, String(err));
});
