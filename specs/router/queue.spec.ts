// Seed R § Resources › Queued request; States and transitions; Endpoints › the queued
// submit, collect, cancel and status operations. URLs are followed as the handle gives them.
import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { test, rules } from '../../fixtures/test.ts';
import { check, ensure, notJudged, step } from '../../lib/check.ts';
import { refusedBody } from '../../lib/router/schema-doc.ts';
import type { ApiClient, ApiResponse } from '../../lib/api.ts';
import { checkRouterError, describe, jsonOf, modelRef, path, uniqueKey, withKey } from '../../lib/router/models.ts';
import { isJsonMedia } from '../../lib/contracts/validate.ts';
import { imageBody, textBody } from '../../lib/router/bodies.ts';
import { noteQueueStatus, retryAfterOf, submitPastCap, untilCompleted, type Handle } from '../../lib/router/queue.ts';
import { deterministicModels } from '../../lib/router/model/facts.ts';

/** The names public docs give the two unfinished statuses (the seed shows only COMPLETED). */
const UNFINISHED = ['IN_QUEUE', 'IN_PROGRESS'];
/** Members of a status answer that are its own, never a piece of the result. */
const OWN_MEMBERS = [
  'request_id',
  'status',
  'queue_position',
  'error_type',
  'status_url',
  'response_url',
  'cancel_url',
];

/** A queued submit, sent again while the caller is held at its spend or in-flight cap (429). */
function submitted(client: ApiClient, args: Parameters<ApiClient['call']>[1]): Promise<ApiResponse> {
  return submitPastCap(() => client.call('submitModelRequest', args), client.bounds);
}

/** A submit of a valid body is admitted: anything but 201 breaks ROUTER.QUEUE.HANDLE. */
function handleOf(res: ApiResponse): Handle {
  ensure('ROUTER.QUEUE.HANDLE', res.status === 201, {
    what: 'a submit of a valid body',
    expected: '201 with the handle',
    received: String(res.status),
    on: res,
  });
  noteQueueStatus(res, 'a submit');
  return res.json<Handle>();
}

/** A status read of a live request: its status is counted with every other of the run (ROUTER.QUEUE.STATUS_CLOSED). */
async function readStatus(api: ApiClient, h: Handle): Promise<ApiResponse> {
  const res = await api.follow(h.status_url);
  noteQueueStatus(res, `a status read of request ${h.request_id}`);
  return res;
}

function strings(value: unknown, out: Set<string> = new Set()): Set<string> {
  if (typeof value === 'string') out.add(value);
  else if (Array.isArray(value)) value.forEach((v) => strings(v, out));
  else if (value !== null && typeof value === 'object') Object.values(value).forEach((v) => strings(v, out));
  return out;
}

/**
 * Where a status body carries the result, at any depth: a member holding the whole result
 * document, or a string of the result long enough to be its own (an output URL, an ID: 16
 * characters and more) that is neither the status's own (its request ID and URLs) nor sent
 * in the request (a prompt echoed back) nor the model's ID. Scalars alone (a seed, a flag)
 * are not telling, so they are not judged.
 */
function resultPieces(status: Record<string, unknown>, result: unknown, sent: unknown, modelId: string): string[] {
  const own = new Set([
    ...OWN_MEMBERS.map((k) => status[k]).filter((v): v is string => typeof v === 'string'),
    ...strings(sent),
    modelId,
  ]);
  const telling = new Set([...strings(result)].filter((v) => v.length >= 16 && !own.has(v)));
  const found: string[] = [];
  const walk = (value: unknown, at: string): void => {
    if (value !== null && typeof value === 'object' && isDeepStrictEqual(value, result))
      found.push(`${at} (the whole result)`);
    else if (typeof value === 'string' && telling.has(value))
      found.push(`${at} (${JSON.stringify(value.length > 60 ? `${value.slice(0, 57)}...` : value)}, from the result)`);
    else if (Array.isArray(value)) value.forEach((v, i) => walk(v, `${at}[${i}]`));
    else if (value !== null && typeof value === 'object')
      for (const [k, v] of Object.entries(value)) walk(v, `${at}.${k}`);
  };
  for (const [k, v] of Object.entries(status)) if (!OWN_MEMBERS.includes(k)) walk(v, k);
  return found;
}

