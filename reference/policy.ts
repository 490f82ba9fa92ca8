// The override points of the reference (reference/faults/seams.ts), one object per family.
// Each default is the correct behaviour; only a fault unit replaces one.
import { correctV1Policy, type V1Policy } from './v1/policy.ts';
import { correctV2Policy, type V2Policy } from './v2/policy.ts';
import { correctRouterPolicy, type RouterPolicy } from './router/policy.ts';
import { correctRegistryPolicy, type RegistryPolicy } from './registry/policy.ts';

export interface Policy {
  readonly v2: V2Policy;
  readonly v1: V1Policy;
  readonly router: RouterPolicy;
  readonly registry: RegistryPolicy;
}

/** A fresh object per running reference, so a fault in one instance never reaches another. */
export function correctPolicy(): Policy {
  return {
    v2: correctV2Policy(),
    v1: correctV1Policy(),
    router: correctRouterPolicy(),
    registry: correctRegistryPolicy(),
  };
}
