// The router state machine's commands. Each sends what a client sends, judges the answer
// against the model (lib/router/model/state.ts) under the rule the difference belongs to, and
// updates the model. Every observable difference has one rule:
//   a submit's 201 and handle, a status read's 200     ROUTER.QUEUE.HANDLE
//   a status name, the end of a request                ROUTER.QUEUE.STATUS_CLOSED (counted over
//                                                      the run; a finished request read
//                                                      unfinished again; error_type on an
//                                                      unfinished status)
//   Retry-After on an unfinished poll                  ROUTER.QUEUE.POLL_RETRY_AFTER
//   collect of an unfinished request                   ROUTER.QUEUE.COLLECT_PENDING
//   collect of a request that produced a result        ROUTER.QUEUE.COLLECT_IDENTICAL
//   cancel answers                                     ROUTER.QUEUE.CANCEL
//   the same key and request, by the caller            ROUTER.IDEM.REPLAY
//   the same key, another request, by the caller       ROUTER.IDEM.CONFLICT
//   the same key by another member                     ROUTER.IDEM.SCOPE
//   concurrent runs under one key                      ROUTER.IDEM.IN_FLIGHT
//   a key a refusal before dispatch released           ROUTER.IDEM.RELEASED_ON_REFUSAL
// Unfinished statuses are not named by the seed (R:110:e2aa1dbe54d9): anything but COMPLETED
// reads as unfinished. A cancel is only asked (R:104:618235c3f8bc): the model never assumes
// it took effect, only that a finished request stays as it was.
import { setTimeout as delay } from 'node:timers/promises';
import fc from 'fast-check';
import type { ApiClient, ApiResponse } from '../../api.ts';
import { check, ensure, notJudged } from '../../check.ts';
import { ModelCommand, type Phase } from '../../model-run.ts';
import type { RuleId } from '../../rule-ids.ts';
import { checkRouterError, describe, jsonOf, path, withKey, type ModelRef } from '../models.ts';
import { judgeRetry as judgeRecordedRetry, marked, replayed, type KeyRecord } from '../replay.ts';
import { judgeQueueStatus, noteQueueStatus, retryAfterOf, submitPastCap, type Handle } from '../queue.ts';
import {
  pick,
  touch,
  type KeyModel,
  type Member,
  type RequestModel,
  type RouterModel,
  type RouterReal,
  type Route,
  type SyncAnswer,
} from './state.ts';
import { textOf } from '../../values.ts';

type Cmd = ModelCommand<RouterModel, RouterReal>;
type Which = 'image' | 'slow';

function notJudgedOnce(r: RouterReal, rule: RuleId, why: string): void {
  if (r.facts.said.has(`${rule}\0${why}`)) return;
  r.facts.said.add(`${rule}\0${why}`);
  notJudged(rule, why);
}

const ref = (r: RouterReal, which: Which): ModelRef =>
  which === 'slow' && r.facts.slow ? r.facts.slow : r.facts.image;
const reqName = (m: RouterModel, q: RequestModel) =>
  `request #${m.requests.indexOf(q)} (${q.model === 'slow' ? 'slow_model' : 'image_model'})`;
const keyName = (m: RouterModel, k: KeyModel) =>
  `key #${m.keys.indexOf(k)} (${k.route === 'submit' ? 'a queued submit' : 'a synchronous run'} of body #${k.body})`;
const clientOf = (r: RouterReal, member: Member): ApiClient => (member === 'teammate' ? r.facts.teammate! : r.api);
const answerOf = (res: ApiResponse): SyncAnswer => ({
  status: res.status,
  contentType: res.header('content-type'),
  bytes: res.body,
});

/** A body of its own: no other call in the workspace ever sent it. */
function newBody(m: RouterModel, r: RouterReal): number {
  m.bodies.push({ ...r.facts.baseBody, prompt: `conformance model ${r.facts.nonce}-${r.run}-${r.serial++}` });
  return m.bodies.length - 1;
}

function newKey(r: RouterReal, what: string): string {
  return `conformance-model-${r.facts.nonce}-${r.run}-${what}${r.serial++}`;
}

