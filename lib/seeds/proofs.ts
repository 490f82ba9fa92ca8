// Generated from the fault units' statements by scripts/gen-proofs.ts (npm run rules:proofs); do not edit.
// Seed statement (contracts/seed-trace.yaml locator) -> the faults that break it, each with the rule it is caught under.
export interface Proof {
  readonly fault: string;
  readonly rule: string;
}

export const STATEMENT_PROOFS: Readonly<Record<string, readonly Proof[]>> = {
  'R:29:93c1ce7c6f2a': [
    { fault: 'router-catalog-prices', rule: 'ROUTER.CATALOG.NO_PRICES' },
    { fault: 'router-detail-rate-card', rule: 'ROUTER.CATALOG.NO_PRICES' },
  ],
  'R:38:d5bbac65ae84': [
    { fault: 'router-page-skips', rule: 'ROUTER.CATALOG.WALK' },
  ],
  'R:48:bfddbf0af403': [
    { fault: 'router-subcent-unpriced', rule: 'ROUTER.ESTIMATE.SUBCENT' },
    { fault: 'router-subcent-zero', rule: 'ROUTER.ESTIMATE.SUBCENT' },
  ],
  'R:50:d9b658add9f4': [
    { fault: 'router-cents-rounded', rule: 'ROUTER.ESTIMATE.CENTS' },
  ],
  'R:63:5b3c0c7beaff': [
    { fault: 'router-estimate-byok-reason', rule: 'ROUTER.ESTIMATE.NO_BYOK_DETECTION' },
  ],
  'R:70:2c153ddb521c': [
    { fault: 'router-queue-position-behind', rule: 'ROUTER.QUEUE.POSITION' },
  ],
  'R:72:d586e05637f1': [
    { fault: 'router-submit-fails-on-stale-card', rule: 'ROUTER.QUEUE.ESTIMATE_NEVER_FAILS' },
  ],
  'R:80:3d30fc7a6bb8': [
    { fault: 'router-v2-envelope', rule: 'ROUTER.ERR.BODY' },
  ],
  'R:80:bebe8b45dd76': [
    { fault: 'router-error-members-camel-case', rule: 'ROUTER.ERR.MEMBER_NAMES' },
    { fault: 'router-upstream-detail-as-provider-message', rule: 'ROUTER.ERR.MEMBER_NAMES' },
  ],
  'R:82:201b4024774f': [
    { fault: 'router-sunset-retired', rule: 'ROUTER.CATALOG.SUNSET_LISTED' },
  ],
  'R:95:70c52ff790de': [
    { fault: 'router-seed-max-1e6', rule: 'ROUTER.RUN.SCHEMA_BODIES' },
  ],
  'R:110:e2aa1dbe54d9': [
    { fault: 'router-fourth-status', rule: 'ROUTER.QUEUE.STATUS_NAMES' },
  ],
  'R:131:7fa92600ef30': [
    { fault: 'router-fallback-ignores-false', rule: 'ROUTER.FALLBACK.OFF' },
  ],
  'R:137:a952e40104ff': [
    { fault: 'router-bytes-as-base64', rule: 'ROUTER.RUN.BYTES' },
  ],
  'R:156:7de0b2b36e99': [
    { fault: 'router-fallback-failed-header', rule: 'ROUTER.FALLBACK.FAILED_NO_HEADER' },
  ],
  'R:171:0f992c6bbbab': [
    { fault: 'router-keyed-anonymous-replay', rule: 'ROUTER.IDEM.AUTH_401' },
  ],
  'R:183:969b7f129978': [
    { fault: 'router-unauthored-validated', rule: 'ROUTER.SCHEMA.UNAUTHORED' },
  ],
  'R:196:d6fd3b9cf281': [
    { fault: 'router-collect-pending-200', rule: 'ROUTER.QUEUE.COLLECT_PENDING' },
  ],
  'R:205:2ec17d99ded3': [
    { fault: 'router-status-with-nested-result', rule: 'ROUTER.QUEUE.STATUS_NO_RESULT' },
    { fault: 'router-status-with-result', rule: 'ROUTER.QUEUE.STATUS_NO_RESULT' },
  ],
  'R:216:b96bd1ad467b': [
    { fault: 'router-credits-last-call', rule: 'ROUTER.RUN.CREDITS_SUM' },
  ],
  'R:239:abdb844a9f18': [
    { fault: 'router-jwt-refused', rule: 'ROUTER.AUTH.JWT' },
  ],
  'R:264:8f883ef294f2': [
    { fault: 'router-unknown-model-estimate-400', rule: 'ROUTER.ERR.MODEL_NOT_FOUND' },
  ],
  'R:267:5204c3afa178': [
    { fault: 'router-no-body-cap', rule: 'ROUTER.ERR.BODY_TOO_LARGE' },
  ],
  'R:268:e13e5494dfd3': [
    { fault: 'router-model-mismatch-ignored', rule: 'ROUTER.RUN.MODEL_MISMATCH' },
  ],
  'R:275:3ce5406178c4': [
    { fault: 'router-unknown-request-invalid-input', rule: 'ROUTER.ERR.CODE_STATUS_PUBLIC' },
  ],
  'W:3:8ea6d978bda1': [
    { fault: 'delete-keeps-record', rule: 'V2.ASSET.DELETE' },
    { fault: 'workflow-read-save-format', rule: 'V2.JOB.WORKFLOW_READ' },
  ],
  'W:7:93fc661d1cd2': [
    { fault: 'content-range-unitless', rule: 'V2.CONTRACT.HEADERS' },
  ],
  'W:18:e062e10053cc': [
    { fault: 'job-reads-expired-at-finish', rule: 'V2.JOB.POLL_FIRST' },
  ],
  'W:19:3aee15c9e5ca': [
    { fault: 'outputs-missing', rule: 'V2.JOB.OUTPUTS_REAL' },
    { fault: 'outputs-read-once', rule: 'V2.JOB.RETRIEVABLE' },
  ],
  'W:54:9e9934245bd4': [
    { fault: 'output-match-ignored', rule: 'V2.ASSET.OUTPUT_MATCH' },
  ],
  'W:62:0daa6bf082cc': [
    { fault: 'output-no-url-expires-at', rule: 'V2.JOB.OUTPUT_FIELDS' },
    { fault: 'output-url-renamed', rule: 'V2.JOB.OUTPUT_FIELDS' },
  ],
  'W:62:bb4ec501a98f': [
    { fault: 'output-size-zero', rule: 'V2.JOB.OUTPUT_FIELDS_DOCUMENTED' },
  ],
  'W:74:805d038d87df': [
    { fault: 'output-url-rotates', rule: 'V2.URL.CONTENT_STABLE' },
  ],
  'W:90:8ea32a2532dc': [
    { fault: 'v1-status-success-evicted-lost', rule: 'V1.STATUS.TERMINAL' },
  ],
  'W:91:87c20bb85a69': [
    { fault: 'v1-status-retried-attempt-error', rule: 'V1.STATUS.IN_FLIGHT' },
  ],
  'W:92:89ef667d9143': [
    { fault: 'v1-status-warning-non-retryable', rule: 'V1.STATUS.IN_FLIGHT' },
  ],
  'W:93:c4feb452ba68': [
    { fault: 'v1-status-heartbeat-lost', rule: 'V1.STATUS.IN_FLIGHT' },
  ],
  'W:94:01fee6c32c4e': [
    { fault: 'v1-status-preempted-cancelled', rule: 'V1.STATUS.IN_FLIGHT' },
  ],
  'W:95:a7825f601ad9': [
    { fault: 'v1-status-early-terminal', rule: 'V1.STATUS.IN_FLIGHT' },
  ],
  'W:96:ef2fc60f9d42': [
    { fault: 'v1-cancel-recorded-when-asked', rule: 'V1.STATUS.IN_FLIGHT' },
  ],
  'W:98:32ac495801c8': [
    { fault: 'v1-second-vocabulary-success-failed', rule: 'V1.STATUS.TERMINAL' },
  ],
  'W:98:4c0cf11a98c0': [
    { fault: 'v1-status-early-terminal', rule: 'V1.STATUS.IN_FLIGHT' },
  ],
  'W:115:e42af039b9b9': [
    { fault: 'by-hash-global', rule: 'V2.ASSET.BY_HASH_SCOPE' },
  ],
  'W:119:69514e76b20b': [
    { fault: 'range-ignored', rule: 'V2.ASSET.CONTENT_RANGE' },
  ],
  'W:123:f9a38dca0104': [
    { fault: 'asset-delete-200', rule: 'V2.CONTRACT.DOCUMENTED' },
    { fault: 'cancel-202-accepted', rule: 'V2.CONTRACT.DOCUMENTED' },
    { fault: 'job-workflow-as-string', rule: 'V2.CONTRACT.DOCUMENTED' },
  ],
  'W:127:032fbcb7b0a5': [
    { fault: 'v1-subscription-ignored', rule: 'V1.PROMPT.SUBSCRIPTION' },
  ],
  'W:127:3a21e7b63064': [
    { fault: 'v1-view-open-without-key', rule: 'V1.AUTH.API_KEY_HEADER' },
  ],
  'W:131:1eb7d0e9e41a': [
    { fault: 'v1-object-info-no-required', rule: 'V1.OBJECT_INFO' },
  ],
  'W:132:48a3d961e570': [
    { fault: 'v1-upload-no-subfolder', rule: 'V1.UPLOAD.IMAGE' },
    { fault: 'v1-upload-temp-refused', rule: 'V1.UPLOAD.IMAGE' },
  ],
  'W:133:ac68dfd5ba49': [
    { fault: 'v1-mask-original-ref-object', rule: 'V1.UPLOAD.MASK' },
    { fault: 'v1-mask-subfolder-honoured', rule: 'V1.UPLOAD.MASK' },
  ],
  'W:134:de3fdd4f7a29': [
    { fault: 'v1-prompt-id-number', rule: 'V1.PROMPT.SUBMIT' },
  ],
  'W:135:02ac9ea4d6c7': [
    { fault: 'v1-status-member-state', rule: 'V1.CONTRACT.BODY' },
  ],
  'W:136:f9d316cc455a': [
    { fault: 'v1-view-location-needs-key', rule: 'V1.VIEW.SIGNED_OPENABLE' },
    { fault: 'v1-view-no-location', rule: 'V1.CONTRACT.HEADERS' },
    { fault: 'v1-view-serves-bytes', rule: 'V1.VIEW.REDIRECT' },
    { fault: 'v1-view-temp-unserved', rule: 'V1.VIEW.OUTPUT_TEMP' },
  ],
  'W:137:dc2a4bc158ba': [
    { fault: 'ws-bad-token-accepted', rule: 'V1.AUTH.API_KEY_HEADER' },
  ],
  'W:140:de7dd13be1b7': [
    { fault: 'v1-subfolder-honoured', rule: 'V1.NAMESPACE.FLAT' },
  ],
  'W:141:59a91eeb5e3e': [
    { fault: 'v1-partner-key-field-ignored', rule: 'V1.PROMPT.PARTNER_KEY' },
  ],
  'W:142:fe0bd3fb5836': [
    { fault: 'v1-parallel-refused', rule: 'V1.PROMPT.PARALLEL_QUEUE' },
    { fault: 'v1-prompts-one-at-a-time', rule: 'V1.PROMPT.PARALLEL_QUEUE' },
    { fault: 'v1-tier-limit-ignored', rule: 'V1.PROMPT.PARALLEL_QUEUE' },
  ],
  'W:143:9572b4454656': [
    { fault: 'ws-client-id-routing', rule: 'WS.CLIENT_ID_IGNORED' },
  ],
  'W:144:4eaa83f06846': [
    { fault: 'v1-refusal-without-error', rule: 'V1.PROMPT.REFUSAL_ERROR' },
  ],
  'W:148:ed57f38772f6': [
    { fault: 'registry-node-id-decoded-twice', rule: 'REGISTRY.NODE.PATH_ID' },
  ],
  'W:149:478fdbb8da69': [
    { fault: 'registry-node-id-decoded-twice', rule: 'REGISTRY.NODE.PATH_ID' },
    { fault: 'registry-node-id-nul-500', rule: 'REGISTRY.NODE.ID_NO_5XX' },
  ],
  'W:150:169aa99b52e4': [
    { fault: 'registry-missing-data-accepted', rule: 'REGISTRY.BODY.DATA' },
  ],
  'W:151:e64ce748e7f3': [
    { fault: 'registry-admin-secret-ignored', rule: 'REGISTRY.AUTH.ADMIN_SECRET' },
    { fault: 'registry-anonymous-accepted', rule: 'REGISTRY.AUTH.REFUSED' },
    { fault: 'registry-api-key-bearer-refused', rule: 'REGISTRY.AUTH.API_KEY_BEARER' },
    { fault: 'registry-api-key-unchecked', rule: 'REGISTRY.AUTH.API_KEY_BEARER' },
    { fault: 'registry-jwt-refused', rule: 'REGISTRY.AUTH.JWT' },
  ],
  'W:152:e9cd9e6c280e': [
    { fault: 'registry-details-string', rule: 'REGISTRY.ERR.SHAPE' },
    { fault: 'registry-error-third-shape', rule: 'REGISTRY.ERR.SHAPE' },
    { fault: 'registry-errors-text-plain', rule: 'REGISTRY.CONTRACT.BODY' },
  ],
  'W:152:fdcb76ff5b16': [
    { fault: 'registry-admin-write-204', rule: 'REGISTRY.CONTRACT.STATUS_DECLARED' },
  ],
  'W:156:fd04a5747559': [
    { fault: 'cloud-refuses-jwt', rule: 'V2.AUTH.JWT_ACCEPTED' },
  ],
  'W:157:0f28ce1fb567': [
    { fault: 'jwt-message-generic', rule: 'V2.AUTH.JWT_REFUSAL' },
    { fault: 'jwt-message-unknown-key', rule: 'V2.AUTH.JWT_REFUSAL' },
  ],
  'W:161:7dc93e188fdb': [
    { fault: 'v1-view-open-without-key', rule: 'V1.AUTH.API_KEY_HEADER' },
    { fault: 'ws-bad-token-accepted', rule: 'V1.AUTH.API_KEY_HEADER' },
  ],
  'W:161:8272cc2d3c5e': [
    { fault: 'v1-partner-key-field-ignored', rule: 'V1.PROMPT.PARTNER_KEY' },
  ],
  'W:166:7055d512ac6e': [
    { fault: 'ws-json-as-binary', rule: 'WS.MESSAGE.ENVELOPE' },
  ],
  'W:166:d5b0ecdab26b': [
    { fault: 'ws-executed-no-prompt-id', rule: 'WS.MESSAGE.PROMPT_ID' },
    { fault: 'ws-json-as-binary', rule: 'WS.MESSAGE.ENVELOPE' },
    { fault: 'ws-prompt-id-backend-id', rule: 'WS.MESSAGE.PROMPT_ID' },
    { fault: 'ws-status-not-enveloped', rule: 'WS.MESSAGE.ENVELOPE' },
  ],
  'W:170:a80b0ac04c33': [
    { fault: 'ws-queue-remaining-string', rule: 'WS.MESSAGE.FIELDS' },
  ],
  'W:171:0a07abd63ffd': [
    { fault: 'ws-notification-text-in-message', rule: 'WS.MESSAGE.FIELDS' },
  ],
  'W:172:84e69680af18': [
    { fault: 'ws-start-after-executing', rule: 'WS.ORDER' },
  ],
  'W:173:be118e66413f': [
    { fault: 'ws-executing-node-number', rule: 'WS.MESSAGE.FIELDS' },
    { fault: 'ws-progress-flushed-late', rule: 'WS.ORDER' },
  ],
  'W:174:58e0aaecac3b': [
    { fault: 'ws-progress-no-max', rule: 'WS.MESSAGE.FIELDS' },
  ],
  'W:175:601812a82361': [
    { fault: 'ws-progress-state-nodes-list', rule: 'WS.MESSAGE.FIELDS' },
  ],
  'W:176:34f786d384b3': [
    { fault: 'ws-executed-display-node-only', rule: 'WS.MESSAGE.FIELDS' },
  ],
  'W:177:636d1c794690': [
    { fault: 'ws-cached-empty-list-omitted', rule: 'WS.MESSAGE.FIELDS' },
  ],
  'W:178:0d1b3ff08fa1': [
    { fault: 'ws-terminal-mismatch', rule: 'WS.POLL_AGREEMENT' },
  ],
  'W:179:54d2feedd035': [
    { fault: 'ws-error-traceback-stripped', rule: 'WS.MESSAGE.FIELDS' },
  ],
  'W:180:de07e276fe86': [
    { fault: 'ws-interrupt-as-error', rule: 'WS.INTERRUPTED' },
  ],
  'W:182:d19219a4c2e9': [
    { fault: 'ws-output-entry-no-type', rule: 'WS.EXECUTED.OUTPUT_LISTS' },
  ],
  'W:184:205e504f0f0a': [
    { fault: 'ws-frame-little-endian', rule: 'WS.BINARY.LAYOUT' },
  ],
  'W:188:6315e9d70e3a': [
    { fault: 'ws-preview-type-mismatch', rule: 'WS.BINARY.PREVIEW_IMAGE' },
  ],
  'W:189:36433ac84311': [
    { fault: 'ws-text-node-length-off-by-one', rule: 'WS.BINARY.TEXT' },
  ],
  'W:190:618eaac0b73b': [
    { fault: 'ws-metadata-length-off-by-one', rule: 'WS.BINARY.PREVIEW_METADATA' },
  ],
  'W:192:9593d2b75134': [
    { fault: 'ws-metadata-no-real-node-id', rule: 'WS.BINARY.PREVIEW_METADATA' },
  ],
  'W:198:0a870126a233': [
    { fault: 'org-id-on-unauthorized', rule: 'V2.ERR.ORG_ID_ONLY_SSO' },
  ],
  'W:198:f7c1d8f67073': [
    { fault: 'unrouted-plain-404', rule: 'V2.ERR.ENVELOPE_UNROUTED' },
  ],
  'W:202:f224c451d6d5': [
    { fault: 'invalid-workflow-code', rule: 'V2.ERR.INVALID_WORKFLOW' },
  ],
  'W:203:6ba0e92fee12': [
    { fault: 'ui-format-as-invalid', rule: 'V2.ERR.WORKFLOW_FORMAT_UI' },
  ],
  'W:204:758f07a4358d': [
    { fault: 'missing-asset-as-invalid', rule: 'V2.ERR.MISSING_ASSET' },
  ],
  'W:205:ab835388c387': [
    { fault: 'hash-mismatch-accepted', rule: 'V2.ASSET.EXPECTED_HASH' },
    { fault: 'hash-mismatch-as-invalid-request', rule: 'V2.ASSET.HASH_MISMATCH' },
  ],
  'W:208:cfecd5862ab6': [
    { fault: 'queue-unbounded', rule: 'V2.ERR.QUEUE_FULL' },
  ],
  'W:210:ab64fb47dea9': [
    { fault: 'credits-ignored', rule: 'V2.ERR.INSUFFICIENT_CREDITS' },
  ],
  'W:213:a4a409f683dc': [
    { fault: 'forbidden-as-unauthorized', rule: 'V2.ERR.FORBIDDEN' },
  ],
  'W:217:ae18d5395772': [
    { fault: 'from-hash-expires-type-500', rule: 'V2.ASSET.INVALID_UPLOAD' },
    { fault: 'invalid-upload-500', rule: 'V2.ASSET.INVALID_UPLOAD' },
  ],
  'W:218:96c1e20e9439': [
    { fault: 'moderation-ignored', rule: 'V2.ERR.CONTENT_BLOCKED' },
  ],
  'W:221:da2758a81dda': [
    { fault: 'labels-refused-invalid-request', rule: 'V2.ERR.METADATA_NOT_SUPPORTED' },
  ],
  'W:222:ef000ea7c544': [
    { fault: 'list-filter-ignored', rule: 'V2.JOB.LIST_FILTER' },
    { fault: 'list-filters-unbounded', rule: 'V2.JOB.LIST_FILTER_LIMIT' },
  ],
  'W:224:cee6106f4ee8': [
    { fault: 'list-unimplemented-as-403', rule: 'V2.ERR.NOT_IMPLEMENTED' },
  ],
  'W:225:9ad257bfa3ab': [
    { fault: 'read-failure-untyped', rule: 'V2.ERR.UPSTREAM_GENERIC' },
    { fault: 'upload-failure-untyped', rule: 'V2.ERR.UPSTREAM_GENERIC' },
    { fault: 'upstream-leaks-stack', rule: 'V2.ERR.UPSTREAM_GENERIC' },
  ],
  'W:234:41caa93177b4': [
    { fault: 'v1-failed-job-success', rule: 'V1.ERR.FAILED_JOB' },
    { fault: 'v1-refusal-without-error', rule: 'V1.PROMPT.REFUSAL_ERROR' },
  ],
  'W:234:a0ba43bcc77c': [
    { fault: 'v1-status-created-201', rule: 'V1.CONTRACT.STATUS_DECLARED' },
    { fault: 'v1-view-404-html', rule: 'V1.CONTRACT.ERROR_BODY' },
  ],
  'W:241:502658dc83af': [
    { fault: 'v1-parallel-refused', rule: 'V1.PROMPT.PARALLEL_QUEUE' },
    { fault: 'v1-tier-limit-ignored', rule: 'V1.PROMPT.PARALLEL_QUEUE' },
  ],
};
