// The fault unit: what a fault of reference/faults/<family>/<area>.ts declares. A fault
// breaks exactly one rule of the catalog (typed: a misspelt or retired rule fails type
// checking), and carries every fact the self-test needs about it: what catches it, which
// specs can see it where the tests declaring its rule cannot, the environment it needs.
// Units import this module only; reference/faults.ts gathers them (no import circle).
import type { RuleId } from '../../lib/rule-ids.ts';
import type { Seams } from './seams.ts';

/** A statement locator of contracts/seed-trace.yaml: seed letter, line, fingerprint (`W:19:bd358774d6ec`). */
export type StatementAt = `${'W' | 'R'}:${number}:${string}`;

export interface FaultInfo {
  readonly name: string;
  /** The one rule the fault breaks. */
  readonly breaks: RuleId;
  /**
   * The seed statements the fault breaks, as a plausible server bug would (coverage is proven
   * per statement: each statement the trace files under rules names at least one fault).
   * Each is filed in contracts/seed-trace.yaml with `breaks` among its rules
   * (test/unit/fault-statements.test.ts); lib/seeds/proofs.ts is generated from them.
   */
  readonly statements?: readonly StatementAt[];
  readonly description: string;
  /**
   * What proves the fault is caught. Absent: the conformance suite, run on the tests that
   * declare the rule (test/e2e/faults.test.ts). `{ load }`: that load profile (load/profiles/),
   * for a fault only concurrent traffic shows (test/load/faults.test.ts).
   */
  readonly caughtBy?: { readonly load: string };
  /**
   * Where the fault shows when the tests declaring its rule cannot provoke it (a rule judged
   * on every answer, whose break shows only on an answer another test provokes): the fault
   * matrix runs these spec files whole, with the declaring ones ('family': every spec of the
   * family). Keep it rare: a needed entry usually means a test should declare the rule.
   */
  readonly seenBy?: { readonly files: readonly string[] | 'family'; readonly why: string };
  /**
   * A control (reference/controls.ts) the fault is installed on, for a check that must not
   * lean on one reading the seed leaves open: the fault matrix runs the two together.
   */
  readonly under?: string;
}

export interface FaultUnit extends FaultInfo {
  /** Attaches the fault's behaviour to a fresh set of seams (one running reference). */
  install(seams: Seams): void;
}
