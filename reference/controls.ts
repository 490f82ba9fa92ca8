// Controls: harmless variations of a correct server. Where a fault breaks exactly one
// rule, a control breaks none: the seeds allow unknown fields, any key order, extra
// headers, unknown in-flight status names, unknown error buckets where no pairing is
// stated and any valid Retry-After. The suite run against a control must stay green,
// so a check that cries wolf on a legitimate server shows up here.
//
// Most controls are applied generically, to every surface, by hooks on the response path
// (installControl) guided by the contracts in contracts/*.openapi.yaml: the response
// schema of the matched operation says which objects are records (declared
// properties: an unknown member may be added) and which are maps of user data
// (labels, graphs: left alone), and which strings are open status vocabularies
// (`x-terminal-values`). A new family or operation is covered by its contract alone.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { loadContract, type Contract } from '../lib/contracts/loader.ts';
import { deref } from '../lib/contracts/ref.ts';
import { FAMILY_CONTRACTS } from '../lib/contracts/registry.ts';
import { BRAND } from './router/constants.ts';
import type { Family, Surface } from '../lib/families.ts';
import { isPlainObject } from '../lib/values.ts';

export interface ControlInfo {
  readonly name: string;
  readonly description: string;
  /**
   * The families whose answers the control varies (absent: every family). The self-test
   * runs the control's suite on these: on the others the server answers as without it,
   * which the plain reference's own run already judges.
   */
  readonly families?: readonly Family[];
  /**
   * The surfaces where the variation can be seen at all, when it is fewer than its families'
   * (absent: all of them): the reference consults the control only on these (a route only
   * they serve, a `surface.scope` or signed-URL test beside the control's check), so the
   * self-test runs its suite there alone. The probe shows the effect on one of them.
   */
  readonly surfaces?: readonly Surface[];
  /**
   * SHOULD rules resting on public documents (never on a seed) that the variation departs
   * from on purpose, as a server the seed allows may: the run reports them failed and still
   * passes, and every other rule stays green. The self-test asserts exactly these fail.
   */
  readonly departsFrom?: readonly string[];
  /**
   * Rules the variation leaves nothing to judge by: it omits what they judge, which the seed
   * makes optional (no credits on a quote, no estimate on a submit). Their cells read
   * skipped with that reason where the plain reference passes them; the self-test asserts
   * exactly these, and every other rule the plain reference passes, passes.
   */
  readonly leavesUnjudged?: readonly string[];
  /**
   * Scenario inputs a target with this behaviour gives, over the reference entry's: what the
   * server's operator would declare where the variation is a form the seed does not show and
   * the suite takes from an input. The self-test's run of the control sets them
   * (test/e2e/controls.test.ts).
   */
  readonly scenario?: Readonly<Record<string, unknown>>;
  /**
   * Controls naming the same group are alternatives for one part of an answer (the limiter's
   * algorithm, a node cache's reporting, the names of states, the messages that tell a run
   * is under way, which together could leave it nothing to tell by): the self-test never
   * runs two of them on one reference (test/support/control-stacks.ts).
   */
  readonly exclusive?: string;
}

