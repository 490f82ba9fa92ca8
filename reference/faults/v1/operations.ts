// Faults of the deprecated v1 cloud operations (seed W § v1 cloud operations): object_info,
// uploads, prompts, /api/view and the job status read.
import type { FaultUnit } from '../unit.ts';
import { randomUUID } from 'node:crypto';
import { CLOUD_KEYS } from '../../accounts.ts';
import { accountTraits } from '../../v2/account-traits.ts';
import { accountForKey } from '../../v1/auth.ts';
import { promptError } from '../../v1/errors.ts';
import type { Outgoing, Seams } from '../seams.ts';
import { isObj } from '../v2/shared.ts';

const STATUS = 'GET /api/job/:id/status';
const VIEW = 'GET /api/view';
const PROMPT = 'POST /api/prompt';

/** Rewrites the status a v1 status read reports, knowing the engine's own state of the job. */
function v1StatusRead(s: Seams, rewrite: (status: string, engineStatus: string | undefined) => string): void {
  s.respond({ surfaces: ['cloud'], routes: [STATUS] }, (out) => {
    if (out.status !== 200 || !isObj(out.body) || typeof out.body.status !== 'string') return;
    out.body.status = rewrite(out.body.status, out.ctx.engine.get(String(out.body.id))?.status);
  });
}

/** The file a /api/view request names, as the route found it. */
function viewed(out: Outgoing): { id: string } | undefined {
  const { type = 'output', filename = '' } = out.request.query as Record<string, string | undefined>;
  const account = accountForKey(out.request.headers['x-api-key'] as string | undefined);
  return account === undefined
    ? undefined
    : out.ctx.assets.findOwnedByPath(account, type === 'input' ? filename : `${type}/${filename}`);
}

