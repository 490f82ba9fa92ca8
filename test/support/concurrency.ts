// How many suite runs the fault and control matrices start at once, and with how many
// Playwright workers each. A narrowed fault run is mostly fixed cost (config load,
// reference start-up, one worker's fixtures), so on a small machine several one-worker
// runs side by side beat fewer wide ones. MATRIX_CONCURRENCY / MATRIX_WORKERS override.
import os from 'node:os';

const cores = typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length;

function positive(raw: string | undefined, fallback: number): number {
  const n = Number(raw);
  return Number.isInteger(n) && n > 0 ? n : fallback;
}

/** Suite runs in flight at once: one more than the cores, since each run waits on its reference. */
export const MATRIX_CONCURRENCY = positive(process.env.MATRIX_CONCURRENCY, Math.max(2, cores + 1));
/** Playwright workers per narrowed fault run. */
export const MATRIX_WORKERS = positive(process.env.MATRIX_WORKERS, 1);
/**
 * Playwright workers of the controls' batch (every control's whole suite): three per core, at
 * most eight. Its tests wait on the references, not the CPU: on 2 cores eight controls took
 * 191 s with two workers and 130 s with six.
 */
export const SUITE_WORKERS = positive(process.env.SUITE_WORKERS, Math.max(2, Math.min(3 * cores, 8)));

/** Faults per batched Playwright run (test/support/batch/): more amortises start-up, fewer keeps a bad batch's blast radius small. */
export const BATCH_SIZE = positive(process.env.MATRIX_BATCH_SIZE, 70);
/** Playwright workers of a batched run: the cores. */
export const MATRIX_WORKERS_BATCHED = positive(process.env.MATRIX_WORKERS, Math.max(1, Math.min(cores, 4)));
