// Router faults of the queue (seed R § Queue): handles, status reads, collect and cancel.
import type { FaultUnit } from '../unit.ts';
import { H } from '../../router/constants.ts';
import { RouterError } from '../../router/errors.ts';
import { resolvePrincipal } from '../../router/principals.ts';
import type { Outgoing } from '../seams.ts';
import {
  CANCEL,
  COLLECT,
  QUEUE_URLS,
  STATUS,
  SUBMIT,
  answerError,
  isObj,
  onRouter,
  params,
  queuedOf,
  routerError,
  type Obj,
} from './shared.ts';

/** The JSON result of the finished request a status answer reports; undefined for any other answer. */
function completedJson(out: Outgoing): unknown {
  if (out.status !== 200 || !isObj(out.body) || out.body.status !== 'COMPLETED' || 'error_type' in out.body)
    return undefined;
  const result = queuedOf(out, String(out.body.request_id))?.result;
  return result?.contentType === 'application/json'
    ? (JSON.parse(result.bytes.toString('utf8')) as unknown)
    : undefined;
}

export const QUEUE_FAULTS = [
  {
    name: 'router-request-id-uppercase',
    breaks: 'ROUTER.ID.REQUEST_ID',
    description: 'queued request IDs are reported in uppercase',
    install(s) {
      // IDs go out in uppercase and are folded back on the way in.
      s.request({ surfaces: ['router'], routes: [STATUS, COLLECT, CANCEL] }, ({ request }) => {
        const p = request.params as Record<string, string>;
        p.request_id = p.request_id.toLowerCase();
      });
      onRouter(s, undefined, (out) => {
        if (!isObj(out.body) || typeof out.body.request_id !== 'string') return;
        const id = out.body.request_id;
        out.body.request_id = id.toUpperCase();
        for (const k of QUEUE_URLS)
          if (typeof out.body[k] === 'string')
            out.body[k] = out.body[k].replace(`/requests/${id}`, `/requests/${id.toUpperCase()}`);
      });
    },
  },
  {
    name: 'router-status-url-relative',
    breaks: 'ROUTER.QUEUE.HANDLE',
    statements: ['R:103:ba1b172aaf32'],
    description: 'queue URLs are host-relative',
    install(s) {
      onRouter(s, undefined, (out) => {
        if (!isObj(out.body)) return;
        const base = out.ctx.router.baseUrl();
        for (const k of QUEUE_URLS)
          if (typeof out.body[k] === 'string' && out.body[k].startsWith(base))
            out.body[k] = out.body[k].slice(base.length);
      });
    },
  },
  {
    name: 'router-fourth-status',
    breaks: 'ROUTER.QUEUE.STATUS_NAMES',
    statements: ['R:110:e2aa1dbe54d9'],
    description: 'an unfinished request, queued or running, reports status RUNNING on status reads',
    install(s) {
      onRouter(s, [STATUS, COLLECT], (out) => {
        if (isObj(out.body) && (out.body.status === 'IN_QUEUE' || out.body.status === 'IN_PROGRESS'))
          out.body.status = 'RUNNING';
      });
    },
  },
  {
    name: 'router-poll-no-retry-after',
    breaks: 'ROUTER.QUEUE.POLL_RETRY_AFTER',
    statements: ['R:112:99d3346bc6dd', 'R:205:60e287b9f0a0', 'R:215:49b76e9b4942'],
    description: 'polls of unfinished requests carry no Retry-After',
    install(s) {
      onRouter(s, [STATUS, COLLECT], (out) => {
        if (out.status === 200 || out.status === 202) out.setHeader('retry-after', undefined);
      });
    },
  },
  {
    name: 'router-collect-pending-200',
    breaks: 'ROUTER.QUEUE.COLLECT_PENDING',
    statements: ['R:196:d6fd3b9cf281'],
    description: 'collect of an unfinished request answers 200 with the status body',
    install(s) {
      onRouter(s, [COLLECT], (out) => {
        if (out.status !== 202) return;
        out.status = 200;
        out.setHeader('retry-after', undefined);
        out.setHeader('X-Content-Type-Options', 'nosniff');
      });
    },
  },
  {
    name: 'router-collect-reserialized',
    breaks: 'ROUTER.QUEUE.COLLECT_IDENTICAL',
    statements: ['R:195:adc652f16295'],
    description: 'collected JSON results are pretty-printed',
    install(s) {
      onRouter(s, [COLLECT], (out) => {
        if (out.status === 200 && out.body !== undefined) out.payload = Buffer.from(JSON.stringify(out.body, null, 2));
      });
    },
  },
  {
    name: 'router-error-type-null',
    breaks: 'ROUTER.QUEUE.ERROR_TYPE_ON_FAILURE',
    statements: ['R:74:a2b3d6162283', 'R:107:74fe11755885'],
    description: 'a successful request reports error_type null',
    install(s) {
      onRouter(s, [STATUS], (out) => {
        if (out.status !== 200 || !isObj(out.body) || out.body.status !== 'COMPLETED' || 'error_type' in out.body)
          return;
        const { request_id, status, ...rest } = out.body;
        out.body = { request_id, status, error_type: null, ...rest };
      });
    },
  },
  {
    name: 'router-status-with-result',
    breaks: 'ROUTER.QUEUE.STATUS_NO_RESULT',
    statements: ['R:205:2ec17d99ded3'],
    description: 'the status of a finished request carries the result members',
    install(s) {
      onRouter(s, [STATUS], (out) => {
        const parsed = completedJson(out);
        if (parsed === undefined || !isObj(out.body)) return;
        const urls: Obj = {};
        const rest: Obj = { ...out.body };
        for (const k of QUEUE_URLS) {
          urls[k] = rest[k];
          delete rest[k];
        }
        out.body = { ...rest, ...(isObj(parsed) ? parsed : {}), ...urls };
      });
    },
  },
  {
    name: 'router-status-with-nested-result',
    breaks: 'ROUTER.QUEUE.STATUS_NO_RESULT',
    statements: ['R:205:2ec17d99ded3'],
    description: 'the status of a finished request carries the result nested under an output member',
    install(s) {
      onRouter(s, [STATUS], (out) => {
        const output = completedJson(out);
        if (output !== undefined && isObj(out.body)) out.body = { ...out.body, output };
      });
    },
  },
  {
    name: 'router-status-cancelling',
    breaks: 'ROUTER.QUEUE.STATUS_CLOSED',
    statements: ['R:99:64c869655d5a', 'R:104:618235c3f8bc', 'R:296:8bf52fa1fae0'],
    description:
      'once a cancel is asked, the request reads status CANCELLATION_REQUESTED (a state of its own) ' +
      'until the cancel takes effect, when it would have started running',
    install(s) {
      const cancelling = new Set<string>();
      s.policy.router.cancelRequest = (queue, r) => {
        const at = Math.max(Date.now(), r.startsAt);
        queue.cancel(r);
        r.startsAt = at;
        r.endsAt = at;
        cancelling.add(r.id);
      };
      onRouter(s, [STATUS, COLLECT], (out) => {
        if (
          isObj(out.body) &&
          cancelling.has(String(out.body.request_id)) &&
          out.body.status !== 'COMPLETED' &&
          typeof out.body.status === 'string'
        )
          out.body.status = 'CANCELLATION_REQUESTED';
      });
    },
  },
  {
    name: 'router-failed-status',
    breaks: 'ROUTER.QUEUE.STATUS_CLOSED',
    statements: [
      'R:74:a2b3d6162283',
      'R:99:64c869655d5a',
      'R:105:e83e71a59b60',
      'R:108:53efeed6d5ef',
      'R:296:8bf52fa1fae0',
    ],
    description:
      'a request that did not succeed ends with a terminal status of its own (FAILED, CANCELLED) instead of COMPLETED',
    install(s) {
      onRouter(s, [STATUS], (out) => {
        if (
          out.status !== 200 ||
          !isObj(out.body) ||
          out.body.status !== 'COMPLETED' ||
          typeof out.body.error_type !== 'string'
        )
          return;
        out.body.status = out.body.error_type === 'cancelled' ? 'CANCELLED' : 'FAILED';
      });
    },
  },
  {
    name: 'router-cancel-ignored',
    breaks: 'ROUTER.QUEUE.CANCEL_QUEUED',
    description: 'a cancel is acknowledged 202 but the request, still waiting in the queue, runs on and succeeds',
    install(s) {
      // The acknowledgement is sent; the request is never told.
      s.policy.router.cancelRequest = () => undefined;
    },
  },
  {
    name: 'router-cancel-ignored-own-names',
    breaks: 'ROUTER.QUEUE.CANCEL_QUEUED',
    description:
      'on a router naming its unfinished statuses QUEUED and RUNNING (control router-queue-own-names), ' +
      'a cancel is acknowledged 202 but the request, still waiting in the queue, runs on and succeeds',
    under: 'router-queue-own-names',
    install(s) {
      s.policy.router.cancelRequest = () => undefined;
    },
  },
  {
    name: 'router-queue-position-behind',
    breaks: 'ROUTER.QUEUE.POSITION',
    statements: ['R:70:2c153ddb521c'],
    description: 'queue_position counts the requests admitted after this one that still wait, not those ahead of it',
    install(s) {
      s.policy.router.queuePosition = (queue, r) => queue.behind(r);
    },
  },
  {
    name: 'router-aged-out-collect-404',
    breaks: 'ROUTER.QUEUE.COLLECT_GONE',
    statements: ['R:197:dad51fcb8e67', 'R:266:38356d7e1c85'],
    description:
      'collect of a request whose result has aged out answers 404 request_not_found, as if the request had never existed',
    install(s) {
      onRouter(s, [COLLECT], (out) => {
        if (out.status !== 410) return;
        answerError(
          out,
          404,
          'request_not_found',
          `no queued request ${params(out).request_id ?? ''} for this model and caller`,
        );
      });
    },
  },
  {
    name: 'router-estimate-requoted-for-teammate',
    breaks: 'ROUTER.QUEUE.ESTIMATE',
    description:
      'an idempotent replay of a submit to another member of the workspace is quoted again for that member: it carries the estimate',
    install(s) {
      // The first answer's estimate and its caller, by request; a replay to anyone else gets the estimate back.
      const first = new Map<string, { caller: string; estimate: unknown }>();
      onRouter(s, [SUBMIT], (out) => {
        if (out.status !== 201 || !isObj(out.body)) return;
        const id = String(out.body.request_id);
        const caller = resolvePrincipal(out.request.headers, out.ctx.router.policy.bearerFirst).caller;
        if (out.header('Idempotent-Replayed') === undefined) {
          if (out.body.estimate !== undefined) first.set(id, { caller, estimate: structuredClone(out.body.estimate) });
        } else {
          const had = first.get(id);
          if (had !== undefined && had.caller !== caller)
            out.body = { ...out.body, estimate: structuredClone(had.estimate) };
        }
      });
    },
  },
  {
    name: 'router-cancel-done-202',
    breaks: 'ROUTER.QUEUE.CANCEL',
    statements: ['R:106:b0ddf19e95e5'],
    description: 'cancel of a finished request answers 202 CANCELLATION_REQUESTED',
    install(s) {
      onRouter(s, [CANCEL], (out) => {
        if (out.status !== 409 || !isObj(out.body) || out.body.status !== 'ALREADY_COMPLETED') return;
        out.status = 202;
        out.setHeader(H.errorType, undefined);
        out.body = { request_id: out.body.request_id, status: 'CANCELLATION_REQUESTED' };
      });
    },
  },
  {
    name: 'router-bytes-queued',
    breaks: 'ROUTER.QUEUE.BYTES_REFUSED',
    statements: ['R:191:f728c995dfd6', 'R:263:2162d416be91'],
    description: 'the bytes-returning model is admitted to the queue',
    install(s) {
      s.policy.router.queueable = () => true;
    },
  },
  {
    name: 'router-submit-unvalidated',
    breaks: 'ROUTER.QUEUE.VALIDATED_AT_SUBMIT',
    statements: ['R:9:69f8347a74b3', 'R:187:3f9369d6ac55', 'R:190:397028d193bd'],
    description: 'submits are admitted without schema validation',
    install(s) {
      s.policy.router.validateSubmit = (body, validate) => (isObj(body) ? body : validate());
    },
  },
  {
    name: 'router-estimate-on-replay',
    breaks: 'ROUTER.QUEUE.ESTIMATE',
    description: 'an idempotent replay of a submit repeats the estimate',
    install(s) {
      // A replay answers the handle as first sent, estimate included.
      const first = new Map<string, unknown>();
      onRouter(s, [SUBMIT], (out) => {
        if (out.status !== 201 || !isObj(out.body)) return;
        const id = String(out.body.request_id);
        if (out.header('Idempotent-Replayed') === undefined) first.set(id, structuredClone(out.body));
        else if (first.has(id)) out.body = structuredClone(first.get(id));
      });
    },
  },
  {
    name: 'router-queue-falls-back',
    breaks: 'ROUTER.QUEUE.NO_FALLBACK',
    statements: ['R:65:c4ed5a315dcb', 'R:187:3cc49021cd28'],
    description: 'a queued run whose provider fails falls back to an alternate, as a synchronous run does',
    install(s) {
      s.policy.router.queuedFallback = true;
    },
  },
  {
    name: 'router-submit-fails-on-stale-card',
    breaks: 'ROUTER.QUEUE.ESTIMATE_NEVER_FAILS',
    statements: ['R:72:d586e05637f1'],
    description: 'a submit whose embedded estimate cannot read the rate card is refused 503, as the estimate route is',
    install(s) {
      s.policy.router.submitQuoteUnavailable = (def) => {
        throw new RouterError(
          503,
          'service_unavailable',
          `the rate card for ${def.provider} is stale; no figure is given instead of a guess`,
        );
      };
    },
  },
  {
    name: 'router-submit-stale-not-quotable',
    breaks: 'ROUTER.QUEUE.ESTIMATE',
    statements: ['R:56:372c6fe011c9'],
    description:
      'a submit whose rate card cannot be read at admission is quoted not_quotable instead of pricing_unavailable',
    install(s) {
      s.policy.router.submitQuoteUnavailable = () => ({ source: 'unknown', reason: 'not_quotable' });
    },
  },
  {
    name: 'router-queue-drops-strict',
    breaks: 'ROUTER.QUEUE.COLLECT_SELECTION',
    statements: ['R:145:efded79376a2', 'R:187:3cc49021cd28', 'R:190:214069274b9b', 'R:195:adc652f16295'],
    description:
      "the queued request does not keep strict_mode: it is dispatched translated, and collect answers native output instead of the alternate's own",
    install(s) {
      s.policy.router.queuedStrict = () => false;
    },
  },
  {
    name: 'router-unknown-request-200',
    breaks: 'ROUTER.QUEUE.UNKNOWN_404',
    statements: ['R:205:3f630f5162e7'],
    description: 'status of an unknown request ID answers 200 IN_QUEUE',
    install(s) {
      onRouter(s, [STATUS], (out) => {
        const { provider, model, request_id: id = '' } = params(out);
        if (routerError(out)?.error_type !== 'request_not_found' || !/^[0-9a-f-]{36}$/.test(id)) return;
        const root = `${out.ctx.router.baseUrl()}/v2/models/${provider}/${model}/requests/${id}`;
        out.status = 200;
        out.setHeader(H.errorType, undefined);
        out.setHeader('Retry-After', '1');
        out.body = {
          request_id: id,
          status: 'IN_QUEUE',
          queue_position: 0,
          status_url: `${root}/status`,
          response_url: root,
          cancel_url: `${root}/cancel`,
        };
      });
    },
  },
  // Issue #29: a fault per clause of the queue's statements no fault above breaks.
  {
    name: 'router-submit-no-status',
    breaks: 'ROUTER.QUEUE.HANDLE',
    statements: ['R:11:c38ad1e87a8f', 'R:103:ba1b172aaf32', 'R:188:ba3c99a4ba22'],
    description:
      "the submit answer leaves out the new request's status (the serializer skips a member still at " +
      "its initial value), so the 201 does not carry the handle's initial status",
    install(s) {
      onRouter(s, [SUBMIT], (out) => {
        if (out.status === 201 && isObj(out.body)) delete out.body.status;
      });
    },
  },
  {
    name: 'router-status-drops-urls',
    breaks: 'ROUTER.QUEUE.HANDLE',
    statements: ['R:74:6ebcff02673d'],
    description:
      'the status of a finished request is served from the compact record kept once it completed, which holds no status_url, response_url or cancel_url',
    install(s) {
      onRouter(s, [STATUS], (out) => {
        if (out.status !== 200 || !isObj(out.body) || out.body.status !== 'COMPLETED') return;
        const { status_url: _s, response_url: _r, cancel_url: _c, ...rest } = out.body;
        out.body = rest;
      });
    },
  },
  {
    name: 'router-completed-renamed',
    breaks: 'ROUTER.QUEUE.STATUS_CLOSED',
    statements: ['R:99:e9b5ad75077f', 'R:107:74fe11755885'],
    description:
      "a request that ran through reads status SUCCEEDED (the worker pool's own name for a finished " +
      'job leaks into the status answer); one that failed still reads COMPLETED',
    install(s) {
      onRouter(s, [STATUS, COLLECT], (out) => {
        if (isObj(out.body) && out.body.status === 'COMPLETED' && !('error_type' in out.body))
          out.body.status = 'SUCCEEDED';
      });
    },
  },
  {
    name: 'router-failure-no-error-type',
    breaks: 'ROUTER.QUEUE.ERROR_TYPE_ON_FAILURE',
    statements: ['R:74:a2b3d6162283', 'R:108:53efeed6d5ef'],
    description:
      'a request whose run failed reads COMPLETED without error_type (the status serializer writes the ' +
      'bucket for cancelled requests only), so it cannot be told from a success',
    install(s) {
      onRouter(s, [STATUS], (out) => {
        if (
          isObj(out.body) &&
          out.body.status === 'COMPLETED' &&
          typeof out.body.error_type === 'string' &&
          out.body.error_type !== 'cancelled'
        )
          delete out.body.error_type;
      });
    },
  },
  {
    name: 'router-cancel-ends-clean',
    breaks: 'ROUTER.QUEUE.ERROR_TYPE_ON_FAILURE',
    statements: ['R:105:e83e71a59b60'],
    description:
      'a cancel that takes effect marks the request COMPLETED but writes no error_type (the cancel ' +
      'path sets the terminal state, not the failure bucket), so the cancelled request reads as a ' +
      'success that has no result to collect',
    install(s) {
      onRouter(s, [STATUS], (out) => {
        if (isObj(out.body) && out.body.status === 'COMPLETED' && out.body.error_type === 'cancelled')
          delete out.body.error_type;
      });
    },
  },
  {
    name: 'router-cancel-ack-status',
    breaks: 'ROUTER.QUEUE.CANCEL',
    statements: ['R:76:80f920c75b96', 'R:99:27c642ae2dbf', 'R:200:f3462a265703'],
    description:
      "the cancel acknowledgement's body carries the request's queue status at the time (IN_QUEUE or " +
      'IN_PROGRESS) instead of CANCELLATION_REQUESTED: the handler answers the request record it just ' +
      'updated',
    install(s) {
      onRouter(s, [CANCEL], (out) => {
        if (out.status !== 202 || !isObj(out.body)) return;
        const { request_id: id = '' } = params(out);
        const r = queuedOf(out, id);
        const { queue } = out.ctx.router;
        out.body = {
          request_id: id,
          status: r === undefined ? 'IN_QUEUE' : queue.status(r) === 'COMPLETED' ? 'IN_PROGRESS' : queue.status(r),
        };
      });
    },
  },
  {
    name: 'router-cancel-done-accepted',
    breaks: 'ROUTER.QUEUE.CANCEL',
    statements: ['R:76:80f920c75b96', 'R:201:f9651ec07fad'],
    description:
      'a cancel of a finished request answers ALREADY_COMPLETED in the body but under 202 Accepted ' +
      '(the cancel handler always acknowledges with 202), so the body status is not mirrored by a ' +
      'conflict or 400 code',
    install(s) {
      onRouter(s, [CANCEL], (out) => {
        if ((out.status !== 409 && out.status !== 400) || !isObj(out.body) || out.body.status !== 'ALREADY_COMPLETED')
          return;
        out.status = 202;
        out.setHeader(H.errorType, undefined);
      });
    },
  },
  {
    name: 'router-cancel-done-drops-result',
    breaks: 'ROUTER.QUEUE.CANCEL',
    statements: ['R:106:b0ddf19e95e5'],
    description:
      'a cancel of a finished request answers ALREADY_COMPLETED but runs the clean-up of a cancelled ' +
      'one: the stored result is deleted and the request then reads failed as cancelled',
    install(s) {
      onRouter(s, [CANCEL], (out) => {
        if (!isObj(out.body) || out.body.status !== 'ALREADY_COMPLETED') return;
        const r = queuedOf(out, params(out).request_id ?? '');
        if (r === undefined || r.errorType !== undefined) return;
        delete r.result;
        delete r.completedStatus;
        r.errorType = 'cancelled';
        r.failure = { status: 409, errorType: 'cancelled', detail: 'the request was cancelled' };
      });
    },
  },
  {
    name: 'router-cancel-unknown-202',
    breaks: 'ROUTER.QUEUE.UNKNOWN_404',
    statements: ['R:202:91d00faec620'],
    description:
      'a cancel of a request ID the router does not know is acknowledged 202 CANCELLATION_REQUESTED ' +
      '(cancel treated as an idempotent ask that never looks the request up)',
    install(s) {
      onRouter(s, [CANCEL], (out) => {
        if (routerError(out)?.error_type !== 'request_not_found') return;
        out.status = 202;
        out.setHeader(H.errorType, undefined);
        out.body = { request_id: params(out).request_id ?? '', status: 'CANCELLATION_REQUESTED' };
      });
    },
  },
] as const satisfies ReadonlyArray<FaultUnit>;