test.describe('Queued request', () => {
  test(
    'a submit answers 201 with request_id, status, queue_position and three absolute URLs that lead to status, ' +
      'collect and cancel; the request ID is a lowercase uuid',
    rules('ROUTER.QUEUE.HANDLE', 'ROUTER.ID.REQUEST_ID'),
    async ({ api, requireScenario }) => {
      const m = modelRef(requireScenario('image_model', 'JSON model') as string);
      const res = await submitted(api, { path: path(m), json: imageBody(requireScenario) });
      check('ROUTER.QUEUE.HANDLE', res.status === 201, {
        what: `a submit to ${m.id}`,
        expected: '201',
        received: describe(api, res),
      });
      noteQueueStatus(res, 'a submit');
      const h = res.json<Handle>();
      check(
        'ROUTER.QUEUE.HANDLE',
        h.queue_position === undefined || (Number.isInteger(h.queue_position) && h.queue_position >= 0),
        { what: 'queue_position', expected: 'an integer of at least 0', received: h.queue_position },
      );
      for (const [member, op] of [
        ['status_url', 'getModelRequestStatus'],
        ['response_url', 'getModelRequest'],
        ['cancel_url', 'cancelModelRequest'],
      ] as const) {
        const url = new URL(h[member]);
        const base = new URL(api.target.baseUrl);
        const rel = url.pathname.slice(base.pathname.replace(/\/+$/, '').length);
        check('ROUTER.QUEUE.HANDLE', url.origin === base.origin && api.operation(op).pathPattern.test(rel), {
          what: member,
          expected: `an absolute URL of the ${op} operation`,
          received: h[member],
        });
      }
      const status = await readStatus(api, h);
      check('ROUTER.QUEUE.HANDLE', status.status === 200 && status.json<Handle>().request_id === h.request_id, {
        what: 'the status_url, followed',
        expected: `200 for ${h.request_id}`,
        received: describe(api, status),
      });
      // R:74:6ebcff02673d: the status answer is the same resource to its end: once finished it still
      // carries the three URLs (a store that keeps a compact record of finished requests drops them).
      const done = await untilCompleted(api, h);
      for (const member of ['status_url', 'response_url', 'cancel_url'] as const)
        check('ROUTER.QUEUE.HANDLE', typeof done[member] === 'string' && done[member].length > 0, {
          what: `${member} in the status of the finished request`,
          expected: 'present, as in every status answer',
          received: done[member] ?? 'absent',
        });
    },
  );

  test(
    'an unfinished request: status and collect carry Retry-After, collect answers 202 with the status, ' +
      'and status is one of exactly three values over its life and the run; Retry-After is integer seconds',
    rules(
      'ROUTER.QUEUE.POLL_RETRY_AFTER',
      'ROUTER.QUEUE.COLLECT_PENDING',
      'ROUTER.QUEUE.STATUS_CLOSED',
      'ROUTER.QUEUE.STATUS_NAMES',
      'ROUTER.HEADER.RETRY_AFTER',
    ),
    async ({ api, requireScenario }) => {
      const m = modelRef(requireScenario('slow_model', 'a model slow enough to be seen unfinished') as string);
      const h = handleOf(await submitted(api, { path: path(m), json: imageBody(requireScenario) }));
      const status = await readStatus(api, h);
      const collect = await api.follow(h.response_url);
      if (collect.status === 202) noteQueueStatus(collect, `a collect of unfinished request ${h.request_id}`);
      const s = status.json<Handle>();
      if (s.status === 'COMPLETED') {
        // The model finished before it could be read unfinished: nothing here can be judged.
        const why = `${m.id} completed before it could be read unfinished (scenario slow_model)`;
        for (const rule of [
          'ROUTER.QUEUE.POLL_RETRY_AFTER',
          'ROUTER.QUEUE.COLLECT_PENDING',
          'ROUTER.QUEUE.STATUS_NAMES',
          'ROUTER.HEADER.RETRY_AFTER',
        ] as const)
          notJudged(rule, why);
        return;
      }
      check('ROUTER.QUEUE.POLL_RETRY_AFTER', retryAfterOf(status) !== undefined, {
        what: `the status read of an unfinished request (${s.status})`,
        expected: 'Retry-After',
        received: status.header('retry-after') ?? 'absent',
      });
      // A collect answering otherwise is judged only if the request is still unfinished after it: it
      // may have ended between the status read and the collect (a loaded machine, a short run).
      const still = collect.status === 202 ? undefined : await readStatus(api, h);
      if (still !== undefined && still.status === 200 && still.json<Handle>().status === 'COMPLETED') {
        const why = `${m.id} finished between the status read and the collect (read COMPLETED right after), so the collect was not of an unfinished request`;
        for (const rule of [
          'ROUTER.QUEUE.POLL_RETRY_AFTER',
          'ROUTER.QUEUE.COLLECT_PENDING',
          'ROUTER.QUEUE.STATUS_NAMES',
        ] as const)
          notJudged(rule, why);
        return;
      }
      check('ROUTER.QUEUE.COLLECT_PENDING', collect.status === 202, {
        what: 'collect of an unfinished request',
        expected: '202 with the status response',
        received: describe(api, collect),
      });
      const pending = collect.status === 202 ? collect.json<Handle>() : undefined;
      check('ROUTER.QUEUE.COLLECT_PENDING', pending?.request_id === h.request_id && pending.status !== 'COMPLETED', {
        what: 'the 202 body',
        expected: 'the status response of this unfinished request',
        received: pending ?? collect.status,
      });
      // Judged on the pending answer only: a collect answering anything else breaks COLLECT_PENDING, not this rule too.
      if (pending)
        check('ROUTER.QUEUE.POLL_RETRY_AFTER', retryAfterOf(collect) !== undefined, {
          what: 'collect of an unfinished request',
          expected: 'Retry-After',
          received: collect.header('retry-after') ?? 'absent',
          on: collect,
        });
      else
        notJudged(
          'ROUTER.QUEUE.POLL_RETRY_AFTER',
          `collect of the unfinished request answered ${describe(api, collect)}, not the pending 202 (ROUTER.QUEUE.COLLECT_PENDING judges that)`,
        );
      // Watched to its end: every status it takes (waiting, running, COMPLETED) joins the run's count.
      const unfinished = [h.status, s.status, ...(pending ? [pending.status] : [])];
      await untilCompleted(api, h, { seen: (res) => unfinished.push(res.json<Handle>().status) });
      for (const v of new Set(unfinished))
        check('ROUTER.QUEUE.STATUS_NAMES', UNFINISHED.includes(v), {
          what: 'a status of the unfinished request',
          expected: UNFINISHED.join(' or '),
          received: v,
        });
    },
  );

  test(
    'collect of a finished request is byte for byte the synchronous answer; success has no error_type, ' +
      'failure has one and is COMPLETED too; status never carries the result; a late cancel changes nothing',
    rules(
      'ROUTER.QUEUE.COLLECT_IDENTICAL',
      'ROUTER.QUEUE.ERROR_TYPE_ON_FAILURE',
      'ROUTER.QUEUE.STATUS_NO_RESULT',
      'ROUTER.QUEUE.STATUS_CLOSED',
      'ROUTER.QUEUE.CANCEL',
    ),
    async ({ api, requireScenario }) => {
      const m = modelRef(requireScenario('image_model', 'JSON model with deterministic output') as string);
      const body = { ...imageBody(requireScenario), prompt: `conformance queue ${randomUUID()}` };
      const failing = requireScenario('failing_body', 'a body every provider fails on') as Record<string, unknown>;
      const [ok, bad] = await Promise.all([
        submitted(api, { path: path(m), json: body }).then(handleOf),
        submitted(api, { path: path(m), json: failing }).then(handleOf),
      ]);
      const sync = await api.call('runModel', { path: path(m), json: body });
      ensure('ROUTER.RUN.NATIVE', sync.status === 200, {
        what: `a synchronous run of ${m.id}`,
        expected: '200',
        received: describe(api, sync),
        on: sync,
      });
      const [okDone, badDone] = await Promise.all([untilCompleted(api, ok), untilCompleted(api, bad)]);
      // No separate terminal status for failure: a request that did not succeed is COMPLETED too.
      check('ROUTER.QUEUE.STATUS_CLOSED', okDone.status === 'COMPLETED' && badDone.status === 'COMPLETED', {
        what: 'the final status of a request that succeeded and of one that failed',
        expected: 'COMPLETED for both',
        received: { succeeded: okDone.status, failed: badDone.status },
      });
      check('ROUTER.QUEUE.ERROR_TYPE_ON_FAILURE', !('error_type' in okDone), {
        what: 'status of a request that succeeded',
        expected: 'no error_type member (absent, not null)',
        received: okDone.error_type,
      });
      check(
        'ROUTER.QUEUE.ERROR_TYPE_ON_FAILURE',
        typeof badDone.error_type === 'string' && badDone.error_type.length > 0,
        { what: 'status of a request that failed', expected: 'COMPLETED with an error_type', received: badDone },
      );
      const collected = await api.follow(ok.response_url);
      check('ROUTER.QUEUE.COLLECT_IDENTICAL', collected.status === 200, {
        what: 'collect of the finished request',
        expected: '200',
        received: describe(api, collected),
      });
      check('ROUTER.QUEUE.COLLECT_IDENTICAL', collected.header('content-type') === sync.header('content-type'), {
        what: 'media type of the collected result',
        expected: sync.header('content-type') ?? '(none)',
        received: collected.header('content-type'),
      });
      // A fresh synchronous run answers the same bytes only for a model the target declares deterministic.
      if (deterministicModels(api, requireScenario).has(m.id))
        check('ROUTER.QUEUE.COLLECT_IDENTICAL', collected.body.equals(sync.body), {
          what: 'the collected bytes',
          expected: `the ${sync.body.length} bytes of the synchronous answer`,
          received: `${collected.body.length} bytes that differ`,
        });
      else
        notJudged(
          'ROUTER.QUEUE.COLLECT_IDENTICAL',
          `${m.id} is not among the target's deterministic_models, so its collect is not compared byte for byte with a fresh synchronous run`,
        );
      const leaked = resultPieces(
        okDone as unknown as Record<string, unknown>,
        jsonOf(collected) ?? collected.body.toString('utf8'),
        body,
        m.id,
      );
      check('ROUTER.QUEUE.STATUS_NO_RESULT', leaked.length === 0, {
        what: 'status of the finished request',
        expected: 'no piece of the result, at any depth',
        received: leaked,
      });
      // R:106:b0ddf19e95e5: a cancel of a finished request is answered ALREADY_COMPLETED and changes nothing:
      // what a status read and a collect answer just before it, they answer just after it.
      if (collected.status === 200) {
        const look = async (): Promise<{ status: unknown; collect: string }> => {
          const read = await readStatus(api, ok);
          const body = read.status === 200 ? read.json<Handle>() : undefined;
          const got = await api.follow(ok.response_url);
          return {
            status: body === undefined ? describe(api, read) : { status: body.status, error_type: body.error_type },
            collect:
              got.status === 200
                ? got.body.equals(collected.body)
                  ? '200, the same result'
                  : '200, another result'
                : describe(api, got),
          };
        };
        const before = await look();
        // A finished request never leaves COMPLETED (no transition out of it), collected or not.
        check(
          'ROUTER.QUEUE.STATUS_CLOSED',
          isDeepStrictEqual(before.status, { status: okDone.status, error_type: undefined }),
          {
            what: 'status of the finished request, read again after its result was collected',
            expected: `${okDone.status} without error_type, as before the collect`,
            received: before.status,
          },
        );
        const late = await api.follow(ok.cancel_url, { method: 'PUT' });
        check(
          'ROUTER.QUEUE.CANCEL',
          (late.status === 409 || late.status === 400) && jsonOf(late)?.status === 'ALREADY_COMPLETED',
          {
            what: 'cancel of a request that finished with a result',
            expected: 'ALREADY_COMPLETED under 409 or 400',
            received: describe(api, late),
            on: late,
          },
        );
        const after = await look();
        check('ROUTER.QUEUE.CANCEL', isDeepStrictEqual(after, before), {
          what: 'the finished request, read and collected after that cancel',
          expected: `unchanged: ${JSON.stringify(before)}`,
          received: after,
          on: late,
        });
      }
    },
  );

  test(
    'a cancel taken on one request leaves every other request of the workspace collecting its own result: ' +
      'two requests admitted after the cancelled one each collect exactly their own synchronous answer',
    rules('ROUTER.QUEUE.COLLECT_IDENTICAL'),
    async ({ api, requireScenario }) => {
      const slow = modelRef(requireScenario('slow_model', 'a model slow enough to cancel') as string);
      const m = modelRef(requireScenario('image_model', 'JSON model with deterministic output') as string);
      // Admitted one after the other, so the cancelled request comes first in the workspace's order
      // and both image requests after it: a router that finds a result by admission order, and
      // forgets the cancelled one, would hand the first image request the second one's result.
      const doomed = handleOf(await submitted(api, { path: path(slow), json: imageBody(requireScenario) }));
      const bodies = [0, 1].map(() => ({
        ...imageBody(requireScenario),
        prompt: `conformance after cancel ${randomUUID()}`,
      }));
      const handles: Handle[] = [];
      for (const json of bodies) handles.push(handleOf(await submitted(api, { path: path(m), json })));
      const cancel = await api.follow(doomed.cancel_url, { method: 'PUT' });
      // What a cancel answers is ROUTER.QUEUE.CANCEL's to judge; here it only says whether one was taken.
      const taken = cancel.status === 202;
      if (!taken)
        notJudged(
          'ROUTER.QUEUE.COLLECT_IDENTICAL',
          `the cancel of ${slow.id} request ${doomed.request_id} answered ${describe(api, cancel)}, ` +
            `not 202: no cancel was taken, so a collect after a taken cancel could not be provoked (the ` +
            `collects below are still judged)`,
        );
      const done = await Promise.all(handles.map((h) => untilCompleted(api, h)));
      // Let the cancelled request end too, so nothing of this test is still running after it.
      await untilCompleted(api, doomed);
      const deterministic = deterministicModels(api, requireScenario).has(m.id);
      if (!deterministic)
        notJudged(
          'ROUTER.QUEUE.COLLECT_IDENTICAL',
          `${m.id} is not among the target's deterministic_models, so its collects are not compared byte for byte with fresh synchronous runs`,
        );
      const collected: Array<ApiResponse | undefined> = [];
      const syncs: Array<ApiResponse | undefined> = [];
      for (const [i, h] of handles.entries()) {
        const what =
          `collect of image request ${i + 1} of 2 (${h.request_id}), admitted after ${slow.id} ` +
          `request ${doomed.request_id}${taken ? ', which was then cancelled (202)' : ''}`;
        // A request that ended with an error_type has no result to collect (ROUTER.QUEUE.ERROR_TYPE_ON_FAILURE's).
        if (done[i].status !== 'COMPLETED' || done[i].error_type !== undefined) {
          notJudged(
            'ROUTER.QUEUE.COLLECT_IDENTICAL',
            `image request ${h.request_id} ended ${String(done[i].status)} with error_type ` +
              `${JSON.stringify(done[i].error_type)}, so it has no result to collect`,
          );
          collected.push(undefined);
          syncs.push(undefined);
          continue;
        }
        // R:107:74fe11755885: COMPLETED without error_type is a run that succeeded; its collect answers the stored result.
        const got = await api.follow(h.response_url);
        collected.push(got);
        check('ROUTER.QUEUE.COLLECT_IDENTICAL', got.status === 200, {
          what,
          expected: '200 with its result (it ended COMPLETED without error_type)',
          received: describe(api, got),
          on: got,
        });
        const sync = deterministic ? await api.call('runModel', { path: path(m), json: bodies[i] }) : undefined;
        syncs.push(sync);
        if (sync === undefined || got.status !== 200) continue;
        ensure('ROUTER.RUN.NATIVE', sync.status === 200, {
          what: `a synchronous run of ${m.id} with the body of image request ${i + 1}`,
          expected: '200',
          received: describe(api, sync),
          on: sync,
        });
        check('ROUTER.QUEUE.COLLECT_IDENTICAL', got.body.equals(sync.body), {
          what: `the bytes of the ${what}`,
          expected: `the ${sync.body.length} bytes a synchronous run of its own body answers`,
          received: `${got.body.length} bytes that differ`,
          on: got,
        });
      }
      // The two bodies differ in their prompt; where their synchronous answers differ too, two equal
      // collects mean one request was handed the other's result.
      const [a, b] = collected;
      const [sa, sb] = syncs;
      if (
        a?.status === 200 &&
        b?.status === 200 &&
        sa?.status === 200 &&
        sb?.status === 200 &&
        !sa.body.equals(sb.body)
      ) {
        check('ROUTER.QUEUE.COLLECT_IDENTICAL', !a.body.equals(b.body), {
          what: 'the collects of the two image requests, whose bodies and synchronous answers differ',
          expected: 'two different results, each its own',
          received: `the same ${a.body.length} bytes for both`,
          on: b,
        });
      } else {
        notJudged(
          'ROUTER.QUEUE.COLLECT_IDENTICAL',
          'the two collects were not compared with each other: one of them or of their synchronous runs ' +
            'did not answer 200, the model is not deterministic here, or both synchronous answers are the ' +
            'same bytes',
        );
      }
    },
  );

  test(
    'cancel of an unfinished request answers 202 CANCELLATION_REQUESTED, ' +
      'and of a finished one ALREADY_COMPLETED (409 or 400); the request ends COMPLETED; ' +
      'a cancel of a request still waiting in the queue takes effect (public docs)',
    rules(
      'ROUTER.QUEUE.CANCEL',
      'ROUTER.QUEUE.CANCEL_QUEUED',
      'ROUTER.QUEUE.STATUS_CLOSED',
      'ROUTER.QUEUE.ERROR_TYPE_ON_FAILURE',
    ),
    async ({ api, requireScenario }) => {
      const m = modelRef(requireScenario('slow_model', 'a model slow enough to cancel') as string);
      const h = handleOf(await submitted(api, { path: path(m), json: imageBody(requireScenario) }));
      const statusOf = async (): Promise<string | undefined> => {
        const res = await readStatus(api, h);
        return res.status === 200 ? res.json<Handle>().status : undefined;
      };
      const before = await statusOf();
      const cancel = await api.follow(h.cancel_url, { method: 'PUT' });
      check('ROUTER.QUEUE.CANCEL', cancel.status === 202 && cancel.json<Handle>().status === 'CANCELLATION_REQUESTED', {
        what: 'cancel of an unfinished request',
        expected: '202 CANCELLATION_REQUESTED',
        received: `${cancel.status} ${JSON.stringify(cancel.body.toString('utf8').slice(0, 120))}`,
      });
      const after = await statusOf();
      const done = await untilCompleted(api, h);
      check('ROUTER.QUEUE.STATUS_CLOSED', done.status === 'COMPLETED', {
        what: 'the final status of a cancelled request',
        expected: 'COMPLETED',
        received: done.status,
      });
      // R:105:e83e71a59b60, R:107:74fe11755885: COMPLETED without error_type is a run that succeeded, so it has its
      // result to collect; a cancel that took effect ends with an error_type like any failure.
      const clean = done.status === 'COMPLETED' && done.error_type === undefined;
      const cleanCollect = clean ? await api.follow(h.response_url) : undefined;
      if (cleanCollect !== undefined)
        check('ROUTER.QUEUE.ERROR_TYPE_ON_FAILURE', cleanCollect.status === 200, {
          what: 'collect of a cancelled request that ended COMPLETED without error_type',
          expected:
            '200 with its result (no error_type means the run succeeded; a cancel that took effect carries one)',
          received: describe(api, cleanCollect),
          on: cleanCollect,
        });
      // R:104:618235c3f8bc: a cancel is requested, not promised to work, so whether it takes effect is no
      // MUST. The assumption judged at SHOULD: a request read waiting just before the cancel, and
      // still waiting or COMPLETED just after, had not reached the partner and is stopped. Waiting is
      // the status the submit answered (R:103:ba1b172aaf32: the initial status), whatever its name.
      const waiting = h.status;
      const queued = before === waiting && (after === waiting || after === 'COMPLETED');
      if (cleanCollect !== undefined && cleanCollect.status !== 200) {
        notJudged(
          'ROUTER.QUEUE.CANCEL_QUEUED',
          `request ${h.request_id} ended COMPLETED without error_type and without a result ` +
            `(ROUTER.QUEUE.ERROR_TYPE_ON_FAILURE judges that), so whether the cancel took effect cannot ` +
            `be told`,
        );
      } else if (!queued) {
        notJudged(
          'ROUTER.QUEUE.CANCEL_QUEUED',
          `${m.id} read ${before ?? 'no status'} before the cancel and ${after ?? 'no status'} after ` +
            `it, not still waiting in the queue (the submit's initial status, ${waiting}) on both sides ` +
            `of it, so the run may have been at the partner (seed: it may still finish)`,
        );
      } else {
        const tookEffect = typeof done.error_type === 'string' && done.error_type !== '';
        check('ROUTER.QUEUE.CANCEL_QUEUED', tookEffect, {
          what: 'a request cancelled while still waiting in the queue',
          expected: 'COMPLETED with an error_type (the cancel took effect)',
          received: done,
        });
        if (tookEffect) {
          // Stopped before the partner, it holds no result: collect answers an error (public docs: 409), never the result or 202.
          const collected = await api.follow(h.response_url);
          check('ROUTER.QUEUE.CANCEL_QUEUED', collected.status >= 400, {
            what: 'collect of a request cancelled while waiting in the queue',
            expected: 'an error answer (no stored result)',
            received: describe(api, collected),
          });
        }
      }
      const again = await api.follow(h.cancel_url, { method: 'PUT' });
      const body = again.body.length > 0 ? (JSON.parse(again.body.toString('utf8')) as Record<string, unknown>) : {};
      check(
        'ROUTER.QUEUE.CANCEL',
        (again.status === 409 || again.status === 400) && body.status === 'ALREADY_COMPLETED',
        {
          what: 'cancel of a finished request',
          expected: 'ALREADY_COMPLETED under 409 or 400 (the two codes the seed names)',
          received: `${again.status} ${JSON.stringify(body)}`,
        },
      );
    },
  );

  test(
    'queue_position counts the requests ahead: a later admission counts an earlier one of the same caller and model still waiting (assumed: arrival order)',
    rules('ROUTER.QUEUE.POSITION'),
    async ({ api, requireScenario }) => {
      const m = modelRef(
        requireScenario(
          'slow_model',
          'a model whose requests wait in the queue long enough to be seen there',
        ) as string,
      );
      const body = imageBody(requireScenario);
      const submit = async (n: number): Promise<Handle> =>
        handleOf(
          await submitted(api, {
            path: path(m),
            json: typeof body.prompt === 'string' ? { ...body, prompt: `${body.prompt} (queue position ${n})` } : body,
          }),
        );
      // A router may start the first request before the second is admitted (a caller at its cap
      // waits for room): the pair is then tried again, up to three times, before giving up.
      let why = '';
      let judged = false;
      for (let attempt = 1; attempt <= 3 && !judged; attempt++) {
        const first = await submit(2 * attempt - 1);
        const second = await submit(2 * attempt);
        // Read after the second admission: still waiting then means it was waiting when the second
        // handle was composed, so it was among the requests ahead of it, and nothing since can
        // have moved ahead of it (R:70:2c153ddb521c: the number ahead at the instant of composing).
        const read = await readStatus(api, first);
        const now = read.status === 200 ? read.json<Handle>() : undefined;
        try {
          if (now?.status !== first.status) {
            why =
              `request ${first.request_id} read ${now?.status ?? describe(api, read)} after the second ` +
              `admission, no longer its initial status ${first.status}, so it may not have been waiting ` +
              `ahead of the second (${attempt} tries)`;
            continue;
          }
          if (typeof now.queue_position !== 'number' || typeof second.queue_position !== 'number') {
            return notJudged(
              'ROUTER.QUEUE.POSITION',
              `no queue_position to compare (the second handle: ${String(second.queue_position)}; the first request's status: ${String(now.queue_position)})`,
            );
          }
          check('ROUTER.QUEUE.POSITION', second.queue_position >= now.queue_position + 1, {
            what:
              `queue_position of a second admission to ${m.id} (${second.queue_position}) against the ` +
              `first, still waiting after it (${now.queue_position})`,
            expected: `at least ${now.queue_position + 1}: the requests still ahead of the first, and the first itself`,
            received: second.queue_position,
            on: read,
          });
          judged = true;
        } finally {
          // Both leave the queue at once (the cancel is only asked; its answer is ROUTER.QUEUE.CANCEL's).
          for (const h of [first, second]) await api.follow(h.cancel_url, { method: 'PUT' });
        }
      }
      if (!judged) notJudged('ROUTER.QUEUE.POSITION', why);
    },
  );

  test(
    'collect of a request whose stored result has aged out answers 410 (public docs)',
    rules('ROUTER.QUEUE.COLLECT_GONE'),
    async ({ api, requireScenario }) => {
      const m = modelRef(requireScenario('image_model', 'the model of aged_out_request_id') as string);
      const id = requireScenario(
        'aged_out_request_id',
        'a queued request of image_model, submitted with the default key, whose stored result has aged out',
      ) as string;
      const res = await api.call('getModelRequest', { path: { ...path(m), request_id: id } });
      checkRouterError(
        api,
        'ROUTER.QUEUE.COLLECT_GONE',
        res,
        [410],
        undefined,
        `collect of request ${id}, whose result has aged out, answered ${describe(api, res)}`,
      );
    },
  );

  test(
    'a model whose partner answers with bytes cannot be queued: 403 not_enabled',
    rules('ROUTER.QUEUE.BYTES_REFUSED'),
    async ({ api, requireScenario }) => {
      const m = modelRef(requireScenario('bytes_model', 'model whose partner answers with bytes') as string);
      const res = await submitted(api, {
        path: path(m),
        json: requireScenario('bytes_body', 'body for the bytes model') as Record<string, unknown>,
      });
      checkRouterError(api, 'ROUTER.QUEUE.BYTES_REFUSED', res, [403], 'not_enabled');
    },
  );

  test(
    'a body the model would reject is refused 422 at submit, not admitted',
    rules('ROUTER.QUEUE.VALIDATED_AT_SUBMIT'),
    async ({ api, requireScenario }) => {
      const m = modelRef(requireScenario('image_model', 'model with an authored schema') as string);
      // A field of another JSON type than the model's own schema document declares for it.
      const { body, fields } = await step(`read the input schema of ${m.id}`, () =>
        refusedBody(api, m, imageBody(requireScenario)),
      );
      const res = await submitted(api, { path: path(m), json: body });
      check('ROUTER.QUEUE.VALIDATED_AT_SUBMIT', res.status === 422, {
        what: `a submit to ${m.id} whose ${fields.join(', ')} is of the wrong type`,
        expected: '422',
        received: describe(api, res),
      });
    },
  );

  test(
    'an estimate a fresh admission carries has a source; a replay and a caller without the feature get none; ' +
      'an own-key run is quoted byok, an unreadable rate card pricing_unavailable',
    rules('ROUTER.QUEUE.ESTIMATE'),
    async ({ api, requireScenario, target }) => {
      const m = modelRef(requireScenario('image_model', 'JSON model') as string);
      const body = { ...imageBody(requireScenario), prompt: `conformance estimate ${randomUUID()}` };
      const key = uniqueKey('submit-estimate');
      const fresh = handleOf(await submitted(api, withKey(key, { path: path(m), json: body })));
      // R:72:d586e05637f1: only callers with estimation switched on get an estimate, and it is left
      // out during the rollout; the seed does not say which holds for the default key, so
      // an admission without one is accepted and only what an estimate says is judged.
      const estimating = fresh.estimate !== undefined;
      if (estimating)
        check(
          'ROUTER.QUEUE.ESTIMATE',
          typeof fresh.estimate === 'object' && fresh.estimate !== null && typeof fresh.estimate.source === 'string',
          {
            what: 'the estimate of a fresh admission',
            expected: 'a cost estimate with a source',
            received: fresh.estimate,
          },
        );
      else
        notJudged(
          'ROUTER.QUEUE.ESTIMATE',
          `a fresh admission to ${m.id} carries no estimate (the feature may still be rolling out for this caller)`,
        );
      // R:72: an idempotent replay (Idempotent-Replayed: true) carries no estimate. Judged on answers
      // that are replays only, to the caller and to a teammate (the keyspace is the workspace's,
      // R:170); a same-key submit answered otherwise is ROUTER.IDEM.REPLAY's or SCOPE's to judge.
      const mate = target.scenario.teammate_token;
      const retries: Array<[string, ApiClient]> = [
        ['the caller', api],
        ...(typeof mate === 'string' ? [['a teammate', api.as({ bearer: mate })] as [string, ApiClient]] : []),
      ];
      if (typeof mate !== 'string')
        notJudged(
          'ROUTER.QUEUE.ESTIMATE',
          'the target gives no teammate_token, so a replay to another member of the workspace is not judged',
        );
      for (const [who, client] of retries) {
        const replay = await submitted(client, withKey(key, { path: path(m), json: body }));
        const isReplay = replay.status === 201 && replay.header('idempotent-replayed')?.trim().toLowerCase() === 'true';
        // Absent from a replay means something only where the fresh admission carried one: a router
        // that never sends an estimate leaves nothing here to judge (never a pass).
        if (!estimating)
          notJudged(
            'ROUTER.QUEUE.ESTIMATE',
            `the fresh admission carried no estimate, so its absence from the replay to ${who} shows nothing`,
          );
        else if (!isReplay)
          notJudged(
            'ROUTER.QUEUE.ESTIMATE',
            `the same-key submit by ${who} answered ${describe(api, replay)}, Idempotent-Replayed: ` +
              `${replay.header('idempotent-replayed') ?? 'absent'}: not a replay, so what a replay ` +
              `carries is not judged on it`,
          );
        else
          check('ROUTER.QUEUE.ESTIMATE', !('estimate' in replay.json<Handle>()), {
            what: `an idempotent replay of the submit, to ${who}`,
            expected: 'no estimate (the original quote is not stored)',
            received: replay.json<Handle>().estimate,
            on: replay,
          });
      }
      const preview = api.as({
        bearer: requireScenario('estimate_disabled_token', 'credential outside the estimate rollout') as string,
      });
      const rolling = handleOf(await submitted(preview, { path: path(m), json: body }));
      if (estimating)
        check('ROUTER.QUEUE.ESTIMATE', !('estimate' in rolling), {
          what: 'a submit by a caller without the estimate feature',
          expected: 'no estimate',
          received: rolling.estimate,
        });
      else
        notJudged(
          'ROUTER.QUEUE.ESTIMATE',
          'the default key got no estimate either, so one missing for a caller outside the rollout shows nothing',
        );
      const byok = api.as({
        bearer: requireScenario('byok_token', "credential resolving an own key for image_model's provider") as string,
      });
      const own = handleOf(await submitted(byok, { path: path(m), json: body }));
      // R:52 does not make reason required: an unknown estimate without one is accepted, another reason is not.
      if (own.estimate !== undefined)
        check(
          'ROUTER.QUEUE.ESTIMATE',
          own.estimate?.source === 'unknown' && (own.estimate?.reason === 'byok' || own.estimate?.reason === undefined),
          {
            what: "a submit that uses the caller's own key",
            expected: 'estimate source unknown, reason byok (or no reason)',
            received: own.estimate,
          },
        );
      else
        notJudged(
          'ROUTER.QUEUE.ESTIMATE',
          'the own-key admission carries no estimate (the feature may still be rolling out), so its reason is not judged',
        );
      // A figure needing a rate card that cannot be read at admission: reason pricing_unavailable.
      const stale = target.scenario.stale_card_model;
      if (typeof stale !== 'string') {
        notJudged(
          'ROUTER.QUEUE.ESTIMATE',
          'the target gives no stale_card_model, so no admission finds its rate card unreadable',
        );
        return;
      }
      const sm = modelRef(stale);
      const res = await submitted(api, { path: path(sm), json: { ...textBody(requireScenario), max_tokens: 64 } });
      if (res.status !== 201) {
        notJudged(
          'ROUTER.QUEUE.ESTIMATE',
          `the submit to ${sm.id} answered ${describe(api, res)}, so it carries no estimate (ROUTER.QUEUE.ESTIMATE_NEVER_FAILS judges that)`,
        );
        return;
      }
      const unreadable = res.json<Handle>().estimate;
      if (unreadable === undefined) {
        notJudged(
          'ROUTER.QUEUE.ESTIMATE',
          `the admission to ${sm.id} carries no estimate (the feature may still be rolling out), so its reason is not judged`,
        );
        return;
      }
      // The seed's 503-instead-of-a-guess is the estimate route's; a submit that still reads a
      // figure from the card is not refused here. Without a figure, the reason is the card's.
      const figured = unreadable?.source === 'exact' || unreadable?.source === 'estimated';
      check(
        'ROUTER.QUEUE.ESTIMATE',
        figured ||
          (unreadable?.source === 'unknown' &&
            (unreadable?.reason === 'pricing_unavailable' || unreadable?.reason === undefined)),
        {
          what: `a submit to ${sm.id}, whose rate card is stale, with a bounded body that needs the card`,
          expected:
            'a figure, or source unknown with reason pricing_unavailable or none (the body is bounded, so not not_quotable)',
          received: unreadable,
          on: res,
        },
      );
    },
  );

  test(
    'an estimate never makes a submit fail: a submit whose figure needs a stale rate card is still admitted',
    rules('ROUTER.QUEUE.ESTIMATE_NEVER_FAILS'),
    async ({ api, requireScenario }) => {
      const m = modelRef(requireScenario('stale_card_model', 'model whose rate card is stale') as string);
      // The estimate route answers this body 503 (ROUTER.ESTIMATE.STALE_CARD); a submit must not.
      const res = await submitted(api, { path: path(m), json: { ...textBody(requireScenario), max_tokens: 64 } });
      check('ROUTER.QUEUE.ESTIMATE_NEVER_FAILS', res.status === 201, {
        what: `a submit to ${m.id} whose quote needs its stale rate card`,
        expected: '201 (admitted; the estimate, if any, says unknown)',
        received: describe(api, res),
        on: res,
      });
    },
  );

  test(
    'a queued submit has no fallback: a request whose native provider fails ends COMPLETED with an error_type',
    rules('ROUTER.QUEUE.NO_FALLBACK'),
    async ({ api, requireScenario }) => {
      const m = modelRef(requireScenario('fallback_model', 'model whose native provider fails') as string);
      const handle = handleOf(
        await submitted(api, {
          path: path(m),
          json: { ...imageBody(requireScenario), prompt: `conformance no fallback ${randomUUID()}` },
        }),
      );
      const done = await untilCompleted(api, handle);
      check('ROUTER.QUEUE.NO_FALLBACK', typeof done.error_type === 'string', {
        what: `the final status of a queued request on ${m.id}, whose native provider fails`,
        expected: 'COMPLETED with an error_type (not served by an alternate)',
        received: done,
      });
      const collected = await api.follow(handle.response_url);
      check('ROUTER.QUEUE.NO_FALLBACK', collected.status >= 400, {
        what: 'collect of that request',
        expected: 'an error answer, not a result',
        received: describe(api, collected),
        on: collected,
      });
    },
  );

  test(
    "collect answers under the provider selection accepted at submit: the alternate's own response with strict_mode=true, native output without it",
    rules('ROUTER.QUEUE.COLLECT_SELECTION'),
    async ({ api, requireScenario }) => {
      const m = modelRef(requireScenario('image_model', 'JSON model with alternates') as string);
      const strict = requireScenario('strict_body', "a body in an alternate's own schema") as {
        provider: string;
        body: Record<string, unknown>;
      };
      const translated = requireScenario('translation', 'an alternate and a native body it translates') as {
        provider: string;
        body: Record<string, unknown>;
      };
      const cases: Array<[string, Record<string, string | boolean>, Record<string, unknown>]> = [
        [
          `model_provider=${strict.provider}&strict_mode=true`,
          { model_provider: strict.provider, strict_mode: true },
          strict.body,
        ],
        [`model_provider=${translated.provider}`, { model_provider: translated.provider }, translated.body],
      ];
      for (const [what, query, body] of cases) {
        const handle = handleOf(await submitted(api, { path: path(m), query, json: body }));
        const sync = await api.call('runModel', { path: path(m), query, json: body });
        if (sync.status !== 200) {
          notJudged(
            'ROUTER.QUEUE.COLLECT_SELECTION',
            `the synchronous run with ${what} answered ${describe(api, sync)}, so there is no answer to compare collect with`,
          );
          continue;
        }
        await untilCompleted(api, handle);
        const collected = await api.follow(handle.response_url);
        // The same document as the synchronous run (JSON compared parsed): byte identity of the
        // serialisation is ROUTER.QUEUE.COLLECT_IDENTICAL's to judge.
        const json = isJsonMedia(sync.header('content-type'));
        const same =
          collected.status === 200 &&
          (json ? isDeepStrictEqual(jsonOf(collected), jsonOf(sync)) : collected.body.equals(sync.body));
        check('ROUTER.QUEUE.COLLECT_SELECTION', same, {
          what: `collect of a request submitted with ${what}`,
          expected: `200 with the document the synchronous run with ${what} answers`,
          received: {
            status: collected.status,
            collected: json ? jsonOf(collected) : `${collected.body.length} bytes`,
            synchronous: json ? jsonOf(sync) : `${sync.body.length} bytes`,
          },
          on: collected,
        });
      }
    },
  );

  test(
    'status, collect and cancel of an unknown request ID answer 404',
    rules('ROUTER.QUEUE.UNKNOWN_404'),
    async ({ api, requireScenario }) => {
      const m = modelRef(requireScenario('image_model', 'model') as string);
      const id = randomUUID();
      const p = { ...path(m), request_id: id };
      checkRouterError(api, 'ROUTER.QUEUE.UNKNOWN_404', await api.call('getModelRequestStatus', { path: p }), [404]);
      checkRouterError(api, 'ROUTER.QUEUE.UNKNOWN_404', await api.call('getModelRequest', { path: p }), [404]);
      checkRouterError(api, 'ROUTER.QUEUE.UNKNOWN_404', await api.call('cancelModelRequest', { path: p }), [404]);
    },
  );
});