export const CONTROLS = [
  {
    name: 'extra-fields',
    description: 'every record in a JSON body or event (nested ones too) carries an extra unknown member',
  },
  { name: 'reordered-keys', description: 'every JSON object in a body or event has its keys in reverse order' },
  { name: 'extra-headers', description: 'every response carries extra headers the contracts do not name' },
  // Guided by the contracts: only v2 and v1 declare open status vocabularies (x-terminal-values).
  {
    name: 'unknown-in-flight-status',
    exclusive: 'status-names',
    description:
      'open status vocabularies (x-terminal-values) report in-flight states under names the suite does not know',
    families: ['v2', 'v1'],
  },
  // Guided by the contracts: only the router's states unpaired statuses (x-error-types-unpaired-statuses).
  {
    name: 'unknown-error-bucket',
    description:
      'error answers whose status has no stated bucket pairing (x-error-types-unpaired-statuses) name a bucket the suite does not know',
    families: ['router'],
  },
  { name: 'retry-after-varied', description: 'every Retry-After is one second longer than the reference would say' },
  // The v1 cloud operations and their stream, behaving as the real engine does where the seed is silent
  // (reference/v1/socket.ts and reference/v1/cache.ts; issue #12).
  {
    name: 'ws-cached-nodes',
    exclusive: 'node-cache',
    description:
      'nodes whose inputs ran before are skipped as cached: listed in execution_cached, no executing, ' +
      'progress or previews; a cached output node still gets executed',
    families: ['v1'],
  },
  {
    name: 'ws-final-executing-after-success',
    exclusive: 'ws-run-messages',
    description: 'the final executing {node: null} is sent after the terminal message instead of before it',
    families: ['v1'],
  },
  {
    name: 'ws-previews-without-metadata',
    description:
      'the stream ignores feature_flags and sends every preview as PREVIEW_IMAGE (type 1), as engines without the flag do',
    families: ['v1'],
    leavesUnjudged: ['WS.BINARY.PREVIEW_METADATA'],
  },
  {
    name: 'ws-no-final-executing',
    exclusive: 'ws-run-messages',
    description: 'the stream never sends the final executing {node: null}; the terminal message alone ends a run',
    families: ['v1'],
  },
  {
    name: 'ws-text-without-node',
    description: 'each run also sends a TEXT frame with node_id_len 0 (a note tied to no node) when execution starts',
    families: ['v1'],
  },
  {
    name: 'v1-object-info-open',
    description: 'GET /api/object_info answers callers without X-API-Key too (the node catalog, with no input files)',
    families: ['v1'],
  },
  {
    name: 'v1-null-display-names',
    description: 'object_info gives display_name null for every other node class',
    families: ['v1'],
  },
  {
    name: 'v1-empty-error-bodies',
    description: 'refusals of /api/view and of the uploads carry an empty body (no JSON)',
    families: ['v1'],
  },
  {
    name: 'placement-roots-only',
    description:
      'v2 uploads and asset-from-hash refuse a file_path below a folder (422 invalid_request naming the placement root), as a real proxy allowlists its roots',
    families: ['v2'],
  },
  {
    name: 'lazy-hash',
    description: 'a v2 asset reads hash null for its first second, then the blake3 (the hash filled lazily)',
    families: ['v2'],
  },
  // Behaviours the seed allows where the suite once demanded one reading (issue #21 §3).
  {
    name: 'job-list-oldest-first',
    description:
      'the v2 job list runs oldest first (the seed gives it no order), so a job submitted a moment ago is on its last page',
    families: ['v2'],
  },
  {
    name: 'job-list-plain-cursors',
    description:
      'v2 job-list cursors are bare positions (<created ms>_<job id>), unsigned and bound to no ' +
      "account: a changed or foreign one that reads as a position is a place in the caller's own list",
    families: ['v2'],
  },
  {
    name: 'proxy-constant-url-expiry',
    description: 'the self-hosted proxy (no signed URLs) gives every asset url one constant url_expires_at',
    families: ['v2'],
    surfaces: ['local'],
  },
  {
    name: 'signed-url-minute-expiry',
    description:
      'hosted v2 surfaces sign asset urls with expiries rounded up to the whole minute, so reads within one minute get the same url',
    families: ['v2'],
    surfaces: ['cloud', 'serverless'],
  },
  {
    name: 'content-location-relative',
    description:
      "the hosted v2 content endpoint's 302 carries a relative Location (path and query of the signed URL), as RFC 9110 allows",
    families: ['v2'],
    surfaces: ['cloud'],
  },
  {
    name: 'moderation-at-upload',
    description:
      'v2 uploads of bytes content moderation flags are refused 451 content_blocked at once, minting no asset',
    families: ['v2'],
  },
  {
    name: 'owner-scope-forbidden',
    description: "a v2 read of another account's asset (or its content) is refused 403 forbidden instead of 404",
    families: ['v2'],
  },
  {
    name: 'malformed-job-id-422',
    description: 'a v2 job id that is not a UUID is refused 422 invalid_request instead of 404',
    families: ['v2'],
  },
  {
    name: 'asset-ref-url-invalid-workflow',
    description:
      'a v2 submit whose graph references an asset by a non-UUID id (a URL) is refused 422 invalid_workflow naming the node, not missing_asset',
    families: ['v2'],
  },
  {
    name: 'jwt-refusal-plain-words',
    exclusive: 'jwt-refusal',
    description:
      'a serverless deployment refuses a JWT bearer 401 with a message that says so without the word "JWT" (session and OAuth tokens are not accepted)',
    families: ['v2'],
    surfaces: ['serverless'],
  },
  {
    name: 'workflow-route-html',
    description:
      'the hosted cloud and the proxy answer GET /workflow 200 with a web page (no graph), as a front end serving pages at any path does',
    families: ['v2'],
    surfaces: ['local', 'cloud'],
  },
  {
    name: 'job-read-without-labels',
    description: "v2 job reads carry no metadata member; the labels are kept and show on the outputs' job_metadata",
    families: ['v2'],
  },
  {
    name: 'deployment-workflow-annotated',
    exclusive: 'deployment-workflow',
    description:
      "a serverless deployment's GET /workflow carries an unknown top-level member beside the nodes, and a _meta member on every node",
    families: ['v2'],
    surfaces: ['serverless'],
  },
  {
    name: 'idempotent-replay',
    description:
      'a v2 submit repeating an earlier request under its Idempotency-Key is answered 201 with the job ' +
      'that key made, not refused (the other reading of "submission is idempotent")',
    families: ['v2'],
  },
  {
    name: 'labels-not-kept',
    description:
      'the hosted cloud takes v2 job labels without refusing them and keeps none: no metadata on the ' +
      'job, no job_metadata on its outputs (a reason the seed gives for an absent job_metadata)',
    families: ['v2'],
    surfaces: ['cloud'],
    leavesUnjudged: ['V2.JOB.LABELS_EXACT'],
  },
  {
    name: 'job-without-urls',
    description:
      "v2 job records embed no urls member (the public documents' urls.self/events/cancel); clients " +
      'reach the job by its id at the documented paths, and outputs still carry their content-endpoint ' +
      'url',
    families: ['v2'],
    departsFrom: ['V2.JOB.FIELDS_DOCUMENTED'],
  },
  {
    name: 'job-submit-200',
    description: "the hosted cloud answers an accepted v2 submit 200 instead of the public documents' 201",
    families: ['v2'],
    surfaces: ['cloud'],
    departsFrom: ['V2.CONTRACT.DOCUMENTED'],
  },
  {
    name: 'events-state-member',
    description:
      "status events of the v2 live stream name the job's state in a `state` member, " +
      "not the public documents' `status` (the seed shows no payload of the stream)",
    families: ['v2'],
    departsFrom: ['V2.JOB.EVENTS_FORMAT'],
  },
  {
    name: 'ws-no-executing',
    exclusive: 'ws-run-messages',
    description:
      'the v1 stream sends no executing message at all (neither per node nor the final one): ' +
      'execution_start, progress, executed and the terminal message tell the run',
    families: ['v1'],
  },
  {
    name: 'v1-subscription-fails-later',
    description:
      'a v1 prompt from an account without an active subscription is accepted (200 {prompt_id}) and its job then ends error, instead of a refusal at submit',
    families: ['v1'],
  },
  {
    name: 'registry-refusals-4xx',
    description:
      'the registry refuses a malformed Authorization (not Bearer, or a bearer that is no credential) ' +
      '400, and a request with no credential 404 (a route hidden from strangers), instead of 401',
    families: ['registry'],
  },
  // v2 jobs slice (issue #29 §2, §4, §5): behaviours seed W leaves open in submits, refusals and
  // the deployment's workflow read, each run clean.
  {
    name: 'engine-cached-work',
    exclusive: 'node-cache',
    description:
      'the v2 engine keeps a node cache, as real engines do: a node whose class and inputs ran in an ' +
      'earlier successful job of the account finishes at once (identical slow jobs take no time)',
    families: ['v2'],
  },
  {
    name: 'asset-ref-file-name',
    description:
      'v2 submits name an uploaded asset by its plain file name (image: "<file_path>"), the engine\'s ' +
      "own form; the public documents' reference object is refused 422 invalid_workflow naming the " +
      'node (the run sets scenario input asset_reference)',
    families: ['v2'],
    scenario: { asset_reference: '{file_path}' },
  },
  {
    name: 'node-errors-engine-types',
    description:
      "a v2 submit refusal types a missing required input with the engine's own error type, " +
      "required_input_missing (the seed's types are those seen, an open list)",
    families: ['v2'],
  },
  {
    name: 'unknown-classes-unnamed',
    description:
      'a v2 submit naming classes the server lacks is refused as an engine refuses it, passed through: ' +
      '422 invalid_workflow with an empty node_errors and no class list (the seed bounds what a ' +
      'refusal names; it does not require naming them)',
    families: ['v2'],
  },
  {
    name: 'v2-own-state-names',
    exclusive: 'status-names',
    description:
      "v2 jobs name their states in the server's own words (waiting, working, stopping; done, error, " +
      'stopped, expired), and the run gives those names as scenario inputs job_terminal_states, ' +
      'job_success_state and job_running_states',
    families: ['v2'],
    departsFrom: ['V2.JOB.FIELDS_DOCUMENTED'],
    scenario: {
      job_terminal_states: ['done', 'error', 'stopped', 'expired'],
      job_success_state: 'done',
      job_running_states: ['working'],
    },
  },
  {
    name: 'deployment-workflow-history-form',
    exclusive: 'deployment-workflow',
    description:
      "a serverless deployment's GET /workflow answers the engine's history entry, {prompt: [number, " +
      'prompt_id, graph, extra_data, output node ids]}, with the graph that ran inside it (the shape ' +
      'is not shown)',
    families: ['v2'],
    surfaces: ['serverless'],
  },
  // Issue #29, v2 assets, auth, errors and load (engineer v2assets): readings of seed W the suite must not fail.
  {
    name: 'cloud-refuses-jwt',
    exclusive: 'jwt-refusal',
    description:
      'the hosted cloud is configured not to take JWT bearers (W:157 makes it configuration): a ' +
      'session JWT or OAuth token is refused 401 with a message saying so',
    families: ['v2'],
    surfaces: ['cloud'],
    leavesUnjudged: ['V2.AUTH.JWT_ACCEPTED'],
  },
  {
    name: 'rate-limit-clock-windows',
    exclusive: 'v2-limiter',
    description:
      'the v2 request limiter spends each allowance in fixed windows aligned to the clock (each starts ' +
      'at a multiple of its length), not in windows opened by a first request',
    families: ['v2'],
    surfaces: ['cloud', 'serverless'],
  },
  {
    name: 'rate-limit-token-bucket',
    exclusive: 'v2-limiter',
    description:
      'the v2 request limiter is a token bucket of the allowance, refilled evenly over the window: admissions are spread out, with no window bursts',
    families: ['v2'],
    surfaces: ['cloud', 'serverless'],
  },
  {
    name: 'asset-optional-members-absent',
    description:
      'v2 answers for uploaded assets carry neither file_path nor created_new, both optional in the Asset table',
    families: ['v2'],
  },
  {
    name: 'asset-delete-not-offered',
    description:
      'v2 surfaces have no asset delete (an operation only the public documents give): DELETE of an ' +
      'asset answers 404 in the v2 error envelope, as any path without a route does',
    families: ['v2'],
    leavesUnjudged: ['V2.ASSET.DELETE'],
  },
  // The router: readings seed R allows that the reference does not take (issue #21 §3, router items).
  {
    name: 'router-renamed-members',
    exclusive: 'router-names-and-quote-values',
    description:
      'the router names the members seed R does not show otherwise: model_id, billing_facts.charged_on_policy_rejection, page_size, schema_url, alternates',
    families: ['router'],
    departsFrom: ['ROUTER.CATALOG.MEMBER_NAMES'],
  },
  {
    name: 'router-alternate-names',
    exclusive: 'router-names-and-quote-values',
    description:
      'the router lists and names the wavespeed alternate wavespeed-ai (the seed names none of the four), still taking the old spelling',
    families: ['router'],
  },
  {
    name: 'router-quotes-without-credits',
    description:
      'exact quotes carry amount and amount_cents but no credits (the seed does not say credits is always present)',
    families: ['router'],
    leavesUnjudged: ['ROUTER.ESTIMATE.CREDITS'],
  },
  {
    name: 'router-text-default-cap',
    description:
      'text models bound a body without max_tokens by a default output cap, so it is quoted estimated (min and max), not unknown not_quotable',
    families: ['router'],
    leavesUnjudged: ['ROUTER.ESTIMATE.UNKNOWN_REASON'],
  },
  {
    name: 'router-format-annotation',
    description:
      'the router reads `format` in input schemas as an annotation (the JSON Schema 2020-12 default): a non-URI string in a uri field is run',
    families: ['router'],
  },
  {
    name: 'router-provider-requirements',
    description:
      'image partners make at most three images per call, a requirement beyond the schema: num_images ' +
      '4 is called malformed by the provider (400 invalid_input with its reason)',
    families: ['router'],
  },
  {
    name: 'router-spend-headers-on-limits-only',
    description: 'the committed-spend headers are sent on 429 answers only, never on a 200 run',
    families: ['router'],
    leavesUnjudged: ['ROUTER.RUN.SPEND_HEADERS'],
  },
  {
    name: 'router-no-submit-estimates',
    description: 'the estimate on a queued submit is still rolling out: no admission carries one',
    families: ['router'],
    leavesUnjudged: ['ROUTER.QUEUE.ESTIMATE_LEG', 'ROUTER.QUEUE.ESTIMATE'],
  },
  {
    name: 'router-limits-runs-only',
    description:
      'the request allowance counts synchronous runs only: catalog reads are never answered 429 (GET /v2/models lists no 429)',
    families: ['router'],
  },
  {
    name: 'router-provider-failure-402',
    description:
      'a provider that could not take the call and reported nothing is a request-level failure: 402 provider_error, not 502',
    families: ['router'],
  },
  {
    name: 'router-schema-failure-unavailable',
    description:
      'a schema document the router cannot build is answered 500 with bucket service_unavailable (the ' +
      'seed names no bucket for that 500; public docs pair service_unavailable with 503)',
    families: ['router'],
    departsFrom: ['ROUTER.ERR.CODE_STATUS_PUBLIC'],
  },
  {
    name: 'router-unknown-without-reason',
    description:
      "quotes whose source is unknown carry no reason, on the estimate route and in a submit's " +
      'estimate (the seed allows a reason only there, never requires one)',
    families: ['router'],
    departsFrom: ['ROUTER.ESTIMATE.UNKNOWN_REASON'],
  },
  {
    name: 'router-policy-upstream-detail',
    description:
      "a content-policy refusal carries the provider's reason in X-Comfy-Upstream-Detail (no body member: that comes only with invalid_input)",
    families: ['router'],
  },
  {
    name: 'router-deadline-own-clock',
    description:
      "a 504 deadline_exceeded ended by the router's own clock carries Retry-After but no X-Comfy-Upstream-Status (no provider status to report)",
    families: ['router'],
  },
  {
    name: 'router-capacity-own-bucket',
    description:
      'a capacity 503 (with Retry-After) names a bucket of its own, capacity_exhausted, instead of service_unavailable (the seed names no bucket for it)',
    families: ['router'],
  },
  {
    name: 'router-429-without-retry-after',
    description:
      'a rate_limited 429 carries the spend headers but no Retry-After (the seed lists none on a 429); a client tries again once the allowance resets',
    families: ['router'],
  },
  {
    name: 'router-video-quotes-by-role',
    description:
      'the estimate route prices the video family by the roles in content[], while runs still bill by media kinds (quotes are not charges)',
    families: ['router'],
  },
  {
    name: 'router-alternate-answers-raw',
    description:
      "runs on wavespeed without strict mode answer wavespeed's own response ({data: {id, outputs, " +
      'status}}), the router having no translator back to the native output for it',
    families: ['router'],
  },
  {
    name: 'router-queue-own-names',
    description:
      'the two unfinished queue statuses are named QUEUED and RUNNING (the seed shows only COMPLETED; the public documents say IN_QUEUE and IN_PROGRESS)',
    families: ['router'],
    departsFrom: ['ROUTER.QUEUE.STATUS_NAMES'],
  },
  // Slice v1ws (issue #29 §2, §4): the v1 operations, their WebSocket and the registry, where seed W leaves a choice open.
  {
    name: 'ws-sid-own',
    description:
      "clientId is ignored through and through: the status message on connect names the session with an id of the server's own, not the clientId",
    families: ['v1'],
  },
  {
    name: 'ws-no-execution-start',
    exclusive: 'ws-run-messages',
    description: 'the v1 stream never sends execution_start: node messages and the terminal message tell the run',
    families: ['v1'],
  },
  {
    name: 'ws-no-progress',
    exclusive: 'ws-run-messages',
    description:
      'the v1 stream sends no progress and no progress_state messages: execution_start, executing, executed and the terminal message tell the run',
    families: ['v1'],
  },
  {
    name: 'engine-cached-work-instant',
    exclusive: 'node-cache',
    description:
      'work the account already ran (the same node with the same inputs through every link) finishes ' +
      'at once from the cache: its slow node takes no time, and the stream lists it in ' +
      'execution_cached',
    families: ['v1'],
  },
  {
    name: 'v1-second-vocabulary-only',
    description:
      "every account's v1 status reads use the second listing's names (pending, in_progress, completed, failed, cancelled), never the first table's",
    families: ['v1'],
  },
  {
    name: 'registry-publisher-only',
    description:
      "the registry lets only a node's publisher (the account of the scenario's JWT and API key) or " +
      'the administrative secret write its translations; another valid credential is authenticated and ' +
      'refused 403 forbidden',
    families: ['registry'],
  },
  {
    name: 'v1-renamed-classes',
    description:
      "the engine's core node classes have names of their own (BlankImage, ImageSaveOutput, " +
      'ImageFromInputFile, InvertColours, ImagePreviewTemp): object_info lists those, and a prompt ' +
      "using the public names is refused as an unknown class; the target's class inputs name them " +
      '(lib/control-inputs.ts)',
    families: ['v1'],
    surfaces: ['cloud'],
  },
  // Router surface (issue #29 §2, slice routersurface: catalog, schemas, estimates, errors):
  // readings seed R allows, implemented in reference/router/surface-variations.ts.
  {
    name: 'router-catalog-of-three',
    description:
      'the catalog lists three models (the image model, the future-sunset model and a text model), so ' +
      'a first page of five holds them all and carries no next_cursor; the other models are still read ' +
      'and run by their IDs',
    families: ['router'],
  },
  {
    name: 'router-schemas-without-max-length',
    description:
      'partner input schemas bound no string length: the documents declare no maxLength and the router refuses no long string (the body size cap still holds)',
    families: ['router'],
  },
  {
    name: 'router-estimate-ignores-capacity',
    description:
      'the estimate of a model at capacity is quoted (200) instead of refused 503: the estimate dispatches nothing',
    families: ['router'],
  },
  {
    name: 'router-quote-other-names',
    exclusive: 'router-names-and-quote-values',
    description:
      'quotes name the members seed R does not show otherwise: currency_code, model, provider_leg, min_cents and max_cents',
    families: ['router'],
  },
  {
    name: 'router-quote-open-vocabulary',
    exclusive: 'router-names-and-quote-values',
    description:
      "the estimate route's quotes with no figure say source indeterminate, and a body priced only " +
      'afterwards says reason priced_after_run (values a client reads as unknown and not_quotable)',
    families: ['router'],
  },
  // Slice routerruns (issue #29 § 2): behaviours seed R leaves open for runs, the queue and idempotency.
  {
    name: 'router-queued-cap',
    description:
      'a caller holding three unfinished queued requests of the slow model is told to wait: the next ' +
      'submit is answered 429 concurrency_limit_exceeded with Retry-After and the committed-spend ' +
      'headers (every caller is under an in-flight cap)',
    families: ['router'],
  },
  {
    name: 'router-cancel-never-effective',
    description:
      'a cancel is acknowledged 202 CANCELLATION_REQUESTED and the request runs on to its end (an ask, ' +
      'not a guarantee); only the public-docs reading that a waiting request is stopped departs',
    families: ['router'],
    departsFrom: ['ROUTER.QUEUE.CANCEL_QUEUED'],
  },
  {
    name: 'router-slow-nondeterministic',
    description:
      'the slow model draws a fresh generation on every call (a new generation_id in its output), so a ' +
      'queued request of it and a later synchronous run of the same input answer different bytes; its ' +
      'target does not declare it deterministic',
    families: ['router'],
    scenario: { deterministic_models: ['pixelforge/pf-flux-lite'] },
  },
] as const satisfies ReadonlyArray<ControlInfo>;

