// Values from a contract's schemas, for the explorer (lib/explore/): fast-check arbitraries
// of values a schema accepts, and of values breaking it in exactly one way (a required
// member left out, another JSON type, a number or length out of range, a value outside an
// enum, a string outside its format or pattern, an oversized value). Schemas are the
// contract's own (OpenAPI 3.1 / JSON Schema 2020-12), local $refs followed.
import fc from 'fast-check';
import { UUID_RE, isPlainObject, textOf } from '../values.ts';
import { atPointer } from '../contracts/ref.ts';

export type Schema = Record<string, unknown>;

/** The ways a value is made invalid in exactly one place. */
export type MistakeKind = 'missing' | 'type' | 'range' | 'enum' | 'format' | 'oversized';
/** How a value travels: a JSON body member, or text (a query, path or header value, a form field). */
export type Wire = 'json' | 'query' | 'path' | 'header' | 'form';

export interface MistakeGen {
  kind: MistakeKind;
  /** Leave the member out (a required member); otherwise `value` replaces it. */
  remove?: true;
  value?: fc.Arbitrary<unknown>;
  /** In words, for the report ("a string where an integer is declared"). */
  note: string;
  /** Which side of a bound (`below`, `above`, `short`, ...): two sides are two mistakes. */
  variant?: string;
  /**
   * False where the schema states no bound and the value only exceeds what the explorer
   * guesses is large (an oversized string without maxLength): the server's own limit may
   * fall between two such values, so they are not one mistake for the same-class invariant.
   */
  exact?: false;
}

export function asObj(v: unknown): Schema | undefined {
  return isPlainObject(v) ? v : undefined;
}

/** Follows `$ref`s (local, `#/...`) and folds `allOf` into one schema (shallow: properties and required joined). */
export function resolve(doc: Schema, schema: unknown, depth = 0): Schema {
  let cur = asObj(schema) ?? {};
  for (let hops = 0; typeof cur.$ref === 'string' && hops < 12; hops++) {
    const ref = cur.$ref;
    if (!ref.startsWith('#/')) break;
    const { $ref: _, ...siblings } = cur;
    const target = atPointer(doc, ref);
    cur = { ...(asObj(target) ?? {}), ...siblings };
  }
  if (Array.isArray(cur.allOf) && depth < 6) {
    const parts = (cur.allOf as unknown[]).map((p) => resolve(doc, p, depth + 1));
    const { allOf: _, ...rest } = cur;
    let merged: Schema = { ...rest };
    for (const p of parts) {
      merged = {
        ...p,
        ...merged,
        properties: { ...(asObj(p.properties) ?? {}), ...(asObj(merged.properties) ?? {}) },
        required: [
          ...new Set([
            ...((p.required as string[] | undefined) ?? []),
            ...((merged.required as string[] | undefined) ?? []),
          ]),
        ],
      };
    }
    cur = merged;
  }
  return cur;
}

/** The JSON types a schema admits (`type` as a string or a list; none given: any). */
export function typesOf(s: Schema): string[] {
  if (typeof s.type === 'string') return [s.type];
  if (Array.isArray(s.type)) return s.type.filter((t): t is string => typeof t === 'string');
  if (asObj(s.properties) || s.additionalProperties !== undefined || s.required) return ['object'];
  if (s.items) return ['array'];
  if (Array.isArray(s.enum))
    return [
      ...new Set(
        (s.enum as unknown[]).map((v) =>
          v === null
            ? 'null'
            : Array.isArray(v)
              ? 'array'
              : typeof v === 'number'
                ? Number.isInteger(v)
                  ? 'integer'
                  : 'number'
                : typeof v,
        ),
      ),
    ];
  return [];
}

const FORMATS: Record<string, RegExp> = {
  uuid: UUID_RE,
  'date-time': /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/i,
  uri: /^[a-z][a-z0-9+.-]*:\S+$/i,
};

