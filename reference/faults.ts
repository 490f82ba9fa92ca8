// Each fault deliberately breaks exactly one contract rule so the conformance
// suite can prove that its check for that rule actually fails when it should.
import { V2_FAULTS } from './faults/v2.ts';
import { ROUTER_FAULTS } from './faults/router.ts';
import { V1_FAULTS } from './faults/v1.ts';
import { REGISTRY_FAULTS } from './faults/registry.ts';
import { LOAD_FAULTS } from './faults/load.ts';

export interface FaultInfo {
  readonly name: string;
  readonly rule: string;
  readonly description: string;
  /** What proves the fault is caught: the conformance suite (default) or a load profile. */
  readonly caughtBy?: 'suite' | 'load';
}

// One catalog per API family; a new family adds its file here.
const CATALOG = [...V2_FAULTS, ...V1_FAULTS, ...ROUTER_FAULTS, ...LOAD_FAULTS, ...REGISTRY_FAULTS] as const satisfies ReadonlyArray<FaultInfo>;

export const FAULTS: ReadonlyArray<FaultInfo> = CATALOG;

/** Faults the conformance suite must catch (the rest are caught by load profiles). */
export const SUITE_FAULTS: ReadonlyArray<FaultInfo> = FAULTS.filter((f) => (f.caughtBy ?? 'suite') === 'suite');

// A literal union so a misspelt fault name in server code fails type checking.
export type FaultName = (typeof CATALOG)[number]['name'];

export type IsFault = (name: FaultName) => boolean;

// Resolved once per running instance so two references in one process never
// see each other's fault.
export function faultChecker(fault: string | undefined): IsFault {
  if (fault === undefined || fault === '') return () => false;
  if (!FAULTS.some((f) => f.name === fault)) {
    const valid = FAULTS.map((f) => f.name).join(', ');
    throw new Error(`unknown fault "${fault}"; valid faults: ${valid}`);
  }
  return (name: FaultName) => name === fault;
}
