// Every key a targets file may hold, declared once: the file's top level, a target entry,
// a surface of a `surfaces` mapping, the `load` opt-in, the `capabilities` and the
// scenario inputs. A targets file is checked against these lists before anything is sent
// (lib/target-keys.ts): a key the suite does not read is refused with the nearest known
// one, never silently ignored (a misspelt `slow_node_clas` would otherwise skip its rules
// and still PASS). test/unit/scenario-inputs.test.ts scans the sources for every read of a
// scenario input or capability and fails on one this list does not declare.
//
// A scenario input is named as the suite reads it. A `credential` is written in the file
// as `<name>_env: VARIABLE` (its value never sits in a file); any input may be given that
// way, since every `*_env` key is resolved from the environment.

/** How an input's value is written. */
export type InputType =
  | 'credential' // `<name>_env: VARIABLE`, the variable holding a key or token
  | 'string'
  | 'number'
  | 'url'
  | 'node class' // a node class of the target's engine
  | 'model' // a router model ID, `{provider}/{model}`
  | 'provider' // a router provider name
  | 'body' // a JSON object sent as a request body (free-form)
  | 'mapping' // a JSON object (free-form unless `members` are given)
  | 'list'
  | 'boolean';

export interface KeyInfo {
  readonly name: string;
  readonly type: InputType;
  /** What giving it makes reachable (rules, load profiles), in one line. */
  readonly unlocks: string;
  /** The value used when the key is absent, in words; absent = the checks needing it are skipped. */
  readonly default?: string;
}

export interface ScenarioInput extends KeyInfo {
  /** The keys of a mapping of fixed shape (any other key inside it is refused). */
  readonly members?: readonly string[];
  /** A load profile measuring one account's limit reads `<name>_<shard>` on shards 2..n (load/shard.ts). */
  readonly perShard?: boolean;
}

/** The top level of a targets file. */
export const FILE_KEYS: readonly KeyInfo[] = [
  { name: 'targets', type: 'mapping', unlocks: 'the targets by name (TARGET=<name>)' },
  {
    name: 'reference_dev_credentials',
    type: 'mapping',
    unlocks: "the embedded reference's public development keys, by variable name (credentials_from: reference-dev)",
  },
];

/** Keys of one surface: an entry with `surface`, or each member of an entry's `surfaces`. */
export const SURFACE_KEYS: readonly KeyInfo[] = [
  { name: 'base_url', type: 'url', unlocks: "the surface's address (required)" },
  {
    name: 'token_env',
    type: 'credential',
    unlocks: 'the bearer credential sent on every request',
    default: 'none sent',
  },
  {
    name: 'brand',
    type: 'string',
    unlocks: 'the brand in header and member names (the seeds write Svc)',
    default: "Comfy, or the entry's brand",
  },
  { name: 'scenario', type: 'mapping', unlocks: 'the scenario inputs below' },
  { name: 'capabilities', type: 'mapping', unlocks: 'optional behaviour the target has (CAPABILITIES)' },
];

/** Keys of a target entry besides its surface keys. */
export const ENTRY_KEYS: readonly KeyInfo[] = [
  {
    name: 'surface',
    type: 'string',
    unlocks: 'the one surface of this entry (local, cloud, serverless, router, registry); its keys sit beside it',
  },
  { name: 'surfaces', type: 'mapping', unlocks: 'several surfaces by name, each with its own surface keys' },
  { name: 'brand', type: 'string', unlocks: 'the brand of every surface of the entry', default: 'Comfy' },
  {
    name: 'credentials_from',
    type: 'string',
    unlocks:
      "`reference-dev`: unset credential variables take the reference's development keys (a proxy in front of the reference)",
  },
  {
    name: 'load',
    type: 'mapping',
    unlocks: 'load profiles against a non-loopback target, within its own ceiling (LOAD_KEYS)',
    default: 'loopback targets only',
  },
];

/** The only value `credentials_from` takes. */
export const CREDENTIALS_FROM = ['reference-dev'] as const;