// Text that needs no care on any wire: a path segment, a query value, a header.
const SAFE = [...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.~'];
const VISIBLE = Array.from({ length: 0x7e - 0x20 + 1 }, (_, i) => String.fromCharCode(0x20 + i));
const LETTERS = [...'abcdefghijklmnopqrstuvwxyz'];

/** Strings of `min`..`max` units fit for the wire (JSON bodies also get non-ASCII text). */
function text(wire: Wire, min: number, max: number): fc.Arbitrary<string> {
  if (wire === 'json' || wire === 'form') return fc.string({ unit: 'grapheme', minLength: min, maxLength: max });
  if (wire === 'header')
    return fc
      .string({ unit: fc.constantFrom(...VISIBLE), minLength: min, maxLength: max })
      .map((s) => s.trim())
      .filter((s) => s.length >= min);
  if (wire === 'path')
    return fc
      .string({ unit: fc.constantFrom(...SAFE), minLength: Math.max(1, min), maxLength: Math.max(1, max) })
      .filter((s) => s !== '.' && s !== '..');
  return fc.string({ unit: fc.constantFrom(...VISIBLE), minLength: min, maxLength: max });
}

/** `n` characters of plain text (an oversized value). */
function ofLength(wire: Wire, min: number, max: number): fc.Arbitrary<string> {
  return fc
    .tuple(
      fc.integer({ min, max }),
      fc.constantFrom(...(wire === 'json' || wire === 'form' ? ['x', 'é', 'ab', '0'] : ['x', 'a', '0', 'Z'])),
    )
    .map(([n, c]) => c.repeat(Math.ceil(n / c.length)).slice(0, n));
}

const httpsUrl = fc
  .tuple(
    fc.constantFrom('example.com', 'example.org', 'cdn.example.net'),
    fc.array(fc.string({ unit: fc.constantFrom(...SAFE.slice(0, 36)), minLength: 1, maxLength: 10 }), { maxLength: 3 }),
    fc.constantFrom('', '.png', '.jpg'),
  )
  .map(([host, parts, ext]) => `https://${host}/${parts.join('/')}${parts.length ? ext : ''}`);

function stringValue(s: Schema, wire: Wire): fc.Arbitrary<string> {
  const min = typeof s.minLength === 'number' ? s.minLength : 0;
  const max = typeof s.maxLength === 'number' ? s.maxLength : Math.max(min, 24);
  const cap = Math.min(max, Math.max(min, 64));
  const format = typeof s.format === 'string' ? s.format : undefined;
  if (format === 'uuid') return fc.uuid();
  if (format === 'date-time')
    return fc
      .date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2099-12-31T00:00:00Z'), noInvalidDate: true })
      .map((d) => d.toISOString());
  if (format === 'uri' || format === 'uri-reference') return httpsUrl.filter((u) => u.length <= max);
  if (typeof s.pattern === 'string') {
    let re: RegExp | undefined;
    try {
      re = new RegExp(s.pattern);
    } catch {
      re = undefined;
    }
    if (re)
      return fc
        .stringMatching(re, { maxLength: cap })
        .filter((v) => v.length >= min && v.length <= max && (wire !== 'path' || v.length > 0));
  }
  if (s.contentMediaType === 'application/json')
    return fc.dictionary(text('path', 1, 8), text('path', 0, 12), { maxKeys: 3 }).map((o) => JSON.stringify(o));
  return text(wire, wire === 'path' ? Math.max(1, min) : min, cap);
}

/** Values a schema accepts, typed for JSON (`wire: 'json'`) or written as text for the other wires. */
export function valid(doc: Schema, raw: unknown, wire: Wire, depth = 0): fc.Arbitrary<unknown> {
  const s = resolve(doc, raw);
  if ('const' in s) return fc.constant(s.const);
  if (Array.isArray(s.enum) && s.enum.length > 0)
    return fc.constantFrom(...(s.enum as unknown[])).map((v) => (wire === 'json' ? v : String(v)));
  for (const key of ['oneOf', 'anyOf'] as const) {
    if (Array.isArray(s[key]) && (s[key] as unknown[]).length > 0)
      return fc.oneof(...(s[key] as unknown[]).map((b) => valid(doc, b, wire, depth + 1)));
  }
  const types = typesOf(s);
  const options = (types.length ? types : ['string', 'integer', 'boolean', 'object']).filter(
    (t) => wire === 'json' || (t !== 'null' && t !== 'object' && t !== 'array') || types.length === 1,
  );
  const arbs = options.map((t) => ofType(doc, s, t, wire, depth));
  return arbs.length === 1 ? arbs[0] : fc.oneof(...arbs);
}

function ofType(doc: Schema, s: Schema, type: string, wire: Wire, depth: number): fc.Arbitrary<unknown> {
  const asText = (a: fc.Arbitrary<unknown>) => (wire === 'json' ? a : a.map((v) => String(v)));
  switch (type) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return asText(fc.boolean());
    case 'integer': {
      const min =
        typeof s.minimum === 'number'
          ? Math.ceil(s.minimum)
          : typeof s.exclusiveMinimum === 'number'
            ? Math.floor(s.exclusiveMinimum) + 1
            : -1000;
      const max =
        typeof s.maximum === 'number'
          ? Math.floor(s.maximum)
          : typeof s.exclusiveMaximum === 'number'
            ? Math.ceil(s.exclusiveMaximum) - 1
            : Math.max(min, 0) + 1_000_000;
      const step = typeof s.multipleOf === 'number' && s.multipleOf > 0 ? s.multipleOf : 1;
      return asText(
        fc
          .integer({ min: Math.ceil(min / step), max: Math.max(Math.ceil(min / step), Math.floor(max / step)) })
          .map((k) => k * step),
      );
    }
    case 'number': {
      const min = typeof s.minimum === 'number' ? s.minimum : -1000;
      const max = typeof s.maximum === 'number' ? s.maximum : 1000;
      return asText(
        fc
          .double({ min, max, noNaN: true, noDefaultInfinity: true })
          .map((x) => Math.min(max, Math.max(min, Math.round(x * 1000) / 1000))),
      );
    }
    case 'string':
      if (s.format === 'binary' || s.contentMediaType === 'application/octet-stream') return fc.constant('');
      return stringValue(s, wire);
    case 'array': {
      const min = typeof s.minItems === 'number' ? s.minItems : 0;
      const max = Math.min(typeof s.maxItems === 'number' ? s.maxItems : min + 3, min + 3);
      if (depth > 4) return fc.constant(Array.from({ length: min }, () => null));
      return fc.array(valid(doc, s.items ?? {}, wire === 'json' ? 'json' : wire, depth + 1), {
        minLength: min,
        maxLength: max,
      });
    }
    case 'object':
    default: {
      if (depth > 4) return fc.constant({});
      const props = asObj(s.properties) ?? {};
      const required = new Set(Array.isArray(s.required) ? (s.required as string[]) : []);
      const shape: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [k, sub] of Object.entries(props)) shape[k] = valid(doc, sub, 'json', depth + 1);
      const known = fc.record(shape, { requiredKeys: [...required].filter((k) => k in shape) });
      const extra = asObj(s.additionalProperties);
      const maxExtra =
        typeof s.maxProperties === 'number' ? Math.max(0, s.maxProperties - Object.keys(props).length) : 3;
      if (!extra || maxExtra === 0 || Object.keys(props).length > 0) return known;
      // A map (`additionalProperties: {schema}`): a few keys of plain text.
      return fc.dictionary(
        fc.string({ unit: fc.constantFrom(...SAFE.slice(0, 62)), minLength: 1, maxLength: 10 }),
        valid(doc, extra, 'json', depth + 1),
        { maxKeys: Math.min(3, maxExtra) },
      );
    }
  }
}

