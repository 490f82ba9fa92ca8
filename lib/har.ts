// HAR 1.2 (http://www.softwareishard.com/blog/har-12-spec/) for cassettes: a recorded
// run opens in any HAR viewer, and its `_conformance` block says how to replay it
// (the target as written, the Playwright selection, the property seed). Fields the
// replay needs beyond HAR's own start with `_`, as the format allows.
//
// A WebSocket connection is an entry as browsers export one: the upgrade request, its
// 101 (or the refusal), `_resourceType: "websocket"` and `_webSocketMessages` (type
// send/receive, time in seconds, opcode 1 text / 2 binary in base64, data). The replay
// also needs `_after` on each (the test's HTTP exchanges completed when it came) and the
// connection's close or failure (`_webSocketEvents`).
import type { TapeEntry, WsItem } from './tape.ts';

type NV = Array<{ name: string; value: string }>;

export interface RecordingMeta {
  /** The targets entry as written (credentials by variable name only), with its name. */
  target: { name: string; entry: Record<string, unknown>; variables: string[] };
  /** Playwright arguments of the recorded run (projects, spec files, --grep). */
  args: string[];
  /** Settings that change what the suite sends: CONFORMANCE_PROFILE, FC_SEED, ... */
  env: Record<string, string>;
  /** The recorded run's verdict, for the reader. */
  verdict?: string;
  /** What each credential variable is set to on replay: its form only, never the secret (lib/cassette.ts placeholderFor). */
  placeholders?: Record<string, string>;
  /** Traffic the validating proxy kept (proxy --record): `replay` judges it as check-har does, on this surface. */
  passive?: { surface: string; base_url: string };
}

export interface HarEntry {
  startedDateTime: string;
  time: number;
  request: {
    method: string;
    url: string;
    httpVersion: string;
    headers: NV;
    queryString: NV;
    cookies: [];
    headersSize: -1;
    bodySize: number;
    postData?: { mimeType: string; text: string; _encoding?: 'base64' };
  };
  response: {
    status: number;
    statusText: string;
    httpVersion: string;
    headers: NV;
    cookies: [];
    content: { size: number; mimeType: string; text?: string; encoding?: 'base64' };
    redirectURL: string;
    headersSize: -1;
    bodySize: number;
    _error?: string;
    _truncated?: boolean;
  };
  cache: Record<string, never>;
  timings: { send: number; wait: number; receive: number };
  _scope: string;
  _key: string;
  _resourceType?: 'websocket';
  _webSocketMessages?: Array<{ type: 'send' | 'receive'; time: number; opcode: 1 | 2; data: string; _after: number }>;
  _webSocketEvents?: Array<{ type: 'close' | 'error'; time: number; code?: number; reason?: string; _after: number }>;
  _webSocketId?: string;
}

export interface Har {
  log: {
    version: '1.2';
    creator: { name: string; version: string };
    entries: HarEntry[];
    _conformance?: RecordingMeta;
  };
}

const nv = (h: Record<string, string>): NV => Object.entries(h).map(([name, value]) => ({ name, value }));
const obj = (h: NV): Record<string, string> => Object.fromEntries(h.map((x) => [x.name, x.value]));

function toEntry(t: TapeEntry): HarEntry {
  const url = new URL(t.request.url);
  const r = t.response;
  return {
    startedDateTime: t.started,
    time: r?.elapsedMs ?? 0,
    request: {
      method: t.request.method,
      url: t.request.url,
      httpVersion: 'HTTP/1.1',
      headers: nv(t.request.headers),
      queryString: [...url.searchParams].map(([name, value]) => ({ name, value })),
      cookies: [],
      headersSize: -1,
      bodySize: t.request.body?.length ?? 0,
      ...(t.request.body !== undefined
        ? {
            postData: {
              mimeType: t.request.mimeType ?? t.request.headers['content-type'] ?? 'application/octet-stream',
              text: t.request.body,
              ...(t.request.bodyEncoding ? { _encoding: t.request.bodyEncoding } : {}),
            },
          }
        : {}),
    },
    response: {
      // HAR has no place for "no answer": status 0 with the error, as browsers record a failed request.
      status: r?.status ?? 0,
      statusText: '',
      httpVersion: 'HTTP/1.1',
      headers: nv(r?.headers ?? {}),
      cookies: [],
      content: {
        size: r ? (r.bodyEncoding === 'base64' ? Buffer.from(r.body, 'base64').length : Buffer.byteLength(r.body)) : 0,
        mimeType: r?.headers['content-type'] ?? '',
        ...(r ? { text: r.body } : {}),
        ...(r?.bodyEncoding ? { encoding: r.bodyEncoding } : {}),
      },
      redirectURL: r?.headers.location ?? '',
      headersSize: -1,
      bodySize: -1,
      ...(t.error ? { _error: t.error } : {}),
      ...(r?.truncated ? { _truncated: true } : {}),
    },
    cache: {},
    timings: { send: 0, wait: r?.elapsedMs ?? 0, receive: 0 },
    _scope: t.scope,
    _key: t.key,
    ...(t.ws ? wsFields(t.ws) : {}),
  };
}

