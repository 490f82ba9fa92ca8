// Before the load: the contract a profile's answers are sampled against, the suite's own
// validating client for its preparation and side probes, and the profile's own preparation.
// A preparation the target refused is a result like any check's: a broken rule where a
// check broke, and the profile's rules blocked by that step.
import { ApiClient } from '../../lib/api.ts';
import type { Bounds } from '../../lib/config/env.ts';
import type { Contract } from '../../lib/contracts/loader.ts';
import { loadContract } from '../../lib/contracts/loader.ts';
import { FAMILY_CONTRACTS, type ResponseCheck } from '../../lib/contracts/registry.ts';
import { Recorder } from '../../lib/recorder.ts';
import type { Redactor } from '../../lib/redact.ts';
import type { CheckResult } from '../../lib/results.ts';
import type { SurfaceTarget } from '../../lib/targets.ts';
import { RuleViolation, SuiteError } from '../../lib/violations.ts';
import type { LoadSettings, Profile, Skip, Workload } from '../types.ts';

export interface ProfileContract {
  /** Undefined while the family has no contract registered (answers are then judged by the profile only). */
  contract: Contract | undefined;
  checks: ReadonlyArray<ResponseCheck>;
  api: ApiClient;
}

export function contractFor(
  profile: Profile,
  target: SurfaceTarget,
  redactor: Redactor,
  bounds: Bounds,
): ProfileContract {
  const family = FAMILY_CONTRACTS[profile.family];
  const contract = family ? loadContract(family.file, target.brand, family.rulePrefix) : undefined;
  // Preparation and side probes go through the suite's own validating client. Without a
  // contract for the family (v1 until it has one) a minimal stand-in has no operations.
  const prepContract = contract ?? loadContract(FAMILY_CONTRACTS.v2!.file, target.brand, 'V2');
  const checks = family?.checks ?? [];
  const api = new ApiClient({ contract: prepContract, target, recorder: new Recorder(redactor), checks, bounds });
  return { contract, checks, api };
}

export type Prepared = { work: Workload } | { skip: string } | { refused: CheckResult[] };

/** Runs the profile's preparation; a refusal (a broken check, the server refusing a step) becomes results. */
export async function prepareWork(
  profile: Profile,
  target: SurfaceTarget,
  api: ApiClient,
  settings: LoadSettings,
  log: (line: string) => void,
  redactor: Redactor,
): Promise<Prepared> {
  let prepared: Workload | Skip;
  try {
    prepared = await profile.prepare({ target, api, settings, log });
  } catch (err) {
    if (err instanceof RuleViolation || err instanceof SuiteError)
      return { refused: refusalResults(profile, err, redactor) };
    throw err;
  }
  return 'skip' in prepared ? { skip: prepared.skip } : { work: prepared };
}

function refusalResults(profile: Profile, err: RuleViolation | SuiteError, redactor: Redactor): CheckResult[] {
  const why = redactor.text(err.message.split('\n')[0] ?? err.message);
  const broken: CheckResult[] = [];
  if (err instanceof RuleViolation) {
    const r = err.result;
    broken.push(
      r
        ? { ...r, ...(r.received ? { received: redactor.text(r.received) } : {}) }
        : { rule: err.rule, outcome: 'broken', what: 'preparation', expected: '', received: why },
    );
  }
  const by = err instanceof RuleViolation ? [err.rule] : undefined;
  const blocked = profile.rules
    .filter((rule) => !broken.some((b) => b.rule === rule))
    .map((rule): CheckResult => ({
      rule,
      outcome: 'blocked',
      what: why,
      step: `${profile.name}: preparation`,
      ...(by ? { by } : {}),
    }));
  return [...broken, ...blocked];
}
