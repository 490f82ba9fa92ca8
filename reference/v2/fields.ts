import { invalidRequest } from '../errors.ts';
import { parseHash } from '../blobs.ts';

// Validation shared by the multipart upload and the JSON from-hash body; each
// failure names the offending field.

const MIN_EXPIRES_IN = 60;
const MAX_EXPIRES_IN = 604_800;
const MAX_PATH_LENGTH = 4096;
const MAX_TAG_LENGTH = 256;
const MEDIA_TYPE_RE = /^[A-Za-z0-9!#$&^_.+-]+\/[A-Za-z0-9!#$&^_.+-]+(\s*;.*)?$/;

export function mediaType(value: unknown, field: string): string {
  if (typeof value !== 'string' || value.trim() === '') throw invalidRequest(field, 'is required');
  if (!MEDIA_TYPE_RE.test(value.trim())) throw invalidRequest(field, 'must be a media type such as image/png');
  return value.trim();
}

export function filePath(value: unknown, field: string): string {
  if (typeof value !== 'string' || value === '') throw invalidRequest(field, 'is required');
  if (value.length > MAX_PATH_LENGTH) throw invalidRequest(field, `must be at most ${MAX_PATH_LENGTH} characters`);
  if (value.includes('\0')) throw invalidRequest(field, 'must not contain NUL');
  return value;
}

export function blobHash(value: unknown, field: string): string {
  const hex = parseHash(value);
  if (hex === undefined) throw invalidRequest(field, 'must be blake3:<64 lowercase hex digits>');
  return hex;
}

export function tag(value: unknown, field: string): string {
  if (typeof value !== 'string' || value === '') throw invalidRequest(field, 'each tag must be a non-empty string');
  if (value.length > MAX_TAG_LENGTH)
    throw invalidRequest(field, `each tag must be at most ${MAX_TAG_LENGTH} characters`);
  return value;
}

/** Accepts a JSON number or a form-field string holding a plain integer. */
export function expiresIn(value: unknown, field: string): number {
  const n = typeof value === 'string' && /^\d{1,9}$/.test(value.trim()) ? Number(value.trim()) : value;
  if (typeof n !== 'number' || !Number.isInteger(n))
    throw invalidRequest(field, 'must be an integer number of seconds');
  if (n < MIN_EXPIRES_IN || n > MAX_EXPIRES_IN) {
    throw invalidRequest(field, `must be between ${MIN_EXPIRES_IN} and ${MAX_EXPIRES_IN} seconds`);
  }
  return n;
}
