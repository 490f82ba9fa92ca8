// The stateful rules a passive observer can still hold, each judged by the function the
// specs and state machines call (no second reading of a rule here):
//   router  every status answer: the closed set of three, COMPLETED never left or changed,
//           error_type only once finished, Retry-After on unfinished polls (judgeQueueStatus);
//           a keyed retry of a request whose first answer was seen: answered from the
//           record and marked replayed (lib/router/replay.ts judgeRetry)
//   v2      submits under one Idempotency-Key: one job, another request refused
//           (checkOneJobPerKey, checkOtherRequestRefused); an event stream read to a terminal
//           status against the polled terminal status of its job (judgeEventStream)
//   v1      a prompt's stream on a connection opened before the prompt was accepted: the
//           order of its messages (checkOrder); its terminal message against the polled
//           terminal status (judgePollAgreement)
// What the observer cannot know is never judged: a key first used before it started, a
// stream its reader left before the end, a connection opened after a prompt started.
import { createHash } from 'node:crypto';
import type { ApiResponse } from '../api.ts';
import type { OperationSpec } from '../contracts/loader.ts';
import type { Family } from '../families.ts';
import { isPlainObject, textOf } from '../values.ts';
import { judgeQueueStatus, noteQueueStatus, type FinishedFact, type Handle } from '../router/queue.ts';
import { judgeRetry, type KeyRecord } from '../router/replay.ts';
import { checkOneJobPerKey, checkOtherRequestRefused, acceptedJobId } from '../v2/idempotency.ts';
import { judgeEventStream, reachedStatus } from '../v2/events.ts';
import { jobStates, type JobStates } from '../v2/states.ts';
import { classifyStatus, classifyPromptAnswer, type StatusKind } from '../v1/status.ts';
import { judgePollAgreement } from '../v1/run.ts';
import { checkOrder } from '../ws/order.ts';
import { TERMINAL_TYPES, type TextMessage } from '../ws/schemas.ts';
import type { Observed } from './observed.ts';

/** What the observer remembers per request, key, job, prompt or connection: the newest this many (a proxy may run for hours). */
const REMEMBERED = 10_000;

/** Sets `key` in `map`, forgetting the oldest entries past REMEMBERED. */
function remember<K, V>(map: Map<K, V>, key: K, value: V): void {
  map.delete(key);
  map.set(key, value);
  while (map.size > REMEMBERED) map.delete(map.keys().next().value as K);
}

const sha = (b: Buffer | undefined): string =>
  createHash('sha256')
    .update(b ?? Buffer.alloc(0))
    .digest('hex');

/** Who sent a request: its credential (never shown; a digest of it tells callers apart). */
function callerOf(ex: Observed): string {
  const h = ex.requestHeaders;
  return sha(Buffer.from(`${h.authorization ?? ''}\0${h['x-api-key'] ?? ''}`));
}

interface PromptSeen {
  /** When the prompt's acceptance passed (its stream on a connection opened before this is whole). */
  acceptedAt?: number;
  polled?: { status: string; kind: Exclude<StatusKind, 'in_flight'> };
  agreementJudged?: boolean;
}

interface WsConnection {
  openedAt: number;
  /** Text messages per prompt id, in arrival order. */
  prompts: Map<string, TextMessage[]>;
  judged: Set<string>;
}

export class PassiveState {
  private readonly states: JobStates;
  // router
  private readonly requests = new Map<string, FinishedFact | undefined>();
  private readonly records = new Map<string, { record: KeyRecord; seq: number }>();
  // v2
  private readonly submitsByKey = new Map<string, { body: string; answers: ApiResponse[]; firstJob?: string }>();
  private readonly polledJobs = new Map<string, string>();
  private readonly streams = new Map<string, ApiResponse>();
  private readonly agreed = new Set<string>();
  // v1
  private readonly prompts = new Map<string, PromptSeen>();
  private readonly connections = new Map<number, WsConnection>();

  constructor(scenario: Readonly<Record<string, unknown>>) {
    this.states = jobStates(scenario);
  }

  /** An answer whose contract held (or, `whole` false, one cut short, for what it still shows). */
  answer(family: Family, op: OperationSpec, res: ApiResponse, ex: Observed, whole: boolean): void {
    if (family === 'router' && whole) this.router(op, res, ex);
    if (family === 'v2') this.v2(op, res, ex, whole);
    if (family === 'v1' && whole) this.v1(op, res, ex);
  }