/** The `load:` opt-in of an entry (load/target.ts). */
export const LOAD_KEYS: readonly KeyInfo[] = [
  { name: 'allow', type: 'boolean', unlocks: 'load profiles may run against this non-loopback target' },
  {
    name: 'max_rate',
    type: 'number',
    unlocks: "the ceiling of every profile's rate, requests/s (required with allow)",
  },
  {
    name: 'max_duration_s',
    type: 'number',
    unlocks: "the ceiling of every profile's duration, seconds (required with allow)",
  },
];

/** `capabilities: {name: true}`: optional behaviour a target declares it has. */
export const CAPABILITIES: readonly KeyInfo[] = [
  { name: 'retention', type: 'boolean', unlocks: 'V2.ASSET.RETENTION_EXTENDS (asset retention follows expires_in)' },
  {
    name: 'schema_snapshots',
    type: 'boolean',
    unlocks: 'ROUTER.SCHEMA.SNAPSHOT (schema snapshots served beside the router)',
  },
  {
    name: 'accepts_jwt',
    type: 'boolean',
    unlocks:
      'the deployment is configured to take JWT bearers (W:157 makes it configuration): on the cloud a ' +
      'JWT or OAuth refusal then fails V2.AUTH.JWT_ACCEPTED; on a serverless deployment ' +
      'V2.AUTH.JWT_REFUSAL is skipped',
  },
];

const V2_DEFAULT_CLASS = (input: string, cls: string): ScenarioInput => ({
  name: input,
  type: 'node class',
  unlocks: `the engine's spelling of ${cls} in the suite's workflows`,
  default: cls,
});