export type ControlName = (typeof CONTROLS)[number]['name'];

export function controlByName(name: string | undefined): ControlName | undefined {
  if (name === undefined || name === '') return undefined;
  const found = CONTROLS.find((c) => c.name === name);
  if (!found) throw new Error(`unknown control "${name}"; valid controls: ${CONTROLS.map((c) => c.name).join(', ')}`);
  return found.name;
}

/** The member every record gets under `extra-fields`: an object, so nested unknowns are exercised too. */
export const EXTRA_MEMBER = 'x_reference_control';
const EXTRA_VALUE = { note: 'an unknown member a client must ignore', nested: { level: 2, list: [1, 'two'] } };
export const UNKNOWN_BUCKET = 'reference_control_bucket';
const EXTRA_HEADERS: Record<string, string> = {
  'X-Reference-Control': 'extra-headers',
  'X-Comfy-Experimental-Flag': 'on',
  Via: '1.1 reference-control-proxy',
  'Server-Timing': 'app;dur=1',
};
/** The v2 job states under the v2-own-state-names control (the seed shows no v2 state names, W:100:65afe34f1ab1). */
const V2_OWN_STATE_NAMES: Readonly<Record<string, string>> = {
  queued: 'waiting',
  running: 'working',
  canceling: 'stopping',
  succeeded: 'done',
  failed: 'error',
  canceled: 'stopped',
};
/** How long a fresh v2 asset reads hash null under lazy-hash. */
const LAZY_HASH_MS = 1_000;
/** The v2 routes whose answer is one asset record (create, from-hash, read), however a surface mounts them. */
const ASSET_RECORD_ROUTE = /\/api\/v2\/assets(\/from-hash|\/:id)?$/;
/** ETags of rewritten bodies get this suffix, so a tag still names exactly the bytes sent. */
const ETAG_SUFFIX = '.ctl';