/** A value of another JSON type than every type the schema admits (for a text wire: text no such value reads as). */
function wrongType(types: string[], wire: Wire): fc.Arbitrary<unknown> | undefined {
  if (wire !== 'json') {
    if (types.includes('integer') || types.includes('number')) {
      const letters = fc.string({ unit: fc.constantFrom(...LETTERS), minLength: 1, maxLength: 8 });
      return types.includes('integer') ? fc.oneof(letters, fc.constantFrom('2.5', '1.25', '0.5')) : letters;
    }
    if (types.includes('boolean')) return fc.constantFrom('maybe', 'yes-please', '2');
    return undefined;
  }
  const all: Array<[string, fc.Arbitrary<unknown>]> = [
    ['string', fc.string({ unit: fc.constantFrom(...LETTERS), minLength: 1, maxLength: 8 })],
    ['integer', fc.integer({ min: -5, max: 99999 })],
    ['boolean', fc.boolean()],
    ['object', fc.constant({ conformance: 'object' })],
    ['array', fc.constant(['conformance'])],
  ];
  const admitted = (t: string) => types.includes(t) || (t === 'integer' && types.includes('number'));
  const others = all.filter(([t]) => !admitted(t)).map(([, a]) => a);
  return types.length === 0 || others.length === 0 ? undefined : fc.oneof(...others);
}