  // ------------------------------------------------------------------ router

  private router(op: OperationSpec, res: ApiResponse, ex: Observed): void {
    const json = res.status < 300 && isPlainObject(safeJson(res)) ? (safeJson(res) as Handle) : undefined;
    if (op.id === 'submitModelRequest' && res.status === 201 && json && typeof json.request_id === 'string') {
      noteQueueStatus(res, `the admission of request ${json.request_id}`);
      if (!this.requests.has(json.request_id)) remember(this.requests, json.request_id, undefined);
    }
    const statusAnswer =
      (op.id === 'getModelRequestStatus' && res.status === 200) || (op.id === 'getModelRequest' && res.status === 202);
    if (statusAnswer && json && typeof json.status === 'string') {
      const id =
        typeof json.request_id === 'string'
          ? json.request_id
          : (new URL(ex.url).pathname.split('/').find((s, i, all) => all[i - 1] === 'requests') ?? '?');
      const where = `${op.id === 'getModelRequest' ? 'a collect' : 'a status read'} of request ${id}`;
      remember(this.requests, id, judgeQueueStatus(this.requests.get(id), json, res, where));
    }
    const key = ex.requestHeaders['idempotency-key'];
    if (key !== undefined && (op.id === 'runModel' || op.id === 'submitModelRequest')) this.keyed(op, res, ex, key);
  }

  /** A keyed run or submit: the first success is the key's record; a later answer to the same request from the same caller is a retry. */
  private keyed(op: OperationSpec, res: ApiResponse, ex: Observed, key: string): void {
    const id = `${callerOf(ex)}\0${key}\0${ex.method} ${new URL(ex.url).pathname}\0${sha(ex.requestBody)}`;
    const known = this.records.get(id);
    const route = op.id === 'submitModelRequest' ? 'submit' : 'run';
    const success = route === 'submit' ? res.status === 201 : res.status === 200;
    if (!known) {
      if (!success) return;
      const requestId =
        route === 'submit' ? (safeJson(res) as { request_id?: unknown } | undefined)?.request_id : undefined;
      const record: KeyRecord | undefined =
        route === 'run'
          ? { route, status: res.status, bytes: res.body }
          : typeof requestId === 'string'
            ? { route, requestId }
            : undefined;
      if (record) remember(this.records, id, { record, seq: ex.seq });
      return;
    }
    // A retry refused (409: still running, or recorded but too large to replay; 429: a limit) says nothing of how a record is replayed.
    if (!success) return;
    const requestId = (safeJson(res) as { request_id?: unknown } | undefined)?.request_id;
    const got = `${res.status}${route === 'submit' ? ` ${textOf(requestId ?? '')}` : `, ${res.body.length} bytes`}`;
    judgeRetry(
      known.record,
      res,
      'ROUTER.IDEM.REPLAY',
      `a retry under key ${key} of the request first answered in exchange #${known.seq}`,
      got,
    );
  }

  // ------------------------------------------------------------------ v2

  private v2(op: OperationSpec, res: ApiResponse, ex: Observed, whole: boolean): void {
    if (op.id === 'streamJobEvents') return this.stream(res, ex);
    if (!whole) return;
    const json = safeJson(res);
    if (op.id === 'postJobs') this.submit(res, ex);
    const job = isPlainObject(json) ? json : undefined;
    if (
      (op.id === 'getJob' || op.id === 'postJobs' || op.id === 'cancelJob') &&
      res.status < 300 &&
      typeof job?.id === 'string' &&
      typeof job.status === 'string'
    ) {
      if (this.states.terminal.has(job.status)) {
        remember(this.polledJobs, job.id, job.status);
        this.agree(job.id);
      }
    }
  }