function send(
  r: RouterReal,
  client: ApiClient,
  route: Route,
  which: Which,
  body: Record<string, unknown>,
  key?: string,
): Promise<ApiResponse> {
  const opts = { path: path(ref(r, which)), json: body };
  const args = key !== undefined ? withKey(key, opts) : opts;
  // A caller held at its spend or in-flight cap is told to wait (429, R:291:0042f822c462), not refused.
  return route === 'submit'
    ? submitPastCap(() => client.call('submitModelRequest', args), client.bounds)
    : client.call('runModel', args);
}

/** The synchronous answer to a model and input (learnt from a keyed run of it, else asked now without a key). */
async function syncAnswer(m: RouterModel, r: RouterReal, which: Which, body: number): Promise<SyncAnswer> {
  const id = `${which}\n${JSON.stringify(m.bodies[body])}`;
  const known = r.facts.sync.get(id);
  if (known) return known;
  const res = await send(r, r.api, 'run', which, m.bodies[body]);
  const answer = answerOf(res);
  if (res.status === 200) r.facts.sync.set(id, answer);
  return answer;
}

// ---------------------------------------------------------------- status answers

/**
 * What a status answer (a status read, or the body of a pending collect) says, judged against
 * what the model knows of the request; the model learns when it is finished.
 */
function judgeStatus(
  m: RouterModel,
  r: RouterReal,
  q: RequestModel,
  body: Handle,
  res: ApiResponse,
  where: string,
): void {
  // A finished request stays as it was; a cancel of it leaves it unchanged (R:106:b0ddf19e95e5).
  q.finished = judgeQueueStatus(
    q.finished,
    body,
    res,
    `${where} of ${reqName(m, q)}`,
    q.cancel.doneAfterFinish ? 'ROUTER.QUEUE.CANCEL' : 'ROUTER.QUEUE.STATUS_CLOSED',
  );
}

async function readStatus(m: RouterModel, r: RouterReal, q: RequestModel, where: string): Promise<Handle> {
  const res = await r.api.follow(q.handle.status_url);
  ensure('ROUTER.QUEUE.HANDLE', res.status === 200, {
    what: `the status_url of ${reqName(m, q)}, followed`,
    expected: '200 with the status response',
    received: describe(r.api, res),
    on: res,
  });
  const body = res.json<Handle>();
  check('ROUTER.QUEUE.HANDLE', body.request_id === q.handle.request_id, {
    what: `the request_id of ${where} of ${reqName(m, q)}`,
    expected: q.handle.request_id,
    received: body.request_id,
    on: res,
  });
  judgeStatus(m, r, q, body, res, where);
  return body;
}

// ---------------------------------------------------------------- queued submits