/**
 * The ways one value can break its schema. `required`: the member may be left out as a
 * mistake. `formats`: whether a `format` is judged (false where it is an annotation only).
 */
export function mistakes(
  doc: Schema,
  raw: unknown,
  wire: Wire,
  opts: { required: boolean; formats?: boolean; oversizedMax?: number },
): MistakeGen[] {
  const s = resolve(doc, raw);
  const out: MistakeGen[] = [];
  const types = typesOf(s);
  if (opts.required) out.push({ kind: 'missing', remove: true, note: 'a required member left out' });
  const wrong = wrongType(types, wire);
  if (wrong) out.push({ kind: 'type', value: wrong, note: `a value that is not ${types.join(' or ')}` });
  if (Array.isArray(s.enum) && s.enum.every((v) => typeof v === 'string')) {
    out.push({
      kind: 'enum',
      value: fc
        .string({ unit: fc.constantFrom(...LETTERS), minLength: 3, maxLength: 10 })
        .map((v) => `conformance-${v}`)
        .filter((v) => !(s.enum as unknown[]).includes(v)),
      note: 'a value outside the enum',
    });
  }
  const numeric = types.includes('integer') || types.includes('number');
  const wrap = (a: fc.Arbitrary<number>) => (wire === 'json' ? a : a.map(String));
  if (numeric && typeof s.minimum === 'number')
    out.push({
      kind: 'range',
      value: wrap(fc.integer({ min: 1, max: 1000 }).map((d) => Math.floor(s.minimum as number) - d)),
      note: `below the minimum ${s.minimum}`,
      variant: 'below',
    });
  if (numeric && typeof s.maximum === 'number')
    out.push({
      kind: 'range',
      value: wrap(fc.integer({ min: 1, max: 1000 }).map((d) => Math.ceil(s.maximum as number) + d)),
      note: `above the maximum ${s.maximum}`,
      variant: 'above',
    });
  const isString =
    types.includes('string') && s.format !== 'binary' && s.contentMediaType !== 'application/octet-stream';
  if (isString && typeof s.minLength === 'number' && s.minLength > 0 && wire !== 'path') {
    out.push({
      kind: 'range',
      value: ofLength(wire, 0, s.minLength - 1),
      note: `shorter than minLength ${s.minLength}`,
      variant: 'short',
    });
  }
  if (isString && !Array.isArray(s.enum)) {
    const format = typeof s.format === 'string' ? FORMATS[s.format] : undefined;
    let pattern: RegExp | undefined;
    try {
      pattern = typeof s.pattern === 'string' ? new RegExp(s.pattern) : undefined;
    } catch {
      pattern = undefined;
    }
    const breaks = [...(opts.formats !== false && format ? [format] : []), ...(pattern ? [pattern] : [])];
    if (breaks.length > 0) {
      const maxLen = typeof s.maxLength === 'number' ? s.maxLength : 40;
      out.push({
        kind: 'format',
        value: text(wire, 1, Math.max(1, Math.min(maxLen, 40))).filter(
          (v) => v.trim().length > 0 && breaks.some((re) => !re.test(v)),
        ),
        note: `a string outside its ${format ? `format ${textOf(s.format)}` : `pattern ${textOf(s.pattern)}`}`,
      });
    }
    // Oversized: past maxLength, or (none given) long enough that no value of the form is.
    const max = opts.oversizedMax;
    if (typeof s.maxLength === 'number')
      out.push({
        kind: 'oversized',
        value: ofLength(wire, s.maxLength + 1, s.maxLength + 16),
        note: `longer than maxLength ${s.maxLength}`,
      });
    else if (max !== undefined)
      out.push({
        kind: 'oversized',
        value: ofLength(wire, Math.ceil(max / 2), max),
        note: `an oversized string (up to ${max} characters)`,
        exact: false,
      });
  }
  if (types.includes('array') && wire === 'json') {
    if (typeof s.minItems === 'number' && s.minItems > 0)
      out.push({
        kind: 'range',
        value: fc.constant([]),
        note: `fewer items than minItems ${s.minItems}`,
        variant: 'few',
      });
    const item = valid(doc, s.items ?? {}, 'json', 3);
    if (typeof s.maxItems === 'number')
      out.push({
        kind: 'oversized',
        value: fc.array(item, { minLength: s.maxItems + 1, maxLength: s.maxItems + 4 }),
        note: `more items than maxItems ${s.maxItems}`,
      });
  }
  if (types.includes('object') && typeof s.maxProperties === 'number' && wire === 'json') {
    const n = s.maxProperties;
    out.push({
      kind: 'oversized',
      value: fc
        .uniqueArray(fc.string({ unit: fc.constantFrom(...LETTERS), minLength: 1, maxLength: 8 }), {
          minLength: n + 1,
          maxLength: n + 3,
        })
        .map((keys) => Object.fromEntries(keys.map((k) => [k, 'x']))),
      note: `more members than maxProperties ${n}`,
    });
  }
  return out;
}

