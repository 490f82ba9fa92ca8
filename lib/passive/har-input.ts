// A HAR 1.2 file recorded anywhere (a browser's developer tools, Playwright's recordHar, a
// recording proxy, `workflow-conformance proxy --record`) read back as observed exchanges.
// Bodies a recorder left out cannot be judged: such an answer is marked cut, so its body
// contract is not judged and nothing reads a body that is not there.
import { lowerHeaders, type Observed, type ObservedWsMessage } from './observed.ts';

interface NV {
  name: string;
  value: string;
}

interface HarInputEntry {
  startedDateTime?: string;
  time?: number;
  request?: { method?: string; url?: string; headers?: NV[]; postData?: { text?: string; _encoding?: string } };
  response?: {
    status?: number;
    headers?: NV[];
    content?: { size?: number; text?: string; encoding?: string };
    _error?: string;
    _truncated?: boolean;
  };
  _resourceType?: string;
  _webSocketMessages?: Array<{ type?: string; time?: number; opcode?: number; data?: string }>;
}

export class HarFormatError extends Error {
  override name = 'HarFormatError';
}

const headersOf = (list: NV[] | undefined): Record<string, string> =>
  lowerHeaders(
    (list ?? [])
      .filter((h) => typeof h?.name === 'string' && !h.name.startsWith(':'))
      .map((h) => [h.name, String(h.value ?? '')]),
  );

/** The exchanges of a parsed HAR, in the order they started. */
export function observedFromHar(har: unknown): Observed[] {
  const log = (har as { log?: { version?: unknown; entries?: unknown } } | undefined)?.log;
  if (!log || !Array.isArray(log.entries)) throw new HarFormatError('not a HAR file: no log.entries');
  const entries = (log.entries as HarInputEntry[]).map((e, i) => ({ e, i, at: Date.parse(e.startedDateTime ?? '') }));
  entries.sort((a, b) => (Number.isNaN(a.at) || Number.isNaN(b.at) ? a.i - b.i : a.at - b.at || a.i - b.i));
  return entries.flatMap(({ e, at }, n): Observed[] => {
    const method = e.request?.method;
    const url = e.request?.url;
    if (typeof method !== 'string' || typeof url !== 'string') return [];
    const started = Number.isNaN(at) ? 0 : at;
    const post = e.request?.postData?.text;
    const res = e.response;
    const status = typeof res?.status === 'number' ? res.status : 0;
    const text = res?.content?.text;
    const body =
      text === undefined
        ? Buffer.alloc(0)
        : res?.content?.encoding === 'base64'
          ? Buffer.from(text, 'base64')
          : Buffer.from(text, 'utf8');
    // A recorder that kept no body for an answer that had one: nothing of it can be judged.
    const bodyLeftOut = text === undefined && (res?.content?.size ?? 0) > 0;
    const isWs = e._resourceType === 'websocket' || Array.isArray(e._webSocketMessages);
    const messages: ObservedWsMessage[] = (e._webSocketMessages ?? []).flatMap((m) =>
      m.type === 'send' || m.type === 'receive'
        ? [
            {
              dir: m.type,
              at: typeof m.time === 'number' ? Math.round(m.time * 1000) : started,
              binary: m.opcode === 2,
              data: m.opcode === 2 ? Buffer.from(m.data ?? '', 'base64') : Buffer.from(m.data ?? '', 'utf8'),
            },
          ]
        : [],
    );
    return [
      {
        seq: n + 1,
        started,
        method: method.toUpperCase(),
        url,
        requestHeaders: headersOf(e.request?.headers),
        ...(post !== undefined && post !== ''
          ? {
              requestBody:
                e.request?.postData?._encoding === 'base64' ? Buffer.from(post, 'base64') : Buffer.from(post, 'utf8'),
            }
          : {}),
        ...(status === 0
          ? { error: res?._error ?? 'the recording holds no answer' }
          : {
              response: {
                status,
                headers: headersOf(res?.headers),
                body,
                truncated: res?._truncated === true || bodyLeftOut,
                elapsedMs: typeof e.time === 'number' ? e.time : 0,
              },
            }),
        ...(bodyLeftOut || res?._truncated === true ? { cut: 'size' as const } : {}),
        ...(isWs ? { ws: { messages } } : {}),
      },
    ];
  });
}
