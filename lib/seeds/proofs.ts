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
  'R:9:69f8347a74b3': [
    { fault: 'router-submit-unvalidated', rule: 'ROUTER.QUEUE.VALIDATED_AT_SUBMIT' },
  ],
  'R:10:06fbca54a699': [
    { fault: 'router-sync-job-record', rule: 'ROUTER.RUN.OUTPUT_SCHEMA' },
  ],
  'R:11:c38ad1e87a8f': [
    { fault: 'router-submit-no-status', rule: 'ROUTER.QUEUE.HANDLE' },
  ],
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
  'R:51:ad9a5652bd3b': [
    { fault: 'router-credits-doubled', rule: 'ROUTER.RUN.CREDITS_USED' },
  ],
  'R:56:372c6fe011c9': [
    { fault: 'router-submit-stale-not-quotable', rule: 'ROUTER.QUEUE.ESTIMATE' },
  ],
  'R:63:5b3c0c7beaff': [
    { fault: 'router-estimate-byok-reason', rule: 'ROUTER.ESTIMATE.NO_BYOK_DETECTION' },
  ],
  'R:65:3357a8ebe2bc': [
    { fault: 'router-fallback-native-rate', rule: 'ROUTER.FALLBACK.RATE' },
  ],
  'R:65:c4ed5a315dcb': [
    { fault: 'router-queue-falls-back', rule: 'ROUTER.QUEUE.NO_FALLBACK' },
  ],
  'R:65:d1040a0b3d81': [
    { fault: 'router-alias-comfyui-refused', rule: 'ROUTER.PROVIDER.ALIASES' },
  ],
  'R:70:2c153ddb521c': [
    { fault: 'router-queue-position-behind', rule: 'ROUTER.QUEUE.POSITION' },
  ],
  'R:72:d586e05637f1': [
    { fault: 'router-submit-fails-on-stale-card', rule: 'ROUTER.QUEUE.ESTIMATE_NEVER_FAILS' },
  ],
  'R:74:6ebcff02673d': [
    { fault: 'router-status-drops-urls', rule: 'ROUTER.QUEUE.HANDLE' },
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
    { fault: 'router-v2-envelope', rule: 'ROUTER.ERR.BODY' },
  ],
  'R:80:bebe8b45dd76': [
    { fault: 'router-error-members-camel-case', rule: 'ROUTER.ERR.MEMBER_NAMES' },
    { fault: 'router-upstream-detail-as-provider-message', rule: 'ROUTER.ERR.MEMBER_NAMES' },
  ],
  'R:82:201b4024774f': [
    { fault: 'router-sunset-retired', rule: 'ROUTER.CATALOG.SUNSET_LISTED' },
  ],
  'R:82:863303820616': [
    { fault: 'router-byok-detail-reworded', rule: 'ROUTER.PROVIDER.BYOK_CONFLICT' },
    { fault: 'router-edit-detail-reworded', rule: 'ROUTER.PROVIDER.EDIT_UNSERVABLE' },
  ],
  'R:95:2f74232fb41f': [
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
    { fault: 'router-poll-no-retry-after', rule: 'ROUTER.QUEUE.POLL_RETRY_AFTER' },
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
    { fault: 'router-inflight-dispatches', rule: 'ROUTER.IDEM.IN_FLIGHT' },
    { fault: 'router-inflight-no-retry-after', rule: 'ROUTER.IDEM.IN_FLIGHT' },
  ],
  'R:141:d6afdafa33e7': [
    { fault: 'router-strict-without-provider', rule: 'ROUTER.PROVIDER.STRICT_MODE' },
  ],
  'R:142:1365f3c86aea': [
    { fault: 'router-alias-comfyui-refused', rule: 'ROUTER.PROVIDER.ALIASES' },
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
  ],
  'R:183:969b7f129978': [
    { fault: 'router-unauthored-validated', rule: 'ROUTER.SCHEMA.UNAUTHORED' },
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
    { fault: 'router-replay-unmarked', rule: 'ROUTER.IDEM.REPLAY' },
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
  'R:195:80f61e986efa': [
    { fault: 'router-no-nosniff', rule: 'ROUTER.RUN.NOSNIFF' },
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
    { fault: 'router-poll-no-retry-after', rule: 'ROUTER.QUEUE.POLL_RETRY_AFTER' },
  ],
  'R:213:225f76218e24': [
    { fault: 'router-no-nosniff', rule: 'ROUTER.RUN.NOSNIFF' },
  ],
  'R:214:5d06e0920a4c': [
    { fault: 'router-replay-unmarked', rule: 'ROUTER.IDEM.REPLAY' },
  ],
  'R:215:49b76e9b4942': [
    { fault: 'router-inflight-no-retry-after', rule: 'ROUTER.IDEM.IN_FLIGHT' },
    { fault: 'router-poll-no-retry-after', rule: 'ROUTER.QUEUE.POLL_RETRY_AFTER' },
  ],
  'R:216:b96bd1ad467b': [
    { fault: 'router-credits-doubled', rule: 'ROUTER.RUN.CREDITS_USED' },
    { fault: 'router-credits-last-call', rule: 'ROUTER.RUN.CREDITS_SUM' },
    { fault: 'router-fallback-no-credits', rule: 'ROUTER.FALLBACK.RATE' },
  ],
  'R:217:ad954066757a': [
    { fault: 'router-translation-silent', rule: 'ROUTER.PROVIDER.TRANSLATION' },
  ],
  'R:218:f81d3b1b3e91': [
    { fault: 'router-fallback-no-header', rule: 'ROUTER.FALLBACK.SERVED' },
  ],
  'R:222:2af63df563cf': [
    { fault: 'router-spend-released-at-admission', rule: 'ROUTER.RUN.SPEND_RESERVED' },
  ],
  'R:223:90870014739f': [
    { fault: 'router-spend-never-released', rule: 'ROUTER.RUN.SPEND_RESERVED' },
    { fault: 'router-spend-released-at-admission', rule: 'ROUTER.RUN.SPEND_RESERVED' },
  ],
  'R:224:0786d6198ee4': [
    { fault: 'router-spend-remaining-limit', rule: 'ROUTER.RUN.SPEND_HEADERS' },
  ],
  'R:239:abdb844a9f18': [
    { fault: 'router-jwt-refused', rule: 'ROUTER.AUTH.JWT' },
  ],
  'R:260:9b53add47cfb': [
    { fault: 'router-no-leg-404', rule: 'ROUTER.PROVIDER.NO_LEG' },
    { fault: 'router-unregistered-runs', rule: 'ROUTER.PROVIDER.UNREGISTERED' },
  ],
  'R:263:2162d416be91': [
    { fault: 'router-bytes-queued', rule: 'ROUTER.QUEUE.BYTES_REFUSED' },
    { fault: 'router-gate-ignored', rule: 'ROUTER.PROVIDER.GATE' },
  ],
  'R:264:8f883ef294f2': [
    { fault: 'router-unknown-model-estimate-400', rule: 'ROUTER.ERR.MODEL_NOT_FOUND' },
  ],
  'R:265:f8f2f15b8db3': [
    { fault: 'router-conflict-replays', rule: 'ROUTER.IDEM.CONFLICT' },
    { fault: 'router-inflight-dispatches', rule: 'ROUTER.IDEM.IN_FLIGHT' },
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
  'R:272:f85668f810ed': [
    { fault: 'router-gate-unknown-closed', rule: 'ROUTER.PROVIDER.GATE' },
  ],
  'R:275:3ce5406178c4': [
    { fault: 'router-unknown-request-invalid-input', rule: 'ROUTER.ERR.CODE_STATUS_PUBLIC' },
  ],
  'R:283:40db08880b8a': [
    { fault: 'router-key-cap-128', rule: 'ROUTER.IDEM.KEY_LENGTH' },
    { fault: 'router-key-cap-128-conflict', rule: 'ROUTER.IDEM.KEY_LENGTH' },
  ],
  'R:296:8bf52fa1fae0': [
    { fault: 'router-failed-status', rule: 'ROUTER.QUEUE.STATUS_CLOSED' },
    { fault: 'router-status-cancelling', rule: 'ROUTER.QUEUE.STATUS_CLOSED' },
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
  'W:136:f9d316cc455a': [
    { fault: 'v1-view-location-needs-key', rule: 'V1.VIEW.SIGNED_OPENABLE' },
    { fault: 'v1-view-no-location', rule: 'V1.CONTRACT.HEADERS' },
    { fault: 'v1-view-serves-bytes', rule: 'V1.VIEW.REDIRECT' },
    { fault: 'v1-view-temp-unserved', rule: 'V1.VIEW.OUTPUT_TEMP' },
  ],
  'W:140:de7dd13be1b7': [
    { fault: 'v1-subfolder-honoured', rule: 'V1.NAMESPACE.FLAT' },
  ],
  'W:149:478fdbb8da69': [
    { fault: 'registry-node-id-nul-500', rule: 'REGISTRY.NODE.ID_NO_5XX' },
  ],
  'W:150:169aa99b52e4': [
    { fault: 'registry-missing-data-accepted', rule: 'REGISTRY.BODY.DATA' },
  ],
  'W:151:e64ce748e7f3': [
    { fault: 'registry-admin-secret-ignored', rule: 'REGISTRY.AUTH.ADMIN_SECRET' },
    { fault: 'registry-jwt-refused', rule: 'REGISTRY.AUTH.JWT' },
  ],
  'W:152:e9cd9e6c280e': [
    { fault: 'registry-details-string', rule: 'REGISTRY.ERR.SHAPE' },
    { fault: 'registry-error-third-shape', rule: 'REGISTRY.ERR.SHAPE' },
    { fault: 'registry-errors-text-plain', rule: 'REGISTRY.CONTRACT.BODY' },
  ],
  'W:156:fd04a5747559': [
    { fault: 'cloud-refuses-jwt', rule: 'V2.AUTH.JWT_ACCEPTED' },
  ],
  'W:157:0f28ce1fb567': [
    { fault: 'jwt-message-generic', rule: 'V2.AUTH.JWT_REFUSAL' },
    { fault: 'jwt-message-unknown-key', rule: 'V2.AUTH.JWT_REFUSAL' },
  ],
  'W:188:6315e9d70e3a': [
    { fault: 'ws-preview-type-mismatch', rule: 'WS.BINARY.PREVIEW_IMAGE' },
  ],
  'W:189:36433ac84311': [
    { fault: 'ws-text-node-length-off-by-one', rule: 'WS.BINARY.TEXT' },
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
  'W:234:a0ba43bcc77c': [
    { fault: 'v1-status-created-201', rule: 'V1.CONTRACT.STATUS_DECLARED' },
    { fault: 'v1-view-404-html', rule: 'V1.CONTRACT.ERROR_BODY' },
  ],
};
