// Native-schema validation of a run body, answering the 422 body the seed describes:
// one entry per failing field with loc (outermost first), msg, type, ctx and input.
// Undeclared fields are never refused here; reject_unknown_fields is checked separately
// and only at the top level.
import type { JsonSchema } from './schemas.ts';
import { isPlainObject, textOf } from '../../lib/values.ts';

export type Loc = Array<string | number>;

export interface ValidationEntry {
  loc: Loc;
  msg: string;
  type: string;
  ctx?: Record<string, unknown>;
  input?: unknown;
}

function typeName(schemaType: unknown): string {
  switch (schemaType) {
    case 'string':
      return 'string_type';
    case 'integer':
      return 'int_type';
    case 'number':
      return 'float_type';
    case 'boolean':
      return 'bool_type';
    case 'array':
      return 'list_type';
    default:
      return 'dict_type';
  }
}

function typeOk(schemaType: unknown, v: unknown): boolean {
  switch (schemaType) {
    case 'string':
      return typeof v === 'string';
    case 'integer':
      return typeof v === 'number' && Number.isInteger(v);
    case 'number':
      return typeof v === 'number' && Number.isFinite(v);
    case 'boolean':
      return typeof v === 'boolean';
    case 'array':
      return Array.isArray(v);
    case 'object':
      return isPlainObject(v);
    default:
      return true;
  }
}

function isUri(v: string): boolean {
  try {
    const u = new URL(v);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
}

export function validateAgainst(schema: JsonSchema, value: unknown, loc: Loc, out: ValidationEntry[]): void {
  const s = schema as Record<string, unknown>;
  const fail = (type: string, msg: string, ctx?: ValidationEntry['ctx']): void => {
    out.push(ctx === undefined ? { loc, msg, type, input: value } : { loc, msg, type, ctx, input: value });
  };
  if (s.type !== undefined && !typeOk(s.type, value)) {
    fail(typeName(s.type), `Input should be a valid ${textOf(s.type)}`);
    return;
  }
  if (Array.isArray(s.enum) && !s.enum.includes(value)) {
    fail('enum', `Input should be ${s.enum.map((e) => `'${String(e)}'`).join(', ')}`, { expected: s.enum.join(', ') });
    return;
  }
  if (typeof value === 'string') {
    if (typeof s.minLength === 'number' && value.length < s.minLength) {
      fail('string_too_short', `String should have at least ${s.minLength} characters`, { min_length: s.minLength });
    } else if (typeof s.maxLength === 'number' && value.length > s.maxLength) {
      fail('string_too_long', `String should have at most ${s.maxLength} characters`, { max_length: s.maxLength });
    } else if (s.format === 'uri' && !isUri(value)) {
      fail('url_parsing', 'Input should be a valid URL');
    }
  }
  if (typeof value === 'number') {
    if (typeof s.minimum === 'number' && value < s.minimum) {
      fail('greater_than_equal', `Input should be greater than or equal to ${s.minimum}`, { ge: s.minimum });
    } else if (typeof s.maximum === 'number' && value > s.maximum) {
      fail('less_than_equal', `Input should be less than or equal to ${s.maximum}`, { le: s.maximum });
    } else if (typeof s.multipleOf === 'number' && value % s.multipleOf !== 0) {
      fail('multiple_of', `Input should be a multiple of ${s.multipleOf}`, { multiple_of: s.multipleOf });
    }
  }
  if (Array.isArray(value)) {
    if (typeof s.minItems === 'number' && value.length < s.minItems) {
      fail('too_short', `List should have at least ${s.minItems} items`, {
        min_length: s.minItems,
        actual_length: value.length,
      });
    } else if (typeof s.maxItems === 'number' && value.length > s.maxItems) {
      fail('too_long', `List should have at most ${s.maxItems} items`, {
        max_length: s.maxItems,
        actual_length: value.length,
      });
    }
    if (isPlainObject(s.items))
      value.forEach((item, i) => validateAgainst(s.items as JsonSchema, item, [...loc, i], out));
  }
  if (isPlainObject(value)) {
    const props = isPlainObject(s.properties) ? s.properties : {};
    for (const req of Array.isArray(s.required) ? (s.required as string[]) : []) {
      if (!(req in value)) out.push({ loc: [...loc, req], msg: 'Field required', type: 'missing', input: value });
    }
    for (const [k, sub] of Object.entries(props)) {
      if (k in value && isPlainObject(sub)) validateAgainst(sub, value[k], [...loc, k], out);
    }
  }
}

/** The schema with every `format` left out: formats read as annotations, never asserted. */
export function withoutFormats(schema: JsonSchema): JsonSchema {
  const strip = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(strip);
    if (!isPlainObject(v)) return v;
    return Object.fromEntries(
      Object.entries(v)
        .filter(([k]) => k !== 'format')
        .map(([k, x]) => [k, strip(x)]),
    );
  };
  return strip(schema) as JsonSchema;
}

/** Undeclared top-level fields, for reject_unknown_fields (nested fields are never checked). */
export function undeclaredTopLevel(
  schema: JsonSchema,
  body: Record<string, unknown>,
  nestedToo = false,
): ValidationEntry[] {
  const out: ValidationEntry[] = [];
  const walk = (s: JsonSchema, value: Record<string, unknown>, loc: Loc, top: boolean): void => {
    const props = isPlainObject(s.properties) ? s.properties : {};
    for (const [k, v] of Object.entries(value)) {
      if (!(k in props)) {
        if (top)
          out.push({ loc: [...loc, k], msg: 'Extra inputs are not permitted', type: 'extra_forbidden', input: v });
        else if (nestedToo)
          out.push({ loc: [...loc, k], msg: 'Extra inputs are not permitted', type: 'extra_forbidden', input: v });
      } else if (nestedToo && isPlainObject(v) && isPlainObject(props[k])) {
        walk(props[k], v, [...loc, k], false);
      }
    }
  };
  walk(schema, body, ['body'], true);
  return out;
}