// ---------------------------------------------------------------------------
// Contract-guided JSON rewriting

type Obj = Record<string, unknown>;

interface Operation {
  method: string;
  template: string;
  pattern: RegExp;
  suffix: RegExp;
  responses: Obj;
  sseEvents: Obj | undefined;
  doc: Obj;
}

interface ContractInfo {
  operations: Operation[];
  unpairedStatuses: Set<number>;
}

/** The contracts as the suite's one loader reads them (lib/contracts/loader.ts), one per family. */
function loadContracts(): ContractInfo {
  const operations: Operation[] = [];
  const unpairedStatuses = new Set<number>();
  for (const family of Object.values(FAMILY_CONTRACTS)) {
    if (family === undefined) continue;
    let contract: Contract;
    try {
      contract = loadContract(family.file, BRAND, family.rulePrefix);
    } catch (err) {
      // A contract the suite cannot read fails the suite's own loader; a control then leaves its operations alone.
      process.stderr.write(`controls: skipping ${family.file}: ${(err as Error).message.split('\n')[0]}\n`);
      continue;
    }
    const doc = contract.document as Obj;
    const unpaired = contract.extensions['x-error-types-unpaired-statuses'];
    if (Array.isArray(unpaired)) for (const s of unpaired) if (typeof s === 'number') unpairedStatuses.add(s);
    const paths = isPlainObject(doc.paths) ? doc.paths : {};
    for (const spec of contract.operations.values()) {
      const item = paths[spec.path];
      const op = isPlainObject(item) ? item[spec.method.toLowerCase()] : undefined;
      if (!isPlainObject(op)) continue;
      const body = spec.pathPattern.source.slice(1, -1);
      operations.push({
        method: spec.method,
        template: spec.path,
        pattern: spec.pathPattern,
        // A mount prefix (serverless /deployment/<id>) sits in front of the contract's paths.
        suffix: new RegExp(`^/.+${body}$`),
        responses: isPlainObject(op.responses) ? op.responses : {},
        sseEvents: isPlainObject(op['x-sse-events']) ? op['x-sse-events'] : undefined,
        doc,
      });
    }
  }
  return { operations, unpairedStatuses };
}

