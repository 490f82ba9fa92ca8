// Validates a sample of the responses seen under load with the suite's own contract
// validator and per-family checks (fixtures/contracts/*, as fixtures/api.ts uses them):
// a contract violation under load fails the run like it fails a spec.
import { matchOperation, type Contract } from '../lib/contracts/loader.ts';
import { validateResponse, type Finding } from '../lib/contracts/validate.ts';
import { runChecks } from '../lib/checks/v2-errors.ts';
import type { ResponseCheck } from '../lib/contracts/registry.ts';

export interface Violation extends Finding {
  method: string;
  path: string;
  status: number;
  /** ms since the load started. */
  at: number;
}

const FIRST_N = 50;
const KEEP = 25;

export class ContractSampler {
  sampled = 0;
  violations = 0;
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

  offer(method: string, path: string, status: number, headers: Record<string, string>, body: string, at: number, force = false): Finding[] {
    if (!this.wanted(status) && !force) return [];
    const pathname = path.split('?')[0]!;
    const relative = this.basePath && pathname.startsWith(this.basePath) ? pathname.slice(this.basePath.length) : pathname;
    const op = matchOperation(this.contract, method, relative);
    if (!op) {
      this.unmatched += 1;
      return [];
    }
    this.sampled += 1;
    const response = { status, headers, body: Buffer.from(body, 'utf8'), truncated: false, elapsedMs: 0 };
    const validated = validateResponse(op, method, response);
    const checked = runChecks(this.checks, { contract: this.contract, method, response, json: validated.json });
    const seenRules = new Set<string>();
    const findings = [...validated.findings, ...checked.findings].filter((f) => (seenRules.has(f.rule) ? false : (seenRules.add(f.rule), true)));
    if (findings.length > 0) {
      this.violations += 1;
      for (const f of findings) {
        this.rules.set(f.rule, (this.rules.get(f.rule) ?? 0) + 1);
        if (this.kept.length < KEEP) this.kept.push({ ...f, method, path, status, at: Math.round(at) });
      }
    }
    return findings;
  }
}