class Submit extends ModelCommand<RouterModel, RouterReal> {
  constructor(
    readonly which: Which,
    readonly key: 'none' | 'fresh' | 'released',
    /** Picks an input sent before (the same input twice), when `again`. */
    readonly n: number,
    readonly again: boolean,
  ) {
    super();
  }
  check(m: Readonly<RouterModel>): boolean {
    return this.key !== 'released' || m.released.some((k) => k.route === 'submit');
  }
  toString(): string {
    const key = { none: 'without a key', fresh: 'under a new key', released: 'under a key a refusal released' }[
      this.key
    ];
    return `submit to ${this.which === 'slow' ? 'slow_model' : 'image_model'} ${key}${this.again ? ' (an input sent before)' : ''}`;
  }
  protected async act(m: RouterModel, r: RouterReal): Promise<void> {
    const which: Which = this.which === 'slow' && r.facts.slow ? 'slow' : 'image';
    const released =
      this.key === 'released'
        ? m.released.splice(
            m.released.findIndex((k) => k.route === 'submit'),
            1,
          )[0]
        : undefined;
    const key = released?.key ?? (this.key === 'fresh' ? newKey(r, 's') : undefined);
    const body = this.again && m.bodies.length > 0 ? this.n % m.bodies.length : newBody(m, r);
    const index = m.requests.length;
    r.trace.say(
      `submit request #${index} to ${ref(r, which).id} with body #${body}${key ? ` under ${released ? 'the released' : 'the new'} key ${key}` : ''}`,
    );
    const res = await send(r, r.api, 'submit', which, m.bodies[body], key);
    if (released) {
      ensure('ROUTER.IDEM.RELEASED_ON_REFUSAL', res.status === 201 && !replayed(res), {
        what: `a valid submit under key ${key}, which a refusal before dispatch released`,
        expected: 'a fresh admission (201, not marked replayed)',
        received: `${describe(r.api, res)}, Idempotent-Replayed: ${marked(res)}`,
        on: res,
      });
    } else {
      ensure('ROUTER.QUEUE.HANDLE', res.status === 201, {
        what: `a submit of a valid body${key ? ' under a new key' : ''}`,
        expected: '201 with the handle',
        received: describe(r.api, res),
        on: res,
      });
      if (key !== undefined)
        check('ROUTER.IDEM.REPLAY', !replayed(res), {
          what: `the first submit under key ${key}`,
          expected: 'not marked replayed (a fresh answer)',
          received: marked(res),
          on: res,
        });
    }
    const handle = res.json<Handle>();
    ensure(
      'ROUTER.QUEUE.HANDLE',
      typeof handle.request_id === 'string' &&
        ['status_url', 'response_url', 'cancel_url'].every((u) => typeof handle[u as keyof Handle] === 'string'),
      {
        what: `the handle of request #${index}`,
        expected: 'request_id, status_url, response_url and cancel_url',
        received: handle,
        on: res,
      },
    );
    noteQueueStatus(res, 'a submit');
    const known = m.requests.findIndex((q) => q.handle.request_id === handle.request_id);
    check('ROUTER.QUEUE.HANDLE', known < 0, {
      what: `the request_id of a fresh admission (request #${index})`,
      expected: 'a request of its own (a submit admits a run)',
      received: `the request_id of request #${known}, ${handle.request_id}`,
      on: res,
    });
    const q: RequestModel = {
      handle,
      model: which,
      body,
      cancel: { asked: false, doneAfterFinish: false },
      ...(key ? { key } : {}),
    };
    m.requests.push(q);
    touch(m.recent.requests, q);
    if (key !== undefined) {
      const k: KeyModel = { key, route: 'submit', model: which, body, request: handle.request_id, replayed: false };
      m.keys.push(k);
      touch(m.recent.keys, k);
    }
  }
}

// ---------------------------------------------------------------- synchronous runs