let contracts: ContractInfo | undefined;
function contractInfo(): ContractInfo {
  contracts ??= loadContracts();
  return contracts;
}

function operationFor(method: string, url: string): Operation | undefined {
  const pathname = url.split('?')[0] ?? url;
  const ops = contractInfo().operations.filter((o) => o.method === method);
  const specific = (a: Operation, b: Operation) =>
    b.template.replace(/\{[^}]+\}/g, '').length - a.template.replace(/\{[^}]+\}/g, '').length;
  return (
    ops.filter((o) => o.pattern.test(pathname)).sort(specific)[0] ??
    ops.filter((o) => o.suffix.test(pathname)).sort(specific)[0]
  );
}

function jsonSchemaOf(op: Operation, status: number): Obj | undefined {
  const response = deref(
    op.doc,
    op.responses[String(status)] ?? op.responses[`${String(status)[0]}XX`] ?? op.responses.default,
  );
  const content = response && isPlainObject(response.content) ? response.content : undefined;
  if (!content) return undefined;
  const media = Object.keys(content).find((m) => m === 'application/json' || m.endsWith('+json'));
  const entry = media ? content[media] : undefined;
  return isPlainObject(entry) && isPlainObject(entry.schema) ? entry.schema : undefined;
}

const typesOf = (schema: Obj): string[] =>
  Array.isArray(schema.type) ? (schema.type as string[]) : typeof schema.type === 'string' ? [schema.type] : [];

