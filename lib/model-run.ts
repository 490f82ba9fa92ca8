// Model-based (stateful) checks: fast-check draws sequences of commands (fc.commands), each
// run against the live target and a small model of what the seed says its state must be
// (fc.asyncModelRun). A command judges the target's answers against the model under the
// rules they belong to; a broken check throws at once (the log is strict inside a run), so
// fast-check sees the failure and shrinks the sequence to the shortest one that still fails.
//
// The counterexample is reported as what a server team can paste: every command of the
// shortest sequence with the curl of each exchange it made (credentials redacted, files
// carried along), and the variables that replay it: FC_SEED and FC_PATH (whose part after
// an `@` says which commands of the drawn sequence ran: fast-check needs it to walk the
// shrink path without running the steps before), with FC_MAX_COMMANDS, the length bound the
// sequence was drawn under (it differs between profiles). A replay draws the same commands in
// the same order; the bytes, names, keys and labels it sends are fresh ones (a server keeps
// what an earlier run sent, so the very same upload would be a dedup hit the second time).
// An exact resend is a recording's business (`run --record`, then `replay`).
import fc from 'fast-check';
import type { Exchange, Recorder } from './recorder.ts';
import { curlOf, refOf } from './repro.ts';
import { activeLog, type CheckResult } from './results.ts';
import { RuleViolation, SuiteError, show } from './violations.ts';
import type { ModelBudget } from './profile.ts';
import { cassette } from './cassette.ts';

export interface TraceStep {
  /** What the step did, with the indices it resolved ("upload blob #1 again under a new path"). */
  label: string;
  exchanges: Exchange[];
}

/** The exchanges of one run, grouped by the command that made them. */
export class Trace {
  readonly steps: TraceStep[] = [];
  constructor(private readonly recorder: Recorder) {}

  async step<T>(label: string, fn: () => Promise<T>): Promise<T> {
    const from = this.recorder.exchanges.length;
    const step: TraceStep = { label, exchanges: [] };
    this.steps.push(step);
    try {
      return await fn();
    } finally {
      step.exchanges = this.recorder.exchanges.slice(from);
    }
  }

  /** Names the running step once it knows what it resolved to. */
  say(label: string): void {
    const current = this.steps[this.steps.length - 1];
    if (current) current.label = label;
  }
}

/** A command of a model: run() wraps the command's own act() in a step of the run's trace. */
export abstract class ModelCommand<M extends object, R extends { trace: Trace }> implements fc.AsyncCommand<M, R> {
  abstract check(m: Readonly<M>): boolean;
  protected abstract act(m: M, r: R): Promise<void>;
  abstract toString(): string;
  async run(m: M, r: R): Promise<void> {
    await r.trace.step(this.toString(), () => this.act(m, r));
  }
}

/**
 * One phase of every run: a sequence drawn from its own group of commands (weighted by
 * repetition). A run plays its phases one after another on the same model and system, so a
 * phase that focuses on one area (assets, jobs, a walk) reaches states several steps deep
 * there in few commands, on top of what the phases before it left; a mixed phase still
 * interleaves everything.
 */
export interface Phase<M extends object, R> {
  name: string;
  commands: Array<fc.Arbitrary<fc.AsyncCommand<M, R>>>;
}

export interface ModelRunOptions<M extends object, R extends { trace: Trace }> {
  /** The test's title, for the property record of the report. */
  title: string;
  budget: ModelBudget;
  /** The phases of every run, in order (one phase is plain fc.commands). */
  phases: Array<Phase<M, R>>;
  /** A fresh model and real system for run number `run` (1, 2, ...), sharing that run's trace. */
  fresh: (run: number, trace: Trace) => { model: M; real: R };
  /** Run after the commands of every run (wind down: finish a walk, let jobs end), as a last step of the trace. */
  finish?: { label: string; fn: (model: M, real: R) => Promise<void> };
  recorder: Recorder;
}

export interface ModelOutcome {
  seed: number;
  planned: number;
  ran: number;
  interrupted: boolean;
  /** Set when the model found a broken rule: the shortest sequence, as text a server team can paste. */
  failure?: { rule: string; text: string };
}

/**
 * Replay variables of a counterexample. FC_PATH carries fast-check's path and, after an `@`,
 * each phase's replay path (which of its drawn commands ran), comma-separated, which walking
 * the path needs; the length bound is part of what was drawn, so it is given too.
 */
function replayOf(seed: number, path: string | null | undefined, counterexample: unknown, maxCommands: number): string {
  const lists =
    Array.isArray(counterexample) && Array.isArray(counterexample[0]) ? (counterexample[0] as unknown[]) : [];
  const replayPaths = lists.map((l) => /replayPath="([^"]*)"/.exec(String(l))?.[1] ?? '');
  return `FC_SEED=${seed} FC_PATH=${path ?? ''}${replayPaths.some((p) => p) ? `@${replayPaths.join(',')}` : ''} FC_MAX_COMMANDS=${maxCommands}`;
}

