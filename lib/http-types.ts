// The shapes of one HTTP exchange (lib/http.ts sends it). A leaf module, so the cassette
// that records and replays exchanges can name them without importing the client.

export interface FilePart {
  data: Uint8Array;
  filename: string;
  contentType: string;
}

export interface HttpRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  json?: unknown;
  form?: Array<[string, string | FilePart]>;
  rawBody?: string | Uint8Array;
  timeoutMs: number;
  maxBodyBytes: number;
  /**
   * Stops reading the body once this holds for what arrived so far (a live stream that
   * stays open after the event the suite waits for): the answer is what arrived.
   */
  readUntil?: (bodySoFar: Buffer) => boolean;
  /**
   * The variable that raises timeoutMs when it is a bound the suite chose (a job's
   * deadline): a body still coming when it passes is that bound's error (SuiteBound),
   * not a stalled target, since the status already arrived.
   */
  boundVariable?: string;
}

export interface HttpResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  /** True when the body was cut at maxBodyBytes. */
  truncated: boolean;
  elapsedMs: number;
}
