// Validates a sample of the responses seen under load with the suite's own judgement of
// an answer (lib/contracts/judge.ts, the function the api client uses): a contract
// violation under load fails the run like it fails a spec. A finding keeps the level of
// the rule it is under: a MUST rule's finding is a violation (LOAD.CONTRACT.UNDER_LOAD), a
// SHOULD rule's (a status or body only the public documents give, V1.CONTRACT.STATUS_DECLARED
// and the like) is a departure, reported as SHOULD and never failing the run, as in a spec.
import type { Contract } from '../lib/contracts/loader.ts';
import { judgeAnswerAt, type JudgedFinding } from '../lib/contracts/judge.ts';
import type { ResponseCheck } from '../lib/contracts/registry.ts';
import { loadRules } from '../lib/rules.ts';

export interface Violation extends JudgedFinding {
  method: string;
  path: string;
  status: number;
  /** ms since the load started. */
  at: number;
  /** The level of the finding's rule: a SHOULD finding is a departure, not a violation. */
  level: 'MUST' | 'SHOULD';
}

/** The level of a finding's rule; a rule the catalog does not know counts as MUST. */
export function levelOf(rule: string): 'MUST' | 'SHOULD' {
  return loadRules().get(rule)?.level === 'SHOULD' ? 'SHOULD' : 'MUST';
}

const FIRST_N = 50;
const KEEP = 25;

export class ContractSampler {
  sampled = 0;
  /** Sampled responses with a finding under a MUST rule. */
  violations = 0;
  /** Sampled responses with findings under SHOULD rules only. */
  departures = 0;
  unmatched = 0;
  readonly kept: Violation[] = [];
  readonly rules = new Map<string, number>();
  private seen = 0;
  private readonly statuses = new Set<number>();

  constructor(
    private readonly contract: Contract,
    private readonly checks: ReadonlyArray<ResponseCheck>,
    private readonly basePath: string,
    private readonly every: number,
  ) {}

  /** Whether this response is in the sample: the first ones, each new status, then every n-th. */
  private wanted(status: number): boolean {
    this.seen += 1;
    const fresh = !this.statuses.has(status);
    this.statuses.add(status);
    return fresh || this.seen <= FIRST_N || this.seen % this.every === 0;
  }

  offer(
    method: string,
    path: string,
    status: number,
    headers: Record<string, string>,
    body: string,
    at: number,
    force = false,
  ): JudgedFinding[] {
    if (!this.wanted(status) && !force) return [];
    const response = { status, headers, body: Buffer.from(body, 'utf8'), truncated: false, elapsedMs: 0 };
    const judged = judgeAnswerAt(this.contract, this.checks, this.basePath, method, path, response);
    if (!judged) {
      this.unmatched += 1;
      return [];
    }
    this.sampled += 1;
    const findings = judged.findings;
    if (findings.length > 0) {
      const levels = findings.map((f) => levelOf(f.rule));
      if (levels.includes('MUST')) this.violations += 1;
      else this.departures += 1;
      for (const [i, f] of findings.entries()) {
        this.rules.set(f.rule, (this.rules.get(f.rule) ?? 0) + 1);
        if (this.kept.length < KEEP)
          this.kept.push({ ...f, method, path, status, at: Math.round(at), level: levels[i] });
      }
    }
    return findings;
  }
}
