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
 * Playwright workers of the controls' batch (every control's suite plus the plain reference's,
 * about 125 projects of one worker each): five per core, at most ten. With one worker per
 * project its tests wait on the references more than they compute: on 2 cores the batch
 * took 394 s with six workers (1.25 cores busy) and 301 s with ten (1.7 cores busy).
 */
export const SUITE_WORKERS = positive(process.env.SUITE_WORKERS, Math.max(2, Math.min(5 * cores, 10)));

/**
 * Workers one project of a batched run may use at once. A Playwright worker serves one
 * project only, and starting one (loading the fixtures, the specs and their modules) cost
 * about as much CPU as the tests it then ran: with a project's tests spread over every
 * worker, each of the batch's ~120 projects started six. One worker per project, many
 * projects side by side: eight controls took 80 s and 100 CPU-s instead of 132 s and
 * 235 CPU-s on 2 cores. BATCH_PROJECT_WORKERS overrides.
 */
export const BATCH_PROJECT_WORKERS = positive(process.env.BATCH_PROJECT_WORKERS, 1);

/** Faults per batched Playwright run (test/support/batch/): more amortises start-up, fewer keeps a bad batch's blast radius small. */
export const BATCH_SIZE = positive(process.env.MATRIX_BATCH_SIZE, 70);
/**
 * Playwright workers of a batched fault run: three per core, at most eight. One worker per
 * project leaves them waiting on the references: on 2 cores the fault matrix took 340 s
 * (170 CPU-s) with two workers and 215 s (182 CPU-s) with six.
 */
export const MATRIX_WORKERS_BATCHED = positive(process.env.MATRIX_WORKERS, Math.max(1, Math.min(3 * cores, 8)));
