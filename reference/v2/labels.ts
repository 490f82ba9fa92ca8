// Job labels (`metadata`) and list filters. The seed leaves the limits "not shown";
// the reference picks these and the suite reads them from targets.yaml, never assumes them.
import { ApiError } from '../errors.ts';

const LABEL_LIMITS = {
  maxPairs: 16,
  keyPattern: /^[a-z0-9][a-z0-9_.-]{0,62}$/,
  maxValueLength: 256,
  maxFilters: 3,
} as const;

// C0/C1 controls and the Unicode bidi overrides/isolates.
const FORBIDDEN_CHARS = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

export function parseLabels(raw: unknown): Record<string, string> | undefined {
  if (raw === undefined) return undefined;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new ApiError('metadata_invalid', 'metadata must be an object of string values');
  }
  const entries = Object.entries(raw as Record<string, unknown>);
  // Too many pairs names no single key, so it carries no details (seed W § Errors).
  if (entries.length > LABEL_LIMITS.maxPairs)
    throw new ApiError('metadata_invalid', `metadata has more than ${LABEL_LIMITS.maxPairs} pairs`);
  for (const [key, value] of entries) {
    if (!LABEL_LIMITS.keyPattern.test(key))
      throw new ApiError('metadata_invalid', 'metadata key breaks the key rule', { details: { key } });
    if (typeof value !== 'string')
      throw new ApiError('metadata_invalid', 'metadata values must be strings', { details: { key } });
    if (value.length > LABEL_LIMITS.maxValueLength || FORBIDDEN_CHARS.test(value)) {
      throw new ApiError('metadata_invalid', 'metadata value breaks the value rule', { details: { key } });
    }
  }
  return Object.fromEntries(entries) as Record<string, string>;
}

/** `metadata[<key>]=<value>` query parameters: at most three, exact match, ANDed. */
export function parseFilters(query: Record<string, unknown>, rawUrl: string): Record<string, string> {
  const filters: Record<string, string> = {};
  const rawQuery = rawUrl.includes('?') ? rawUrl.slice(rawUrl.indexOf('?') + 1) : '';
  // A raw ';' or a malformed % escape cannot be a well-encoded filter value.
  for (const part of rawQuery.split('&')) {
    if (!part.startsWith('metadata')) continue;
    if (part.includes(';') || /%(?![0-9a-fA-F]{2})/.test(part))
      throw new ApiError('invalid_metadata_filter', 'filter values must be URL-encoded');
  }
  for (const [name, value] of Object.entries(query)) {
    const m = /^metadata\[(.*)\]$/.exec(name);
    if (!m) continue;
    const key = m[1] ?? '';
    if (Array.isArray(value)) throw new ApiError('invalid_metadata_filter', `filter key "${key}" repeated`);
    if (!LABEL_LIMITS.keyPattern.test(key))
      throw new ApiError('invalid_metadata_filter', 'filter key breaks the key rule');
    if (typeof value !== 'string' || FORBIDDEN_CHARS.test(value))
      throw new ApiError('invalid_metadata_filter', 'filter value has forbidden characters');
    filters[key] = value;
  }
  if (Object.keys(filters).length > LABEL_LIMITS.maxFilters)
    throw new ApiError('invalid_metadata_filter', `at most ${LABEL_LIMITS.maxFilters} filters`);
  return filters;
}
