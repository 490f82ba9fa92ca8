// The target provider of a self-test run (fixtures/harness.ts), loaded in each Playwright
// worker: a test's target is the embedded reference of the case the plan gives that test
// in its project (plan.ts), which the host (host.ts) starts on the first ask.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { TargetProvider, TestIdentity } from '../../../fixtures/harness.ts';
import { resolvedTarget } from '../../../lib/config/index.ts';
import { controlInputs } from '../../../lib/control-inputs.ts';
import { testKey } from './keys.ts';
import { originalOf, type Plan } from './plan.ts';

export default function provider(options: unknown): TargetProvider {
  const { planFile } = options as { planFile: string };
  const plan = JSON.parse(readFileSync(planFile, 'utf8')) as Plan;
  // A test runs from a copy of its spec file (plan.ts): keyed by the copy in the plan, by its own file on the host.
  const fileOf = (t: TestIdentity): string => path.relative(plan.copyDir, t.file).split(path.sep).join('/');
  const keyOf = (t: TestIdentity): string => testKey(fileOf(t), t.titles);
  const caseOf = (t: TestIdentity) => plan.assignment[t.project]?.[keyOf(t)];
  const originalKey = (t: TestIdentity) => testKey(originalOf(plan, fileOf(t)), t.titles);
  const caseById = new Map(plan.cases.map((c) => [c.id, c]));
  const ask = async (what: 'open' | 'close', t: TestIdentity, id: string): Promise<{ portBase?: number }> => {
    const q = new URLSearchParams({
      case: id,
      slot: String(t.parallelIndex),
      project: t.project,
      test: originalKey(t),
    });
    const res = await fetch(`${plan.hostUrl}/${what}?${q}`);
    if (!res.ok) throw new Error(`self-test reference host, ${what} for case ${id}: ${res.status} ${await res.text()}`);
    return (await res.json()) as { portBase?: number };
  };
  return {
    // Every embedded reference resolves to the same brand and credentials; only the ports differ.
    base: resolvedTarget(),
    async open(t) {
      const id = caseOf(t);
      if (id === undefined) return { skip: `not planned in ${t.project} (test/support/harness/plan.ts)` };
      const { portBase } = await ask('open', t, id);
      const target = resolvedTarget(portBase);
      // A control's case runs with the inputs its user would set: those of lib/control-inputs.ts
      // (of each control of a stack), then the case's own.
      const c = caseById.get(id);
      const added = (surface: (typeof target.surfaces)[number]['surface']): Record<string, unknown> => {
        const inputs: Record<string, unknown> = {};
        for (const name of c?.controls ?? []) Object.assign(inputs, controlInputs(name, surface));
        return { ...inputs, ...c?.scenario };
      };
      return {
        target: {
          ...target,
          surfaces: target.surfaces.map((s) => ({ ...s, scenario: { ...s.scenario, ...added(s.surface) } })),
        },
      };
    },
    async close(t) {
      const id = caseOf(t);
      if (id !== undefined) await ask('close', t, id);
    },
  };
}