/** The one branch of an anyOf/oneOf that fits the value (its JSON type, its required members). */
function branchFor(doc: Obj, branches: unknown[], value: unknown): Obj | undefined {
  const kind =
    value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value === 'number' ? 'number' : typeof value;
  for (const raw of branches) {
    const b = resolve(doc, raw);
    if (!b) continue;
    const types = typesOf(b);
    const typeOk = types.length === 0 || types.includes(kind) || (kind === 'number' && types.includes('integer'));
    const required = Array.isArray(b.required) ? (b.required as string[]) : [];
    if (typeOk && (!isPlainObject(value) || required.every((k) => k in value))) return b;
  }
  return undefined;
}

/** A schema with its $ref followed and its allOf members merged (properties, required). */
function resolve(doc: Obj, raw: unknown): Obj | undefined {
  const schema = deref(doc, raw);
  if (!schema) return undefined;
  if (!Array.isArray(schema.allOf)) return schema;
  const merged: Obj = { ...schema, properties: { ...(isPlainObject(schema.properties) ? schema.properties : {}) } };
  delete merged.allOf;
  for (const part of schema.allOf as unknown[]) {
    const p = resolve(doc, part);
    if (!p) continue;
    Object.assign(merged.properties as Obj, isPlainObject(p.properties) ? p.properties : {});
    if (p.additionalProperties !== undefined && merged.additionalProperties === undefined)
      merged.additionalProperties = p.additionalProperties;
    if (typeof p.type === 'string' && merged.type === undefined) merged.type = p.type;
  }
  return merged;
}

