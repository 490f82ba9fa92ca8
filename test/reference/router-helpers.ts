// Talking to the reference router directly (no suite fixtures), for its own tests.
import { ROUTER_KEYS } from '../../reference/accounts.ts';

export const KEYS = ROUTER_KEYS;

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  bytes: Buffer;
  json: Record<string, unknown>;
}

export async function call(
  base: string,
  method: string,
  path: string,
  opts: { key?: string | null; body?: unknown; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  const key = opts.key === undefined ? KEYS.alice : opts.key;
  if (key !== null) headers['x-api-key'] = key;
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${base}${path}`, {
    method,
    headers,
    ...(opts.body !== undefined ? { body: JSON.stringify(opts.body) } : {}),
  });
  const bytes = Buffer.from(await res.arrayBuffer());
  const text = bytes.toString('utf8');
  let json: Record<string, unknown> = {};
  if ((res.headers.get('content-type') ?? '').includes('json') && text !== '') {
    try {
      json = JSON.parse(text) as Record<string, unknown>;
    } catch {
      json = {};
    }
  }
  return { status: res.status, headers: res.headers, text, bytes, json };
}

export const IMAGE = '/v2/models/pixelforge/pf-flux-lite';
export const prompt = (label = 'p'): { prompt: string } => ({ prompt: `${label} ${Date.now()} ${Math.random()}` });
export const uniqueKey = (label = 'k'): string => `${label}-${Date.now()}-${Math.random().toString(36).slice(2)}`;