function wsFields(
  ws: NonNullable<TapeEntry['ws']>,
): Pick<HarEntry, '_resourceType' | '_webSocketMessages' | '_webSocketEvents' | '_webSocketId'> {
  const frames = ws.items.filter((i) => i.kind === 'send' || i.kind === 'receive');
  const events = ws.items.filter((i) => i.kind === 'close' || i.kind === 'error');
  return {
    _resourceType: 'websocket',
    _webSocketId: ws.id,
    _webSocketMessages: frames.map((i) => ({
      type: i.kind as 'send' | 'receive',
      time: i.at / 1000,
      opcode: i.opcode ?? 1,
      data: i.data ?? '',
      _after: i.after,
    })),
    ...(events.length > 0
      ? {
          _webSocketEvents: events.map((i) => ({
            type: i.kind as 'close' | 'error',
            time: i.at / 1000,
            ...(i.code !== undefined ? { code: i.code } : {}),
            ...(i.reason !== undefined ? { reason: i.reason } : {}),
            _after: i.after,
          })),
        }
      : {}),
  };
}

/** A connection's frames and events back in the order they happened. */
function wsItems(e: HarEntry): WsItem[] {
  const ms = (seconds: number): number => Math.round(seconds * 1000);
  const frames: WsItem[] = (e._webSocketMessages ?? []).map((m) => ({
    kind: m.type,
    at: ms(m.time),
    after: m._after ?? 0,
    opcode: m.opcode,
    data: m.data,
  }));
  const events: WsItem[] = (e._webSocketEvents ?? []).map((v) => ({
    kind: v.type,
    at: ms(v.time),
    after: v._after ?? 0,
    ...(v.code !== undefined ? { code: v.code } : {}),
    ...(v.reason !== undefined ? { reason: v.reason } : {}),
  }));
  // Stable: a close recorded in the same millisecond as the last frame stays after it.
  return [...frames, ...events].sort((a, b) => a.at - b.at);
}

export function toHar(entries: TapeEntry[], meta: RecordingMeta, version: string): Har {
  const sorted = [...entries].sort((a, b) => a.started.localeCompare(b.started));
  return {
    log: {
      version: '1.2',
      creator: { name: 'workflow-conformance', version },
      entries: sorted.map(toEntry),
      _conformance: meta,
    },
  };
}

export function fromHar(har: Har): TapeEntry[] {
  if (har?.log?.version !== '1.2' || !Array.isArray(har.log.entries))
    throw new Error('not a HAR 1.2 file (log.version "1.2" with log.entries)');
  // Within one test the order of the entries is the order of its exchanges.
  return har.log.entries.map((e) => {
    const p = e.request.postData;
    const noAnswer = e.response.status === 0;
    return {
      scope: e._scope ?? '',
      key: e._key ?? `${e.request.method} ${new URL(e.request.url).pathname}`,
      started: e.startedDateTime,
      request: {
        method: e.request.method,
        url: e.request.url,
        headers: obj(e.request.headers),
        ...(p ? { body: p.text, mimeType: p.mimeType, ...(p._encoding ? { bodyEncoding: p._encoding } : {}) } : {}),
      },
      ...(noAnswer
        ? {}
        : {
            response: {
              status: e.response.status,
              headers: obj(e.response.headers),
              body: e.response.content.text ?? '',
              ...(e.response.content.encoding === 'base64' ? { bodyEncoding: 'base64' as const } : {}),
              truncated: e.response._truncated === true,
              elapsedMs: e.time,
            },
          }),
      ...(e.response._error ? { error: e.response._error } : {}),
      ...(e._resourceType === 'websocket' ? { ws: { id: e._webSocketId ?? '', items: wsItems(e) } } : {}),
    };
  });
}
