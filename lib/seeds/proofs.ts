// Generated from the fault units' statements by scripts/gen-proofs.ts (npm run rules:proofs); do not edit.
// Seed statement (contracts/seed-trace.yaml locator) -> the faults that break it, each with the rule it is caught under.
export interface Proof {
  readonly fault: string;
  readonly rule: string;
}

export const STATEMENT_PROOFS: Readonly<Record<string, readonly Proof[]>> = {
  'R:7:5036bddf9d14': [
    { fault: 'router-output-array', rule: 'ROUTER.RUN.NATIVE' },
    { fault: 'router-output-enveloped', rule: 'ROUTER.RUN.OUTPUT_SCHEMA' },
  ],
  'R:7:7c2e8778e4b2': [
    { fault: 'router-model-by-segment-only', rule: 'ROUTER.ID.SEGMENTS' },
  ],
  'R:9:69f8347a74b3': [
    { fault: 'router-submit-unvalidated', rule: 'ROUTER.QUEUE.VALIDATED_AT_SUBMIT' },
  ],
  'R:10:06fbca54a699': [
    { fault: 'router-sync-job-record', rule: 'ROUTER.RUN.OUTPUT_SCHEMA' },
  ],
  'R:11:c38ad1e87a8f': [
    { fault: 'router-submit-no-status', rule: 'ROUTER.QUEUE.HANDLE' },
  ],
  'R:21:ac971cc6036a': [
    { fault: 'router-ids-case-insensitive', rule: 'ROUTER.ID.SEGMENTS' },
    { fault: 'router-segment-length-cap', rule: 'ROUTER.ID.SEGMENTS' },
  ],
  'R:22:4e0b39dfbf5b': [
    { fault: 'router-ids-case-insensitive', rule: 'ROUTER.ID.SEGMENTS' },
    { fault: 'router-segment-length-cap', rule: 'ROUTER.ID.SEGMENTS' },
  ],
  'R:23:94c53fad03fb': [
    { fault: 'router-model-by-segment-only', rule: 'ROUTER.ID.SEGMENTS' },
    { fault: 'router-segment-length-cap', rule: 'ROUTER.ID.SEGMENTS' },
  ],
  'R:24:7fe6723c6c4c': [
    { fault: 'router-request-id-hex', rule: 'ROUTER.ID.REQUEST_ID' },
  ],
  'R:25:8ca9c6fc742c': [
    { fault: 'router-cursor-offset', rule: 'ROUTER.CATALOG.CURSOR_OPAQUE' },
  ],
  'R:29:56b168a3f304': [
    { fault: 'router-entry-no-billing', rule: 'ROUTER.CATALOG.ENTRY' },
  ],
  'R:29:82a4f2af419f': [
    { fault: 'router-entry-no-billing', rule: 'ROUTER.CATALOG.ENTRY' },
  ],
  'R:29:93c1ce7c6f2a': [
    { fault: 'router-catalog-prices', rule: 'ROUTER.CATALOG.NO_PRICES' },
    { fault: 'router-detail-rate-card', rule: 'ROUTER.CATALOG.NO_PRICES' },
  ],
  'R:31:93bb4adeb519': [
    { fault: 'router-detail-extra-leg', rule: 'ROUTER.CATALOG.DETAIL_LEGS' },
    { fault: 'router-detail-http-url', rule: 'ROUTER.CATALOG.DETAIL' },
    { fault: 'router-detail-no-schema-url', rule: 'ROUTER.CATALOG.DETAIL' },
    { fault: 'router-schema-url-presigned', rule: 'ROUTER.CATALOG.DETAIL' },
  ],
  'R:37:1f883156fd21': [
    { fault: 'router-page-limit-plus-one', rule: 'ROUTER.CATALOG.LIMIT' },
  ],
  'R:38:d5bbac65ae84': [
    { fault: 'router-page-no-has-more', rule: 'ROUTER.CATALOG.PAGE' },
    { fault: 'router-page-skips', rule: 'ROUTER.CATALOG.WALK' },
  ],
  'R:39:39fd1bbddb14': [
    { fault: 'router-cursor-offset', rule: 'ROUTER.CATALOG.CURSOR_OPAQUE' },
    { fault: 'router-cursor-signed-token', rule: 'ROUTER.CATALOG.CURSOR_OPAQUE' },
  ],
  'R:40:5b2ffc1244d0': [
    { fault: 'router-limit-unclamped', rule: 'ROUTER.CATALOG.LIMIT' },
  ],
  'R:46:b9a8304506ad': [
    { fault: 'router-source-enum-name', rule: 'ROUTER.ESTIMATE.FIELDS' },
  ],
  'R:47:29681be41632': [
    { fault: 'router-currency-lowercase', rule: 'ROUTER.ESTIMATE.CURRENCY_LEG' },
  ],
  'R:48:bfddbf0af403': [
    { fault: 'router-amount-12-decimals', rule: 'ROUTER.ESTIMATE.DECIMAL' },
    { fault: 'router-amount-exponent', rule: 'ROUTER.ESTIMATE.DECIMAL' },
    { fault: 'router-subcent-unpriced', rule: 'ROUTER.ESTIMATE.SUBCENT' },
    { fault: 'router-subcent-zero', rule: 'ROUTER.ESTIMATE.SUBCENT' },
  ],
  'R:49:295f1710b99f': [
    { fault: 'router-exact-with-range', rule: 'ROUTER.ESTIMATE.FIELDS' },
  ],
  'R:50:d9b658add9f4': [
    { fault: 'router-cents-rounded', rule: 'ROUTER.ESTIMATE.CENTS' },
  ],
  'R:51:ad9a5652bd3b': [
    { fault: 'router-credits-200-per-dollar', rule: 'ROUTER.ESTIMATE.CREDITS' },
    { fault: 'router-credits-doubled', rule: 'ROUTER.RUN.CREDITS_USED' },
    { fault: 'router-credits-truncated', rule: 'ROUTER.ESTIMATE.CREDITS' },
  ],
  'R:52:36c68f3d4dbe': [
    { fault: 'router-reason-on-estimated', rule: 'ROUTER.ESTIMATE.FIELDS' },
    { fault: 'router-submit-reason-on-estimated', rule: 'ROUTER.ESTIMATE.FIELDS' },
  ],
  'R:53:d57e97826a93': [
    { fault: 'router-pricing-as-of-epoch', rule: 'ROUTER.ESTIMATE.FIELDS' },
  ],
  'R:54:2b304134f243': [
    { fault: 'router-estimate-leg-native', rule: 'ROUTER.ESTIMATE.CURRENCY_LEG' },
  ],
  'R:56:372c6fe011c9': [
    { fault: 'router-not-quotable-wrong-reason', rule: 'ROUTER.ESTIMATE.REASON' },
    { fault: 'router-submit-stale-not-quotable', rule: 'ROUTER.QUEUE.ESTIMATE' },
    { fault: 'router-unpriced-not-quotable', rule: 'ROUTER.ESTIMATE.REASON' },
  ],
  'R:63:5b3c0c7beaff': [
    { fault: 'router-estimate-byok-reason', rule: 'ROUTER.ESTIMATE.NO_BYOK_DETECTION' },
  ],
  'R:64:ad4294906b92': [
    { fault: 'router-estimate-honours-strict', rule: 'ROUTER.ESTIMATE.VALIDATION' },
    { fault: 'router-estimate-rejects-unknown', rule: 'ROUTER.ESTIMATE.VALIDATION' },
  ],
  'R:65:3357a8ebe2bc': [
    { fault: 'router-fallback-native-rate', rule: 'ROUTER.FALLBACK.RATE' },
  ],
  'R:65:c4ed5a315dcb': [
    { fault: 'router-queue-falls-back', rule: 'ROUTER.QUEUE.NO_FALLBACK' },
    { fault: 'router-submit-estimate-native-rate', rule: 'ROUTER.QUEUE.ESTIMATE_LEG' },
  ],
  'R:65:d1040a0b3d81': [
    { fault: 'router-alias-comfyui-refused', rule: 'ROUTER.PROVIDER.ALIASES' },
    { fault: 'router-estimate-leg-native', rule: 'ROUTER.ESTIMATE.CURRENCY_LEG' },
  ],
  'R:70:2c153ddb521c': [
    { fault: 'router-queue-position-behind', rule: 'ROUTER.QUEUE.POSITION' },
  ],
  'R:72:d586e05637f1': [
    { fault: 'router-submit-estimate-native-rate', rule: 'ROUTER.QUEUE.ESTIMATE_LEG' },
    { fault: 'router-submit-fails-on-stale-card', rule: 'ROUTER.QUEUE.ESTIMATE_NEVER_FAILS' },
  ],
  'R:74:6ebcff02673d': [
    { fault: 'router-status-drops-urls', rule: 'ROUTER.QUEUE.HANDLE' },
    { fault: 'router-status-without-request-id', rule: 'ROUTER.QUEUE.HANDLE' },
  ],
  'R:74:a2b3d6162283': [
    { fault: 'router-error-type-null', rule: 'ROUTER.QUEUE.ERROR_TYPE_ON_FAILURE' },
    { fault: 'router-failed-status', rule: 'ROUTER.QUEUE.STATUS_CLOSED' },
    { fault: 'router-failure-no-error-type', rule: 'ROUTER.QUEUE.ERROR_TYPE_ON_FAILURE' },
  ],
  'R:76:80f920c75b96': [
    { fault: 'router-cancel-ack-status', rule: 'ROUTER.QUEUE.CANCEL' },
    { fault: 'router-cancel-done-accepted', rule: 'ROUTER.QUEUE.CANCEL' },
  ],
  'R:80:3d30fc7a6bb8': [
    { fault: 'router-refusal-subject-dropped', rule: 'ROUTER.ERR.CONTENT_POLICY' },
    { fault: 'router-refusal-subject-header-only', rule: 'ROUTER.ERR.CONTENT_POLICY' },
    { fault: 'router-refusal-subject-mismatch', rule: 'ROUTER.ERR.CONTENT_POLICY' },
    { fault: 'router-upstream-detail-dropped', rule: 'ROUTER.ERR.UPSTREAM_DETAIL' },
    { fault: 'router-upstream-detail-on-router-400', rule: 'ROUTER.ERR.UPSTREAM_DETAIL' },
    { fault: 'router-v2-envelope', rule: 'ROUTER.ERR.BODY' },
  ],
  'R:82:201b4024774f': [
    { fault: 'router-sunset-retired', rule: 'ROUTER.CATALOG.SUNSET_LISTED' },
  ],
  'R:82:3ba01903e5f8': [
    { fault: 'router-retired-200', rule: 'ROUTER.CATALOG.RETIRED' },
    { fault: 'router-retired-wording', rule: 'ROUTER.CATALOG.RETIRED_DETAIL' },
  ],
  'R:82:863303820616': [
    { fault: 'router-byok-detail-reworded', rule: 'ROUTER.PROVIDER.BYOK_CONFLICT' },
    { fault: 'router-edit-detail-reworded', rule: 'ROUTER.PROVIDER.EDIT_UNSERVABLE' },
  ],
  'R:86:bb89bcc02af0': [
    { fault: 'router-422-string-detail', rule: 'ROUTER.ERR.VALIDATION_BODY' },
  ],
  'R:87:346b64b4e95a': [
    { fault: 'router-loc-body-only', rule: 'ROUTER.ERR.VALIDATION_LOC' },
  ],
  'R:88:6edf2da92a67': [
    { fault: 'router-422-message-member', rule: 'ROUTER.ERR.VALIDATION_BODY' },
  ],
  'R:89:b11e8e2619c1': [
    { fault: 'router-422-no-error-type', rule: 'ROUTER.HEADER.ERROR_TYPE' },
  ],
  'R:90:39e98cbd9298': [
    { fault: 'router-422-ctx-null', rule: 'ROUTER.ERR.VALIDATION_BODY' },
  ],
  'R:95:2f74232fb41f': [
    { fault: 'router-non-object-body-wrapped', rule: 'ROUTER.ERR.NON_OBJECT_BODY' },
    { fault: 'router-output-array', rule: 'ROUTER.RUN.NATIVE' },
    { fault: 'router-output-enveloped', rule: 'ROUTER.RUN.OUTPUT_SCHEMA' },
  ],
  'R:95:70c52ff790de': [
    { fault: 'router-seed-max-1e6', rule: 'ROUTER.RUN.SCHEMA_BODIES' },
  ],
  'R:99:27c642ae2dbf': [
    { fault: 'router-cancel-ack-status', rule: 'ROUTER.QUEUE.CANCEL' },
  ],
  'R:99:64c869655d5a': [
    { fault: 'router-failed-status', rule: 'ROUTER.QUEUE.STATUS_CLOSED' },
    { fault: 'router-status-cancelling', rule: 'ROUTER.QUEUE.STATUS_CLOSED' },
  ],
  'R:99:e9b5ad75077f': [
    { fault: 'router-completed-renamed', rule: 'ROUTER.QUEUE.STATUS_CLOSED' },
  ],
  'R:103:ba1b172aaf32': [
    { fault: 'router-status-url-relative', rule: 'ROUTER.QUEUE.HANDLE' },
    { fault: 'router-submit-no-status', rule: 'ROUTER.QUEUE.HANDLE' },
  ],
  'R:104:618235c3f8bc': [
    { fault: 'router-status-cancelling', rule: 'ROUTER.QUEUE.STATUS_CLOSED' },
  ],
  'R:105:e83e71a59b60': [
    { fault: 'router-cancel-ends-clean', rule: 'ROUTER.QUEUE.ERROR_TYPE_ON_FAILURE' },
    { fault: 'router-failed-status', rule: 'ROUTER.QUEUE.STATUS_CLOSED' },
  ],
  'R:106:b0ddf19e95e5': [
    { fault: 'router-cancel-done-202', rule: 'ROUTER.QUEUE.CANCEL' },
    { fault: 'router-cancel-done-drops-result', rule: 'ROUTER.QUEUE.CANCEL' },
  ],
  'R:107:74fe11755885': [
    { fault: 'router-completed-renamed', rule: 'ROUTER.QUEUE.STATUS_CLOSED' },
    { fault: 'router-error-type-null', rule: 'ROUTER.QUEUE.ERROR_TYPE_ON_FAILURE' },
    { fault: 'router-status-reopened-after-collect', rule: 'ROUTER.QUEUE.STATUS_CLOSED' },
  ],
  'R:108:53efeed6d5ef': [
    { fault: 'router-failed-status', rule: 'ROUTER.QUEUE.STATUS_CLOSED' },
    { fault: 'router-failure-no-error-type', rule: 'ROUTER.QUEUE.ERROR_TYPE_ON_FAILURE' },
  ],
  'R:110:e2aa1dbe54d9': [
    { fault: 'router-fourth-status', rule: 'ROUTER.QUEUE.STATUS_NAMES' },
  ],
  'R:112:99d3346bc6dd': [
    { fault: 'load-poll-no-retry-after', rule: 'LOAD.POLL.RETRY_AFTER' },
    { fault: 'router-poll-no-retry-after', rule: 'ROUTER.QUEUE.POLL_RETRY_AFTER' },
    { fault: 'router-retry-after-date', rule: 'ROUTER.HEADER.RETRY_AFTER' },
  ],
  'R:116:7c1f0886b612': [
    { fault: 'load-poll-no-request-id', rule: 'LOAD.CONTRACT.UNDER_LOAD' },
    { fault: 'router-error-type-header-mismatch', rule: 'ROUTER.HEADER.ERROR_TYPE' },
    { fault: 'router-no-request-id-on-errors', rule: 'ROUTER.HEADER.REQUEST_ID' },
  ],
  'R:116:d52bd504a389': [
    { fault: 'router-ids-case-insensitive', rule: 'ROUTER.ID.SEGMENTS' },
  ],
  'R:119:5865e5edde60': [
    { fault: 'router-limit-unclamped', rule: 'ROUTER.CATALOG.LIMIT' },
  ],
  'R:119:c6102c02ef04': [
    { fault: 'router-bad-cursor-422', rule: 'ROUTER.CONTRACT.STATUS_DECLARED' },
  ],
  'R:122:342faba8f061': [
    { fault: 'router-retired-detail-410', rule: 'ROUTER.CONTRACT.STATUS_DECLARED' },
  ],
  'R:122:b7edad8dd67e': [
    { fault: 'router-detail-no-schema-url', rule: 'ROUTER.CATALOG.DETAIL' },
  ],
  'R:125:a8636bbeb1af': [
    { fault: 'router-key-cap-128', rule: 'ROUTER.IDEM.KEY_LENGTH' },
    { fault: 'router-key-cap-128-conflict', rule: 'ROUTER.IDEM.KEY_LENGTH' },
  ],
  'R:129:279cdee1b254': [
    { fault: 'router-provider-ignored', rule: 'ROUTER.PROVIDER.TRANSLATION' },
  ],
  'R:130:1228ce4cc53e': [
    { fault: 'router-strict-without-provider', rule: 'ROUTER.PROVIDER.STRICT_MODE' },
  ],
  'R:131:7fa92600ef30': [
    { fault: 'router-fallback-ignores-false', rule: 'ROUTER.FALLBACK.OFF' },
  ],
  'R:132:03ad23a2e699': [
    { fault: 'router-reject-unknown-by-default', rule: 'ROUTER.RUN.REJECT_UNKNOWN' },
    { fault: 'router-reject-unknown-ignored', rule: 'ROUTER.RUN.REJECT_UNKNOWN' },
  ],
  'R:134:13114c9a8e32': [
    { fault: 'router-non-object-body-wrapped', rule: 'ROUTER.ERR.NON_OBJECT_BODY' },
  ],
  'R:137:76028b1e9497': [
    { fault: 'router-no-nosniff', rule: 'ROUTER.RUN.NOSNIFF' },
  ],
  'R:137:a952e40104ff': [
    { fault: 'router-bytes-as-base64', rule: 'ROUTER.RUN.BYTES' },
  ],
  'R:137:dedf3f1250db': [
    { fault: 'router-output-array', rule: 'ROUTER.RUN.NATIVE' },
  ],
  'R:138:bc1b401a1951': [
    { fault: 'router-429-no-spend', rule: 'ROUTER.ERR.RATE_LIMITED' },
    { fault: 'router-capacity-429', rule: 'ROUTER.ERR.CAPACITY' },
    { fault: 'router-capacity-no-retry-after', rule: 'ROUTER.ERR.CAPACITY' },
    { fault: 'router-deadline-no-retry-after', rule: 'ROUTER.ERR.DEADLINE' },
    { fault: 'router-inflight-dispatches', rule: 'ROUTER.IDEM.IN_FLIGHT' },
    { fault: 'router-inflight-no-retry-after', rule: 'ROUTER.IDEM.IN_FLIGHT' },
    { fault: 'router-upstream-status-text', rule: 'ROUTER.CONTRACT.HEADERS' },
  ],
  'R:141:d6afdafa33e7': [
    { fault: 'router-strict-without-provider', rule: 'ROUTER.PROVIDER.STRICT_MODE' },
  ],
  'R:142:1365f3c86aea': [
    { fault: 'router-alias-comfyui-refused', rule: 'ROUTER.PROVIDER.ALIASES' },
  ],
  'R:143:76adcceb31b0': [
    { fault: 'router-detail-extra-leg', rule: 'ROUTER.CATALOG.DETAIL_LEGS' },
  ],
  'R:144:4a7425e0ed20': [
    { fault: 'router-translation-silent', rule: 'ROUTER.PROVIDER.TRANSLATION' },
  ],
  'R:144:8f87a4ad1340': [
    { fault: 'router-alternate-answer-enveloped', rule: 'ROUTER.PROVIDER.ANSWER' },
  ],
  'R:145:efded79376a2': [
    { fault: 'router-fallback-under-strict', rule: 'ROUTER.FALLBACK.SKIPPED' },
    { fault: 'router-queue-drops-strict', rule: 'ROUTER.QUEUE.COLLECT_SELECTION' },
    { fault: 'router-strict-answer-tagged', rule: 'ROUTER.PROVIDER.ANSWER' },
    { fault: 'router-strict-answer-translated', rule: 'ROUTER.PROVIDER.ANSWER' },
    { fault: 'router-strict-dropped-header', rule: 'ROUTER.PROVIDER.STRICT_MODE' },
    { fault: 'router-strict-validates', rule: 'ROUTER.PROVIDER.STRICT_MODE' },
  ],
  'R:146:3bad4bf876a3': [
    { fault: 'router-order-edit-before-unregistered', rule: 'ROUTER.PROVIDER.REFUSAL_ORDER' },
    { fault: 'router-order-gate-before-byok', rule: 'ROUTER.PROVIDER.REFUSAL_ORDER' },
    { fault: 'router-order-noleg-before-gate', rule: 'ROUTER.PROVIDER.REFUSAL_ORDER' },
    { fault: 'router-refusal-order', rule: 'ROUTER.PROVIDER.REFUSAL_ORDER' },
  ],
  'R:147:a877f6953e76': [
    { fault: 'router-order-edit-before-unregistered', rule: 'ROUTER.PROVIDER.REFUSAL_ORDER' },
    { fault: 'router-unregistered-runs', rule: 'ROUTER.PROVIDER.UNREGISTERED' },
  ],
  'R:148:412eba024a88': [
    { fault: 'router-edit-refused-everywhere', rule: 'ROUTER.PROVIDER.EDIT_UNSERVABLE' },
  ],
  'R:148:f1ff7da45570': [
    { fault: 'router-edit-detail-reworded', rule: 'ROUTER.PROVIDER.EDIT_UNSERVABLE' },
    { fault: 'router-edit-forwarded', rule: 'ROUTER.PROVIDER.EDIT_UNSERVABLE' },
  ],
  'R:149:7d9196910a65': [
    { fault: 'router-byok-detail-reworded', rule: 'ROUTER.PROVIDER.BYOK_CONFLICT' },
    { fault: 'router-byok-only-with-leg', rule: 'ROUTER.PROVIDER.BYOK_CONFLICT' },
    { fault: 'router-order-gate-before-byok', rule: 'ROUTER.PROVIDER.REFUSAL_ORDER' },
  ],
  'R:150:b090496824a8': [
    { fault: 'router-gate-ignored', rule: 'ROUTER.PROVIDER.GATE' },
    { fault: 'router-gate-unknown-closed', rule: 'ROUTER.PROVIDER.GATE' },
    { fault: 'router-order-noleg-before-gate', rule: 'ROUTER.PROVIDER.REFUSAL_ORDER' },
  ],
  'R:151:5e5775534338': [
    { fault: 'router-no-leg-404', rule: 'ROUTER.PROVIDER.NO_LEG' },
  ],
  'R:152:0b3be116b11f': [
    { fault: 'router-byok-409-records-key', rule: 'ROUTER.PROVIDER.BYOK_CONFLICT' },
    { fault: 'router-byok-cleared-by-key', rule: 'ROUTER.PROVIDER.BYOK_CONFLICT' },
    { fault: 'router-edit-409-records-key', rule: 'ROUTER.PROVIDER.EDIT_UNSERVABLE' },
  ],
  'R:155:32ee83b4b4db': [
    { fault: 'router-fallback-after-timeout', rule: 'ROUTER.FALLBACK.ATTEMPTS' },
  ],
  'R:155:9ff9444f1710': [
    { fault: 'router-fallback-by-body', rule: 'ROUTER.FALLBACK.ATTEMPTS' },
    { fault: 'router-fallback-on-rejection', rule: 'ROUTER.FALLBACK.ATTEMPTS' },
    { fault: 'router-fallback-random', rule: 'ROUTER.FALLBACK.ATTEMPTS' },
    { fault: 'router-fallback-round-robin', rule: 'ROUTER.FALLBACK.ATTEMPTS' },
    { fault: 'router-fallback-until-served', rule: 'ROUTER.FALLBACK.ATTEMPTS' },
  ],
  'R:156:7de0b2b36e99': [
    { fault: 'router-fallback-failed-header', rule: 'ROUTER.FALLBACK.FAILED_NO_HEADER' },
  ],
  'R:157:d6b775bc7aa9': [
    { fault: 'router-fallback-on-byok', rule: 'ROUTER.FALLBACK.SKIPPED' },
    { fault: 'router-fallback-on-edit', rule: 'ROUTER.FALLBACK.SKIPPED' },
    { fault: 'router-fallback-skip-refused', rule: 'ROUTER.FALLBACK.SKIPPED' },
    { fault: 'router-fallback-under-strict', rule: 'ROUTER.FALLBACK.SKIPPED' },
  ],
  'R:159:c8fb1c4e85c7': [
    { fault: 'router-reject-unknown-nested', rule: 'ROUTER.RUN.REJECT_UNKNOWN' },
    { fault: 'router-reject-unknown-open-schema', rule: 'ROUTER.RUN.REJECT_UNKNOWN' },
    { fault: 'router-reject-unknown-strict-submit', rule: 'ROUTER.RUN.REJECT_UNKNOWN' },
    { fault: 'router-reject-unknown-unauthored', rule: 'ROUTER.RUN.REJECT_UNKNOWN' },
  ],
  'R:161:8937b1f01e46': [
    { fault: 'router-edit-not-detected', rule: 'ROUTER.PROVIDER.EDIT_UNSERVABLE' },
  ],
  'R:161:cb574ceb3ee9': [
    { fault: 'router-video-bills-by-role', rule: 'ROUTER.RUN.VIDEO_BILLING' },
    { fault: 'router-video-bills-last-media', rule: 'ROUTER.RUN.VIDEO_BILLING' },
    { fault: 'router-video-draft-by-media', rule: 'ROUTER.RUN.VIDEO_BILLING' },
    { fault: 'router-video-images-as-text', rule: 'ROUTER.RUN.VIDEO_BILLING' },
  ],
  'R:164:21135e0ced7b': [
    { fault: 'router-inflight-dispatches', rule: 'ROUTER.IDEM.IN_FLIGHT' },
    { fault: 'router-inflight-no-retry-after', rule: 'ROUTER.IDEM.IN_FLIGHT' },
  ],
  'R:165:954ec7a8c43e': [
    { fault: 'router-conflict-replays', rule: 'ROUTER.IDEM.CONFLICT' },
  ],
  'R:166:9454d41e0a87': [
    { fault: 'load-concurrency-no-spend', rule: 'LOAD.CONCURRENCY.SPEND_HEADERS' },
    { fault: 'router-429-no-spend', rule: 'ROUTER.ERR.RATE_LIMITED' },
  ],
  'R:166:dcc51415a25e': [
    { fault: 'load-429-burst-bucket', rule: 'LOAD.RATE_LIMIT.ENVELOPE' },
    { fault: 'load-retry-after-short', rule: 'LOAD.RATE_LIMIT.RETRY_SUCCEEDS' },
    { fault: 'router-rate-limited-403', rule: 'ROUTER.ERR.RATE_LIMITED' },
  ],
  'R:169:6f5647df6adb': [
    { fault: 'router-key-freed-by-cancel', rule: 'ROUTER.IDEM.REPLAY' },
    { fault: 'router-replay-redispatches', rule: 'ROUTER.IDEM.REPLAY' },
    { fault: 'router-replay-unmarked', rule: 'ROUTER.IDEM.REPLAY' },
  ],
  'R:169:f7d57f5d4f81': [
    { fault: 'router-replay-redispatches', rule: 'ROUTER.IDEM.REPLAY' },
  ],
  'R:170:583f5ec8e664': [
    { fault: 'router-teammate-conflict-runs', rule: 'ROUTER.IDEM.SCOPE' },
    { fault: 'router-teammate-replay-cache', rule: 'ROUTER.IDEM.SCOPE' },
  ],
  'R:170:fbe5d04d02cd': [
    { fault: 'router-keys-global', rule: 'ROUTER.IDEM.SCOPE' },
    { fault: 'router-teammate-conflict-runs', rule: 'ROUTER.IDEM.SCOPE' },
  ],
  'R:171:0f992c6bbbab': [
    { fault: 'router-keyed-anonymous-replay', rule: 'ROUTER.IDEM.AUTH_401' },
  ],
  'R:172:012b38b74594': [
    { fault: 'router-partner-link-not-replayed', rule: 'ROUTER.IDEM.PROVIDER_LINK_WINDOW' },
  ],
  'R:172:01e994d949d3': [
    { fault: 'router-gallery-rerun', rule: 'ROUTER.IDEM.NOT_REPLAYABLE' },
  ],
  'R:172:095fab30ad8d': [
    { fault: 'router-cutoff-holds-job-record', rule: 'ROUTER.IDEM.PROVIDER_LINK_WINDOW' },
    { fault: 'router-cutoff-replays-failure', rule: 'ROUTER.IDEM.PROVIDER_LINK_WINDOW' },
  ],
  'R:172:9866bea06ef5': [
    { fault: 'router-gallery-rerun', rule: 'ROUTER.IDEM.NOT_REPLAYABLE' },
  ],
  'R:173:123a957184e7': [
    { fault: 'router-forbidden-records-key', rule: 'ROUTER.IDEM.RELEASED_ON_REFUSAL' },
    { fault: 'router-mismatch-records-key', rule: 'ROUTER.IDEM.RELEASED_ON_REFUSAL' },
    { fault: 'router-refusal-records-key', rule: 'ROUTER.IDEM.RELEASED_ON_REFUSAL' },
  ],
  'R:173:9444fff5531e': [
    { fault: 'router-forbidden-records-key', rule: 'ROUTER.IDEM.RELEASED_ON_REFUSAL' },
    { fault: 'router-mismatch-records-key', rule: 'ROUTER.IDEM.RELEASED_ON_REFUSAL' },
    { fault: 'router-refusal-records-key', rule: 'ROUTER.IDEM.RELEASED_ON_REFUSAL' },
  ],
  'R:173:cb4a265cbad7': [
    { fault: 'router-policy-released', rule: 'ROUTER.IDEM.POLICY_REPLAYED' },
  ],
  'R:176:01156134f3e8': [
    { fault: 'router-estimate-ignores-provider', rule: 'ROUTER.PROVIDER.UNREGISTERED' },
    { fault: 'router-estimate-leg-native', rule: 'ROUTER.ESTIMATE.CURRENCY_LEG' },
  ],
  'R:176:0ed3e198e0eb': [
    { fault: 'router-estimate-honours-strict', rule: 'ROUTER.ESTIMATE.VALIDATION' },
    { fault: 'router-estimate-model-mismatch-priced', rule: 'ROUTER.ESTIMATE.VALIDATION' },
    { fault: 'router-estimate-rejects-unknown', rule: 'ROUTER.ESTIMATE.VALIDATION' },
  ],
  'R:176:1df49dbd624c': [
    { fault: 'router-estimate-honours-strict', rule: 'ROUTER.ESTIMATE.VALIDATION' },
  ],
  'R:176:b0683c953839': [
    { fault: 'router-estimate-dry-run', rule: 'ROUTER.ESTIMATE.NOTHING_CHARGED' },
  ],
  'R:177:1232d32690e0': [
    { fault: 'estimate-enum-500', rule: 'ROUTER.CONTRACT.STATUS_DECLARED' },
    { fault: 'router-estimate-capacity-no-retry-after', rule: 'ROUTER.ERR.CAPACITY' },
    { fault: 'router-estimate-model-mismatch-priced', rule: 'ROUTER.ESTIMATE.VALIDATION' },
  ],
  'R:177:85c6ea24f0e5': [
    { fault: 'router-estimate-text-plain', rule: 'ROUTER.CONTRACT.BODY' },
  ],
  'R:178:63c16dd8a002': [
    { fault: 'router-estimate-rollout-open', rule: 'ROUTER.ESTIMATE.ROLLOUT' },
  ],
  'R:179:0ebb31a4bbc6': [
    { fault: 'router-estimate-stale-card-guessed', rule: 'ROUTER.ESTIMATE.STALE_CARD' },
  ],
  'R:179:54542e273ebc': [
    { fault: 'router-stale-card-checked-first', rule: 'ROUTER.ESTIMATE.STALE_CARD' },
  ],
  'R:182:4a4be451e207': [
    { fault: 'router-schema-failure-404', rule: 'ROUTER.SCHEMA.INTERNAL_ERROR' },
  ],
  'R:182:8a40260529c8': [
    { fault: 'router-etag-dropped', rule: 'ROUTER.SCHEMA.ETAG' },
    { fault: 'router-etag-weak', rule: 'ROUTER.SCHEMA.ETAG' },
    { fault: 'router-ignore-if-none-match', rule: 'ROUTER.SCHEMA.NOT_MODIFIED' },
    { fault: 'router-no-cache-control', rule: 'ROUTER.SCHEMA.CACHE_CONTROL' },
  ],
  'R:182:8dad8a2ac29b': [
    { fault: 'router-ignore-if-none-match', rule: 'ROUTER.SCHEMA.NOT_MODIFIED' },
  ],
  'R:183:969b7f129978': [
    { fault: 'router-schema-no-flag', rule: 'ROUTER.SCHEMA.DOCUMENT' },
    { fault: 'router-unauthored-validated', rule: 'ROUTER.SCHEMA.UNAUTHORED' },
  ],
  'R:184:27167904d1fe': [
    { fault: 'router-schema-endpoint-open', rule: 'ROUTER.AUTH.REQUIRED' },
  ],
  'R:184:a88f58c934b4': [
    { fault: 'router-snapshot-needs-key', rule: 'ROUTER.SCHEMA.SNAPSHOT' },
  ],
  'R:187:3cc49021cd28': [
    { fault: 'router-queue-drops-strict', rule: 'ROUTER.QUEUE.COLLECT_SELECTION' },
    { fault: 'router-queue-falls-back', rule: 'ROUTER.QUEUE.NO_FALLBACK' },
  ],
  'R:187:3f9369d6ac55': [
    { fault: 'router-submit-unvalidated', rule: 'ROUTER.QUEUE.VALIDATED_AT_SUBMIT' },
  ],
  'R:188:ba3c99a4ba22': [
    { fault: 'router-submit-no-status', rule: 'ROUTER.QUEUE.HANDLE' },
  ],
  'R:188:cc76cfcb4a6b': [
    { fault: 'router-queue-success-no-request-id', rule: 'ROUTER.HEADER.REQUEST_ID' },
    { fault: 'router-replay-unmarked', rule: 'ROUTER.IDEM.REPLAY' },
  ],
  'R:189:8f1eb8ea4403': [
    { fault: 'router-bytes-submit-405', rule: 'ROUTER.CONTRACT.STATUS_DECLARED' },
  ],
  'R:190:214069274b9b': [
    { fault: 'router-queue-drops-strict', rule: 'ROUTER.QUEUE.COLLECT_SELECTION' },
  ],
  'R:190:397028d193bd': [
    { fault: 'router-submit-unvalidated', rule: 'ROUTER.QUEUE.VALIDATED_AT_SUBMIT' },
  ],
  'R:191:f728c995dfd6': [
    { fault: 'router-bytes-queued', rule: 'ROUTER.QUEUE.BYTES_REFUSED' },
  ],
  'R:194:8c3092ed241d': [
    { fault: 'router-request-id-hex', rule: 'ROUTER.ID.REQUEST_ID' },
  ],
  'R:195:80f61e986efa': [
    { fault: 'router-no-nosniff', rule: 'ROUTER.RUN.NOSNIFF' },
    { fault: 'router-queue-success-no-request-id', rule: 'ROUTER.HEADER.REQUEST_ID' },
  ],
  'R:195:adc652f16295': [
    { fault: 'router-collect-reserialized', rule: 'ROUTER.QUEUE.COLLECT_IDENTICAL' },
    { fault: 'router-collect-shifted-after-cancel', rule: 'ROUTER.QUEUE.COLLECT_IDENTICAL' },
    { fault: 'router-queue-drops-strict', rule: 'ROUTER.QUEUE.COLLECT_SELECTION' },
  ],
  'R:196:d6fd3b9cf281': [
    { fault: 'router-collect-pending-200', rule: 'ROUTER.QUEUE.COLLECT_PENDING' },
  ],
  'R:197:dad51fcb8e67': [
    { fault: 'router-aged-out-collect-404', rule: 'ROUTER.QUEUE.COLLECT_GONE' },
  ],
  'R:200:f3462a265703': [
    { fault: 'router-cancel-ack-status', rule: 'ROUTER.QUEUE.CANCEL' },
  ],
  'R:201:f9651ec07fad': [
    { fault: 'router-cancel-done-accepted', rule: 'ROUTER.QUEUE.CANCEL' },
  ],
  'R:202:91d00faec620': [
    { fault: 'router-cancel-unknown-202', rule: 'ROUTER.QUEUE.UNKNOWN_404' },
  ],
  'R:205:2ec17d99ded3': [
    { fault: 'router-status-with-nested-result', rule: 'ROUTER.QUEUE.STATUS_NO_RESULT' },
    { fault: 'router-status-with-result', rule: 'ROUTER.QUEUE.STATUS_NO_RESULT' },
  ],
  'R:205:3f630f5162e7': [
    { fault: 'router-unknown-request-200', rule: 'ROUTER.QUEUE.UNKNOWN_404' },
  ],
  'R:205:60e287b9f0a0': [
    { fault: 'load-poll-no-retry-after', rule: 'LOAD.POLL.RETRY_AFTER' },
    { fault: 'router-poll-no-retry-after', rule: 'ROUTER.QUEUE.POLL_RETRY_AFTER' },
  ],
  'R:211:a3b757021292': [
    { fault: 'router-no-request-id-on-errors', rule: 'ROUTER.HEADER.REQUEST_ID' },
    { fault: 'router-queue-success-no-request-id', rule: 'ROUTER.HEADER.REQUEST_ID' },
  ],
  'R:212:3569e3bba115': [
    { fault: 'router-422-no-error-type', rule: 'ROUTER.HEADER.ERROR_TYPE' },
    { fault: 'router-error-type-header-mismatch', rule: 'ROUTER.HEADER.ERROR_TYPE' },
  ],
  'R:213:225f76218e24': [
    { fault: 'router-no-nosniff', rule: 'ROUTER.RUN.NOSNIFF' },
  ],
  'R:214:5d06e0920a4c': [
    { fault: 'router-replay-unmarked', rule: 'ROUTER.IDEM.REPLAY' },
  ],
  'R:215:49b76e9b4942': [
    { fault: 'router-capacity-no-retry-after', rule: 'ROUTER.ERR.CAPACITY' },
    { fault: 'router-deadline-no-retry-after', rule: 'ROUTER.ERR.DEADLINE' },
    { fault: 'router-inflight-no-retry-after', rule: 'ROUTER.IDEM.IN_FLIGHT' },
    { fault: 'router-poll-no-retry-after', rule: 'ROUTER.QUEUE.POLL_RETRY_AFTER' },
    { fault: 'router-retry-after-date', rule: 'ROUTER.HEADER.RETRY_AFTER' },
  ],
  'R:216:b96bd1ad467b': [
    { fault: 'router-credits-doubled', rule: 'ROUTER.RUN.CREDITS_USED' },
    { fault: 'router-credits-last-call', rule: 'ROUTER.RUN.CREDITS_SUM' },
    { fault: 'router-fallback-no-credits', rule: 'ROUTER.FALLBACK.RATE' },
  ],
  'R:217:ad954066757a': [
    { fault: 'router-dropped-params-comma', rule: 'ROUTER.HEADER.DROPPED_PARAMS_JSON' },
    { fault: 'router-translation-silent', rule: 'ROUTER.PROVIDER.TRANSLATION' },
  ],
  'R:218:f81d3b1b3e91': [
    { fault: 'router-fallback-no-header', rule: 'ROUTER.FALLBACK.SERVED' },
  ],
  'R:219:68773d027aa2': [
    { fault: 'router-upstream-detail-dropped', rule: 'ROUTER.ERR.UPSTREAM_DETAIL' },
  ],
  'R:220:d1cd500efb99': [
    { fault: 'router-upstream-status-text', rule: 'ROUTER.CONTRACT.HEADERS' },
  ],
  'R:221:facfc8e0e130': [
    { fault: 'router-subject-provider-word', rule: 'ROUTER.ERR.CONTENT_POLICY' },
  ],
  'R:222:2af63df563cf': [
    { fault: 'load-spend-headers-dollars', rule: 'LOAD.CONCURRENCY.SPEND_HEADERS' },
    { fault: 'router-spend-released-at-admission', rule: 'ROUTER.RUN.SPEND_RESERVED' },
  ],
  'R:223:90870014739f': [
    { fault: 'load-spend-headers-dollars', rule: 'LOAD.CONCURRENCY.SPEND_HEADERS' },
    { fault: 'router-spend-never-released', rule: 'ROUTER.RUN.SPEND_RESERVED' },
    { fault: 'router-spend-released-at-admission', rule: 'ROUTER.RUN.SPEND_RESERVED' },
  ],
  'R:224:0786d6198ee4': [
    { fault: 'load-spend-headers-dollars', rule: 'LOAD.CONCURRENCY.SPEND_HEADERS' },
    { fault: 'router-spend-remaining-limit', rule: 'ROUTER.RUN.SPEND_HEADERS' },
  ],
  'R:225:07b9d8566bff': [
    { fault: 'router-etag-dropped', rule: 'ROUTER.SCHEMA.ETAG' },
    { fault: 'router-no-cache-control', rule: 'ROUTER.SCHEMA.CACHE_CONTROL' },
  ],
  'R:231:3fe97d8e9554': [
    { fault: 'router-alternate-assets-copied', rule: 'ROUTER.ASSETS.COPYING' },
  ],
  'R:231:6d38d26f8b5d': [
    { fault: 'router-alternate-assets-copied', rule: 'ROUTER.ASSETS.COPYING' },
  ],
  'R:239:abdb844a9f18': [
    { fault: 'router-jwt-refused', rule: 'ROUTER.AUTH.JWT' },
  ],
  'R:239:bd61da894ce1': [
    { fault: 'router-catalog-open', rule: 'ROUTER.AUTH.REQUIRED' },
    { fault: 'router-schema-endpoint-open', rule: 'ROUTER.AUTH.REQUIRED' },
  ],
  'R:240:9da45a9d33e1': [
    { fault: 'router-bearer-key-refused', rule: 'ROUTER.AUTH.KEY_FORMS' },
  ],
  'R:241:74f77051e3db': [
    { fault: 'router-bearer-wins', rule: 'ROUTER.AUTH.KEY_FORMS' },
  ],
  'R:242:8a627263eda7': [
    { fault: 'router-catalog-open', rule: 'ROUTER.AUTH.REQUIRED' },
    { fault: 'router-schema-endpoint-open', rule: 'ROUTER.AUTH.REQUIRED' },
  ],
  'R:242:991e024d9be6': [
    { fault: 'router-restricted-visible', rule: 'ROUTER.AUTH.FORBIDDEN' },
  ],
  'R:251:a8769909bd61': [
    { fault: 'router-error-type-header-mismatch', rule: 'ROUTER.HEADER.ERROR_TYPE' },
  ],
  'R:260:9b53add47cfb': [
    { fault: 'router-no-leg-404', rule: 'ROUTER.PROVIDER.NO_LEG' },
    { fault: 'router-policy-refusal-403', rule: 'ROUTER.ERR.CONTENT_POLICY' },
    { fault: 'router-unregistered-runs', rule: 'ROUTER.PROVIDER.UNREGISTERED' },
  ],
  'R:261:eda8df0c725e': [
    { fault: 'router-unauthorized-400', rule: 'ROUTER.ERR.CODE_STATUS' },
  ],
  'R:262:09699319f148': [
    { fault: 'router-unfunded-403', rule: 'ROUTER.ERR.INSUFFICIENT_CREDITS_402' },
  ],
  'R:263:2162d416be91': [
    { fault: 'router-bytes-queued', rule: 'ROUTER.QUEUE.BYTES_REFUSED' },
    { fault: 'router-estimate-rollout-open', rule: 'ROUTER.ESTIMATE.ROLLOUT' },
    { fault: 'router-gate-ignored', rule: 'ROUTER.PROVIDER.GATE' },
    { fault: 'router-restricted-visible', rule: 'ROUTER.AUTH.FORBIDDEN' },
  ],
  'R:264:8f883ef294f2': [
    { fault: 'router-model-not-found-400', rule: 'ROUTER.ERR.CODE_STATUS' },
    { fault: 'router-retired-200', rule: 'ROUTER.CATALOG.RETIRED' },
    { fault: 'router-unknown-model-estimate-400', rule: 'ROUTER.ERR.MODEL_NOT_FOUND' },
  ],
  'R:265:f8f2f15b8db3': [
    { fault: 'router-conflict-replays', rule: 'ROUTER.IDEM.CONFLICT' },
    { fault: 'router-inflight-dispatches', rule: 'ROUTER.IDEM.IN_FLIGHT' },
    { fault: 'router-key-conflict-400', rule: 'ROUTER.ERR.CODE_STATUS' },
  ],
  'R:266:38356d7e1c85': [
    { fault: 'router-aged-out-collect-404', rule: 'ROUTER.QUEUE.COLLECT_GONE' },
  ],
  'R:267:5204c3afa178': [
    { fault: 'router-no-body-cap', rule: 'ROUTER.ERR.BODY_TOO_LARGE' },
  ],
  'R:268:e13e5494dfd3': [
    { fault: 'router-model-mismatch-ignored', rule: 'ROUTER.RUN.MODEL_MISMATCH' },
  ],
  'R:269:7d2845441036': [
    { fault: 'load-429-burst-bucket', rule: 'LOAD.RATE_LIMIT.ENVELOPE' },
    { fault: 'router-rate-limited-403', rule: 'ROUTER.ERR.RATE_LIMITED' },
  ],
  'R:270:a854a467f940': [
    { fault: 'router-schema-failure-404', rule: 'ROUTER.SCHEMA.INTERNAL_ERROR' },
  ],
  'R:271:254d70168aa4': [
    { fault: 'router-provider-error-503', rule: 'ROUTER.ERR.PROVIDER_ERROR' },
  ],
  'R:272:f85668f810ed': [
    { fault: 'router-capacity-429', rule: 'ROUTER.ERR.CAPACITY' },
    { fault: 'router-gate-unknown-closed', rule: 'ROUTER.PROVIDER.GATE' },
  ],
  'R:273:3ef1c97d5441': [
    { fault: 'router-deadline-502', rule: 'ROUTER.ERR.DEADLINE' },
  ],
  'R:281:03bd127bae89': [
    { fault: 'router-limit-unclamped', rule: 'ROUTER.CATALOG.LIMIT' },
  ],
  'R:282:c6b972faa572': [
    { fault: 'router-cursor-signed-token', rule: 'ROUTER.CATALOG.CURSOR_OPAQUE' },
  ],
  'R:283:40db08880b8a': [
    { fault: 'router-key-cap-128', rule: 'ROUTER.IDEM.KEY_LENGTH' },
    { fault: 'router-key-cap-128-conflict', rule: 'ROUTER.IDEM.KEY_LENGTH' },
  ],
  'R:284:7891a86c7bf7': [
    { fault: 'router-segment-length-cap', rule: 'ROUTER.ID.SEGMENTS' },
  ],
  'R:285:f1e521cb73fe': [
    { fault: 'router-schema-url-presigned', rule: 'ROUTER.CATALOG.DETAIL' },
  ],
  'R:288:2802bef63335': [
    { fault: 'router-credits-200-per-dollar', rule: 'ROUTER.ESTIMATE.CREDITS' },
  ],
  'R:289:6d4a7b9e127a': [
    { fault: 'router-amount-12-decimals', rule: 'ROUTER.ESTIMATE.DECIMAL' },
  ],
  'R:291:0042f822c462': [
    { fault: 'load-concurrency-no-spend', rule: 'LOAD.CONCURRENCY.SPEND_HEADERS' },
    { fault: 'load-concurrency-off-by-one', rule: 'LOAD.CONCURRENCY.LIMIT' },
    { fault: 'load-limit-spills-over', rule: 'LOAD.RATE_LIMIT.ACCOUNT_SCOPED' },
    { fault: 'router-429-no-spend', rule: 'ROUTER.ERR.RATE_LIMITED' },
  ],
  'R:295:be69f3450e28': [
    { fault: 'router-handle-urls-unprefixed', rule: 'ROUTER.VERSION.PREFIX' },
  ],
  'R:296:8bf52fa1fae0': [
    { fault: 'router-failed-status', rule: 'ROUTER.QUEUE.STATUS_CLOSED' },
    { fault: 'router-status-cancelling', rule: 'ROUTER.QUEUE.STATUS_CLOSED' },
  ],
  'R:298:ede6a79e2a5c': [
    { fault: 'router-pricing-as-of-epoch', rule: 'ROUTER.ESTIMATE.FIELDS' },
  ],
  'W:3:8ea6d978bda1': [
    { fault: 'delete-keeps-record', rule: 'V2.ASSET.DELETE' },
    { fault: 'workflow-read-save-format', rule: 'V2.JOB.WORKFLOW_READ' },
  ],
  'W:7:0f4046711093': [
    { fault: 'from-hash-asset-unusable', rule: 'V2.FLOW.ROUND_TRIP' },
    { fault: 'submit-requires-extra-data', rule: 'V2.JOB.SUBMIT' },
  ],
  'W:7:93fc661d1cd2': [
    { fault: 'content-range-unitless', rule: 'V2.CONTRACT.HEADERS' },
    { fault: 'load-v2-poll-no-expires-at', rule: 'LOAD.CONTRACT.UNDER_LOAD' },
  ],
  'W:11:33070e5c53e5': [
    { fault: 'bearer-key-refused', rule: 'V2.AUTH.BEARER_KEY' },
  ],
  'W:12:1115c2ca41a0': [
    { fault: 'serverless-key-refused', rule: 'V2.AUTH.BEARER_KEY' },
  ],
  'W:13:b71f494ae7ef': [
    { fault: 'local-requires-token', rule: 'V2.AUTH.LOCAL_OPEN' },
  ],
  'W:18:e062e10053cc': [
    { fault: 'events-end-early', rule: 'V2.JOB.EVENTS_AGREE' },
    { fault: 'events-terminal-failed-own-shape', rule: 'V2.JOB.EVENTS_AGREE' },
    { fault: 'job-reads-expired-at-finish', rule: 'V2.JOB.POLL_FIRST' },
  ],
  'W:19:3aee15c9e5ca': [
    { fault: 'outputs-missing', rule: 'V2.JOB.OUTPUTS_REAL' },
    { fault: 'outputs-read-once', rule: 'V2.JOB.RETRIEVABLE' },
  ],
  'W:19:bd358774d6ec': [
    { fault: 'idempotency-race', rule: 'V2.JOB.IDEMPOTENT' },
    { fault: 'key-freed-by-cancel', rule: 'V2.JOB.IDEMPOTENT' },
  ],
  'W:20:41074f62a818': [
    { fault: 'content-bytes-flipped', rule: 'V2.ASSET.IMMUTABLE' },
    { fault: 'hash-not-blake3', rule: 'V2.ASSET.HASH_BLAKE3' },
  ],
  'W:20:526e164037c9': [
    { fault: 'dedup-created-new', rule: 'V2.ASSET.DEDUP' },
  ],
  'W:21:c8b9d5f01a84': [
    { fault: 'self-url-wrong', rule: 'V2.JOB.FOLLOW_URLS' },
  ],
  'W:24:b2fff39263f9': [
    { fault: 'deployment-workflow-forbidden', rule: 'V2.SERVERLESS.WORKFLOW_READ' },
    { fault: 'workflow-read-on-cloud', rule: 'V2.SERVERLESS.WORKFLOW_ONLY' },
  ],
  'W:32:d719d84bc43b': [
    { fault: 'content-bytes-flipped', rule: 'V2.ASSET.IMMUTABLE' },
    { fault: 'foreign-asset-visible', rule: 'V2.ASSET.OWNER_SCOPE' },
  ],
  'W:36:e53f8124b869': [
    { fault: 'asset-id-undashed', rule: 'V2.ASSET.FIELDS' },
  ],
  'W:37:2496d3126d8b': [
    { fault: 'hash-not-blake3', rule: 'V2.ASSET.HASH_BLAKE3' },
  ],
  'W:38:17a4a1fd2440': [
    { fault: 'size-bytes-string', rule: 'V2.ASSET.FIELDS' },
  ],
  'W:39:ed25394420ef': [
    { fault: 'content-type-extension', rule: 'V2.ASSET.FIELDS' },
  ],
  'W:40:4bbdefa95f47': [
    { fault: 'file-path-placed', rule: 'V2.ASSET.FIELDS' },
  ],
  'W:41:3c616acfc126': [
    { fault: 'dedup-created-new', rule: 'V2.ASSET.DEDUP' },
    { fault: 'read-carries-created-new', rule: 'V2.ASSET.FIELDS' },
  ],
  'W:42:fd8062df0379': [
    { fault: 'created-at-naive', rule: 'V2.ASSET.FIELDS' },
  ],
  'W:43:384fde49ab84': [
    { fault: 'signed-url-needs-key', rule: 'V2.URL.SIGNED_OPENABLE' },
  ],
  'W:44:b77f940fe617': [
    { fault: 'drop-url-expires-at', rule: 'V2.ASSET.FIELDS' },
    { fault: 'url-expiry-past', rule: 'V2.URL.EXPIRY_IN_RESPONSE' },
  ],
  'W:45:b7b8840df7f6': [
    { fault: 'expires-equals-url-expiry', rule: 'V2.ASSET.EXPIRES_DISTINCT' },
  ],
  'W:46:329a430e2973': [
    { fault: 'upload-has-job', rule: 'V2.ASSET.NO_JOB_FOR_UPLOAD' },
  ],
  'W:47:308e96a897db': [
    { fault: 'job-metadata-empty', rule: 'V2.ASSET.JOB_METADATA_READ' },
  ],
  'W:50:d0c2ad08553a': [
    { fault: 'content-bytes-flipped', rule: 'V2.ASSET.IMMUTABLE' },
  ],
  'W:51:a24e448658c6': [
    { fault: 'asset-url-reused', rule: 'V2.ASSET.FRESH_URL' },
    { fault: 'stale-asset-url', rule: 'V2.ASSET.FRESH_URL' },
  ],
  'W:52:18c3153ad923': [
    { fault: 'retention-shortened', rule: 'V2.ASSET.RETENTION_EXTENDS' },
  ],
  'W:52:47132f410264': [
    { fault: 'expires-equals-url-expiry', rule: 'V2.ASSET.EXPIRES_DISTINCT' },
    { fault: 'expires-equals-url-expiry-local', rule: 'V2.ASSET.EXPIRES_DISTINCT' },
  ],
  'W:53:5c648a19d79d': [
    { fault: 'job-metadata-empty', rule: 'V2.ASSET.JOB_METADATA_READ' },
    { fault: 'job-metadata-outlives-job', rule: 'V2.ASSET.JOB_METADATA_READ' },
  ],
  'W:53:60fb6dc0818b': [
    { fault: 'job-metadata-outlives-job', rule: 'V2.ASSET.JOB_METADATA_READ' },
    { fault: 'job-metadata-unlabelled-empty', rule: 'V2.ASSET.JOB_METADATA_READ' },
    { fault: 'proxy-output-labels-from-engine', rule: 'V2.ASSET.JOB_METADATA_READ' },
    { fault: 'upload-has-job', rule: 'V2.ASSET.NO_JOB_FOR_UPLOAD' },
  ],
  'W:54:9e9934245bd4': [
    { fault: 'output-match-drops-labels', rule: 'V2.ASSET.OUTPUT_MATCH' },
    { fault: 'output-match-ignored', rule: 'V2.ASSET.OUTPUT_MATCH' },
  ],
  'W:58:2c59198f0025': [
    { fault: 'labels-empty-map-default', rule: 'V2.JOB.LABELS_EXACT' },
  ],
  'W:58:37dff87ea57f': [
    { fault: 'labels-read-through-latin1', rule: 'V2.JOB.LABELS_EXACT' },
  ],
  'W:62:0daa6bf082cc': [
    { fault: 'output-no-url-expires-at', rule: 'V2.JOB.OUTPUT_FIELDS' },
    { fault: 'output-url-renamed', rule: 'V2.JOB.OUTPUT_FIELDS' },
  ],
  'W:62:bb4ec501a98f': [
    { fault: 'job-created-at-missing', rule: 'V2.JOB.FIELDS_DOCUMENTED' },
    { fault: 'output-size-zero', rule: 'V2.JOB.OUTPUT_FIELDS_DOCUMENTED' },
  ],
  'W:66:d8223297fbf6': [
    { fault: 'engine-node-error-flattened', rule: 'V2.ERR.NODE_ERRORS_AFTER_DISPATCH' },
    { fault: 'engine-node-error-keyed-by-class', rule: 'V2.ERR.NODE_ERRORS_AFTER_DISPATCH' },
    { fault: 'refusal-errors-as-strings', rule: 'V2.ERR.NODE_ERRORS_DETAILS' },
  ],
  'W:74:805d038d87df': [
    { fault: 'output-url-rotates', rule: 'V2.URL.CONTENT_STABLE' },
  ],
  'W:75:e71dae8dd62b': [
    { fault: 'content-redirect-no-location', rule: 'V2.ASSET.CONTENT_REDIRECT' },
    { fault: 'content-streams-on-hosted', rule: 'V2.ASSET.CONTENT_REDIRECT' },
    { fault: 'signed-url-needs-key', rule: 'V2.URL.SIGNED_OPENABLE' },
  ],
  'W:78:fe3cea07ef79': [
    { fault: 'url-expiry-past', rule: 'V2.URL.EXPIRY_IN_RESPONSE' },
  ],
  'W:79:36c2db9881b8': [
    { fault: 'proxy-redirects', rule: 'V2.URL.PROXY_DIRECT' },
  ],
  'W:80:0936972dc54e': [
    { fault: 'output-expiry-signer-default', rule: 'V2.URL.OUTPUT_EXPIRY' },
  ],
  'W:80:0e06cfe7a0b0': [
    { fault: 'output-expiry-day-precision', rule: 'V2.URL.OUTPUT_EXPIRY' },
  ],
  'W:82:0139f108f322': [
    { fault: 'content-without-credentials', rule: 'V2.ASSET.CONTENT_AUTH' },
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
  'W:108:a058750b30d3': [
    { fault: 'asset-read-no-url', rule: 'V2.ASSET.FIELDS' },
  ],
  'W:109:b6998bfbcc33': [
    { fault: 'non-v4-id-500', rule: 'V2.ASSET.UNKNOWN_ID_404' },
  ],
  'W:110:80ba9c4c481f': [
    { fault: 'asset-read-no-url', rule: 'V2.ASSET.FIELDS' },
    { fault: 'asset-url-reused', rule: 'V2.ASSET.FRESH_URL' },
    { fault: 'stale-asset-url', rule: 'V2.ASSET.FRESH_URL' },
  ],
  'W:111:60ee272be59d': [
    { fault: 'missing-retry-after', rule: 'V2.ERR.RETRY_AFTER' },
    { fault: 'non-v4-id-500', rule: 'V2.ASSET.UNKNOWN_ID_404' },
    { fault: 'not-found-as-400', rule: 'V2.ERR.CODE_STATUS' },
    { fault: 'sso-only-on-jobs', rule: 'V2.AUTH.SSO_REQUIRED' },
  ],
  'W:111:86fcfe7b7066': [
    { fault: 'rate-limit-after-lookup', rule: 'V2.ERR.RATE_LIMIT_SCOPE' },
  ],
  'W:113:089995d7131f': [
    { fault: 'by-hash-never', rule: 'V2.ASSET.BY_HASH' },
  ],
  'W:114:6be4fa19d24a': [
    { fault: 'by-hash-bare-hex', rule: 'V2.ASSET.BY_HASH' },
  ],
  'W:115:bcfc2eb922b2': [
    { fault: 'by-hash-never', rule: 'V2.ASSET.BY_HASH' },
  ],
  'W:115:e42af039b9b9': [
    { fault: 'by-hash-global', rule: 'V2.ASSET.BY_HASH_SCOPE' },
    { fault: 'from-hash-any-blob', rule: 'V2.ASSET.FROM_HASH' },
  ],
  'W:116:01f04bbd4dcd': [
    { fault: 'by-hash-head-body', rule: 'V2.ASSET.BY_HASH' },
  ],
  'W:118:d05e026cb1b2': [
    { fault: 'output-url-unversioned', rule: 'V2.URL.OUTPUT_CONTENT_ENDPOINT' },
  ],
  'W:119:31320cfe272b': [
    { fault: 'content-without-credentials', rule: 'V2.ASSET.CONTENT_AUTH' },
    { fault: 'token-proxy-content-open', rule: 'V2.ASSET.CONTENT_AUTH' },
  ],
  'W:119:69514e76b20b': [
    { fault: 'content-redirect-no-location', rule: 'V2.ASSET.CONTENT_REDIRECT' },
    { fault: 'content-streams-on-hosted', rule: 'V2.ASSET.CONTENT_REDIRECT' },
    { fault: 'range-ignored', rule: 'V2.ASSET.CONTENT_RANGE' },
  ],
  'W:119:8832130edc41': [
    { fault: 'content-without-credentials', rule: 'V2.ASSET.CONTENT_AUTH' },
    { fault: 'token-proxy-content-open', rule: 'V2.ASSET.CONTENT_AUTH' },
  ],
  'W:121:983158308780': [
    { fault: 'deployment-workflow-fixed', rule: 'V2.SERVERLESS.WORKFLOW_READ' },
    { fault: 'deployment-workflow-forbidden', rule: 'V2.SERVERLESS.WORKFLOW_READ' },
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
    { fault: 'load-v1-status-no-status', rule: 'LOAD.CONTRACT.UNDER_LOAD' },
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
  'W:156:c53d073fcc96': [
    { fault: 'bearer-key-refused', rule: 'V2.AUTH.BEARER_KEY' },
  ],
  'W:156:fd04a5747559': [
    { fault: 'cloud-jwt-wrong-account', rule: 'V2.AUTH.JWT_ACCEPTED' },
  ],
  'W:157:0f28ce1fb567': [
    { fault: 'jwt-message-generic', rule: 'V2.AUTH.JWT_REFUSAL' },
    { fault: 'jwt-message-unknown-key', rule: 'V2.AUTH.JWT_REFUSAL' },
  ],
  'W:157:218220fab5d1': [
    { fault: 'bearer-key-refused', rule: 'V2.AUTH.BEARER_KEY' },
  ],
  'W:158:e148259f02da': [
    { fault: 'local-requires-token', rule: 'V2.AUTH.LOCAL_OPEN' },
  ],
  'W:159:0a6c09e256f9': [
    { fault: 'content-without-credentials', rule: 'V2.ASSET.CONTENT_AUTH' },
    { fault: 'unknown-key-accepted', rule: 'V2.AUTH.UNAUTHENTICATED_401' },
  ],
  'W:160:66285eb15e9e': [
    { fault: 'sso-org-id-dropped', rule: 'V2.AUTH.SSO_REQUIRED' },
  ],
  'W:160:97ea6d595465': [
    { fault: 'sso-only-on-jobs', rule: 'V2.AUTH.SSO_REQUIRED' },
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
  'W:198:2511ff7c405a': [
    { fault: 'message-is-code', rule: 'V2.ERR.ENVELOPE' },
  ],
  'W:198:f7c1d8f67073': [
    { fault: 'flat-error-envelope', rule: 'V2.ERR.ENVELOPE' },
    { fault: 'unrouted-plain-404', rule: 'V2.ERR.ENVELOPE_UNROUTED' },
  ],
  'W:202:f224c451d6d5': [
    { fault: 'invalid-workflow-400', rule: 'V2.ERR.CODE_STATUS' },
    { fault: 'invalid-workflow-code', rule: 'V2.ERR.INVALID_WORKFLOW' },
  ],
  'W:203:6ba0e92fee12': [
    { fault: 'ui-format-as-invalid', rule: 'V2.ERR.WORKFLOW_FORMAT_UI' },
    { fault: 'workflow-format-ui-400', rule: 'V2.ERR.CODE_STATUS' },
  ],
  'W:204:758f07a4358d': [
    { fault: 'missing-asset-404', rule: 'V2.ERR.CODE_STATUS' },
    { fault: 'missing-asset-as-invalid', rule: 'V2.ERR.MISSING_ASSET' },
  ],
  'W:205:ab835388c387': [
    { fault: 'hash-mismatch-422', rule: 'V2.ERR.CODE_STATUS' },
    { fault: 'hash-mismatch-accepted', rule: 'V2.ASSET.EXPECTED_HASH' },
    { fault: 'hash-mismatch-as-invalid-request', rule: 'V2.ASSET.HASH_MISMATCH' },
  ],
  'W:206:296d6be987e6': [
    { fault: 'blob-missing-as-not-found', rule: 'V2.ASSET.FROM_HASH' },
    { fault: 'blob-not-found-410', rule: 'V2.ERR.CODE_STATUS' },
  ],
  'W:207:65c2b70e7bc8': [
    { fault: 'idempotency-replay', rule: 'V2.JOB.IDEMPOTENT' },
    { fault: 'idempotency-reuse-409', rule: 'V2.ERR.CODE_STATUS' },
  ],
  'W:208:cfecd5862ab6': [
    { fault: 'queue-unbounded', rule: 'V2.ERR.QUEUE_FULL' },
  ],
  'W:209:87254be6d3b3': [
    { fault: 'load-v2-429-queue-full', rule: 'LOAD.RATE_LIMIT.ENVELOPE' },
    { fault: 'missing-retry-after', rule: 'V2.ERR.RETRY_AFTER' },
    { fault: 'rate-limit-after-lookup', rule: 'V2.ERR.RATE_LIMIT_SCOPE' },
    { fault: 'rate-limit-as-queue-full', rule: 'V2.ERR.RATE_LIMITED' },
    { fault: 'rate-limited-503', rule: 'V2.ERR.CODE_STATUS' },
  ],
  'W:210:ab64fb47dea9': [
    { fault: 'credits-ignored', rule: 'V2.ERR.INSUFFICIENT_CREDITS' },
    { fault: 'insufficient-credits-403', rule: 'V2.ERR.CODE_STATUS' },
  ],
  'W:211:da3c48062a69': [
    { fault: 'entity-not-found-codes', rule: 'V2.ERR.NOT_FOUND_CODE' },
    { fault: 'non-v4-id-500', rule: 'V2.ASSET.UNKNOWN_ID_404' },
    { fault: 'not-found-as-400', rule: 'V2.ERR.CODE_STATUS' },
  ],
  'W:212:ea35fad56b1a': [
    { fault: 'unauthenticated-code', rule: 'V2.AUTH.UNAUTHENTICATED_401' },
    { fault: 'unauthorized-403', rule: 'V2.ERR.CODE_STATUS' },
    { fault: 'unknown-key-accepted', rule: 'V2.AUTH.UNAUTHENTICATED_401' },
  ],
  'W:213:a4a409f683dc': [
    { fault: 'forbidden-401', rule: 'V2.ERR.CODE_STATUS' },
    { fault: 'forbidden-as-unauthorized', rule: 'V2.ERR.FORBIDDEN' },
  ],
  'W:214:8f06ae686dfb': [
    { fault: 'deployment-not-ready-503', rule: 'V2.ERR.CODE_STATUS' },
    { fault: 'warming-deployment-unavailable', rule: 'V2.SERVERLESS.DEPLOYMENT_STATE' },
  ],
  'W:215:bc704bdd471a': [
    { fault: 'deployment-unavailable-503', rule: 'V2.ERR.CODE_STATUS' },
    { fault: 'nogpu-deployment-runs', rule: 'V2.SERVERLESS.DEPLOYMENT_STATE' },
  ],
  'W:216:688cbaf926cc': [
    { fault: 'deployment-stopped-503', rule: 'V2.ERR.CODE_STATUS' },
    { fault: 'stopped-deployment-runs', rule: 'V2.SERVERLESS.DEPLOYMENT_STATE' },
  ],
  'W:217:ae18d5395772': [
    { fault: 'from-hash-expires-type-500', rule: 'V2.ASSET.INVALID_UPLOAD' },
    { fault: 'invalid-request-400', rule: 'V2.ERR.CODE_STATUS' },
    { fault: 'invalid-upload-500', rule: 'V2.ASSET.INVALID_UPLOAD' },
  ],
  'W:218:96c1e20e9439': [
    { fault: 'content-blocked-403', rule: 'V2.ERR.CODE_STATUS' },
    { fault: 'moderation-as-forbidden', rule: 'V2.ERR.CONTENT_BLOCKED' },
    { fault: 'moderation-ignored', rule: 'V2.ERR.CONTENT_BLOCKED' },
  ],
  'W:219:23d45a94621a': [
    { fault: 'sso-as-forbidden', rule: 'V2.AUTH.SSO_REQUIRED' },
    { fault: 'sso-required-401', rule: 'V2.ERR.CODE_STATUS' },
  ],
  'W:220:7eb6baa5b560': [
    { fault: 'metadata-invalid-400', rule: 'V2.ERR.CODE_STATUS' },
    { fault: 'metadata-invalid-no-key', rule: 'V2.ERR.METADATA_INVALID' },
    { fault: 'metadata-pairs-keyed', rule: 'V2.ERR.METADATA_INVALID' },
  ],
  'W:221:da2758a81dda': [
    { fault: 'labels-refused-invalid-request', rule: 'V2.ERR.METADATA_NOT_SUPPORTED' },
  ],
  'W:222:ef000ea7c544': [
    { fault: 'list-filter-ignored', rule: 'V2.JOB.LIST_FILTER' },
    { fault: 'list-filters-unbounded', rule: 'V2.JOB.LIST_FILTER_LIMIT' },
  ],
  'W:223:eb707c12e701': [
    { fault: 'cursor-follows-owner', rule: 'V2.ERR.LIST_REFUSALS' },
    { fault: 'cursor-refused-invalid-request', rule: 'V2.ERR.LIST_REFUSALS' },
    { fault: 'invalid-cursor-422', rule: 'V2.ERR.CODE_STATUS' },
  ],
  'W:224:cee6106f4ee8': [
    { fault: 'list-unimplemented-as-403', rule: 'V2.ERR.NOT_IMPLEMENTED' },
  ],
  'W:225:9ad257bfa3ab': [
    { fault: 'read-failure-untyped', rule: 'V2.ERR.UPSTREAM_GENERIC' },
    { fault: 'upload-failure-untyped', rule: 'V2.ERR.UPSTREAM_GENERIC' },
    { fault: 'upstream-error-502', rule: 'V2.ERR.CODE_STATUS' },
    { fault: 'upstream-leaks-stack', rule: 'V2.ERR.UPSTREAM_GENERIC' },
  ],
  'W:227:0191ef88740b': [
    { fault: 'missing-retry-after', rule: 'V2.ERR.RETRY_AFTER' },
  ],
  'W:227:a5a269db3d00': [
    { fault: 'retry-after-http-date', rule: 'V2.ERR.RETRY_AFTER' },
  ],
  'W:230:2a85600fa562': [
    { fault: 'engine-node-error-flattened', rule: 'V2.ERR.NODE_ERRORS_AFTER_DISPATCH' },
    { fault: 'engine-node-error-keyed-by-class', rule: 'V2.ERR.NODE_ERRORS_AFTER_DISPATCH' },
    { fault: 'refusal-errors-as-strings', rule: 'V2.ERR.NODE_ERRORS_DETAILS' },
    { fault: 'unknown-class-typed-invalid', rule: 'V2.ERR.NODE_ERRORS_DETAILS' },
  ],
  'W:231:85a3bff18d68': [
    { fault: 'browser-wait-classes-missing', rule: 'V2.ERR.NODE_ERRORS_DETAILS' },
    { fault: 'unknown-classes-unbounded', rule: 'V2.ERR.NODE_ERRORS_DETAILS' },
  ],
  'W:232:21cf9c6397f3': [
    { fault: 'unknown-count-all-nodes', rule: 'V2.ERR.NODE_ERRORS_DETAILS' },
    { fault: 'unknown-unlisted-nodes-named', rule: 'V2.ERR.NODE_ERRORS_DETAILS' },
  ],
  'W:232:300a7c38da7c': [
    { fault: 'browser-wait-count-named', rule: 'V2.ERR.NODE_ERRORS_DETAILS' },
    { fault: 'truncation-flag-malformed-only', rule: 'V2.ERR.NODE_ERRORS_DETAILS' },
  ],
  'W:232:3301ff267691': [
    { fault: 'truncation-count-missing', rule: 'V2.ERR.NODE_ERRORS_DETAILS' },
    { fault: 'truncation-flag-missing', rule: 'V2.ERR.NODE_ERRORS_DETAILS' },
  ],
  'W:232:68458a84be2b': [
    { fault: 'node-errors-unbounded', rule: 'V2.ERR.NODE_ERRORS_DETAILS' },
  ],
  'W:232:98fc519b5641': [
    { fault: 'truncation-flag-malformed-only', rule: 'V2.ERR.NODE_ERRORS_DETAILS' },
    { fault: 'unknown-count-missing', rule: 'V2.ERR.NODE_ERRORS_DETAILS' },
    { fault: 'unknown-unlisted-nodes-named', rule: 'V2.ERR.NODE_ERRORS_DETAILS' },
  ],
  'W:234:41caa93177b4': [
    { fault: 'v1-failed-job-success', rule: 'V1.ERR.FAILED_JOB' },
    { fault: 'v1-refusal-without-error', rule: 'V1.PROMPT.REFUSAL_ERROR' },
  ],
  'W:234:a0ba43bcc77c': [
    { fault: 'v1-status-created-201', rule: 'V1.CONTRACT.STATUS_DECLARED' },
    { fault: 'v1-view-404-html', rule: 'V1.CONTRACT.ERROR_BODY' },
  ],
  'W:238:8ce2b8bb282d': [
    { fault: 'url-expiry-past', rule: 'V2.URL.EXPIRY_IN_RESPONSE' },
  ],
  'W:240:fbdd72f27da6': [
    { fault: 'node-errors-unbounded', rule: 'V2.ERR.NODE_ERRORS_DETAILS' },
    { fault: 'unknown-classes-unbounded', rule: 'V2.ERR.NODE_ERRORS_DETAILS' },
  ],
  'W:241:502658dc83af': [
    { fault: 'tier-limit-ignored', rule: 'V2.JOB.PARALLEL_QUEUE' },
    { fault: 'tier-limit-ignored-own-state-names', rule: 'V2.JOB.PARALLEL_QUEUE' },
    { fault: 'tier-limit-ignored-read-hint', rule: 'V2.JOB.PARALLEL_QUEUE' },
    { fault: 'v1-parallel-refused', rule: 'V1.PROMPT.PARALLEL_QUEUE' },
    { fault: 'v1-tier-limit-ignored', rule: 'V1.PROMPT.PARALLEL_QUEUE' },
  ],
  'W:242:2face0321cd0': [
    { fault: 'load-v2-429-queue-full', rule: 'LOAD.RATE_LIMIT.ENVELOPE' },
    { fault: 'missing-retry-after', rule: 'V2.ERR.RETRY_AFTER' },
    { fault: 'rate-limit-as-queue-full', rule: 'V2.ERR.RATE_LIMITED' },
  ],
  'W:247:94a5e4400851': [
    { fault: 'output-url-unversioned', rule: 'V2.URL.OUTPUT_CONTENT_ENDPOINT' },
  ],
};
