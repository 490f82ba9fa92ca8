// Runs API-format workflows on the catalog and reports what happens as EngineEvents.
//
// Per account, up to concurrencyFor(account) jobs run at once; further jobs wait in a
// FIFO queue (seed W, v1 rule 3). Within a job, nodes run one at a time in dependency
// order (ties broken by node-id order); each node's outputs are kept for the nodes that
// link to them. Events of one job, in order:
//
//   status queued (queuePosition 1 = next of its account to start; sent again on
//                  every change of position)
//   status running, execution_start, execution_cached {nodes: []}
//   per node: executing {node}
//             progress (each Sleep step, else one when the node finishes)
//             preview (PreviewImage; Sleep with an image after its first step)
//             text (TextOutput)
//             executed {node, outputs} (output nodes only)
//   executing {node: null}
//   exactly one of execution_success | execution_error | execution_interrupted
//   status succeeded | failed | canceled
//
// A running job that is canceled emits `status canceling` at once and stops at the next
// node boundary (a Sleep stops at once: its timer is cleared); it then ends canceled.
// A queued job that is canceled never starts: execution_interrupted {node: null} and
// status canceled follow at once. JobState is updated before each event is emitted, so
// a listener calling get() sees the state the event describes.
import { EventEmitter } from 'node:events';
import {
  acceptsLink,
  CanceledError,
  checkLiteral,
  isLink,
  NodeError,
  type Catalog,
  type InputSpec,
  type NodeClass,
  type NodeRunContext,
} from './catalog.ts';
import { encodePng, PngError } from './png.ts';
import { compareNodeIds, validateWorkflow } from './validate.ts';
import type {
  EngineEvent,
  EngineHost,
  ExecutionFailure,
  ExecutionStatus,
  Image,
  JobSpec,
  JobState,
  Progress,
  Refusal,
  StoredOutput,
} from './types.ts';
import { isPlainObject } from '../../lib/values.ts';

export interface ExecutorOptions {
  host: EngineHost;
  catalog: Catalog;
  /** How many jobs of this account may run at once (values below 1 count as 1). */
  concurrencyFor(account: string): number;
  /** extra_data field holding the partner key; overrides the catalog's (default api_key_comfy_org). */
  partnerKeyField?: string;
  /** Clock, for tests. */
  now?: () => number;
  /**
   * A node cache, as real engines keep one (absent: none): a node whose class and inputs ran in
   * an earlier successful job of the account finishes at once, its waits skipped.
   */
  nodeCache?: NodeCacheLike;
}

/** What the executor asks of a node cache (reference/v1/cache.ts NodeCache is one). */
export interface NodeCacheLike {
  cachedNodes(account: string, workflow: JobSpec['workflow']): string[];
  remember(account: string, workflow: JobSpec['workflow']): void;
}

export type ExecutorEvents = { event: [EngineEvent] };

export type CancelResult = 'canceling' | 'terminal' | 'unknown';

const TERMINAL: ReadonlySet<ExecutionStatus> = new Set(['succeeded', 'failed', 'canceled']);

function isTerminal(status: ExecutionStatus): boolean {
  return TERMINAL.has(status);
}

interface Run {
  spec: JobSpec;
  state: JobState;
  abort: AbortController;
  phase: 'queued' | 'running' | 'done';
}

type Outcome =
  { kind: 'success' } | { kind: 'error'; failure: ExecutionFailure } | { kind: 'interrupted'; node: string | null };

type WorkflowNode = { class_type: string; inputs: Record<string, unknown> };

/** extra_data (the partner key) is forwarded per run and never kept beyond it. */
function dropExtraData(run: Run): void {
  if (run.spec.extraData !== undefined)
    run.spec = { id: run.spec.id, account: run.spec.account, workflow: run.spec.workflow };
}

function snapshot(s: JobState): JobState {
  return {
    ...s,
    progress: s.progress ? { ...s.progress } : null,
    outputs: s.outputs.map((o) => ({ ...o })),
    failure: s.failure ? { ...s.failure, traceback: [...s.failure.traceback] } : null,
    lastPreview: s.lastPreview ? { ...s.lastPreview } : null,
  };
}