interface Rewrite {
  extraFields: boolean;
  reorder: boolean;
  statusNames: boolean;
  /** Every v2 job state under another name (the v2-own-state-names control). */
  stateNames?: Readonly<Record<string, string>>;
}

/** Deterministic: the same value and schema always give the same bytes (replays, collect = run). */
function rewriteValue(doc: Obj, rawSchema: unknown, value: unknown, how: Rewrite): unknown {
  let schema = rawSchema === undefined ? undefined : resolve(doc, rawSchema);
  for (const key of ['anyOf', 'oneOf'] as const) {
    if (schema && Array.isArray(schema[key])) schema = branchFor(doc, schema[key] as unknown[], value) ?? undefined;
  }
  if (typeof value === 'string') {
    const terminal = schema?.['x-terminal-values'];
    if (how.statusNames && Array.isArray(terminal) && !terminal.includes(value)) return `${value}_reference_control`;
    // Only the v2 job vocabulary (the one whose terminal names include succeeded).
    if (how.stateNames && Array.isArray(terminal) && terminal.includes('succeeded'))
      return how.stateNames[value] ?? value;
    return value;
  }
  if (Array.isArray(value)) return value.map((v) => rewriteValue(doc, schema?.items, v, how));
  if (!isPlainObject(value)) return value;
  const props = schema && isPlainObject(schema.properties) ? schema.properties : undefined;
  const additional = schema?.additionalProperties;
  const entries = Object.entries(value).map(([k, v]): [string, unknown] => {
    const sub = props && k in props ? props[k] : isPlainObject(additional) ? additional : undefined;
    return [k, rewriteValue(doc, sub, v, how)];
  });
  // A record (declared members, no typed or closed remainder) may carry members a client does not know.
  const record =
    props !== undefined && Object.keys(props).length > 0 && (additional === undefined || additional === true);
  if (how.extraFields && record && !(EXTRA_MEMBER in value)) entries.push([EXTRA_MEMBER, EXTRA_VALUE]);
  if (how.reorder) entries.reverse();
  return Object.fromEntries(entries);
}

// ---------------------------------------------------------------------------
// Hooks

function rewriteOf(control: ControlName): Rewrite | undefined {
  if (control === 'extra-fields') return { extraFields: true, reorder: false, statusNames: false };
  if (control === 'reordered-keys') return { extraFields: false, reorder: true, statusNames: false };
  if (control === 'unknown-in-flight-status') return { extraFields: false, reorder: false, statusNames: true };
  if (control === 'v2-own-state-names')
    return { extraFields: false, reorder: false, statusNames: false, stateNames: V2_OWN_STATE_NAMES };
  return undefined;
}

function isJsonType(contentType: unknown): boolean {
  const base = (typeof contentType === 'string' ? contentType : '').split(';')[0].trim().toLowerCase();
  return base === 'application/json' || base.endsWith('+json');
}

