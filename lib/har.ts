// HAR 1.2 (http://www.softwareishard.com/blog/har-12-spec/) for cassettes: a recorded
// run opens in any HAR viewer, and its `_conformance` block says how to replay it
// (the target as written, the Playwright selection, the property seed). Fields the
// replay needs beyond HAR's own start with `_`, as the format allows.
import type { TapeEntry } from './cassette.ts';

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
}

export interface HarEntry {
  startedDateTime: string;
  time: number;
  request: { method: string; url: string; httpVersion: string; headers: NV; queryString: NV; cookies: []; headersSize: -1; bodySize: number; postData?: { mimeType: string; text: string; _encoding?: 'base64' } };
  response: { status: number; statusText: string; httpVersion: string; headers: NV; cookies: []; content: { size: number; mimeType: string; text?: string; encoding?: 'base64' }; redirectURL: string; headersSize: -1; bodySize: number; _error?: string; _truncated?: boolean };
  cache: Record<string, never>;
  timings: { send: number; wait: number; receive: number };
  _scope: string;
  _key: string;
}

export interface Har {
  log: { version: '1.2'; creator: { name: string; version: string }; entries: HarEntry[]; _conformance?: RecordingMeta };
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
        ? { postData: { mimeType: t.request.mimeType ?? t.request.headers['content-type'] ?? 'application/octet-stream', text: t.request.body, ...(t.request.bodyEncoding ? { _encoding: t.request.bodyEncoding } : {}) } }
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
  };
}

export function toHar(entries: TapeEntry[], meta: RecordingMeta, version: string): Har {
  const sorted = [...entries].sort((a, b) => a.started.localeCompare(b.started));
  return { log: { version: '1.2', creator: { name: 'workflow-conformance', version }, entries: sorted.map(toEntry), _conformance: meta } };
}

export function fromHar(har: Har): TapeEntry[] {
  if (har?.log?.version !== '1.2' || !Array.isArray(har.log.entries)) throw new Error('not a HAR 1.2 file (log.version "1.2" with log.entries)');
  // Within one test the order of the entries is the order of its exchanges.
  return har.log.entries.map((e) => {
    const p = e.request.postData;
    const noAnswer = e.response.status === 0;
    return {
      scope: e._scope ?? '',
      key: e._key ?? `${e.request.method} ${new URL(e.request.url).pathname}`,
      started: e.startedDateTime,
      request: { method: e.request.method, url: e.request.url, headers: obj(e.request.headers), ...(p ? { body: p.text, mimeType: p.mimeType, ...(p._encoding ? { bodyEncoding: p._encoding } : {}) } : {}) },
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
    };
  });
}