function failureOf(err: unknown, nodeId: string | null, classType: string | null): ExecutionFailure {
  let type: string;
  let message: string;
  if (err instanceof NodeError) {
    type = err.exceptionType;
    message = err.message;
  } else if (err instanceof PngError) {
    type = 'ValueError';
    message = err.message;
  } else if (err instanceof Error) {
    type = err.name && err.name !== 'Error' ? err.name : 'RuntimeError';
    message = err.message;
  } else {
    type = 'RuntimeError';
    message = String(err);
  }
  const where =
    nodeId === null
      ? '  File "engine", while preparing the workflow'
      : `  File "engine", line 1, in ${classType ?? 'node'}.run (node ${nodeId})`;
  return {
    node_id: nodeId,
    class_type: classType,
    exception_type: type,
    exception_message: message,
    traceback: ['Traceback (most recent call last):', where, `${type}: ${message}`],
  };
}

function specsOf(cls: NodeClass): Array<[string, InputSpec, boolean]> {
  return [
    ...Object.entries(cls.input.required).map(([k, s]): [string, InputSpec, boolean] => [k, s, true]),
    ...Object.entries(cls.input.optional ?? {}).map(([k, s]): [string, InputSpec, boolean] => [k, s, false]),
  ];
}

/** Dependency order (links first), ties by node id. Throws NodeError on a malformed graph or a cycle. */
export function executionOrder(workflow: unknown): string[] {
  if (!isPlainObject(workflow)) throw new NodeError('ValidationError', 'the workflow is not an object');
  const ids = Object.keys(workflow).sort(compareNodeIds);
  const deps = new Map<string, Set<string>>();
  const dependents = new Map<string, string[]>();
  for (const id of ids) {
    const node = workflow[id];
    if (!isPlainObject(node) || !isPlainObject(node.inputs) || typeof node.class_type !== 'string')
      throw new NodeError('ValidationError', `node ${id} is not {class_type, inputs}`);
    const set = new Set<string>();
    for (const v of Object.values(node.inputs)) {
      if (isLink(v) && Object.prototype.hasOwnProperty.call(workflow, String(v[0]))) set.add(String(v[0]));
    }
    deps.set(id, set);
    for (const d of set) dependents.set(d, [...(dependents.get(d) ?? []), id]);
  }
  const remaining = new Map<string, number>();
  for (const id of ids) remaining.set(id, deps.get(id)!.size);
  const ready = ids.filter((id) => remaining.get(id) === 0);
  const order: string[] = [];
  while (ready.length) {
    ready.sort(compareNodeIds);
    const id = ready.shift()!;
    order.push(id);
    for (const d of dependents.get(id) ?? []) {
      const left = remaining.get(d)! - 1;
      remaining.set(d, left);
      if (left === 0) ready.push(d);
    }
  }
  if (order.length !== ids.length)
    throw new NodeError(
      'ValidationError',
      `the workflow has a dependency cycle through node(s) ${ids.filter((id) => !order.includes(id)).join(', ')}`,
    );
  return order;
}

function resolveInputs(cls: NodeClass, node: WorkflowNode, cache: Map<string, unknown[]>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, spec, required] of specsOf(cls)) {
    const v = node.inputs[name];
    if (v === undefined) {
      if (required) throw new NodeError('ValidationError', `required input "${name}" is missing`);
      if ('default' in spec && spec.default !== undefined) out[name] = spec.default;
      continue;
    }
    if (isLink(v) && acceptsLink(spec)) {
      const outs = cache.get(String(v[0]));
      if (!outs || v[1] >= outs.length)
        throw new NodeError(
          'ValidationError',
          `input "${name}" links to output ${v[1]} of node ${String(v[0])}, which it does not have`,
        );
      out[name] = outs[v[1]];
      continue;
    }
    const problem = checkLiteral(spec, v);
    if (problem) throw new NodeError('ValidationError', `input "${name}": ${problem}`);
    out[name] = v;
  }
  return out;
}

function interruptibleSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (signal.aborted) {
      reject(new CanceledError());
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(new CanceledError());
    };
    const timer = setTimeout(
      () => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      },
      Math.max(0, Number.isFinite(ms) ? ms : 0),
    );
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

export class Executor extends EventEmitter<ExecutorEvents> {
  private readonly host: EngineHost;
  private readonly catalog: Catalog;
  private readonly concurrencyFor: (account: string) => number;
  private readonly partnerKeyField: string | undefined;
  private readonly now: () => number;
  private readonly nodeCache: NodeCacheLike | undefined;
  private readonly runs = new Map<string, Run>();
  private readonly queues = new Map<string, Run[]>();
  private readonly runningCount = new Map<string, number>();
  private readonly pumps = new Map<string, NodeJS.Immediate>();
  private readonly active = new Set<Promise<void>>();
  private closed = false;

