// Which controls share a reference, and when a stack may vouch for a member
// (test/support/control-stacks.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { creditedFromStack, stacksOf, type StackCandidate } from '../support/control-stacks.ts';

const keys = (...ks: string[]) => new Set(ks);
const c = (name: string, ks: string[], more: Partial<StackCandidate> = {}): StackCandidate => ({
  name,
  keys: keys(...ks),
  hooked: false,
  stackable: true,
  ...more,
});

test('controls that meet on the same tests share a stack over the union of their tests', () => {
  const { stacks, alone } = stacksOf([c('a', ['t1', 't2', 't3']), c('b', ['t2', 't3']), c('d', ['t9'])]);
  assert.deepEqual(
    stacks.map((s) => [s.id, s.members, [...s.keys].sort()]),
    [['stack-1', ['a', 'b'], ['t1', 't2', 't3']]],
  );
  assert.deepEqual(alone, ['d'], 'a control that meets no other runs alone');
});

test('a control that may not stack, or an alternative of a member, runs alone', () => {
  const { stacks, alone } = stacksOf([
    c('a', ['t1', 't2'], { exclusive: 'g' }),
    c('b', ['t1', 't2'], { exclusive: 'g' }),
    c('e', ['t1'], { stackable: false }),
    c('f', ['t2']),
  ]);
  assert.deepEqual(
    stacks.map((s) => s.members),
    [['a', 'f']],
  );
  assert.deepEqual(alone, ['b', 'e']);
});

test('hook controls stack only with hook controls, and a stack holds at most its limit', () => {
  const many = ['h1', 'h2', 'h3'].map((n) => c(n, ['t1'], { hooked: true }));
  const { stacks, alone } = stacksOf([...many, c('n', ['t1'])], 2);
  assert.deepEqual(
    stacks.map((s) => [s.members, s.hooked]),
    [[['h1', 'h2'], true]],
  );
  assert.deepEqual(alone, ['h3', 'n']);
});

test('a member is credited from its stack only when its tests were clean and it was asked about on each', () => {
  const m = c('m', ['t1', 't2']);
  assert.equal(creditedFromStack(m, true, { t1: ['m'], t2: ['m', 'x'] }).credited, true);
  const hidden = creditedFromStack(m, true, { t1: ['m'], t2: ['x'] });
  assert.equal(hidden.credited, false);
  assert.match(hidden.why, /1 of its tests \(first: t2\)/);
  assert.equal(creditedFromStack(m, false, { t1: ['m'], t2: ['m'] }).credited, false);
  assert.equal(
    creditedFromStack(c('h', ['t1'], { hooked: true }), true, {}).credited,
    true,
    'a hook control acts on every answer: clean tests are enough',
  );
});