class Run extends ModelCommand<RouterModel, RouterReal> {
  constructor(
    readonly which: Which,
    readonly key: 'fresh' | 'released',
    /** The input of a queued request (its collect must equal this answer), else a new one. */
    readonly queuedInput: boolean,
    readonly n: number,
    /** Copies sent at once under the key (the later ones find the first in flight, or its record). */
    readonly copies: number,
  ) {
    super();
  }
  check(m: Readonly<RouterModel>): boolean {
    return this.key !== 'released' || m.released.some((k) => k.route === 'run');
  }
  toString(): string {
    return (
      `run ${this.which === 'slow' ? 'slow_model' : 'image_model'} synchronously ` +
      `under ${this.key === 'fresh' ? 'a new key' : 'a key a refusal released'}` +
      `${this.copies > 1 ? `, ${this.copies} copies at once` : ''}${this.queuedInput ? ' (the input of a queued request)' : ''}`
    );
  }
  protected async act(m: RouterModel, r: RouterReal): Promise<void> {
    const which: Which = this.which === 'slow' && r.facts.slow && r.facts.full ? 'slow' : 'image';
    const released =
      this.key === 'released'
        ? m.released.splice(
            m.released.findIndex((k) => k.route === 'run'),
            1,
          )[0]
        : undefined;
    const key = released?.key ?? newKey(r, 'r');
    const queued = m.requests.filter((q) => q.model === which);
    const body = this.queuedInput && queued.length > 0 ? pick(queued, this.n, m.recent.requests).body : newBody(m, r);
    const copies = released ? 1 : this.copies;
    r.trace.say(
      `run ${ref(r, which).id} with body #${body} under ${released ? 'the released' : 'the new'} key ${key}${copies > 1 ? `, ${copies} copies at once` : ''}`,
    );
    const answers = await Promise.all(
      Array.from({ length: copies }, () => send(r, r.api, 'run', which, m.bodies[body], key)),
    );
    const first =
      answers.find((a) => a.status === 200 && !replayed(a)) ?? answers.find((a) => a.status === 200) ?? answers[0];
    if (released)
      ensure('ROUTER.IDEM.RELEASED_ON_REFUSAL', first.status === 200 && !replayed(first), {
        what: `a valid run under key ${key}, which a refusal before dispatch released`,
        expected: 'a fresh 200 (not marked replayed)',
        received: `${describe(r.api, first)}, Idempotent-Replayed: ${marked(first)}`,
        on: first,
      });
    else if (copies === 1) {
      ensure('ROUTER.RUN.NATIVE', first.status === 200, {
        what: `a keyed run of body #${body}`,
        expected: '200',
        received: describe(r.api, first),
        on: first,
      });
      check('ROUTER.IDEM.REPLAY', !replayed(first), {
        what: `the first run under key ${key}`,
        expected: 'not marked replayed (a fresh answer)',
        received: marked(first),
        on: first,
      });
    } else {
      ensure('ROUTER.IDEM.IN_FLIGHT', first.status === 200, {
        what: `${copies} runs at once under one new key`,
        expected: 'one of them answered 200 (the original call)',
        received: answers.map((a) => describe(r.api, a)).join(', '),
        on: first,
      });
      const refused = answers.filter((a) => a.status !== 200);
      // The others found it running (409 concurrency_limit_exceeded, Retry-After) or its record.
      for (const a of refused) {
        checkRouterError(
          r.api,
          'ROUTER.IDEM.IN_FLIGHT',
          a,
          [409],
          'concurrency_limit_exceeded',
          `a run under key ${key} sent while another with it ran answered ${describe(r.api, a)}`,
        );
        check('ROUTER.IDEM.IN_FLIGHT', retryAfterOf(a) !== undefined, {
          what: `the 409 concurrency_limit_exceeded of a run under key ${key}`,
          expected: 'Retry-After',
          received: a.header('retry-after') ?? 'absent',
          on: a,
        });
      }
      if (refused.length > 0) {
        // Every copy has been answered, so the original call is over: the key now holds its answer.
        const later = await send(r, r.api, 'run', which, m.bodies[body], key);
        const originals = answers.filter((a) => a.status === 200);
        check('ROUTER.IDEM.IN_FLIGHT', later.status === 200 && originals.some((a) => a.body.equals(later.body)), {
          what: `the same key again once the original call under it (key ${key}) answered`,
          expected: 'the original answer (200, the same bytes)',
          received: `${describe(r.api, later)}${later.status === 200 ? ', other bytes' : ''}`,
          on: later,
        });
      }
    }
    const answer = answerOf(first);
    if (!replayed(first)) r.facts.sync.set(`${which}\n${JSON.stringify(m.bodies[body])}`, answer);
    const k: KeyModel = { key, route: 'run', model: which, body, answer, replayed: false };
    m.keys.push(k);
    touch(m.recent.keys, k);
  }
}

// ---------------------------------------------------------------- keys used again

class Reuse extends ModelCommand<RouterModel, RouterReal> {
  constructor(
    readonly n: number,
    readonly same: boolean,
    readonly member: Member,
  ) {
    super();
  }
  check(m: Readonly<RouterModel>): boolean {
    return m.keys.length > 0;
  }
  toString(): string {
    return `${this.member === 'teammate' ? 'a teammate sends' : 'send'} a used key again with ${this.same ? 'the same request' : 'another request'}`;
  }
  protected async act(m: RouterModel, r: RouterReal): Promise<void> {
    const k = pick(m.keys, this.n, m.recent.keys);
    touch(m.recent.keys, k);
    // Without a teammate credential the caller sends it (ROUTER.IDEM.SCOPE is said not judged).
    const member: Member = this.member === 'teammate' && r.facts.teammate ? 'teammate' : 'caller';
    const who = member === 'teammate' ? 'a teammate' : 'the caller';
    const body = this.same
      ? m.bodies[k.body]
      : { ...m.bodies[k.body], prompt: `conformance model ${r.facts.nonce}-${r.run}-other${r.serial++}` };
    r.trace.say(`${who} sends ${keyName(m, k)} again with ${this.same ? 'the same request' : 'another body'}`);
    if (member === 'teammate' || !this.same) {
      // First the caller's own retry of the first request: the record must still be there
      // (R:169:f7d57f5d4f81), so what answers the other request after it is the conflict's
      // (R:165:954ec7a8c43e) or the shared keyspace's (R:170:583f5ec8e664), not a lost record's.
      const again = await send(r, r.api, k.route, k.model, m.bodies[k.body], k.key);
      judgeRetry(
        m,
        r,
        k,
        again,
        'ROUTER.IDEM.REPLAY',
        `the caller's retry of the first request under ${keyName(m, k)}`,
      );
    }
    const res = await send(r, clientOf(r, member), k.route, k.model, body, k.key);
    const what = `${who}'s ${k.route === 'submit' ? 'submit' : 'run'} under ${keyName(m, k)} with ${this.same ? 'the same request' : 'another body'}`;
    if (!this.same)
      return checkRouterError(
        r.api,
        member === 'teammate' ? 'ROUTER.IDEM.SCOPE' : 'ROUTER.IDEM.CONFLICT',
        res,
        [409],
        'invalid_input',
        `${what} answered ${describe(r.api, res)}`,
      );
    judgeRetry(m, r, k, res, member === 'teammate' ? 'ROUTER.IDEM.SCOPE' : 'ROUTER.IDEM.REPLAY', what);
  }
}