  constructor(opts: ExecutorOptions) {
    super();
    this.host = opts.host;
    this.catalog = opts.catalog;
    this.concurrencyFor = opts.concurrencyFor;
    this.partnerKeyField = opts.partnerKeyField;
    this.now = opts.now ?? Date.now;
    this.nodeCache = opts.nodeCache;
    // Every open v2 event stream or v1 socket listens here; there is no sensible cap.
    this.setMaxListeners(0);
  }

  /** Submit-time validation against this executor's catalog and host (the account's assets and input files). */
  validate(workflow: unknown, account: string): Refusal | undefined {
    return validateWorkflow(workflow, {
      catalog: this.catalog,
      assetExists: (id) => this.host.assetBytes(account, id) !== undefined,
      inputFileExists: (name) => this.host.inputFileBytes(account, name) !== undefined,
    });
  }

  /** Queues a job (it starts on a later turn of the event loop). Throws on a duplicate id or after close(). */
  submit(spec: JobSpec): JobState {
    if (this.closed) throw new Error('the executor is closed');
    if (this.runs.has(spec.id)) throw new Error(`job ${spec.id} already exists`);
    const queue = this.queueOf(spec.account);
    const state: JobState = {
      id: spec.id,
      account: spec.account,
      status: 'queued',
      queuePosition: queue.length + 1,
      createdAt: this.now(),
      startedAt: null,
      completedAt: null,
      progress: null,
      outputs: [],
      failure: null,
      lastPreview: null,
    };
    // The job runs on its own copy: later changes to the caller's objects do not leak in.
    const own: JobSpec = {
      id: spec.id,
      account: spec.account,
      workflow: structuredClone(spec.workflow),
      ...(spec.extraData ? { extraData: { ...spec.extraData } } : {}),
    };
    const run: Run = { spec: own, state, abort: new AbortController(), phase: 'queued' };
    this.runs.set(spec.id, run);
    queue.push(run);
    this.send({ kind: 'status', jobId: spec.id, status: 'queued', queuePosition: state.queuePosition });
    this.schedulePump(spec.account);
    return snapshot(state);
  }

  /** A copy of the job's current state. */
  get(jobId: string): JobState | undefined {
    const run = this.runs.get(jobId);
    return run ? snapshot(run.state) : undefined;
  }

  /**
   * Cancels a job. A queued job is canceled at once ('terminal'); a running one becomes
   * canceling and stops at the next node or Sleep-step boundary ('canceling').
   */
  cancel(jobId: string): CancelResult {
    const run = this.runs.get(jobId);
    if (!run) return 'unknown';
    const { state } = run;
    if (isTerminal(state.status)) return 'terminal';
    if (run.phase === 'queued') {
      const queue = this.queueOf(state.account);
      queue.splice(queue.indexOf(run), 1);
      run.phase = 'done';
      dropExtraData(run);
      state.status = 'canceled';
      state.queuePosition = null;
      state.completedAt = this.now();
      this.send({ kind: 'execution_interrupted', jobId, node: null });
      this.send({ kind: 'status', jobId, status: 'canceled', queuePosition: null });
      this.renumber(state.account);
      return 'terminal';
    }
    if (state.status !== 'canceling') {
      state.status = 'canceling';
      this.send({ kind: 'status', jobId, status: 'canceling', queuePosition: null });
      run.abort.abort();
    }
    return 'canceling';
  }

  /** Jobs of the account waiting to start. */
  queueLength(account: string): number {
    return this.queues.get(account)?.length ?? 0;
  }

  /** Jobs of the account not yet finished: queued plus running (including canceling). */
  activeCount(account: string): number {
    return this.queueLength(account) + (this.runningCount.get(account) ?? 0);
  }

  /** Drops a finished job's state (for hosts that expire jobs). Returns whether it was dropped. */
  forget(jobId: string): boolean {
    const run = this.runs.get(jobId);
    if (!run || !isTerminal(run.state.status)) return false;
    return this.runs.delete(jobId);
  }

  /**
   * Shuts down: refuses new jobs, cancels every queued and running job (with their
   * usual events) and clears every timer. Resolves once all running jobs have ended.
   */
  close(): Promise<void> {
    this.closed = true;
    for (const t of this.pumps.values()) clearImmediate(t);
    this.pumps.clear();
    for (const queue of this.queues.values()) for (const run of [...queue]) this.cancel(run.state.id);
    for (const run of this.runs.values()) if (run.phase === 'running') this.cancel(run.state.id);
    return Promise.all([...this.active]).then(() => undefined);
  }

