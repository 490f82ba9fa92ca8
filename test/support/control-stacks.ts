// Which controls the self-test runs together on one reference (controls.test.ts).
//
// A control's cost is the tests it runs on; many controls meet on the same tests (every
// hook control on every test of its families, several job controls on the same job tests),
// and a server that does two legal things at once is as legal as one that does either. So
// controls that can share a reference are stacked: the reference runs with all of them on,
// over the union of their tests, and each member is judged on its own tests of that run.
//
// A member is credited from its stack only where the stack could not have hidden it
// (creditedFromStack): its own tests there are clean, and, for a control the reference asks
// about where it changes an answer, the stacked reference asked about it on every one of its
// tests (another member that took the answer first would have kept it from being asked). A
// member not credited runs alone on its tests, as an unstacked control does, and is judged
// on that run. The stack's whole run must be clean too: an alarm only the combination
// raises is the suite's to fix.
//
// What may not stack: a control that departs from a rule or leaves one unjudged (its
// allowance would cover its neighbours' failures), one with scenario inputs of its own
// (they would be every member's), and one the reference asks about before any test (at
// start-up), which is recorded on every test and so cannot show it was reached. Two
// alternatives for the same part of an answer (ControlInfo.exclusive) never share a stack.

export interface StackCandidate {
  name: string;
  /** The tests it runs on: `<project> › <test key>`. */
  keys: ReadonlySet<string>;
  /** Acts through response hooks on every answer of its families (never consulted per test). */
  hooked: boolean;
  stackable: boolean;
  /** Its group of alternatives (ControlInfo.exclusive): at most one of a group per stack. */
  exclusive?: string;
}

export interface Stack {
  /** The case's id in the harness run. */
  id: string;
  members: string[];
  /** The union of its members' tests. */
  keys: Set<string>;
  hooked: boolean;
}

/** At most this many controls share a reference: the more there are, the more one run's alarm costs to tell apart. */
export const MAX_STACK = 8;

export function stacksOf(
  candidates: readonly StackCandidate[],
  maxMembers = MAX_STACK,
): { stacks: Stack[]; alone: string[] } {
  const stacks: Array<Stack & { groups: Set<string> }> = [];
  const alone: string[] = [];
  // Largest first, so the small ones join the stacks whose tests they share.
  const ordered = [...candidates].sort((a, b) => b.keys.size - a.keys.size || a.name.localeCompare(b.name));
  for (const c of ordered) {
    if (!c.stackable) {
      alone.push(c.name);
      continue;
    }
    let best: (typeof stacks)[number] | undefined;
    let bestShared = 0;
    for (const s of stacks) {
      if (s.hooked !== c.hooked || s.members.length >= maxMembers) continue;
      if (c.exclusive !== undefined && s.groups.has(c.exclusive)) continue;
      let shared = 0;
      for (const k of c.keys) if (s.keys.has(k)) shared++;
      if (shared > bestShared) [best, bestShared] = [s, shared];
    }
    if (best) {
      best.members.push(c.name);
      for (const k of c.keys) best.keys.add(k);
      if (c.exclusive !== undefined) best.groups.add(c.exclusive);
    } else {
      stacks.push({
        id: '',
        members: [c.name],
        keys: new Set(c.keys),
        hooked: c.hooked,
        groups: new Set(c.exclusive === undefined ? [] : [c.exclusive]),
      });
    }
  }
  // A stack of one is a control alone.
  for (const s of stacks) if (s.members.length === 1) alone.push(s.members[0]);
  const kept = stacks
    .filter((s) => s.members.length > 1)
    .map(({ members, keys, hooked }, i) => ({ id: `stack-${i + 1}`, members, keys, hooked }));
  return { stacks: kept, alone: alone.sort() };
}

/**
 * Whether a member's verdict may come from its stack's run: its own tests there came out
 * clean, and a consulted control was asked about on each of them (where the stacked
 * reference asked about nothing on a test, another member's answer came first).
 */
export function creditedFromStack(
  member: StackCandidate,
  ownTestsClean: boolean,
  consultedInStack: Readonly<Record<string, readonly string[]>>,
): { credited: boolean; why: string } {
  if (!ownTestsClean) return { credited: false, why: 'its own tests in the stack were not clean' };
  if (member.hooked)
    return { credited: true, why: 'clean in the stack (a hook control: every answer of its families)' };
  const unasked = [...member.keys].filter((k) => !consultedInStack[k]?.includes(member.name));
  if (unasked.length > 0)
    return {
      credited: false,
      why: `the stacked reference did not ask about it on ${unasked.length} of its tests (first: ${unasked[0]})`,
    };
  return { credited: true, why: 'clean in the stack, and asked about on each of its tests' };
}