/** A retry of the key's first request: answered from its record, marked replayed (lib/router/replay.ts). */
function judgeRetry(m: RouterModel, r: RouterReal, k: KeyModel, res: ApiResponse, rule: RuleId, what: string): void {
  const got =
    describe(r.api, res) +
    (k.route === 'submit'
      ? ` ${textOf(jsonOf(res)?.request_id ?? '')}`
      : res.status === k.answer!.status
        ? `, ${res.body.length} other bytes`
        : '');
  const record: KeyRecord =
    k.route === 'submit'
      ? { route: 'submit', requestId: k.request! }
      : { route: 'run', status: k.answer!.status, bytes: k.answer!.bytes };
  if (judgeRecordedRetry(record, res, rule, what, got)) k.replayed = true;
}

/** A request the router refuses before dispatch, under a new key: the key is released (R:173:9444fff5531e). */
class Refuse extends ModelCommand<RouterModel, RouterReal> {
  constructor(
    readonly route: Route,
    readonly kind: 'unknown-model' | 'unregistered-provider',
  ) {
    super();
  }
  check(): boolean {
    return true;
  }
  toString(): string {
    return (
      `${this.route === 'submit' ? 'submit' : 'run'} under a new key a request refused before ` +
      `dispatch (${this.kind === 'unknown-model' ? 'an unknown model' : 'an unregistered model_provider'})`
    );
  }
  protected async act(m: RouterModel, r: RouterReal): Promise<void> {
    const key = newKey(r, 'x');
    const body = { ...r.facts.baseBody, prompt: `conformance model ${r.facts.nonce}-${r.run}-refused${r.serial++}` };
    const op = this.route === 'submit' ? 'submitModelRequest' : 'runModel';
    r.trace.say(`${this.toString().replace('a new key', `the new key ${key}`)}`);
    const image = r.facts.image;
    const res =
      this.kind === 'unknown-model'
        ? await r.api.call(
            op,
            withKey(key, {
              path: { provider: image.provider, model: `conformance-missing-${r.facts.nonce}` },
              json: body,
            }),
          )
        : await r.api.call(
            op,
            withKey(key, {
              path: path(image),
              query: { model_provider: 'conformance-unregistered-provider' },
              json: body,
            }),
          );
    // Each refusal is another rule's answer (as in specs/router/idempotency.spec.ts).
    if (this.kind === 'unknown-model')
      checkRouterError(
        r.api,
        'ROUTER.ERR.MODEL_NOT_FOUND',
        res,
        [404],
        undefined,
        `a ${op === 'runModel' ? 'run' : 'submit'} to an unknown model answered ${describe(r.api, res)}`,
      );
    else
      checkRouterError(
        r.api,
        'ROUTER.PROVIDER.UNREGISTERED',
        res,
        [400],
        undefined,
        `a ${op === 'runModel' ? 'run' : 'submit'} naming an unregistered model_provider answered ${describe(r.api, res)}`,
      );
    m.released.push({ key, route: this.route });
  }
}

// ---------------------------------------------------------------- polls, collect, cancel