  // -------------------------------------------------------------------------------

  /** Emits to every listener; one that throws neither breaks the run nor starves the others. */
  private send(e: EngineEvent): void {
    for (const listener of this.rawListeners('event')) {
      try {
        listener.call(this, e);
      } catch (err) {
        console.error('engine: an event listener threw:', err);
      }
    }
  }

  private queueOf(account: string): Run[] {
    let q = this.queues.get(account);
    if (!q) {
      q = [];
      this.queues.set(account, q);
    }
    return q;
  }

  private schedulePump(account: string): void {
    if (this.closed || this.pumps.has(account)) return;
    this.pumps.set(
      account,
      setImmediate(() => {
        this.pumps.delete(account);
        this.pump(account);
      }),
    );
  }

  private limitFor(account: string): number {
    const n = Math.floor(this.concurrencyFor(account));
    return Number.isFinite(n) && n >= 1 ? n : 1;
  }

  private pump(account: string): void {
    if (this.closed) return;
    const queue = this.queueOf(account);
    const limit = this.limitFor(account);
    while (queue.length && (this.runningCount.get(account) ?? 0) < limit) {
      const run = queue.shift()!;
      this.runningCount.set(account, (this.runningCount.get(account) ?? 0) + 1);
      run.phase = 'running';
      const p = this.execute(run)
        .catch((err: unknown) => console.error('engine: a run ended abnormally:', err))
        .finally(() => {
          this.active.delete(p);
          this.runningCount.set(account, (this.runningCount.get(account) ?? 1) - 1);
          this.schedulePump(account);
        });
      this.active.add(p);
    }
    this.renumber(account);
  }

  private renumber(account: string): void {
    if (this.closed) return;
    const queue = this.queueOf(account);
    queue.forEach((run, i) => {
      if (run.state.queuePosition !== i + 1) {
        run.state.queuePosition = i + 1;
        this.send({ kind: 'status', jobId: run.state.id, status: 'queued', queuePosition: i + 1 });
      }
    });
  }

  private async execute(run: Run): Promise<void> {
    const { spec, state } = run;
    const jobId = spec.id;
    const signal = run.abort.signal;
    const workflow: unknown = spec.workflow;
    const total = isPlainObject(workflow) ? Object.keys(workflow).length : 0;

    state.status = 'running';
    state.queuePosition = null;
    state.startedAt = this.now();
    state.progress = {
      value: 0,
      nodes_done: 0,
      nodes_total: total,
      current_node: null,
      current_node_class: null,
      step: null,
      steps: null,
    };
    this.send({ kind: 'status', jobId, status: 'running', queuePosition: null });
    this.send({ kind: 'execution_start', jobId });
    this.send({ kind: 'execution_cached', jobId, nodes: [] });

    let outcome: Outcome;
    try {
      outcome = await this.runNodes(run, total);
    } catch (err) {
      outcome = { kind: 'error', failure: failureOf(err, null, null) };
    }
    if (outcome.kind === 'success' && signal.aborted) outcome = { kind: 'interrupted', node: null };
    this.finish(run, outcome, total);
  }

