// Faults of the deprecated v1 cloud operations and their WebSocket stream (seed W):
// each breaks exactly one rule.
import type { FaultUnit } from '../faults.ts';

// Not yet on the seams: the correct code still asks isFault() by name; install does nothing.
const legacy = (): void => undefined;

export const V1_FAULTS = [
  // Contract
  { name: 'v1-status-created-201', rule: 'V1.CONTRACT.STATUS_DECLARED', description: 'the job status read answers 201 instead of 200', install: legacy },
  { name: 'v1-object-info-text', rule: 'V1.CONTRACT.BODY', description: 'object_info is sent as text/plain', install: legacy },
  { name: 'v1-view-no-location', rule: 'V1.CONTRACT.HEADERS', description: 'the /api/view 302 carries no Location header', install: legacy },
  // Operations
  { name: 'v1-object-info-no-required', rule: 'V1.OBJECT_INFO', description: 'object_info entries carry input without input.required', install: legacy },
  { name: 'v1-upload-no-subfolder', rule: 'V1.UPLOAD.IMAGE', description: 'an image upload answers without subfolder', install: legacy },
  { name: 'v1-mask-original-ref-object', rule: 'V1.UPLOAD.MASK', description: 'a mask upload whose original_ref is a JSON-encoded string is refused 400', install: legacy },
  { name: 'v1-prompt-id-number', rule: 'V1.PROMPT.SUBMIT', description: 'POST /api/prompt answers prompt_id as a number', install: legacy },
  { name: 'v1-refusal-without-error', rule: 'V1.PROMPT.REFUSAL_ERROR', description: 'a refused prompt is answered 200 with a prompt_id and no error, and nothing runs', install: legacy },
  { name: 'v1-partner-key-field-ignored', rule: 'V1.PROMPT.PARTNER_KEY', description: 'partner nodes read their key from extra_data.api_key, so the documented field is refused', install: legacy },
  { name: 'v1-parallel-refused', rule: 'V1.PROMPT.PARALLEL_QUEUE', description: 'a prompt submitted while the tier limit is busy is refused 429 instead of queued', install: legacy },
  { name: 'v1-subscription-ignored', rule: 'V1.PROMPT.SUBSCRIPTION', description: 'an account without an active subscription (or credits) can run prompts', install: legacy },
  { name: 'v1-subfolder-honoured', rule: 'V1.NAMESPACE.FLAT', description: 'uploads are stored under their subfolder, so the answered name alone does not find them', install: legacy },
  { name: 'v1-view-serves-bytes', rule: 'V1.VIEW.REDIRECT', description: '/api/view answers 200 with the bytes instead of a 302', install: legacy },
  { name: 'v1-view-location-needs-key', rule: 'V1.VIEW.SIGNED_OPENABLE', description: '/api/view redirects to the authenticated content endpoint, which needs the key', install: legacy },
  { name: 'v1-view-temp-unserved', rule: 'V1.VIEW.OUTPUT_TEMP', description: '/api/view answers 404 for type=temp (previews)', install: legacy },
  { name: 'v1-view-open-without-key', rule: 'V1.AUTH.API_KEY_HEADER', description: '/api/view answers its redirect to a request without X-API-Key', install: legacy },
  { name: 'ws-bad-token-accepted', rule: 'V1.AUTH.API_KEY_HEADER', description: 'the WebSocket accepts an unknown token', install: legacy },
  // Job status
  { name: 'v1-status-unknown-terminal', rule: 'V1.STATUS.TERMINAL', description: 'a finished job reports the status "finished", which is not a terminal value', install: legacy },
  { name: 'v1-status-early-terminal', rule: 'V1.STATUS.IN_FLIGHT', description: 'a running job already reports success', install: legacy },
  { name: 'v1-failed-job-success', rule: 'V1.ERR.FAILED_JOB', description: 'a job that failed at run time reports status success', install: legacy },
  // Events
  { name: 'ws-client-id-routing', rule: 'WS.CLIENT_ID_IGNORED', description: 'a prompt whose extra_data names a client_id is streamed only to the connection with that clientId', install: legacy },
  { name: 'ws-status-not-enveloped', rule: 'WS.MESSAGE.ENVELOPE', description: 'the status message on connect is sent without the {type, data} envelope', install: legacy },
  { name: 'ws-executed-no-prompt-id', rule: 'WS.MESSAGE.PROMPT_ID', description: 'executed messages carry no data.prompt_id', install: legacy },
  { name: 'ws-progress-no-max', rule: 'WS.MESSAGE.FIELDS', description: 'progress messages carry no max', install: legacy },
  { name: 'ws-output-entry-no-type', rule: 'WS.EXECUTED.OUTPUT_LISTS', description: 'entries of executed output lists carry no type', install: legacy },
  { name: 'ws-start-after-executing', rule: 'WS.ORDER', description: 'execution_start is sent after the first node executing message', install: legacy },
  { name: 'ws-terminal-mismatch', rule: 'WS.POLL_AGREEMENT', description: 'the stream reports execution_error for a job that succeeded', install: legacy },
  { name: 'ws-frame-little-endian', rule: 'WS.BINARY.LAYOUT', description: 'binary frame headers are written little-endian', install: legacy },
  { name: 'ws-preview-type-mismatch', rule: 'WS.BINARY.PREVIEW_IMAGE', description: 'PREVIEW_IMAGE frames declare JPEG (1) while carrying PNG bytes', install: legacy },
  { name: 'ws-text-node-length-off-by-one', rule: 'WS.BINARY.TEXT', description: 'TEXT frames count one byte more in node_id_len than the node id has', install: legacy },
  { name: 'ws-metadata-length-off-by-one', rule: 'WS.BINARY.PREVIEW_METADATA', description: 'PREVIEW_IMAGE_WITH_METADATA frames count one byte more in metadata_len than the JSON has', install: legacy },
] as const satisfies ReadonlyArray<FaultUnit>;
