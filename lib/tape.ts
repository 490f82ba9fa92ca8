// The records of a cassette tape (lib/cassette.ts writes them, lib/har.ts turns them into
// HAR): a leaf module, so the two import it rather than each other.

/** One exchange as a worker records it (before it becomes a HAR entry). */
export interface TapeEntry {
  scope: string;
  key: string;
  started: string;
  request: {
    method: string;
    url: string;
    headers: Record<string, string>;
    body?: string;
    bodyEncoding?: 'base64';
    mimeType?: string;
  };
  response?: {
    status: number;
    headers: Record<string, string>;
    body: string;
    bodyEncoding?: 'base64';
    truncated: boolean;
    elapsedMs: number;
  };
  error?: string;
  /** A WebSocket connection: `request` is its upgrade, `response` the 101 or the refusal (absent when none came). */
  ws?: { id: string; items: WsItem[] };
}

/** What happened on a recorded WebSocket connection after its upgrade, in order. */
export interface WsItem {
  kind: 'send' | 'receive' | 'close' | 'error';
  /** Date.now() when it happened (the replay hands frames to the checks with this time). */
  at: number;
  /** HTTP exchanges the test had completed then. */
  after: number;
  /** 1 text, 2 binary (base64 in `data`). */
  opcode?: 1 | 2;
  data?: string;
  code?: number;
  reason?: string;
}
