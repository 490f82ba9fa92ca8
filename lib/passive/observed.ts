// What a passive observer saw of one exchange: the proxy (lib/passive/proxy.ts) builds it
// as traffic passes, check-har (lib/passive/har-input.ts) from a HAR file. Nothing here is
// sent by the suite: it is the client's request and the server's answer, as they were.

/** One WebSocket message after the upgrade, in the order it passed. */
export interface ObservedWsMessage {
  /** send: client to server; receive: server to client. */
  dir: 'send' | 'receive';
  /** Date.now() when it passed. */
  at: number;
  binary: boolean;
  data: Buffer;
}

export interface ObservedResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  /** The body was longer than the observer keeps (only its start is judged: see `cut`). */
  truncated: boolean;
  elapsedMs: number;
}

export interface Observed {
  /** The exchange's number in this run (1, 2, ...). */
  seq: number;
  /** Date.now() when the request started. */
  started: number;
  method: string;
  /** The absolute URL the request went to (the upstream's, for the proxy). */
  url: string;
  /** Lower-case names. */
  requestHeaders: Record<string, string>;
  requestBody?: Buffer;
  response?: ObservedResponse;
  /** No answer came (the upstream refused the connection, reset it, ...). */
  error?: string;
  /**
   * The answer did not arrive whole: its reader went away first (a client that stops
   * reading an event stream once it has what it needs), or it was longer than the
   * observer keeps. Judged as far as the rule it feeds allows (an event stream read to a
   * terminal status still is; a body contract is not).
   */
  cut?: 'reader' | 'size';
  /** A WebSocket connection: its upgrade is this exchange; its messages follow. */
  ws?: { messages: ObservedWsMessage[]; closedAt?: number; note?: string };
}

/** Lower-cases header names (a HAR keeps them as sent). */
export function lowerHeaders(entries: Iterable<[string, string]>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of entries) {
    const name = k.toLowerCase();
    out[name] = out[name] === undefined ? v : `${out[name]}, ${v}`;
  }
  return out;
}