class Status extends ModelCommand<RouterModel, RouterReal> {
  constructor(readonly n: number) {
    super();
  }
  check(m: Readonly<RouterModel>): boolean {
    return m.requests.length > 0;
  }
  toString(): string {
    return 'read the status of a request';
  }
  protected async act(m: RouterModel, r: RouterReal): Promise<void> {
    const q = pick(m.requests, this.n, m.recent.requests);
    touch(m.recent.requests, q);
    r.trace.say(`read the status of ${reqName(m, q)}`);
    await readStatus(m, r, q, 'a status read');
  }
}

class Collect extends ModelCommand<RouterModel, RouterReal> {
  constructor(readonly n: number) {
    super();
  }
  check(m: Readonly<RouterModel>): boolean {
    return m.requests.length > 0;
  }
  toString(): string {
    return 'collect a request';
  }
  protected async act(m: RouterModel, r: RouterReal): Promise<void> {
    const q = pick(m.requests, this.n, m.recent.requests);
    touch(m.recent.requests, q);
    r.trace.say(`collect ${reqName(m, q)}`);
    await collect(m, r, q);
  }
}

/** A collect of one request, judged against what the model knows of it. */
async function collect(m: RouterModel, r: RouterReal, q: RequestModel): Promise<void> {
  const name = reqName(m, q);
  const res = await r.api.follow(q.handle.response_url);
  if (res.status === 202) {
    const body = res.json<Handle>();
    check('ROUTER.QUEUE.COLLECT_PENDING', body.request_id === q.handle.request_id && typeof body.status === 'string', {
      what: `the 202 of a collect of ${name}`,
      expected: `the status response of request ${q.handle.request_id}`,
      received: body,
      on: res,
    });
    if (body.status === 'COMPLETED') {
      // 202 is the answer of an unfinished request (R:196:d6fd3b9cf281).
      check('ROUTER.QUEUE.COLLECT_PENDING', false, {
        what: `the 202 of a collect of ${name}`,
        expected: 'an unfinished status (202 means not yet complete)',
        received: body.status,
        on: res,
      });
      return;
    }
    judgeStatus(m, r, q, body, res, 'a pending collect');
    return;
  }
  if (res.status === 200) {
    q.finished ??= { errorType: null, how: 'a collect answered 200 with a result' };
    const was = q.collected;
    if (was !== undefined) {
      check(
        'ROUTER.QUEUE.COLLECT_IDENTICAL',
        res.body.equals(was.bytes) && res.header('content-type') === was.contentType,
        {
          what: `a collect of ${name} again`,
          expected: `the ${was.bytes.length} bytes it answered before, under ${was.contentType ?? 'no media type'}`,
          received: `${res.body.length} other bytes or another media type (${res.header('content-type') ?? 'none'})`,
          on: res,
        },
      );
      return;
    }
    // A fresh run is the same bytes only for a model the target declares deterministic.
    if (!r.facts.deterministic.has(ref(r, q.model).id)) {
      q.collected = answerOf(res);
      return notJudgedOnce(
        r,
        'ROUTER.QUEUE.COLLECT_IDENTICAL',
        `${ref(r, q.model).id} is not among the target's deterministic_models, so its collect is ` +
          `compared with its own later collects, not with a synchronous run`,
      );
    }
    const sync = await syncAnswer(m, r, q.model, q.body);
    if (sync.status !== 200)
      return notJudgedOnce(
        r,
        'ROUTER.QUEUE.COLLECT_IDENTICAL',
        `the synchronous run of a queued input answered ${sync.status}, so there is no answer to compare its collect with`,
      );
    check(
      'ROUTER.QUEUE.COLLECT_IDENTICAL',
      res.body.equals(sync.bytes) && res.header('content-type') === sync.contentType,
      {
        what: `a collect of ${name} (body #${q.body})`,
        expected: `the ${sync.bytes.length} bytes of the synchronous answer to the same model and input, under ${sync.contentType ?? 'no media type'}`,
        received: `${res.body.length} bytes${res.body.equals(sync.bytes) ? '' : ' that differ'}, under ${res.header('content-type') ?? 'no media type'}`,
        on: res,
      },
    );
    q.collected = answerOf(res);
    return;
  }
  // An error answer: right for a request that ended without a result, and for one whose result
  // aged out (410, retention not shown). The status says which the request is.
  if (res.status === 410) return;
  const status = await readStatus(m, r, q, `a status read after its collect answered ${describe(r.api, res)}`);
  // A status carrying an error_type is over, whatever it is named (STATUS_CLOSED judges the name).
  if (status.status !== 'COMPLETED' && status.error_type === undefined) {
    check('ROUTER.QUEUE.COLLECT_PENDING', false, {
      what: `a collect of ${name}, unfinished (its status read after: ${String(status.status)})`,
      expected: '202 with the status response',
      received: describe(r.api, res),
      on: res,
    });
  } else if (status.error_type === undefined || q.collected !== undefined) {
    // R:107:74fe11755885: a request that succeeded is collected 200 with its stored result (and one collected so once holds it).
    check('ROUTER.QUEUE.COLLECT_IDENTICAL', false, {
      what: `a collect of ${name}, which ${q.collected !== undefined ? 'answered its result before' : 'succeeded (COMPLETED without error_type)'}`,
      expected: '200 with its stored result',
      received: describe(r.api, res),
      on: res,
    });
  }
}