export const SCENARIO_INPUTS: readonly ScenarioInput[] = [
  // v2 workflow API (local, cloud, serverless)
  {
    name: 'upload_file_path',
    type: 'string',
    unlocks: 'where uploads are placed, a template with {name} (a proxy that allowlists other roots)',
    default: 'a bare, unique file name',
  },
  {
    name: 'token_base_url',
    type: 'url',
    unlocks:
      'the local proxy started with its static token: V2.AUTH.UNAUTHENTICATED_401, V2.ASSET.CONTENT_AUTH (with static_token)',
  },
  { name: 'static_token', type: 'credential', unlocks: 'the static token of the proxy at token_base_url' },
  {
    name: 'slow_node_class',
    type: 'node class',
    unlocks:
      'a node taking `seconds`: V2.JOB.CANCEL, V2.ERR.QUEUE_FULL, V2.JOB.PARALLEL_QUEUE, ' +
      'live V2.JOB.EVENTS_AGREE, V1 queueing and status, the polling load profiles',
  },
  {
    name: 'hash_deadline_seconds',
    type: 'number',
    unlocks: 'how long a lazily filled asset hash may take',
    default: '30',
  },
  {
    name: 'url_refresh_seconds',
    type: 'number',
    unlocks: 'how long re-reads may take to show a newly signed asset url (V2.ASSET.FRESH_URL)',
    default: '65',
  },
  {
    name: 'job_terminal_states',
    type: 'list',
    unlocks: 'the statuses of a finished v2 job (a list or one comma-separated string)',
    default: 'succeeded, failed, canceled, expired',
  },
  {
    name: 'job_success_state',
    type: 'string',
    unlocks: 'the status of a v2 job that ran through (one of job_terminal_states)',
    default: 'succeeded',
  },
  {
    name: 'job_running_states',
    type: 'list',
    unlocks: "the statuses of a v2 job running now (counted against a tier's limit)",
    default: 'running',
  },
  {
    name: 'asset_reference',
    type: 'body',
    unlocks:
      'how a submitted v2 workflow names an uploaded asset (a LoadImage input), a form the seed does ' +
      'not show: a JSON value whose strings may hold {id}, {hash} and {file_path} (e.g. "{file_path}" ' +
      'for a plain file name); V2.JOB.SUBMIT and V2.ERR.MISSING_ASSET end "could not judge" while the ' +
      'server refuses the form',
    default: 'the public documents\' reference object {"__type": "core/ASSET", "info": {"id": "{id}"}}',
  },
  V2_DEFAULT_CLASS('load_image_class', 'LoadImage'),
  V2_DEFAULT_CLASS('empty_image_class', 'EmptyImage'),
  V2_DEFAULT_CLASS('invert_image_class', 'ImageInvert'),
  V2_DEFAULT_CLASS('save_image_class', 'SaveImage'),
  V2_DEFAULT_CLASS('preview_image_class', 'PreviewImage'),
  {
    name: 'browser_wait_node_class',
    type: 'node class',
    unlocks: 'the waits_for_browser part of V2.ERR.NODE_ERRORS_DETAILS',
  },
  {
    name: 'blocked_content_marker',
    type: 'string',
    unlocks: 'bytes carrying it are flagged by moderation: V2.ERR.CONTENT_BLOCKED',
  },
  {
    name: 'metadata_bad_key',
    type: 'string',
    unlocks: 'a label key the server refuses (V2.ERR.METADATA_INVALID)',
    default: 'Bad Key!',
  },
  {
    name: 'metadata_max_pairs',
    type: 'number',
    unlocks: "the server's label pair limit (V2.ERR.METADATA_INVALID)",
    default: '200 pairs are tried',
  },
  {
    name: 'other_account_token',
    type: 'credential',
    unlocks:
      'a second account: V2.ASSET.OWNER_SCOPE, V2.ASSET.BY_HASH_SCOPE, V2.ASSET.FROM_HASH, the foreign ' +
      'cursor of V2.ERR.LIST_REFUSALS, the v2 rate-limit load profile',
  },
  {
    name: 'rate_limited_token',
    type: 'credential',
    perShard: true,
    unlocks:
      'a key with a small request allowance: V2.ERR.RATE_LIMITED, V2.ERR.RATE_LIMIT_SCOPE, ' +
      'V2.ERR.RETRY_AFTER, ROUTER.ERR.RATE_LIMITED, the rate-limit load profiles',
  },
  {
    name: 'rate_limit_allowance',
    type: 'number',
    unlocks: 'requests per window of rate_limited_token (sizes the bursts; the rate-limit load profiles)',
    default: 'v2 bursts sized for 50; the router burst follows rate_limit_max_runs',
  },
  {
    name: 'rate_limit_max_runs',
    type: 'number',
    unlocks: 'the most router runs (each may be paid for) spent looking for a 429 (ROUTER.ERR.RATE_LIMITED)',
    default: 'twice rate_limit_allowance plus 5, at most 20; else 20',
  },
  {
    name: 'rate_limit_window_seconds',
    type: 'number',
    unlocks: 'the window of that allowance (the rate-limit load profiles)',
  },
  {
    name: 'queue_limited_token',
    type: 'credential',
    unlocks: 'an account whose queue holds one job: V2.ERR.QUEUE_FULL',
  },
  { name: 'no_credits_token', type: 'credential', unlocks: 'an account without credits: V2.ERR.INSUFFICIENT_CREDITS' },
  {
    name: 'upstream_failure_token',
    type: 'credential',
    unlocks: 'requests hit a backing-service failure: V2.ERR.UPSTREAM_GENERIC',
  },
  {
    name: 'short_retention_token',
    type: 'credential',
    unlocks:
      'an account whose v2 jobs expire within a minute of creation (expires_at), so a run sees one gone: the gone-job half of V2.ASSET.JOB_METADATA_READ',
  },
  {
    name: 'forbidden_token',
    type: 'credential',
    unlocks: 'a valid key not let into the workflow API: V2.ERR.FORBIDDEN',
  },
  {
    name: 'jwt_token',
    type: 'credential',
    unlocks: 'a session JWT: V2.AUTH.JWT_ACCEPTED (cloud), ROUTER.AUTH.JWT (router)',
  },
  {
    name: 'oauth_token',
    type: 'credential',
    unlocks: 'an OAuth access token for the hosted cloud: V2.AUTH.JWT_ACCEPTED',
  },
  {
    name: 'sso_required_token',
    type: 'credential',
    unlocks: 'a key refused 403 sso_required: V2.AUTH.SSO_REQUIRED (serverless)',
  },
  {
    name: 'sso_organization_id',
    type: 'string',
    unlocks:
      'the organization_id the sso_required refusal of sso_required_token carries (the seed lets it be ' +
      'absent when the server does not know it): V2.AUTH.SSO_REQUIRED',
  },
  { name: 'not_ready_base_url', type: 'url', unlocks: 'a deployment not ready yet: V2.SERVERLESS.DEPLOYMENT_STATE' },
  {
    name: 'unavailable_base_url',
    type: 'url',
    unlocks: 'a deployment without GPU capacity: V2.SERVERLESS.DEPLOYMENT_STATE',
  },
  { name: 'stopped_base_url', type: 'url', unlocks: 'a stopped deployment: V2.SERVERLESS.DEPLOYMENT_STATE' },
  {
    name: 'concurrency_limit',
    type: 'number',
    unlocks:
      "jobs the account's tier runs at once: V2.JOB.PARALLEL_QUEUE; on the router, calls in flight for " +
      'concurrency_limited_token (router-concurrency load profile)',
  },
  {
    name: 'jobs_parallel_token',
    type: 'credential',
    unlocks: "an account of its own for V2.JOB.PARALLEL_QUEUE's tier slots",
    default: "parallel_token, else the target's token",
  },
  // v1 cloud operations and the WebSocket
  {
    name: 'parallel_token',
    type: 'credential',
    unlocks: "an account of its own for V1.PROMPT.PARALLEL_QUEUE's tier slots",
    default: "the target's token",
  },
  {
    name: 'parallel_limit',
    type: 'number',
    unlocks:
      "prompts the account's tier runs at once (V1.PROMPT.PARALLEL_QUEUE tells a tier of 1 from a server ignoring tiers)",
  },
  {
    name: 'inactive_subscription_token',
    type: 'credential',
    unlocks: 'an account without an active subscription: V1.PROMPT.SUBSCRIPTION',
  },
  {
    name: 'failing_node_class',
    type: 'node class',
    unlocks:
      'passes validation and fails at run time (sent a `message` input): V1.ERR.FAILED_JOB, V2.ERR.NODE_ERRORS_AFTER_DISPATCH',
  },
  {
    name: 'prompt_interrupt',
    type: 'mapping',
    members: ['method', 'path', 'body'],
    unlocks:
      'how a user cancels a running v1 prompt, an operation seed W does not show ({method, path, body}, ' +
      "sent with the v1 key; `{prompt_id}` in the path and in body strings becomes the prompt's id): " +
      'WS.INTERRUPTED, with slow_node_class',
  },
  {
    name: 'text_node_class',
    type: 'node class',
    unlocks: 'sends its text as a TEXT frame: WS.BINARY.TEXT, WS.MESSAGE.FIELDS',
  },
  {
    name: 'preview_frame_node_class',
    type: 'node class',
    unlocks: 'sends a preview frame: WS.BINARY.PREVIEW_IMAGE, WS.BINARY.LAYOUT',
  },
  {
    name: 'step_preview_node_class',
    type: 'node class',
    unlocks: 'previews while running: WS.BINARY.PREVIEW_METADATA',
  },
  { name: 'partner_node_class', type: 'node class', unlocks: 'a partner node: V1.PROMPT.PARTNER_KEY' },
  { name: 'partner_node_inputs', type: 'mapping', unlocks: 'the inputs of partner_node_class', default: 'none' },
  {
    name: 'node_input_names',
    type: 'mapping',
    unlocks:
      "the engine's own names for the inputs of the v1 prompts' nodes: {<class as sent>: {<suite's " +
      "input name>: <engine's>}}; the classes themselves come from the *_class inputs",
    default: "the public engine's input names",
  },
  {
    name: 'second_vocabulary_token',
    type: 'credential',
    unlocks: 'a key whose status answers use the second vocabulary: V1.STATUS.TERMINAL, V1.STATUS.IN_FLIGHT',
  },
  // router: callers
  {
    name: 'teammate_token',
    type: 'credential',
    unlocks: 'another member of the same workspace: ROUTER.IDEM.SCOPE, ROUTER.QUEUE.ESTIMATE (a replay to a teammate)',
  },
  {
    name: 'other_workspace_token',
    type: 'credential',
    unlocks: 'a credential of another workspace: ROUTER.IDEM.SCOPE, the router rate-limit load profile',
  },
  {
    name: 'byok_token',
    type: 'credential',
    unlocks:
      "resolves its own key for image_model's provider: ROUTER.PROVIDER.BYOK_CONFLICT, ROUTER.FALLBACK.SKIPPED, ROUTER.ESTIMATE.NO_BYOK_DETECTION",
  },
  {
    name: 'unfunded_token',
    type: 'credential',
    unlocks: 'a workspace without credits: ROUTER.ERR.INSUFFICIENT_CREDITS',
  },
  {
    name: 'estimate_disabled_token',
    type: 'credential',
    unlocks: 'outside the estimate rollout: ROUTER.ESTIMATE.ROLLOUT, ROUTER.QUEUE.ESTIMATE',
  },
  {
    name: 'concurrency_limited_token',
    type: 'credential',
    perShard: true,
    unlocks: 'a workspace with a small in-flight limit (router-concurrency load profile)',
  },
  {
    name: 'gate_unavailable_token',
    type: 'credential',
    unlocks: 'its provider gate cannot be evaluated: ROUTER.PROVIDER.GATE',
  },
  // router: models, providers and bodies
  { name: 'image_model', type: 'model', unlocks: 'an editable JSON image model with alternates: most router rules' },
  { name: 'image_body', type: 'body', unlocks: 'a valid body for the image models' },
  { name: 'text_body', type: 'body', unlocks: 'a valid body for text_model and stale_card_model' },
  { name: 'video_body', type: 'body', unlocks: 'a valid body for video_model' },
  {
    name: 'video_draft',
    type: 'mapping',
    members: ['render_body', 'draft_body'],
    unlocks:
      "a final render of a draft (a draft_task item) and a body billed as that draft's operation, same duration: ROUTER.RUN.VIDEO_BILLING",
  },
  {
    name: 'edit_image_url',
    type: 'url',
    unlocks: 'an input image selecting the edit operation: ROUTER.FALLBACK.SKIPPED, the provider refusals',
  },
  {
    name: 'brand_aliases',
    type: 'list',
    unlocks: 'the two brand-named model_provider values meaning native dispatch',
    default: '<brand>, <brand>ui',
  },
  {
    name: 'edit_servable_provider',
    type: 'provider',
    unlocks: "an alternate whose translator carries the edit's media",
  },
  {
    name: 'edit_unservable_provider',
    type: 'provider',
    unlocks: 'an alternate that cannot carry it: ROUTER.PROVIDER.EDIT_UNSERVABLE',
  },
  { name: 'no_leg_provider', type: 'provider', unlocks: 'turned on, no leg for image_model: ROUTER.PROVIDER.NO_LEG' },
  { name: 'disabled_provider', type: 'provider', unlocks: 'not turned on for the default key: ROUTER.PROVIDER.GATE' },
  { name: 'disabled_provider_model', type: 'model', unlocks: 'a model disabled_provider has a leg for' },
  {
    name: 'refusal_chain_provider',
    type: 'provider',
    unlocks: 'meets several refusals at once: ROUTER.PROVIDER.REFUSAL_ORDER',
  },
  {
    name: 'translation',
    type: 'mapping',
    members: ['provider', 'dropped_field', 'body'],
    unlocks:
      'an alternate that cannot express a native field: ROUTER.PROVIDER.TRANSLATION, ROUTER.HEADER.DROPPED_PARAMS_JSON',
  },
  {
    name: 'strict_body',
    type: 'mapping',
    members: ['provider', 'body', 'answer_members'],
    unlocks:
      "a body in an alternate's own schema, invalid natively (answer_members: all the top-level " +
      "members of that alternate's own answer to it): ROUTER.PROVIDER.STRICT_MODE, " +
      'ROUTER.PROVIDER.ANSWER, ROUTER.RUN.REJECT_UNKNOWN, ROUTER.ESTIMATE.VALIDATION',
  },
  {
    name: 'fallback_model',
    type: 'model',
    unlocks: 'its native provider fails, an alternate serves: the ROUTER.FALLBACK rules',
  },
  {
    name: 'strict_failing_body',
    type: 'mapping',
    members: ['provider', 'body'],
    unlocks:
      "a body in an alternate's own schema that only that alternate fails on (image_model's other legs serve it): ROUTER.FALLBACK.SKIPPED under strict mode",
  },
  {
    name: 'fallback_alternate',
    type: 'provider',
    unlocks:
      "the alternate fallback_model's fallback lands on for the default key, the first eligible one in the router's fixed order: ROUTER.FALLBACK.ATTEMPTS",
    default: 'only judged to be the same on every run',
  },
  {
    name: 'fallback_order_runs',
    type: 'number',
    unlocks:
      'the most runs of fallback_model (each may be paid for) ROUTER.FALLBACK.ATTEMPTS compares for ' +
      'one fixed order; a pick at random between two alternates passes n of them one time in 2^(n-1)',
    default: '20',
  },
  {
    name: 'failing_body',
    type: 'body',
    unlocks: 'every provider fails on it: ROUTER.FALLBACK.FAILED_NO_HEADER, the failed queued request',
  },
  { name: 'malformed_body', type: 'body', unlocks: 'the provider calls it malformed: ROUTER.ERR.UPSTREAM_DETAIL' },
  {
    name: 'native_malformed_body',
    type: 'body',
    unlocks: 'only the native provider calls it malformed: ROUTER.FALLBACK.ATTEMPTS',
  },
  {
    name: 'native_timeout_body',
    type: 'body',
    unlocks: 'the native call passes its deadline after submission: ROUTER.FALLBACK.ATTEMPTS',
  },
  {
    name: 'first_alternate_failing_body',
    type: 'body',
    unlocks: 'the native provider and the first alternate fail: ROUTER.FALLBACK.ATTEMPTS',
  },
  { name: 'multi_call_body', type: 'body', unlocks: 'served with several billed calls: ROUTER.RUN.CREDITS_SUM' },
  { name: 'multi_call_count', type: 'number', unlocks: 'how many billed calls multi_call_body makes' },
  {
    name: 'policy_body',
    type: 'body',
    unlocks: 'refused on content-policy grounds: ROUTER.ERR.CONTENT_POLICY, ROUTER.IDEM.POLICY_REPLAYED',
  },
  {
    name: 'policy_subject',
    type: 'string',
    unlocks: 'the subject the provider names for policy_body',
    default: 'the provider names none',
  },
  {
    name: 'deterministic_models',
    type: 'list',
    unlocks:
      'the models whose output is the same for the same input: the router state machine compares their ' +
      'collects with a synchronous run (ROUTER.QUEUE.COLLECT_IDENTICAL)',
    default: 'image_model alone',
  },
  {
    name: 'slow_model',
    type: 'model',
    unlocks: 'seen in flight: ROUTER.IDEM.IN_FLIGHT, the queue status and cancel rules, router load profiles',
  },
  {
    name: 'bytes_model',
    type: 'model',
    unlocks: 'the partner answers with bytes: ROUTER.RUN.BYTES, ROUTER.RUN.NOSNIFF, ROUTER.QUEUE.BYTES_REFUSED',
  },
  { name: 'bytes_body', type: 'body', unlocks: 'a valid body for bytes_model' },
  {
    name: 'video_model',
    type: 'model',
    unlocks:
      'the content[].role family: ROUTER.RUN.MODEL_MISMATCH, ROUTER.RUN.VIDEO_BILLING, ROUTER.IDEM.RELEASED_ON_REFUSAL',
  },
  { name: 'text_model', type: 'model', unlocks: 'priced by output length: ROUTER.ESTIMATE.REASON' },
  { name: 'stale_card_model', type: 'model', unlocks: 'its rate card is stale: ROUTER.ESTIMATE.STALE_CARD' },
  { name: 'subcent_model', type: 'model', unlocks: 'priced below one cent: ROUTER.ESTIMATE.SUBCENT' },
  { name: 'unauthored_model', type: 'model', unlocks: 'no authored input schema: ROUTER.SCHEMA.UNAUTHORED' },
  { name: 'unpriced_model', type: 'model', unlocks: 'the rate card does not price it: ROUTER.ESTIMATE.REASON' },
  {
    name: 'schema_failing_model',
    type: 'model',
    unlocks: 'its schema document cannot be built: ROUTER.SCHEMA.INTERNAL_ERROR',
  },
  {
    name: 'polled_cutoff',
    type: 'mapping',
    members: ['model', 'body'],
    unlocks:
      'a submit-and-poll model and a body whose synchronous call is cut off mid-generation (a 5xx) ' +
      'while the generation completes: ROUTER.IDEM.PROVIDER_LINK_WINDOW',
  },
  {
    name: 'aged_out_request_id',
    type: 'string',
    unlocks:
      'a queued request of image_model, submitted with the default key, whose stored result has aged out: ROUTER.QUEUE.COLLECT_GONE',
  },
  { name: 'oversize_model', type: 'model', unlocks: 'answers above the replay size cap: ROUTER.IDEM.NOT_REPLAYABLE' },
  { name: 'retired_model', type: 'model', unlocks: 'ROUTER.CATALOG.RETIRED, ROUTER.CATALOG.RETIRED_DETAIL' },
  {
    name: 'retired_with_successor_model',
    type: 'model',
    unlocks: 'a retired model naming a successor: ROUTER.CATALOG.RETIRED, ROUTER.CATALOG.RETIRED_DETAIL',
  },
  { name: 'sunset_model', type: 'model', unlocks: 'sunset date in the future: ROUTER.CATALOG.SUNSET_LISTED' },
  {
    name: 'forbidden_model',
    type: 'model',
    unlocks: 'no caller may use it: ROUTER.AUTH.FORBIDDEN, ROUTER.IDEM.RELEASED_ON_REFUSAL',
  },
  {
    name: 'broken_output_model',
    type: 'model',
    unlocks: 'its answer cannot be turned into a result: ROUTER.ERR.PROVIDER_ERROR',
  },
  { name: 'deadline_model', type: 'model', unlocks: 'passes its deadline: ROUTER.ERR.DEADLINE' },
  { name: 'busy_model', type: 'model', unlocks: 'at capacity: ROUTER.ERR.CAPACITY' },
  { name: 'max_body_bytes', type: 'number', unlocks: 'the request-body size cap: ROUTER.ERR.BODY_TOO_LARGE' },
  {
    name: 'platform_asset_origin',
    type: 'url',
    unlocks: "the origin copied result assets are served from (none of an alternate's: ROUTER.ASSETS.COPYING)",
  },
  // registry
  { name: 'jwt', type: 'credential', unlocks: 'a JWT the registry accepts: REGISTRY.AUTH.JWT, REGISTRY.AUTH.REFUSED' },
  { name: 'expired_jwt', type: 'credential', unlocks: 'a JWT past its expiry: REGISTRY.AUTH.REFUSED' },
  { name: 'api_key', type: 'credential', unlocks: 'a key X-API-Key accepts: REGISTRY.AUTH.API_KEY_BEARER' },
  { name: 'revoked_api_key', type: 'credential', unlocks: 'a key X-API-Key refuses: REGISTRY.AUTH.API_KEY_BEARER' },
  {
    name: 'api_key_prefix',
    type: 'string',
    unlocks: 'how an API key is recognised (an unknown key is made with it)',
    default: 'comfyui-',
  },
  {
    name: 'admin_secret_header',
    type: 'string',
    unlocks: "the administrative-secret scheme's header: REGISTRY.AUTH.ADMIN_SECRET (with admin_secret)",
  },
  { name: 'admin_secret', type: 'credential', unlocks: 'the administrative secret: REGISTRY.AUTH.ADMIN_SECRET' },
  { name: 'node_id', type: 'string', unlocks: 'a node translations may be attached to: every registry rule' },
  {
    name: 'unusual_node_id',
    type: 'string',
    unlocks: 'an existing node whose id needs percent-encoding: REGISTRY.NODE.PATH_ID',
  },
  // the contract-driven explorer (lib/explore/)
  {
    name: 'explore_paid',
    type: 'boolean',
    unlocks:
      'the explorer also sends operations that cost money or write shared state (v2 job submits, v1 ' +
      'prompts, router runs and queued submits, registry translation writes, deletes and cancels of ' +
      'its own resources)',
    default: 'off: those operations are skipped, deletes and cancels name nothing',
  },
  {
    name: 'explore_paid_max',
    type: 'number',
    unlocks: 'requests the explorer sends to each of those operations',
    default: '20',
  },
];