  private submit(res: ApiResponse, ex: Observed): void {
    const key = ex.requestHeaders['idempotency-key'];
    if (key === undefined) return;
    const id = `${callerOf(ex)}\0${key}`;
    const body = sha(ex.requestBody);
    const group = this.submitsByKey.get(id);
    if (!group) {
      // The key's first request seen: it makes the key's job, or is refused and leaves the key unused.
      if (acceptedJobId(res) !== undefined)
        remember(this.submitsByKey, id, { body, answers: [res], firstJob: acceptedJobId(res)! });
      return;
    }
    if (group.body === body) {
      // The first answer and the newest ones say whether the key made one job.
      group.answers.push(res);
      if (group.answers.length > 50) group.answers.splice(1, 1);
      checkOneJobPerKey(
        group.answers,
        `the ${group.answers.length} submits of one request under Idempotency-Key ${key} seen so far`,
      );
    } else {
      checkOtherRequestRefused(res, group.firstJob);
    }
  }

  private stream(res: ApiResponse, ex: Observed): void {
    // A stream read to a terminal status, or one the server ended (its last word), can be
    // compared with polling; one its reader left earlier, or cut at the size kept, is not judged.
    if (res.status !== 200 || !(reachedStatus(res.body, this.states.terminal) || ex.cut === undefined)) return;
    const id = new URL(ex.url).pathname.split('/').at(-2);
    if (!id) return;
    remember(this.streams, id, res);
    this.agree(id);
  }

  private agree(jobId: string): void {
    const stream = this.streams.get(jobId);
    const polled = this.polledJobs.get(jobId);
    if (!stream || polled === undefined || this.agreed.has(jobId)) return;
    this.agreed.add(jobId);
    if (this.agreed.size > REMEMBERED) this.agreed.delete(this.agreed.values().next().value as string);
    this.streams.delete(jobId);
    judgeEventStream(stream, polled, this.states.terminal);
  }

  // ------------------------------------------------------------------ v1

  private v1(op: OperationSpec, res: ApiResponse, ex: Observed): void {
    const json = safeJson(res);
    if (op.id === 'postPrompt') {
      const outcome = classifyPromptAnswer(res.status, json);
      if (outcome.kind === 'accepted') this.prompt(outcome.promptId).acceptedAt = ex.started;
      return;
    }
    if (op.id === 'getJobStatus' && res.status === 200 && isPlainObject(json) && typeof json.status === 'string') {
      const kind = classifyStatus(json.status);
      if (kind === 'in_flight') return;
      const id = new URL(ex.url).pathname.split('/').at(-2) ?? '';
      const p = this.prompt(id);
      p.polled = { status: json.status, kind };
      this.pollAgreement(id);
    }
  }

  private prompt(id: string): PromptSeen {
    let p = this.prompts.get(id);
    if (!p) remember(this.prompts, id, (p = {}));
    return p;
  }

  wsOpened(seq: number, at: number): void {
    remember(this.connections, seq, { openedAt: at, prompts: new Map(), judged: new Set() });
  }

  wsText(seq: number, message: TextMessage, _at: number): void {
    const c = this.connections.get(seq);
    const id = message.data.prompt_id;
    if (!c || typeof id !== 'string') return;
    const list = c.prompts.get(id) ?? [];
    list.push(message);
    c.prompts.set(id, list);
    if (TERMINAL_TYPES.has(message.type)) this.pollAgreement(id);
  }

  /** The stream's terminal message of a prompt (from any connection) against its polled terminal status. */
  private pollAgreement(id: string): void {
    const p = this.prompts.get(id);
    if (!p?.polled || p.agreementJudged) return;
    for (const c of this.connections.values()) {
      const terminal = c.prompts.get(id)?.find((m) => TERMINAL_TYPES.has(m.type));
      if (!terminal) continue;
      p.agreementJudged = true;
      judgePollAgreement(id, terminal, p.polled);
      return;
    }
  }

  /** A connection ended: the order of each prompt it carried whole (opened before the prompt was accepted). */
  wsClosed(seq: number): void {
    const c = this.connections.get(seq);
    if (!c) return;
    for (const [id, messages] of c.prompts) {
      const accepted = this.prompts.get(id)?.acceptedAt;
      const terminal = messages.find((m) => TERMINAL_TYPES.has(m.type));
      if (c.judged.has(id) || accepted === undefined || accepted < c.openedAt || !terminal) continue;
      c.judged.add(id);
      checkOrder({ promptId: id, messages, terminal });
    }
  }

  finish(): void {
    for (const seq of this.connections.keys()) this.wsClosed(seq);
  }
}

function safeJson(res: ApiResponse): unknown {
  try {
    return res.json();
  } catch {
    return undefined;
  }
}
