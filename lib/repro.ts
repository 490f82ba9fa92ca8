// A copy-paste reproduction of one exchange, and the short reference a check result
// carries to it. Built through the message redactor, so no credential survives.
import { errorOf, type Exchange } from './recorder.ts';
import type { ExchangeRef } from './results.ts';
import { redactMessage } from './redact.ts';

// errorOf lives with the recorder (which counts error codes); load profiles read it from here.
export { errorOf };

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
// Headers a reader needs to reproduce; the client's own accept header is noise.
const SKIP = new Set(['accept', 'content-length', 'host']);

export function curlOf(ex: Exchange): string {
  const req = ex.request;
  const parts = ['curl -sS -i', req.method === 'GET' ? '' : req.method === 'HEAD' ? '-I' : `-X ${req.method}`];
  for (const [name, value] of Object.entries(req.headers))
    if (!SKIP.has(name.toLowerCase())) parts.push(`-H ${quote(`${name}: ${value}`)}`);
  if (req.json !== undefined) {
    const body = JSON.stringify(req.json);
    parts.push(
      `-H 'content-type: application/json' --data ${quote(body.length > 2000 ? `${body.slice(0, 2000)}…` : body)}`,
    );
  }
  // A multipart file travels with the command: a here-document writes it first, so the
  // line runs as pasted (files larger than FILE_INLINE_MAX are named, not carried).
  const files: string[] = [];
  for (const [name, v] of req.form ?? []) {
    if (typeof v === 'string') {
      parts.push(`-F ${quote(`${name}=${v}`)}`);
      continue;
    }
    const local = safeFileName(v.filename);
    if (v.data.byteLength <= FILE_INLINE_MAX)
      files.push(
        `base64 -d > ${quote(local)} <<'B64'\n${Buffer.from(v.data).toString('base64').replace(/.{76}/g, '$&\n')}\nB64`,
      );
    else files.push(`# ${quote(local)}: the uploaded file (${v.data.byteLength} bytes) is too large to carry here`);
    parts.push(`-F ${quote(`${name}=@${local};filename=${v.filename};type=${v.contentType}`)}`);
  }
  if (req.rawBody !== undefined)
    parts.push(
      typeof req.rawBody === 'string'
        ? `--data-binary ${quote(req.rawBody.slice(0, 2000))}`
        : `--data-binary @body.bin`,
    );
  parts.push(quote(req.url));
  return redactMessage([...files, parts.filter(Boolean).join(' ')].join('\n'));
}

const FILE_INLINE_MAX = 64 * 1024;
// The name the file gets on the reader's disk: no path, nothing a shell reads.
const safeFileName = (name: string) => name.replace(/^.*[\\/]/, '').replace(/[^A-Za-z0-9._-]/g, '_') || 'upload.bin';

/**
 * The exchange as a held check cites it: which request, and the status that came back. What a
 * failure needs besides (the server's code and message, a reproduction) is built only for one.
 */
export function briefRefOf(ex: Exchange): ExchangeRef {
  return {
    ...(ex.operationId ? { operationId: ex.operationId } : {}),
    method: ex.request.method,
    url: redactMessage(ex.request.url),
    ...(ex.response ? { status: ex.response.status } : {}),
  };
}

export function refOf(ex: Exchange): ExchangeRef {
  const res = ex.response;
  const err = errorOf(res?.body, res?.headers['content-type']);
  return {
    ...(ex.operationId ? { operationId: ex.operationId } : {}),
    method: ex.request.method,
    url: redactMessage(ex.request.url),
    ...(res ? { status: res.status } : {}),
    ...(err.code ? { code: redactMessage(err.code) } : {}),
    ...(err.message ? { message: redactMessage(err.message) } : {}),
    curl: curlOf(ex),
  };
}

/** One line: `POST /api/v2/assets -> 422 invalid_request "..."`. */
export function describeRef(ref: ExchangeRef): string {
  let path = ref.url;
  try {
    const u = new URL(ref.url);
    path = u.pathname + u.search;
  } catch {
    // not absolute: keep as given
  }
  const answer =
    ref.status === undefined
      ? 'no answer'
      : `${ref.status}${ref.code ? ` ${ref.code}` : ''}${ref.message ? ` "${ref.message}"` : ''}`;
  return `${ref.method} ${path} -> ${answer}`;
}