/** A member's path from the body's top down (a number indexes an array). */
export type Loc = Array<string | number>;

export interface Point {
  loc: Loc;
  schema: Schema;
  required: boolean;
}

/** The members of a body schema a mistake may be placed at: properties, nested objects, the first item of arrays. */
export function points(doc: Schema, raw: unknown, loc: Loc = [], depth = 0): Point[] {
  const s = resolve(doc, raw);
  const out: Point[] = [];
  if (depth > 2) return out;
  const props = asObj(s.properties) ?? {};
  const required = new Set(Array.isArray(s.required) ? (s.required as string[]) : []);
  for (const [k, sub] of Object.entries(props)) {
    const r = resolve(doc, sub);
    out.push({ loc: [...loc, k], schema: r, required: required.has(k) });
    const t = typesOf(r);
    if (t.length === 1 && t[0] === 'object') out.push(...points(doc, r, [...loc, k], depth + 1));
    if (t.length === 1 && t[0] === 'array') {
      const items = resolve(doc, r.items);
      if (typesOf(items).length === 1 && typesOf(items)[0] === 'object')
        out.push(...points(doc, items, [...loc, k, 0], depth + 1));
    }
  }
  return out;
}

/** A valid value of `raw` in which the containers along `rest` exist (an object member, an array's first item). */
export function validAlong(doc: Schema, raw: unknown, rest: Loc, depth = 0): fc.Arbitrary<unknown> {
  const s = resolve(doc, raw);
  if (rest.length === 0 || depth > 6) return valid(doc, s, 'json', depth);
  const [head, ...tail] = rest;
  if (typeof head === 'number') {
    const max = typeof s.maxItems === 'number' ? s.maxItems : Infinity;
    return fc
      .tuple(valid(doc, s, 'json', depth), validAlong(doc, s.items ?? {}, tail, depth + 1))
      .map(([arr, first]): unknown[] =>
        [first, ...(Array.isArray(arr) ? (arr as unknown[]) : [])].slice(0, Math.max(1, max)),
      );
  }
  const sub = asObj(s.properties)?.[head] ?? {};
  return fc
    .tuple(valid(doc, s, 'json', depth), validAlong(doc, sub, tail, depth + 1))
    .map(([obj, member]) => ({ ...(asObj(obj) ?? {}), [head]: member }));
}

/** Sets (or, with `remove`, deletes) the member at `loc` of `root`, which validAlong made sure holds its containers. */
export function placeAt(root: unknown, loc: Loc, value: unknown, remove: boolean): void {
  let node = root as Record<string | number, unknown>;
  for (const key of loc.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  const last = loc[loc.length - 1];
  if (remove) delete node[last];
  else node[last] = value;
}

/** `body.content[0].type`: how a location reads in a report. */
export function locLabel(prefix: string, loc: Loc): string {
  return loc.reduce<string>((s, k) => (typeof k === 'number' ? `${s}[${k}]` : `${s}.${k}`), prefix);
}
