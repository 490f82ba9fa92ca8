// A copy-paste reproduction of one exchange, and the short reference a check result
// carries to it. Built through the message redactor, so no credential survives.
import type { Exchange } from './recorder.ts';
import type { ExchangeRef } from './results.ts';
import { redactMessage } from './redact.ts';

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
// Headers a reader needs to reproduce; the client's own accept header is noise.
const SKIP = new Set(['accept', 'content-length', 'host']);

export function curlOf(ex: Exchange): string {
  const req = ex.request;
  const parts = ['curl -sS -i', req.method === 'GET' ? '' : req.method === 'HEAD' ? '-I' : `-X ${req.method}`];
  for (const [name, value] of Object.entries(req.headers)) if (!SKIP.has(name.toLowerCase())) parts.push(`-H ${quote(`${name}: ${value}`)}`);
  if (req.json !== undefined) {
    const body = JSON.stringify(req.json);
    parts.push(`-H 'content-type: application/json' --data ${quote(body.length > 2000 ? `${body.slice(0, 2000)}…` : body)}`);
  }
  for (const [name, v] of req.form ?? []) parts.push(`-F ${quote(typeof v === 'string' ? `${name}=${v}` : `${name}=@${v.filename};type=${v.contentType}`)}`);
  if (req.rawBody !== undefined) parts.push(typeof req.rawBody === 'string' ? `--data-binary ${quote(req.rawBody.slice(0, 2000))}` : `--data-binary @body.bin`);
  parts.push(quote(req.url));
  return redactMessage(parts.filter(Boolean).join(' '));
}

/** The error code and message an answer carries (v2 envelope, router bucket, registry error), if any. */
export function errorOf(body: Buffer | undefined, contentType: string | undefined): { code?: string; message?: string } {
  if (!body || body.length === 0 || !/json/i.test(contentType ?? '')) return {};
  try {
    const json = JSON.parse(body.subarray(0, 65536).toString('utf8')) as Record<string, unknown>;
    const e = (typeof json.error === 'object' && json.error !== null ? json.error : json) as Record<string, unknown>;
    const code = typeof e.code === 'string' ? e.code : typeof e.error_type === 'string' ? e.error_type : typeof json.error === 'string' ? json.error : undefined;
    const message = typeof e.message === 'string' ? e.message : typeof e.detail === 'string' ? e.detail : undefined;
    return { ...(code ? { code } : {}), ...(message ? { message: message.slice(0, 300) } : {}) };
  } catch {
    return {};
  }
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
  const answer = ref.status === undefined ? 'no answer' : `${ref.status}${ref.code ? ` ${ref.code}` : ''}${ref.message ? ` "${ref.message}"` : ''}`;
  return `${ref.method} ${path} -> ${answer}`;
}
