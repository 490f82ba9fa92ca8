// Each fault deliberately breaks exactly one contract rule so the conformance
// suite can prove that its check for that rule actually fails when it should.
// A fault is one unit (reference/faults/<family>/<area>.ts, typed by
// reference/faults/unit.ts): its name, the rule it breaks, a description, the facts the
// self-test needs about it, and how it is installed through the seams of
// reference/faults/seams.ts. This module only gathers the units; none imports it. The
// correct code in reference/ names no fault.
import type { Seams } from './faults/seams.ts';
import type { FaultUnit } from './faults/unit.ts';
import { V2_FAULTS } from './faults/v2.ts';
import { ROUTER_FAULTS } from './faults/router.ts';
import { V1_FAULTS } from './faults/v1.ts';
import { REGISTRY_FAULTS } from './faults/registry.ts';
import { LOAD_FAULTS } from './faults/load.ts';
import { EXPLORE_FAULTS } from './faults/explore.ts';
import { Seams as SeamsImpl } from './faults/seams.ts';

export type { FaultInfo, FaultUnit } from './faults/unit.ts';

// One catalog per API family; a new family adds its file here.
const CATALOG = [
  ...V2_FAULTS,
  ...V1_FAULTS,
  ...ROUTER_FAULTS,
  ...LOAD_FAULTS,
  ...REGISTRY_FAULTS,
  ...EXPLORE_FAULTS,
] as const satisfies ReadonlyArray<FaultUnit>;

export const FAULTS: ReadonlyArray<FaultUnit> = CATALOG;

/** Faults the conformance suite must catch (the rest are caught by load profiles). */
export const SUITE_FAULTS: ReadonlyArray<FaultUnit> = FAULTS.filter((f) => f.caughtBy === undefined);

/**
 * The seams of one running reference with at most one fault installed. Resolved once per
 * instance, so two references in one process never see each other's fault.
 */
export function faultSeams(fault: string | undefined): Seams {
  const seams = new SeamsImpl();
  if (fault === undefined || fault === '') return seams;
  const unit = FAULTS.find((f) => f.name === fault);
  if (unit === undefined) {
    const valid = FAULTS.map((f) => f.name).join(', ');
    throw new Error(`unknown fault "${fault}"; valid faults: ${valid}`);
  }
  unit.install(seams);
  return seams;
}
