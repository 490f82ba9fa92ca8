// How many Playwright workers the self-test's runs (test/support/harness/) use. Each run's
// projects limit their own workers (harness/plan.ts: one, two for a large project), since a
// worker serves one project and starting one costs one to two CPU-seconds; the run's total
// only says how many projects go side by side. Their tests wait on the references more
// than they compute, so more workers than cores keep the cores busy.
import os from 'node:os';

const cores = typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length;

function positive(raw: string | undefined, fallback: number): number {
  const n = Number(raw);
  return Number.isInteger(n) && n > 0 ? n : fallback;
}

/** Workers of the controls' runs (the plain reference's, then every control's): five per core, at most ten. SUITE_WORKERS overrides. */
export const SUITE_WORKERS = positive(process.env.SUITE_WORKERS, Math.max(2, Math.min(5 * cores, 10)));

/** Workers of the fault matrix's run: three per core, at most eight. MATRIX_WORKERS overrides. */
export const MATRIX_WORKERS = positive(process.env.MATRIX_WORKERS, Math.max(1, Math.min(3 * cores, 8)));
