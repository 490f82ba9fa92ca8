// v2 job state names. The seed shows no lifecycle states for v2 jobs (W:100:65afe34f1ab1), so
// the names are scenario inputs whose defaults are the public documents' names:
//   job_terminal_states  the statuses of a finished job   (default succeeded, failed, canceled, expired)
//   job_success_state    the one a job that ran through has (default succeeded)
//   job_running_states   the statuses of a job that runs now, counted against a tier's limit (default running)
// A check that a server uses the public names is judged at SHOULD (V2.JOB.FIELDS_DOCUMENTED);
// the MUST checks read the names through these inputs.
import { SuiteError } from '../violations.ts';

export interface JobStates {
  readonly terminal: ReadonlySet<string>;
  readonly success: string;
  readonly running: ReadonlySet<string>;
}

/** The public documents' names (facts sheet 1f: JobStatus). */
export const PUBLIC_JOB_STATES: JobStates = {
  terminal: new Set(['succeeded', 'failed', 'canceled', 'expired']),
  success: 'succeeded',
  running: new Set(['running']),
};

function names(
  scenario: Readonly<Record<string, unknown>>,
  input: string,
  fallback: ReadonlySet<string>,
): ReadonlySet<string> {
  const raw = scenario[input];
  if (raw === undefined) return fallback;
  const list = typeof raw === 'string' ? raw.split(',').map((s) => s.trim()) : raw;
  if (!Array.isArray(list) || list.length === 0 || !list.every((s) => typeof s === 'string' && s.length > 0)) {
    throw new SuiteError(
      `scenario input ${input} must be a non-empty list of job status names (or one comma-separated string)`,
    );
  }
  return new Set(list as string[]);
}

/** The job state names of a target, from its scenario inputs; a mistake in them stops the run with the input's name. */
export function jobStates(scenario: Readonly<Record<string, unknown>>): JobStates {
  const terminal = names(scenario, 'job_terminal_states', PUBLIC_JOB_STATES.terminal);
  const rawSuccess = scenario.job_success_state;
  if (rawSuccess !== undefined && (typeof rawSuccess !== 'string' || rawSuccess.length === 0))
    throw new SuiteError('scenario input job_success_state must be one job status name');
  const success = rawSuccess ?? PUBLIC_JOB_STATES.success;
  if (!terminal.has(success))
    throw new SuiteError(
      `scenario input job_success_state (${success}) must be one of job_terminal_states (${[...terminal].join(', ')})`,
    );
  return { terminal, success, running: names(scenario, 'job_running_states', PUBLIC_JOB_STATES.running) };
}
