// Small value tests shared by the suite and the reference server: one home each.

/** A JSON object: not null, not an array. */
export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A UUID in its canonical 8-4-4-4-12 hex form, any version, either case. */
export const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A value as text for a message, a comparison or a URL: a string as it is, nothing as '',
 * a number or boolean as written, anything else as JSON, never "[object Object]".
 */
export function textOf(v: unknown): string {
  if (typeof v === 'string') return v;
  if (v === undefined || v === null) return '';
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') return v.toString();
  try {
    return JSON.stringify(v) ?? typeof v;
  } catch {
    return `(a ${typeof v} JSON cannot show)`;
  }
}