/**
 * A cancel of a request: one picked like any other command's, or (`oldest`) the first-admitted
 * request not yet known finished nor cancelled (else one picked as usual), as a client clearing
 * the head of its queue does. Requests admitted after it are often still waiting then, so
 * whatever a taken cancel does to them is seen when they are read and collected.
 */
class Cancel extends ModelCommand<RouterModel, RouterReal> {
  constructor(
    readonly n: number,
    readonly oldest = false,
  ) {
    super();
  }
  check(m: Readonly<RouterModel>): boolean {
    return m.requests.length > 0;
  }
  toString(): string {
    return this.oldest ? 'cancel the oldest unfinished request' : 'cancel a request';
  }
  protected async act(m: RouterModel, r: RouterReal): Promise<void> {
    const q =
      (this.oldest ? m.requests.find((x) => x.finished === undefined && !x.cancel.asked) : undefined) ??
      pick(m.requests, this.n, m.recent.requests);
    touch(m.recent.requests, q);
    const name = reqName(m, q);
    r.trace.say(`cancel ${name}${q.finished ? ' (known finished)' : ''}`);
    const res = await r.api.follow(q.handle.cancel_url, { method: 'PUT' });
    const said = jsonOf(res)?.status;
    if (res.status === 202 && said === 'CANCELLATION_REQUESTED') {
      check('ROUTER.QUEUE.CANCEL', q.finished === undefined, {
        what: `the cancel of ${name}, known finished (${q.finished?.how ?? ''})`,
        expected: 'ALREADY_COMPLETED (409 or 400): the request is already done',
        received: '202 CANCELLATION_REQUESTED',
        on: res,
      });
      q.cancel.asked = true;
      return;
    }
    check('ROUTER.QUEUE.CANCEL', (res.status === 409 || res.status === 400) && said === 'ALREADY_COMPLETED', {
      what: `the cancel of ${name}`,
      expected: '202 CANCELLATION_REQUESTED, or ALREADY_COMPLETED under 409 or 400 (the two codes R:201 names)',
      received: `${res.status} ${JSON.stringify(jsonOf(res) ?? res.body.toString('utf8').slice(0, 120))}`,
      on: res,
    });
    if (q.finished === undefined) q.finished = { errorType: null, how: 'a cancel answered ALREADY_COMPLETED' };
    else q.cancel.doneAfterFinish = true;
  }
}

/** Time passes between two client actions (requests of image_model may end meanwhile). */
class Pause extends ModelCommand<RouterModel, RouterReal> {
  constructor(readonly ms: number) {
    super();
  }
  check(m: Readonly<RouterModel>): boolean {
    return m.requests.length > 0;
  }
  toString(): string {
    return `let ${this.ms} ms pass`;
  }
  protected async act(): Promise<void> {
    await delay(this.ms);
  }
}

/**
 * After the last command: the first request under every key is sent again (answered from
 * its record), every request is collected once more (those of image_model given the time
 * they take on the reference first) and its status read, so what the commands never
 * reached, what changed after a later action, and what a collect leaves behind are judged
 * too.
 */