/** The JSON a string or Buffer payload carries; undefined when it has none (empty, a stream, not JSON). */
function payloadJson(payload: unknown): unknown {
  const text = typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : undefined;
  if (text === undefined || text.length === 0) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** Rewrites each `data:` line of whole SSE frames by the schema of the frame's event. */
function rewriteSse(op: Operation, chunk: string, how: Rewrite): string {
  return chunk.replace(/event: ([^\n]+)\ndata: ([^\n]*)\n/g, (frame, event: string, data: string) => {
    const schema = op.sseEvents?.[event.trim()];
    if (schema === undefined) return frame;
    try {
      return `event: ${event}\ndata: ${JSON.stringify(rewriteValue(op.doc, schema, JSON.parse(data), how))}\n`;
    } catch {
      return frame;
    }
  });
}

function withEtagSuffix(tag: string): string {
  return tag.endsWith('"') ? `${tag.slice(0, -1)}${ETAG_SUFFIX}"` : `${tag}${ETAG_SUFFIX}`;
}

function withoutEtagSuffix(header: string): string {
  return header
    .split(',')
    .map((t) => t.trim().replace(new RegExp(`${ETAG_SUFFIX.replace('.', '\\.')}"$`), '"'))
    .join(', ');
}

/**
 * Switches one control on for a surface app. Hooks added after the routes still apply
 * to them (fastify resolves hooks when the app boots), so surfaces need no change.
 */
export function installControl(app: FastifyInstance, control: ControlName | undefined): void {
  if (control === undefined) return;
  const how = rewriteOf(control);

  if (control === 'extra-headers') {
    // On the raw response, so hijacked replies (event streams) carry them too.
    app.addHook('onRequest', async (_req: FastifyRequest, reply: FastifyReply) => {
      for (const [k, v] of Object.entries(EXTRA_HEADERS)) reply.raw.setHeader(k, v);
    });
    return;
  }

  if (control === 'retry-after-varied') {
    app.addHook('onSend', async (_req: FastifyRequest, reply: FastifyReply, payload: unknown) => {
      const value = reply.getHeader('retry-after');
      if (value !== undefined && /^\d+$/.test(String(value).trim()))
        reply.header('retry-after', String(Number(value) + 1));
      return payload;
    });
    return;
  }

  if (control === 'lazy-hash') {
    // The hash is filled lazily: an asset record younger than LAZY_HASH_MS reads hash null.
    app.addHook('onSend', async (req: FastifyRequest, reply: FastifyReply, payload: unknown) => {
      if (
        reply.statusCode >= 300 ||
        !ASSET_RECORD_ROUTE.test(req.routeOptions.url ?? '') ||
        !isJsonType(reply.getHeader('content-type'))
      )
        return payload;
      const body = payloadJson(payload);
      if (
        !isPlainObject(body) ||
        typeof body.created_at !== 'string' ||
        Date.now() - Date.parse(body.created_at) >= LAZY_HASH_MS
      )
        return payload;
      return JSON.stringify({ ...body, hash: null });
    });
    return;
  }

  if (control === 'unknown-error-bucket') {
    const unpaired = contractInfo().unpairedStatuses;
    app.addHook('onSend', async (_req: FastifyRequest, reply: FastifyReply, payload: unknown) => {
      if (!unpaired.has(reply.statusCode) || !isJsonType(reply.getHeader('content-type'))) return payload;
      const body = payloadJson(payload);
      if (!isPlainObject(body) || typeof body.error_type !== 'string') return payload;
      const known = body.error_type;
      // The header mirrors the body: every header that carried the old bucket carries the new one.
      for (const [name, value] of Object.entries(reply.getHeaders())) {
        if (/error-type$/i.test(name) && String(value) === known) reply.header(name, UNKNOWN_BUCKET);
      }
      return JSON.stringify({ ...body, error_type: UNKNOWN_BUCKET });
    });
    return;
  }

  if (!how) return;
  // A rewritten body gets its own ETag, and a tag sent back is mapped to the original.
  app.addHook('onRequest', async (req: FastifyRequest, reply: FastifyReply) => {
    for (const h of ['if-none-match', 'if-match'] as const) {
      const v = req.headers[h];
      if (typeof v === 'string') req.headers[h] = withoutEtagSuffix(v);
    }
    wrapSseWrites(req, reply, (op, chunk) => rewriteSse(op, chunk, how));
  });
  app.addHook('onSend', async (req: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const etag = reply.getHeader('etag');
    if (typeof etag === 'string') reply.header('etag', withEtagSuffix(etag));
    const out = rewrittenBody(req, reply, payload, how);
    if (out === undefined) return payload;
    return Buffer.isBuffer(payload) ? Buffer.from(out) : out;
  });
}

/** Whether the control is a rewrite control, whose answers watchRewrites watches on a plain reference. */
export function rewriteWatched(control: ControlName): boolean {
  return rewriteOf(control) !== undefined;
}

/**
 * The rewrite controls (those acting on every answer through the contracts' schemas) that are
 * off, watched on a plain reference: each answer its hooks would change, body, event or ETag,
 * is told to `consult` under the control's name, and goes out unchanged. The self-test then
 * runs such a control only on the tests where it would have changed something, as it does a
 * control the code asks about (reference/server.ts onConsult).
 */
export function watchRewrites(app: FastifyInstance, consult: (control: ControlName) => void): void {
  const watched = CONTROLS.map((c) => c.name).flatMap((name) => {
    const how = rewriteOf(name);
    return how ? [{ name, how }] : [];
  });
  app.addHook('onRequest', async (req: FastifyRequest, reply: FastifyReply) => {
    wrapSseWrites(req, reply, (op, chunk) => {
      for (const w of watched) if (rewriteSse(op, chunk, w.how) !== chunk) consult(w.name);
      return chunk;
    });
  });
  app.addHook('onSend', async (req: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const tagged = typeof reply.getHeader('etag') === 'string';
    for (const w of watched) if (tagged || rewrittenBody(req, reply, payload, w.how) !== undefined) consult(w.name);
    return payload;
  });
}

/** Passes each SSE chunk of an event-stream operation through `write` (streams are written raw, past onSend). */
function wrapSseWrites(
  req: FastifyRequest,
  reply: FastifyReply,
  write: (op: Operation, chunk: string) => string,
): void {
  const op = operationFor(req.method, req.url);
  if (!op?.sseEvents) return;
  // writeHead(status, {headers}) need not store its headers where getHeader sees them.
  const raw = reply.raw;
  const isStream = () => String(raw.getHeader('content-type') ?? '').startsWith('text/event-stream');
  const original = raw.write.bind(raw) as (chunk: unknown, ...rest: unknown[]) => boolean;
  raw.write = ((chunk: unknown, ...rest: unknown[]) => {
    const sse = typeof chunk === 'string' && (isStream() || /^event: /.test(chunk));
    return original(sse ? write(op, chunk) : chunk, ...rest);
  }) as typeof raw.write;
}

/** The JSON body the rewrite makes of an answer, when it changes it; undefined when it leaves it as it is. */
function rewrittenBody(req: FastifyRequest, reply: FastifyReply, payload: unknown, how: Rewrite): string | undefined {
  if (!isJsonType(reply.getHeader('content-type'))) return undefined;
  const op = operationFor(req.method, req.url);
  const schema = op ? jsonSchemaOf(op, reply.statusCode) : undefined;
  const body = op && schema ? payloadJson(payload) : undefined;
  if (!op || !schema || body === undefined) return undefined;
  const out = JSON.stringify(rewriteValue(op.doc, schema, body, how));
  // Untouched bodies keep their exact bytes.
  return out === JSON.stringify(body) ? undefined : out;
}
