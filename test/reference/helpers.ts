import { blake3 } from '@noble/hashes/blake3.js';
import { startReference } from '../../reference/server.ts';
import type { ReferenceOptions, RunningReference } from '../../reference/server.ts';

export const ALICE = 'comfyui-ref-alice-7f3a9c2e5b1d4086';
export const BOB = 'comfyui-ref-bob-2c8e6a0f9d3b4175';
export const TINY = 'comfyui-ref-tiny-5d1b7e3c8a2f4960';

export const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** Starts a reference on a random port base, retrying when a port is taken. */
export async function startOnFreePorts(opts: Omit<ReferenceOptions, 'portBase'> = {}): Promise<RunningReference> {
  let lastErr: unknown;
  for (let attempt = 0; attempt < 20; attempt += 1) {
    const portBase = 20000 + Math.floor(Math.random() * 20000);
    try {
      return await startReference({ ...opts, portBase });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw err;
      lastErr = err;
    }
  }
  throw lastErr;
}

export const blake3Hash = (bytes: Uint8Array): string => `blake3:${Buffer.from(blake3(bytes)).toString('hex')}`;

/** Bytes nobody else in the run has uploaded, so dedup state never leaks between tests. */
export const uniqueBytes = (label = 'x'): Uint8Array =>
  new TextEncoder().encode(`${label}:${Date.now()}:${Math.random()}:${'payload'.repeat(5)}`);

export const bearer = (key: string | undefined): Record<string, string> =>
  key === undefined ? {} : { authorization: `Bearer ${key}` };

export interface UploadSpec {
  bytes?: Uint8Array;
  contentType?: string | undefined;
  filePath?: string | undefined;
  tags?: string[];
  expiresIn?: number | string;
  expectedHash?: string;
  omitFile?: boolean;
  fileFirst?: boolean;
}

export function uploadForm(spec: UploadSpec): FormData {
  const form = new FormData();
  const bytes = spec.bytes ?? uniqueBytes();
  const addFile = (): void => {
    if (spec.omitFile !== true) form.append('file', new Blob([new Uint8Array(bytes)]), 'upload.bin');
  };
  if (spec.fileFirst === true) addFile();
  if (spec.contentType !== undefined) form.append('content_type', spec.contentType);
  if (spec.filePath !== undefined) form.append('file_path', spec.filePath);
  if (spec.expectedHash !== undefined) form.append('expected_hash', spec.expectedHash);
  if (spec.expiresIn !== undefined) form.append('expires_in', String(spec.expiresIn));
  for (const t of spec.tags ?? []) form.append('tags', t);
  if (spec.fileFirst !== true) addFile();
  return form;
}

export interface JsonResponse {
  status: number;
  headers: Headers;
  body: Record<string, unknown>;
}

async function asJson(res: Response): Promise<JsonResponse> {
  const text = await res.text();
  return {
    status: res.status,
    headers: res.headers,
    body: text === '' ? {} : (JSON.parse(text) as Record<string, unknown>),
  };
}

/** POST /api/v2/assets with sensible defaults; pass `contentType: undefined` explicitly to omit it. */
export async function upload(base: string, key: string | undefined, spec: UploadSpec = {}): Promise<JsonResponse> {
  const full: UploadSpec = { contentType: 'application/octet-stream', filePath: 'input/file.bin', ...spec };
  const res = await fetch(`${base}/api/v2/assets`, { method: 'POST', headers: bearer(key), body: uploadForm(full) });
  return asJson(res);
}

export async function getJson(url: string, key?: string, init: RequestInit = {}): Promise<JsonResponse> {
  const res = await fetch(url, {
    ...init,
    headers: { ...bearer(key), ...(init.headers as Record<string, string> | undefined) },
    redirect: 'manual',
  });
  return asJson(res);
}

export async function postJson(url: string, key: string | undefined, payload: unknown): Promise<JsonResponse> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { ...bearer(key), 'content-type': 'application/json' },
    body: JSON.stringify(payload),
  });
  return asJson(res);
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export function errorCode(body: Record<string, unknown>): unknown {
  const inner = body.error;
  return typeof inner === 'object' && inner !== null ? (inner as Record<string, unknown>).code : undefined;
}

export function str(body: Record<string, unknown>, field: string): string {
  const v = body[field];
  if (typeof v !== 'string') throw new Error(`${field} is not a string: ${JSON.stringify(v)}`);
  return v;
}