  private async runNodes(run: Run, total: number): Promise<Outcome> {
    const { spec, state } = run;
    const jobId = spec.id;
    const signal = run.abort.signal;
    let order: string[];
    try {
      order = executionOrder(spec.workflow);
    } catch (err) {
      return { kind: 'error', failure: failureOf(err, null, null) };
    }
    const workflow = spec.workflow as Record<string, WorkflowNode>;
    const cache = new Map<string, unknown[]>();
    const cachedBefore = new Set(this.nodeCache?.cachedNodes(spec.account, spec.workflow) ?? []);
    let done = 0;
    for (const id of order) {
      if (signal.aborted) return { kind: 'interrupted', node: null };
      const node = workflow[id];
      const cls = this.catalog.get(node.class_type);
      state.progress = {
        value: total ? done / total : 0,
        nodes_done: done,
        nodes_total: total,
        current_node: id,
        current_node_class: node.class_type,
        step: null,
        steps: null,
      };
      this.send({ kind: 'executing', jobId, node: id });
      if (!cls)
        return {
          kind: 'error',
          failure: failureOf(
            new NodeError('ValidationError', `node class ${node.class_type} does not exist on this server`),
            id,
            node.class_type,
          ),
        };

      let inputs: Record<string, unknown>;
      try {
        inputs = resolveInputs(cls, node, cache);
      } catch (err) {
        return { kind: 'error', failure: failureOf(err, id, cls.name) };
      }
      const stored: StoredOutput[] = [];
      const heldPreviews: Uint8Array[] = [];
      let stepped = false;
      const emitPreview = (png: Uint8Array): void => {
        state.lastPreview = { node: id, png };
        this.send({ kind: 'preview', jobId, node: id, png });
      };
      const nodeDone = done;
      const ctx: NodeRunContext = {
        jobId,
        account: spec.account,
        nodeId: id,
        classType: cls.name,
        inputs,
        extraData: spec.extraData ?? {},
        partnerKeyField: this.partnerKeyField,
        host: this.host,
        signal,
        progress: (step, steps) => {
          if (signal.aborted) return;
          stepped = true;
          const s = Math.max(0, Math.min(step, steps));
          const finished = s >= steps;
          const nodesDone = finished ? nodeDone + 1 : nodeDone;
          const frac = finished || steps <= 0 ? 0 : s / steps;
          const progress: Progress = {
            value: total ? Math.min(1, (nodesDone + frac) / total) : 1,
            nodes_done: nodesDone,
            nodes_total: total,
            current_node: id,
            current_node_class: cls.name,
            step: s,
            steps,
          };
          state.progress = progress;
          this.send({ kind: 'progress', jobId, node: id, value: s, max: steps, progress: { ...progress } });
        },
        preview: (png) => {
          if (stepped) emitPreview(png);
          else heldPreviews.push(png);
        },
        text: (text) => this.send({ kind: 'text', jobId, node: id, text }),
        store: (image: Image | Uint8Array, kind, filenamePrefix) => {
          const png = image instanceof Uint8Array ? image : encodePng(image);
          const out = this.host.storeOutput({
            jobId,
            account: spec.account,
            nodeId: id,
            kind,
            png,
            filenamePrefix,
            index: stored.length,
          });
          stored.push(out);
          state.outputs.push({ ...out, nodeId: id });
          return out;
        },
        // A node the cache holds finishes at once: its waits are skipped.
        sleep: (ms) => (cachedBefore.has(id) ? Promise.resolve() : interruptibleSleep(ms, signal)),
      };

      let outputs: unknown[];
      try {
        outputs = await cls.run(ctx);
      } catch (err) {
        // Once a cancel was requested the job ends canceled, whatever the node threw.
        if (err instanceof CanceledError || signal.aborted) return { kind: 'interrupted', node: id };
        return { kind: 'error', failure: failureOf(err, id, cls.name) };
      }
      cache.set(id, Array.isArray(outputs) ? outputs : []);
      done++;
      if (!stepped) {
        const progress: Progress = {
          value: total ? done / total : 1,
          nodes_done: done,
          nodes_total: total,
          current_node: id,
          current_node_class: cls.name,
          step: null,
          steps: null,
        };
        state.progress = progress;
        this.send({ kind: 'progress', jobId, node: id, value: 1, max: 1, progress: { ...progress } });
      }
      for (const png of heldPreviews) emitPreview(png);
      if (cls.outputNode) this.send({ kind: 'executed', jobId, node: id, outputs: stored.map((o) => ({ ...o })) });
    }
    return { kind: 'success' };
  }

  private finish(run: Run, outcome: Outcome, total: number): void {
    const { state } = run;
    const jobId = state.id;
    run.phase = 'done';
    dropExtraData(run);
    state.completedAt = this.now();
    if (outcome.kind === 'success') {
      this.nodeCache?.remember(run.spec.account, run.spec.workflow);
      state.status = 'succeeded';
      state.progress = {
        value: 1,
        nodes_done: total,
        nodes_total: total,
        current_node: null,
        current_node_class: null,
        step: null,
        steps: null,
      };
    } else if (outcome.kind === 'error') {
      state.status = 'failed';
      state.failure = outcome.failure;
    } else {
      state.status = 'canceled';
    }
    this.send({ kind: 'executing', jobId, node: null });
    if (outcome.kind === 'success') this.send({ kind: 'execution_success', jobId });
    else if (outcome.kind === 'error')
      this.send({
        kind: 'execution_error',
        jobId,
        failure: { ...outcome.failure, traceback: [...outcome.failure.traceback] },
      });
    else this.send({ kind: 'execution_interrupted', jobId, node: outcome.node });
    this.send({ kind: 'status', jobId, status: state.status, queuePosition: null });
  }
}
