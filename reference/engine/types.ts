// The contract between the workflow engine (reference/engine/) and the surfaces that
// use it: v2 jobs (reference/v2/jobs*.ts) and the v1 cloud operations. The engine
// knows nothing about HTTP, accounts' credentials or URL forms; it validates API-format
// workflows, runs them on a small node catalog that really executes (images in,
// images out) and reports what happens as events.

/** API-format workflow: node id -> { class_type, inputs }. A link is [sourceNodeId, outputIndex]. */
export type ApiWorkflow = Record<string, { class_type: string; inputs: Record<string, unknown>; _meta?: unknown }>;

export type NodeErrorType =
  'unknown_node_class' | 'invalid_node' | 'invalid_inputs' | 'invalid_class_type' | 'waits_for_browser';

export interface NodeErrorItem {
  type: NodeErrorType;
  message: string;
  /** Which input, for invalid_inputs. */
  details?: string;
}

/** Seed W § Resources › Node error entry. */
export interface NodeErrorEntry {
  class_type: string;
  errors: NodeErrorItem[];
}

/** `details` of a submit refusal, exactly as seed W § Errors › details rules 1-3 state. */
export interface RefusalDetails {
  node_errors?: Record<string, NodeErrorEntry>;
  unknown_node_classes?: string[];
  browser_wait_node_classes?: string[];
  node_errors_truncated?: boolean;
  malformed_node_count?: number;
  browser_wait_node_count?: number;
  unknown_node_count?: number;
}

export interface Refusal {
  /** v2 error code: invalid_workflow (node errors), workflow_format_ui, missing_asset. */
  code: 'invalid_workflow' | 'workflow_format_ui' | 'missing_asset';
  message: string;
  details?: RefusalDetails;
}

/** An image the engine carries between nodes: 8-bit RGB or RGBA, row-major. */
export interface Image {
  width: number;
  height: number;
  channels: 3 | 4;
  data: Uint8Array;
}

/** What the engine needs from its host (the surface that owns accounts and storage). */
export interface EngineHost {
  /** Bytes of an asset the account owns, by id (v2 `{"__type":"core/ASSET","info":{"id":...}}`), else undefined. */
  assetBytes(account: string, assetId: string): Uint8Array | undefined;
  /** Bytes of an uploaded input file by name (v1 uploads, v2 `image: "<file name>"`), else undefined. */
  inputFileBytes(account: string, name: string): Uint8Array | undefined;
  /** Stores one produced image; returns how the host names it (asset id, or v1 file name). */
  storeOutput(out: {
    jobId: string;
    account: string;
    nodeId: string;
    kind: 'output' | 'temp';
    png: Uint8Array;
    filenamePrefix: string;
    index: number;
  }): StoredOutput;
}

export interface StoredOutput {
  /** v2: the asset id of the output; v1: the file name in the flat namespace. */
  ref: string;
  filename: string;
  subfolder: string;
  type: 'output' | 'temp';
  contentType: string;
  sizeBytes: number;
}

export interface JobSpec {
  id: string;
  account: string;
  workflow: ApiWorkflow;
  /** Forwarded per run, never stored (holds the partner key `api_key_<brand>_org`). */
  extraData?: Record<string, unknown>;
}

export type ExecutionStatus = 'queued' | 'running' | 'succeeded' | 'failed' | 'canceling' | 'canceled';

export interface Progress {
  value: number; // 0..1 over the whole workflow
  nodes_done: number;
  nodes_total: number;
  current_node: string | null;
  current_node_class: string | null;
  step: number | null;
  steps: number | null;
}

export interface ExecutionFailure {
  node_id: string | null;
  class_type: string | null;
  exception_type: string;
  exception_message: string;
  traceback: string[];
}

/** Everything observable about one run, in order. v2 SSE and the v1 WebSocket are both built from these. */
export type EngineEvent =
  | { kind: 'status'; jobId: string; status: ExecutionStatus; queuePosition: number | null }
  | { kind: 'execution_start'; jobId: string }
  | { kind: 'execution_cached'; jobId: string; nodes: string[] }
  | { kind: 'executing'; jobId: string; node: string | null }
  | { kind: 'progress'; jobId: string; node: string; value: number; max: number; progress: Progress }
  | { kind: 'preview'; jobId: string; node: string; png: Uint8Array }
  | { kind: 'text'; jobId: string; node: string; text: string }
  | { kind: 'executed'; jobId: string; node: string; outputs: StoredOutput[] }
  | { kind: 'execution_success'; jobId: string }
  | { kind: 'execution_error'; jobId: string; failure: ExecutionFailure }
  | { kind: 'execution_interrupted'; jobId: string; node: string | null };

export interface JobState {
  id: string;
  account: string;
  status: ExecutionStatus;
  queuePosition: number | null;
  createdAt: number;
  startedAt: number | null;
  completedAt: number | null;
  progress: Progress | null;
  outputs: Array<StoredOutput & { nodeId: string }>;
  failure: ExecutionFailure | null;
  /** The last preview image, for SSE on connect. */
  lastPreview: { node: string; png: Uint8Array } | null;
}
