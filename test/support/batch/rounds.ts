// Spreads a batch's cases over rounds: on each family x surface, a case joins the first
// round none of whose cases could claim one of its tests. Two cases could claim the
// same test when their spec files meet and either selects whole files (no tag), both
// select the same tag, or some test of a shared file declares both tags. The fixtures
// check the same at run time and fail loudly if a test were claimed twice.
import path from 'node:path';
import type { Family, Surface } from '../../../lib/families.ts';
import type { SpecMap } from '../spec-map.ts';
import type { PlannedCase, RoundProject } from './plan.ts';

export function planRounds(cases: readonly PlannedCase[], map: SpecMap, root: string): RoundProject[] {
  const filesOf = (c: PlannedCase, family: Family) => (c.files.length ? c.files : (map.specs.get(family) ?? []));
  const share = (a: PlannedCase, b: PlannedCase, family: Family): boolean => {
    const bFiles = new Set(filesOf(b, family));
    const common = filesOf(a, family).filter((f) => bFiles.has(f));
    if (common.length === 0) return false;
    if (!a.tag || !b.tag || a.tag === b.tag) return true;
    const [ta, tb] = [a.tag.slice(1), b.tag.slice(1)];
    return common.some((f) => (map.declarations.get(f) ?? []).some((ids) => ids.includes(ta) && ids.includes(tb)));
  };
  const rounds = new Map<string, PlannedCase[][]>();
  for (const c of cases) {
    for (const { family, surface } of c.projects) {
      const key = `${family}-${surface}`;
      const list = rounds.get(key) ?? rounds.set(key, []).get(key)!;
      const round = list.find((r) => r.every((other) => !share(c, other, family)));
      if (round) round.push(c);
      else list.push([c]);
    }
  }
  return [...rounds.entries()].flatMap(([key, list]) =>
    list.map((round, i) => {
      const { family, surface } = round[0]!.projects.find((p) => `${p.family}-${p.surface}` === key)!;
      return {
        name: `round${i + 1}~${key}`,
        family: family as Family,
        surface: surface as Surface,
        cases: round.map((c) => ({ id: c.id, portBase: c.portBase, files: c.files.map((f) => path.join(root, f)), ...(c.tag ? { tag: c.tag } : {}), ...(c.scenario ? { scenario: c.scenario } : {}) })),
      };
    }),
  );
}