export const V1_OPERATION_FAULTS = [
  {
    name: 'v1-status-created-201',
    breaks: 'V1.CONTRACT.STATUS_DECLARED',
    statements: ['W:234:a0ba43bcc77c'],
    description: 'the job status read answers 201 instead of 200',
    install(s) {
      s.respond({ surfaces: ['cloud'], routes: [STATUS] }, (out) => {
        if (out.status === 200) out.status = 201;
      });
    },
  },
  {
    name: 'v1-object-info-text',
    breaks: 'V1.CONTRACT.BODY',
    description: 'object_info is sent as text/plain',
    install(s) {
      s.respond({ surfaces: ['cloud'], routes: ['GET /api/object_info'] }, (out) => {
        if (out.status === 200) out.setHeader('content-type', 'text/plain; charset=utf-8');
      });
    },
  },
  {
    name: 'v1-view-404-html',
    breaks: 'V1.CONTRACT.ERROR_BODY',
    statements: ['W:234:a0ba43bcc77c'],
    description: '/api/view answers a missing file 404 with an HTML error page instead of a JSON body (or none)',
    install(s) {
      // The web framework's own error page answers instead of the route's JSON.
      s.respond({ surfaces: ['cloud'], routes: [VIEW] }, (out) => {
        if (out.status !== 404) return;
        out.setHeader('content-type', 'text/html; charset=utf-8');
        out.payload = '<html><body><h1>404 Not Found</h1></body></html>';
      });
    },
  },
  {
    name: 'v1-view-no-location',
    breaks: 'V1.CONTRACT.HEADERS',
    statements: ['W:136:f9d316cc455a'],
    description: 'the /api/view 302 carries no Location header',
    install(s) {
      s.respond({ surfaces: ['cloud'], routes: [VIEW] }, (out) => {
        if (out.status === 302) out.setHeader('location', undefined);
      });
    },
  },
  {
    name: 'v1-object-info-no-required',
    breaks: 'V1.OBJECT_INFO',
    statements: ['W:131:1eb7d0e9e41a'],
    description: 'object_info entries carry input without input.required',
    install(s) {
      s.respond({ surfaces: ['cloud'], routes: ['GET /api/object_info'] }, (out) => {
        if (out.status !== 200 || !isObj(out.body)) return;
        for (const value of Object.values(out.body))
          if (isObj(value) && isObj(value.input)) delete value.input.required;
      });
    },
  },
  {
    name: 'v1-upload-no-subfolder',
    breaks: 'V1.UPLOAD.IMAGE',
    statements: ['W:132:48a3d961e570'],
    description: 'an image upload answers without subfolder',
    install(s) {
      s.respond({ surfaces: ['cloud'], routes: ['POST /api/upload/image'] }, (out) => {
        if (out.status === 200 && isObj(out.body)) delete out.body.subfolder;
      });
    },
  },
  {
    name: 'v1-mask-original-ref-object',
    breaks: 'V1.UPLOAD.MASK',
    statements: ['W:133:ac68dfd5ba49'],
    description: 'a mask upload whose original_ref is a JSON-encoded string is refused 400',
    install(s) {
      s.policy.v1.parseOriginalRef = () => undefined;
    },
  },
  {
    name: 'v1-prompt-id-number',
    breaks: 'V1.PROMPT.SUBMIT',
    statements: ['W:134:de3fdd4f7a29'],
    description: 'POST /api/prompt answers prompt_id as a number',
    install(s) {
      s.respond({ surfaces: ['cloud'], routes: [PROMPT] }, (out) => {
        if (out.status === 200 && isObj(out.body) && typeof out.body.prompt_id === 'string')
          out.body.prompt_id = out.body.number;
      });
    },
  },
  {
    name: 'v1-refusal-without-error',
    breaks: 'V1.PROMPT.REFUSAL_ERROR',
    statements: ['W:144:4eaa83f06846', 'W:234:41caa93177b4'],
    description: 'a refused prompt is answered 200 with a prompt_id and no error, and nothing runs',
    install(s) {
      // A refusal takes a queue number as a prompt would, so numbers count every answer.
      let number = 0;
      s.respond({ surfaces: ['cloud'], routes: [PROMPT] }, (out) => {
        if (out.error !== undefined || !isObj(out.body)) return;
        if (out.body.error !== undefined) {
          out.status = 200;
          out.body = { prompt_id: randomUUID(), number: number++, node_errors: {} };
        } else if (typeof out.body.number === 'number') {
          out.body.number = number++;
        }
      });
    },
  },
  {
    name: 'v1-partner-key-field-ignored',
    breaks: 'V1.PROMPT.PARTNER_KEY',
    statements: ['W:141:59a91eeb5e3e', 'W:161:8272cc2d3c5e'],
    description: 'partner nodes read their key from extra_data.api_key, so the documented field is refused',
    install(s) {
      s.policy.v1.partnerKeyField = 'api_key';
    },
  },
  {
    name: 'v1-prompts-one-at-a-time',
    breaks: 'V1.PROMPT.PARALLEL_QUEUE',
    statements: ['W:142:fe0bd3fb5836'],
    description:
      "prompts are accepted and queued, but run strictly one at a time although the account's tier allows three at once",
    install(s) {
      s.policy.v2.runConcurrency = () => 1;
    },
  },
  {
    name: 'v1-tier-limit-ignored',
    breaks: 'V1.PROMPT.PARALLEL_QUEUE',
    statements: ['W:142:fe0bd3fb5836', 'W:241:502658dc83af'],
    description: "every prompt submitted runs at once: nothing queues past the tier's limit of three",
    install(s) {
      s.policy.v2.runConcurrency = () => 1_000;
    },
  },
  {
    name: 'v1-upload-temp-refused',
    breaks: 'V1.UPLOAD.IMAGE',
    statements: ['W:132:48a3d961e570'],
    description: 'an image upload with type=temp is refused 400: only input uploads are taken',
    install(s) {
      s.respond({ surfaces: ['cloud'], routes: ['POST /api/upload/image'] }, (out) => {
        if (out.status !== 200 || !isObj(out.body) || out.body.type !== 'temp') return;
        out.status = 400;
        out.body = { code: 'invalid_request', message: 'type must be input' };
      });
    },
  },
  {
    name: 'v1-parallel-refused',
    breaks: 'V1.PROMPT.PARALLEL_QUEUE',
    statements: ['W:142:fe0bd3fb5836', 'W:241:502658dc83af'],
    description: 'a prompt submitted while the tier limit is busy is refused 429 instead of queued',
    install(s) {
      s.policy.v1.busyRefusal = (engine, account) =>
        engine.activeCount(account) >= accountTraits(account).concurrency
          ? {
              status: 429,
              error: promptError('too_many_jobs', 'the concurrency limit of the subscription tier is reached'),
            }
          : undefined;
    },
  },
  {
    name: 'v1-subscription-ignored',
    breaks: 'V1.PROMPT.SUBSCRIPTION',
    statements: ['W:127:032fbcb7b0a5'],
    description: 'an account without an active subscription (or credits) can run prompts',
    install(s) {
      s.policy.v1.promptTraits = (account) => ({ ...accountTraits(account), noCredits: false });
    },
  },
  {
    name: 'v1-subfolder-honoured',
    breaks: 'V1.NAMESPACE.FLAT',
    statements: ['W:140:de7dd13be1b7'],
    description: 'uploads are stored under their subfolder, so the answered name alone does not find them',
    install(s) {
      // The subfolder stays in the storage key, so the name alone no longer finds the file.
      s.policy.v1.storageKey = (name, subfolder) => (subfolder !== '' ? `${subfolder}/${name}` : name);
    },
  },
  {
    name: 'v1-mask-subfolder-honoured',
    breaks: 'V1.UPLOAD.MASK',
    statements: ['W:133:ac68dfd5ba49'],
    description:
      "mask uploads are filed under their subfolder (the mask editor's clipspace, as the local engine " +
      'files them), so the answered name alone does not find the mask',
    install(s) {
      // Image uploads stay flat; only the mask route keeps the subfolder in the storage key.
      s.policy.v1.storageKey = (name, subfolder, upload) =>
        upload === 'mask' && subfolder !== '' ? `${subfolder}/${name}` : name;
    },
  },
  {
    name: 'v1-view-serves-bytes',
    breaks: 'V1.VIEW.REDIRECT',
    statements: ['W:136:f9d316cc455a'],
    description: '/api/view answers 200 with the bytes instead of a 302',
    install(s) {
      s.policy.v1.viewRedirects = false;
    },
  },
  {
    name: 'v1-view-location-needs-key',
    breaks: 'V1.VIEW.SIGNED_OPENABLE',
    statements: ['W:136:f9d316cc455a'],
    description: '/api/view redirects to the authenticated content endpoint, which needs the key',
    install(s) {
      s.respond({ surfaces: ['cloud'], routes: [VIEW] }, (out) => {
        const rec = out.status === 302 ? viewed(out) : undefined;
        if (rec !== undefined) out.setHeader('location', `${out.ctx.baseUrl('cloud')}/api/v2/assets/${rec.id}/content`);
      });
    },
  },
  {
    name: 'v1-view-temp-unserved',
    breaks: 'V1.VIEW.OUTPUT_TEMP',
    statements: ['W:136:f9d316cc455a'],
    description: '/api/view answers 404 for type=temp (previews)',
    install(s) {
      s.respond({ surfaces: ['cloud'], routes: [VIEW] }, (out) => {
        const { type, filename } = out.request.query as Record<string, string | undefined>;
        if (out.status !== 302 || type !== 'temp') return;
        out.setHeader('location', undefined);
        out.status = 404;
        out.body = { code: 'not_found', message: `no temp file named "${filename ?? ''}"` };
      });
    },
  },
  {
    name: 'v1-view-open-without-key',
    breaks: 'V1.AUTH.API_KEY_HEADER',
    statements: ['W:127:3a21e7b63064', 'W:161:7dc93e188fdb'],
    description: '/api/view answers its redirect to a request without X-API-Key',
    install(s) {
      // A request without a key is let in as the default account.
      s.request({ surfaces: ['cloud'], routes: [VIEW] }, ({ request }) => {
        if (request.headers['x-api-key'] === undefined) request.headers['x-api-key'] = CLOUD_KEYS.alice;
      });
    },
  },
  // Retired (issue #21 § 3): v1-status-unknown-terminal (V1.STATUS.TERMINAL), a finished job
  // reporting "finished", which the seed reads as in flight. Only a suite-chosen deadline could
  // see it, and a deadline hit is the suite's bound (an error), never a broken rule.
  {
    // W § v1 job status: a job that finished successfully ends on the success value of its
    // vocabulary. A translation into the second listing that picks the wrong terminal value
    // reports a success as a failure there; answers in the first vocabulary are untouched.
    name: 'v1-second-vocabulary-success-failed',
    breaks: 'V1.STATUS.TERMINAL',
    statements: ['W:98:32ac495801c8'],
    description: 'in the second status vocabulary, a job that finished successfully reads failed instead of completed',
    install(s) {
      v1StatusRead(s, (status) => (status === 'completed' ? 'failed' : status));
    },
  },
  {
    name: 'v1-status-early-terminal',
    breaks: 'V1.STATUS.IN_FLIGHT',
    statements: ['W:95:a7825f601ad9', 'W:98:4c0cf11a98c0'],
    description: 'a running job already reports success',
    install(s) {
      v1StatusRead(s, (status, engineStatus) => {
        if (status === 'executing' || status === 'preparing') return 'success';
        return status === 'in_progress' && engineStatus === 'running' ? 'completed' : status;
      });
    },
  },
  // Slice v1ws (issue #29 §1): a fault for each row of the v1 status table.
  {
    // W:90: success is the terminal value of a job that finished well. A status service that
    // keeps finished records in a cache with a short lifetime answers a finished job it no
    // longer holds as lost, though the job ran through and its outputs are there.
    name: 'v1-status-success-evicted-lost',
    breaks: 'V1.STATUS.TERMINAL',
    statements: ['W:90:8ea32a2532dc'],
    description:
      'a job that finished successfully reads lost once it has finished: the status cache evicted the finished record',
    install(s) {
      v1StatusRead(s, (status) => (status === 'success' ? 'lost' : status));
    },
  },
  {
    // W:91: error means the job failed. A scheduler that retries a job on another worker after
    // one attempt crashed lets the status read report the crashed attempt's error meanwhile.
    name: 'v1-status-retried-attempt-error',
    breaks: 'V1.STATUS.IN_FLIGHT',
    statements: ['W:91:87c20bb85a69'],
    description:
      "a running job reads error while a retry runs it on (the failed attempt's state leaks into the status read), then ends success",
    install(s) {
      v1StatusRead(s, (status) => (status === 'executing' ? 'error' : status));
    },
  },
  {
    // W:92: non_retryable_error is terminal. A status mapper that files a node's warning under
    // the non-retryable bucket reports it while the job goes on running to success.
    name: 'v1-status-warning-non-retryable',
    breaks: 'V1.STATUS.IN_FLIGHT',
    statements: ['W:92:89ef667d9143'],
    description:
      'a running job reads non_retryable_error (a node warning mapped to the failure bucket) and then ends success',
    install(s) {
      v1StatusRead(s, (status) => (status === 'executing' ? 'non_retryable_error' : status));
    },
  },
  {
    // W:93: lost means the job disappeared before finishing. A liveness check with too short a
    // heartbeat window marks a job lost while its worker is busy inside a long node.
    name: 'v1-status-heartbeat-lost',
    breaks: 'V1.STATUS.IN_FLIGHT',
    statements: ['W:93:c4feb452ba68'],
    description:
      "a job inside a long node reads lost (its worker's heartbeat came late), though it runs on and ends success",
    install(s) {
      v1StatusRead(s, (status) => (status === 'executing' ? 'lost' : status));
    },
  },
  {
    // W:94: cancelled is terminal. A worker pre-empted and re-queued by the scheduler is
    // reported cancelled (the pre-emption is an interrupt to the engine), though the job resumes.
    name: 'v1-status-preempted-cancelled',
    breaks: 'V1.STATUS.IN_FLIGHT',
    statements: ['W:94:01fee6c32c4e'],
    description:
      'a running job reads cancelled (its worker was pre-empted and the job re-queued), then resumes and ends success',
    install(s) {
      v1StatusRead(s, (status) => (status === 'executing' ? 'cancelled' : status));
    },
  },
  {
    // W:135: the status read answers {status}. A serializer shared with another listing names
    // the member state, so the value is there under a name the operation does not give.
    name: 'v1-status-member-state',
    breaks: 'V1.CONTRACT.BODY',
    statements: ['W:135:02ac9ea4d6c7'],
    description: 'the job status read answers {state} instead of {status} (a serializer shared with another listing)',
    install(s) {
      s.respond({ surfaces: ['cloud'], routes: [STATUS] }, (out) => {
        if (out.status !== 200 || !isObj(out.body) || typeof out.body.status !== 'string') return;
        out.body.state = out.body.status;
        delete out.body.status;
      });
    },
  },
  {
    // W:96: cancel_requested is in flight while a cancel is under way. A status service that
    // records the cancel as done when it is asked reports cancelled at once; the interrupt then
    // never reaches the worker (lost in its queue), and the job runs on to success.
    name: 'v1-cancel-recorded-when-asked',
    breaks: 'V1.STATUS.IN_FLIGHT',
    statements: ['W:96:ef2fc60f9d42'],
    description:
      'a running prompt whose cancel was asked reads cancelled at once, though the interrupt never reached its worker and it ends success',
    install(s) {
      const asked = new Set<string>();
      s.request(
        { surfaces: ['cloud'], routes: ['POST /api/interrupt'] },
        async ({ request, reply }) => {
          const id = (request.body as { prompt_id?: unknown } | undefined)?.prompt_id;
          if (typeof id !== 'string') return;
          asked.add(id);
          await reply.code(200).send({});
        },
        'preHandler',
      );
      s.respond({ surfaces: ['cloud'], routes: [STATUS] }, (out) => {
        if (out.status !== 200 || !isObj(out.body) || typeof out.body.status !== 'string') return;
        const engine = out.ctx.engine.get(String(out.body.id))?.status;
        if (asked.has(String(out.body.id)) && (engine === 'running' || engine === 'queued'))
          out.body.status = 'cancelled';
      });
    },
  },
  {
    name: 'v1-failed-job-success',
    breaks: 'V1.ERR.FAILED_JOB',
    statements: ['W:234:41caa93177b4'],
    description: 'a job that failed at run time reports status success',
    install(s) {
      v1StatusRead(s, (status) => (status === 'error' ? 'success' : status === 'failed' ? 'completed' : status));
    },
  },
] as const satisfies ReadonlyArray<FaultUnit>;