export async function windDown(m: RouterModel, r: RouterReal): Promise<void> {
  // Every key still holds its first answer (R:169:f7d57f5d4f81: kept 24 hours), whatever was done since.
  for (const k of m.keys)
    judgeRetry(
      m,
      r,
      k,
      await send(r, r.api, k.route, k.model, m.bodies[k.body], k.key),
      'ROUTER.IDEM.REPLAY',
      `the caller's last retry of the first request under ${keyName(m, k)}`,
    );
  if (m.requests.length === 0) return;
  await delay(40);
  for (const q of m.requests) await collect(m, r, q);
  for (const q of m.requests) await readStatus(m, r, q, 'a last status read');
}

// ---------------------------------------------------------------- arbitraries

/**
 * The phases of every run (lib/model-run.ts): everything mixed, then the queue (submits,
 * polls, collects, cancels, time passing) and then keys (keyed submits and runs, the same key
 * again by the caller and by a teammate, refusals that release a key). Within a phase,
 * repetition weights a command.
 */
export function routerPhases(r: { facts: RouterReal['facts'] }): Array<Phase<RouterModel, RouterReal>> {
  const index = fc.nat({ max: 7 });
  // One request in `1 + images` goes to slow_model (where the target names one).
  const whichOf = (images: number) =>
    fc.constantFrom<Which>(
      ...(r.facts.slow ? [...Array<Which>(images).fill('image'), 'slow' as const] : (['image'] as const)),
    );
  const submitWith = (keys: Array<'none' | 'fresh' | 'released'>, images: number) =>
    fc
      .tuple(whichOf(images), fc.constantFrom(...keys), index, fc.boolean())
      .map(([w, k, n, again]) => new Submit(w, k, n, again && n % 3 === 0));
  const submit = submitWith(['none', 'fresh', 'fresh'], 2);
  // The queue phase: half of its requests stay unfinished long enough to be cancelled (slow_model).
  const queuedSubmit = submitWith(['none', 'fresh'], 1);
  const keyedSubmit = submitWith(['fresh', 'fresh', 'released'], 2);
  const run = fc
    .tuple(
      whichOf(2),
      fc.constantFrom<'fresh' | 'released'>('fresh', 'fresh', 'released'),
      fc.boolean(),
      index,
      fc.constantFrom(1, 1, 2),
    )
    .map(([w, k, queued, n, copies]) => new Run(w, k, queued, n, copies));
  const members = fc.constantFrom<Member>(
    ...(r.facts.teammate ? (['caller', 'teammate'] as const) : (['caller'] as const)),
  );
  const reuse = fc.tuple(index, fc.boolean(), members).map(([n, same, member]) => new Reuse(n, same, member));
  const refuse = fc
    .tuple(
      fc.constantFrom<Route>('submit', 'run'),
      fc.constantFrom<'unknown-model' | 'unregistered-provider'>('unknown-model', 'unregistered-provider'),
    )
    .map(([route, kind]) => new Refuse(route, kind));
  const status = index.map((n) => new Status(n));
  const collect = index.map((n) => new Collect(n));
  const cancel = index.map((n) => new Cancel(n));
  const cancelOldest = index.map((n) => new Cancel(n, true));
  const pause = fc.constantFrom(40, 80).map((ms) => new Pause(ms));
  const times = <T>(n: number, arb: fc.Arbitrary<T>) => Array.from({ length: n }, () => arb);
  const mixed: Array<fc.Arbitrary<Cmd>> = [
    ...times(3, submit),
    run,
    ...times(2, reuse),
    refuse,
    status,
    ...times(2, collect),
    ...times(2, cancel),
    pause,
  ];
  const queue: Array<fc.Arbitrary<Cmd>> = [
    ...times(4, queuedSubmit),
    status,
    ...times(3, collect),
    ...times(2, cancel),
    ...times(2, cancelOldest),
    ...times(2, pause),
    reuse,
  ];
  const keys: Array<fc.Arbitrary<Cmd>> = [
    ...times(2, keyedSubmit),
    run,
    ...times(5, reuse),
    refuse,
    ...times(2, cancel),
  ];
  return [
    { name: 'mixed', commands: mixed },
    { name: 'queue', commands: queue },
    { name: 'keys', commands: keys },
  ];
}