/** The shortest sequence as numbered commands, each followed by the curl of its exchanges. */
function sequenceText(steps: readonly TraceStep[]): string {
  return steps
    .map((s, i) => {
      const curls = s.exchanges.map((ex) => curlOf(ex));
      return [`# ${i + 1}. ${s.label}${curls.length === 0 ? ' (no request)' : ''}`, ...curls].join('\n');
    })
    .join('\n');
}

/**
 * Runs the model's commands against the target. A broken rule is recorded in the test's log
 * with the shortest sequence as its reproduction (the test then fails at its end, and the
 * other rules it judged keep their evidence); an exchange the suite could not complete (a
 * stall, its own bound) ends the test as that error, with the seeds to run it again.
 */
export async function runModel<M extends object, R extends { trace: Trace }>(
  opts: ModelRunOptions<M, R>,
): Promise<ModelOutcome> {
  const { budget } = opts;
  const log = activeLog();
  const seed = budget.seed ?? (Date.now() ^ (Math.random() * 0x7fffffff)) | 0;
  let runs = 0;
  let failing: TraceStep[] | undefined;
  const replayPaths = budget.replayPath?.split(',') ?? [];
  const arbitrary = fc.tuple(
    ...opts.phases.map((phase, i) =>
      fc.commands(phase.commands, {
        maxCommands: budget.maxCommands,
        size: 'max',
        ...(replayPaths[i] ? { replayPath: replayPaths[i] } : {}),
      }),
    ),
  );
  const property = fc.asyncProperty(arbitrary, async (lists) => {
    const trace = new Trace(opts.recorder);
    const state = opts.fresh(++runs, trace);
    const body = async () => {
      for (const cmds of lists) await fc.asyncModelRun(() => state, cmds);
      if (opts.finish) await trace.step(opts.finish.label, () => opts.finish!.fn(state.model, state.real));
    };
    // MODEL_TRACE=1 prints every run's steps to stderr (to see what the swarms draw).
    const say = (how: string) =>
      budget.trace &&
      process.stderr.write(`[model] run ${runs} ${how}: ${trace.steps.map((s) => s.label).join(' | ')}\n`);
    try {
      await (log ? log.strictly(body) : body());
      say('held');
    } catch (err) {
      say('FAILED');
      // fast-check keeps the last failing run it shrank to: this trace, if no later one fails.
      failing = trace.steps;
      throw err;
    }
  });
  const details = await fc.check(property, {
    numRuns: budget.numRuns,
    seed,
    ...(budget.path ? { path: budget.path, endOnFailure: true } : {}),
    // A recorded run draws its whole budget: cut short by the clock, it would leave its
    // faster replay drawing runs the recording never saw (then "not in the recording").
    ...(cassette() ? {} : { interruptAfterTimeLimit: budget.timeLimitMs }),
    markInterruptAsFailure: false,
  });
  const outcome: ModelOutcome = {
    seed: details.seed,
    planned: budget.numRuns,
    ran: details.numRuns,
    interrupted: details.interrupted,
  };
  log?.properties.push({
    title: opts.title,
    seed: details.seed,
    ...(budget.path ? { path: budget.replayPath ? `${budget.path}@${budget.replayPath}` : budget.path } : {}),
    planned: budget.numRuns,
    ran: details.numRuns,
    interrupted: details.interrupted,
  });
  if (!details.failed) return outcome;

  const replay = replayOf(details.seed, details.counterexamplePath, details.counterexample, budget.maxCommands);
  const inner = details.errorInstance;
  if (inner instanceof SuiteError) {
    inner.message += `\n(model run ${details.numRuns}; replay: ${replay})`;
    throw inner;
  }
  const steps = failing ?? [];
  const text = [
    `Model-based sequence falsified after ${details.numRuns} run(s), shrunk ` +
      `${details.numShrinks} time(s); the shortest sequence found (${steps.length} step(s)):`,
    sequenceText(steps),
    `# replay: ${replay} (the same commands in the same order, with fresh bytes, names, keys and labels)`,
  ].join('\n');
  if (inner instanceof RuleViolation && inner.result) {
    const broken: CheckResult = inner.result;
    const last = broken.exchange ?? lastExchangeRef(steps);
    log?.record({
      ...broken,
      what: `${broken.what} (after ${steps.length} model step(s): ${steps.map((s) => s.label).join('; ')}; replay: ${replay})`,
      ...(last ? { exchange: { ...last, curl: text } } : {}),
    });
    return { ...outcome, failure: { rule: broken.rule, text: `${inner.message}\n\n${text}` } };
  }
  // Neither a broken rule nor the suite's own bound: a defect of the model itself.
  const message = inner instanceof Error ? inner.message : show(inner);
  throw new Error(`${message}\n\n${text}`);
}

function lastExchangeRef(steps: readonly TraceStep[]) {
  for (let i = steps.length - 1; i >= 0; i--) {
    const exs = steps[i].exchanges;
    if (exs.length > 0) return refOf(exs[exs.length - 1]);
  }
  return undefined;
}
