// The requests the explorer sends to one operation, drawn from its contract: every path,
// query and header parameter and the body, each from its schema. A valid request gives
// every part a value its schema accepts; a mistaken one is the operation's fixed base
// request (a valid request a family names, lib/explore/families.ts) broken in exactly one
// place, so that two requests with the same mistake differ only in the broken value.
import fc from 'fast-check';
import type { Contract } from '../contracts/loader.ts';
import type { FilePart } from '../http.ts';
import { SuiteError } from '../violations.ts';
import {
  asObj,
  locLabel,
  mistakes,
  placeAt,
  points,
  resolve,
  valid,
  validAlong,
  type Loc,
  type MistakeKind,
  type Schema,
  type Wire,
} from './schema.ts';
import { textOf } from '../values.ts';

export interface ParamModel {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  schema: Schema;
  /** `style: deepObject` (the v2 job list's metadata[<key>] filters). */
  deepObject: boolean;
}

export interface BodyModel {
  media: 'json' | 'form';
  required: boolean;
  schema: Schema;
  /** Form fields in the order they are sent (`x-part-order`), the file last. */
  partOrder: string[];
  /** Form fields that carry a file. */
  fileFields: string[];
}

export interface OperationModel {
  id: string;
  method: string;
  params: ParamModel[];
  body?: BodyModel;
}

type Obj = Record<string, unknown>;

/** The request side of one operation, read from the contract document. */
export function operationModel(contract: Contract, operationId: string): OperationModel {
  const spec = contract.operations.get(operationId);
  if (!spec) throw new SuiteError(`operation ${operationId} is not in ${contract.file}`);
  const doc = contract.document as Obj;
  const item = asObj(asObj(doc.paths)?.[spec.path]) ?? {};
  const op = asObj(item[spec.method.toLowerCase()]) ?? {};
  const params = new Map<string, ParamModel>();
  for (const raw of [...((item.parameters as unknown[]) ?? []), ...((op.parameters as unknown[]) ?? [])]) {
    const p = resolve(doc, raw);
    const where = p.in;
    if (typeof p.name !== 'string' || (where !== 'path' && where !== 'query' && where !== 'header')) continue;
    params.set(`${where}:${p.name.toLowerCase()}`, {
      name: p.name,
      in: where,
      required: p.required === true || where === 'path',
      schema: resolve(doc, p.schema),
      deepObject: p.style === 'deepObject',
    });
  }
  let body: BodyModel | undefined;
  const rb = resolve(doc, op.requestBody);
  const content = asObj(rb.content) ?? {};
  const media = Object.keys(content)[0];
  if (media) {
    const schema = resolve(doc, asObj(content[media])?.schema);
    const form = media === 'multipart/form-data';
    const props = asObj(schema.properties) ?? {};
    const fileFields = Object.entries(props)
      .filter(([, v]) => {
        const s = resolve(doc, v);
        return s.format === 'binary' || s.contentMediaType === 'application/octet-stream';
      })
      .map(([k]) => k);
    const declared = Array.isArray(schema['x-part-order']) ? (schema['x-part-order'] as string[]) : [];
    const partOrder = [
      ...declared,
      ...Object.keys(props).filter((k) => !declared.includes(k) && !fileFields.includes(k)),
      ...fileFields.filter((k) => !declared.includes(k)),
    ];
    body = { media: form ? 'form' : 'json', required: rb.required === true, schema, partOrder, fileFields };
  }
  return { id: operationId, method: spec.method, params: [...params.values()], ...(body ? { body } : {}) };
}

/** Where a mistake sits and what it is. */
export interface MistakeAt {
  /** `path.id`, `query.limit`, `header.Idempotency-Key`, `body`, `body.hash`, `body.content[0].type`. */
  where: string;
  kind: MistakeKind;
  note: string;
  /** Whether the broken member is one its schema requires. */
  requiredMember: boolean;
  /** False for a mistake the schema bounds only loosely (see MistakeGen.exact). */
  exact: boolean;
}

export interface RequestCase {
  /** `valid`, or the mistake as `<where> <kind>`: the group the same-mistake invariant compares. */
  label: string;
  mistake?: MistakeAt;
  path: Record<string, string>;
  query: Record<string, string>;
  headers: Record<string, string>;
  json?: unknown;
  form?: Array<[string, string | FilePart]>;
  /** False when the request carries no body at all. */
  hasBody: boolean;
}

/** What a family fixes for an operation: real resources in its base request and valid values. */
export interface Hints {
  /** Values of the base request: `path.<name>`, `query.<name>`, `header.<name>`, `body` (the whole JSON body, or form fields by name). */
  base: Record<string, unknown>;
  /** Arbitraries replacing the schema's for valid requests, by the same keys (`body.<member>` for one body member or form field). */
  valid?: Record<string, fc.Arbitrary<unknown>>;
  /** Another body schema than the contract's (the router: the body schema of the model's document). */
  bodySchema?: Schema;
  /** The document the body schema's $refs point into (default: the contract's). */
  bodyDoc?: Schema;
  /** Whether a string's `format` is judged in the body (false: an annotation only, as the router's model schemas). */
  bodyFormats?: boolean;
  /** Locations never broken (a header only one value of is meaningful). */
  fixed?: string[];
  /** The bytes of a file part. */
  file: fc.Arbitrary<FilePart>;
  /** The base request's file part. */
  baseFile: FilePart;
  /** A final touch to every JSON body (the router pins a `model` member to the path's model). */
  finishBody?: (body: unknown, mistake?: MistakeAt) => unknown;
}

const OVERSIZED: Record<Wire, number> = { json: 8192, form: 8192, query: 4096, header: 2048, path: 96 };

function key(p: ParamModel): string {
  return `${p.in}.${p.name}`;
}

/** A deepObject value (`{k: v}`) as its query parameters `name[k]=v`. */
function expand(p: ParamModel, value: unknown): Array<[string, string]> {
  // A deepObject value of another type than an object (a mistake) is sent as the bare parameter.
  if (p.deepObject && asObj(value))
    return Object.entries(asObj(value)!).map(([k, v]) => [`${p.name}[${k}]`, String(v)]);
  return [[p.name, typeof value === 'string' ? value : JSON.stringify(value)]];
}

function paramValid(doc: Schema, p: ParamModel, hints: Hints): fc.Arbitrary<unknown> {
  return hints.valid?.[key(p)] ?? valid(doc, p.schema, p.deepObject ? 'json' : p.in);
}

function assemble(values: Map<ParamModel, unknown>): Pick<RequestCase, 'path' | 'query' | 'headers'> {
  const out = {
    path: {} as Record<string, string>,
    query: {} as Record<string, string>,
    headers: {} as Record<string, string>,
  };
  for (const [p, v] of values) {
    if (v === undefined) continue;
    if (p.in === 'path') out.path[p.name] = textOf(v);
    else if (p.in === 'header') out.headers[p.name] = textOf(v);
    else for (const [k, s] of expand(p, v)) out.query[k] = s;
  }
  return out;
}

function formParts(body: BodyModel, fields: Obj, file: FilePart): Array<[string, string | FilePart]> {
  const parts: Array<[string, string | FilePart]> = [];
  for (const name of body.partOrder) {
    if (!(name in fields)) continue;
    const v = fields[name];
    if (v === undefined) continue;
    if (body.fileFields.includes(name) && v === FILE) parts.push([name, file]);
    else if (Array.isArray(v)) for (const item of v) parts.push([name, String(item)]);
    else parts.push([name, typeof v === 'string' ? v : JSON.stringify(v)]);
  }
  return parts;
}

/** Marks a form field that carries the file part. */
const FILE = Symbol('file');

export interface Cases {
  /** Drawn requests: one valid request for every two mistaken ones. */
  arbitrary: fc.Arbitrary<RequestCase>;
  /**
   * The requests sent first, whatever the budget: the base request, then each way of breaking
   * it once (in an order the seed shuffles, at most `limit`), each value drawn from the seed so
   * that a replay builds the same ones.
   */
  examples(seed: number, limit: number): RequestCase[];
}

/** The requests for one operation: valid ones, and the base request broken in one place. */
export function requestCases(contract: Contract, model: OperationModel, hints: Hints): Cases {
  const doc = contract.document as Schema;
  const bodyDoc = hints.bodyDoc ?? doc;
  const bodySchema = hints.bodySchema ?? model.body?.schema;
  const finish = (body: unknown, m?: MistakeAt) => (hints.finishBody ? hints.finishBody(body, m) : body);

  // ---- valid requests ----
  const paramArbs = model.params.map((p) =>
    p.required ? paramValid(doc, p, hints) : fc.option(paramValid(doc, p, hints), { nil: undefined }),
  );
  let bodyArb: fc.Arbitrary<Partial<RequestCase>> = fc.constant({ hasBody: false });
  if (model.body && bodySchema) {
    const b = model.body;
    if (b.media === 'json') {
      const resolved = resolve(bodyDoc, bodySchema);
      const props = asObj(resolved.properties) ?? {};
      const required = new Set((resolved.required as string[] | undefined) ?? []);
      const overridden = Object.keys(props).filter((k) => hints.valid?.[`body.${k}`]);
      const base = hints.valid?.body ?? valid(bodyDoc, bodySchema, 'json');
      const withOverrides = overridden.length
        ? fc.tuple(base, fc.tuple(...overridden.map((k) => hints.valid![`body.${k}`]))).map(([v, over]) => {
            const o = { ...(asObj(v) ?? {}) };
            overridden.forEach((k, i) => {
              if (k in o || required.has(k)) o[k] = over[i];
            });
            return o;
          })
        : base;
      bodyArb = withOverrides.map((json) => ({ json: finish(json), hasBody: true }));
    } else {
      const s = resolve(bodyDoc, bodySchema);
      const required = new Set((s.required as string[] | undefined) ?? []);
      const fieldArbs: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [name, sub] of Object.entries(asObj(s.properties) ?? {})) {
        const schema = resolve(bodyDoc, sub);
        const arb = b.fileFields.includes(name)
          ? fc.constant(FILE)
          : (hints.valid?.[`body.${name}`] ??
            (schema.type === 'array'
              ? fc.array(valid(bodyDoc, schema.items ?? {}, 'form'), { maxLength: 3 })
              : valid(bodyDoc, schema, 'form')));
        fieldArbs[name] = required.has(name) ? arb : fc.option(arb, { nil: undefined });
      }
      bodyArb = fc
        .tuple(fc.record(fieldArbs), hints.file)
        .map(([fields, file]) => ({ form: formParts(b, fields, file), hasBody: true }));
    }
  }
  const validCase: fc.Arbitrary<RequestCase> = fc.tuple(fc.tuple(...paramArbs), bodyArb).map(([vals, body]) => {
    const values = new Map(model.params.map((p, i) => [p, vals[i]] as [ParamModel, unknown]));
    return { label: 'valid', ...assemble(values), hasBody: false, ...body };
  });

  // ---- the base request, and the ways to break it in one place ----
  const baseParams = new Map(model.params.map((p) => [p, hints.base[key(p)]] as [ParamModel, unknown]));
  for (const p of model.params)
    if (p.required && baseParams.get(p) === undefined)
      throw new SuiteError(`explorer: no base value for the required ${p.in} parameter ${p.name} of ${model.id}`);
  const baseBody = hints.base.body;
  const fixed = new Set(hints.fixed ?? []);

  interface Slot {
    at: MistakeAt;
    value?: fc.Arbitrary<unknown>;
    remove?: boolean;
    /** Builds the request from the base with this value (undefined when removed). */
    build: (value: unknown, container: unknown) => RequestCase;
    container?: fc.Arbitrary<unknown>;
  }
  const slots: Slot[] = [];
  const baseCase = (): Omit<RequestCase, 'label'> => ({
    ...assemble(baseParams),
    ...bodyOfBase(),
    hasBody: model.body !== undefined,
  });
  const bodyOfBase = (): Partial<RequestCase> => {
    if (!model.body) return {};
    if (model.body.media === 'json') return { json: finish(structuredClone(baseBody)) };
    return {
      form: formParts(
        model.body,
        { ...(asObj(baseBody) ?? {}), ...Object.fromEntries(model.body.fileFields.map((f) => [f, FILE])) },
        hints.baseFile,
      ),
    };
  };

  for (const p of model.params) {
    const where = key(p);
    if (fixed.has(where)) continue;
    const wire: Wire = p.deepObject ? 'json' : p.in;
    for (const m of mistakes(doc, p.schema, wire, {
      required: p.required && p.in !== 'path',
      oversizedMax: OVERSIZED[p.in],
    })) {
      if (p.in === 'path' && m.kind === 'range') continue;
      const at: MistakeAt = { where, kind: m.kind, note: m.note, requiredMember: p.required, exact: m.exact !== false };
      slots.push({
        at,
        ...(m.value ? { value: m.value } : {}),
        ...(m.remove ? { remove: true } : {}),
        build: (value) => {
          const values = new Map(baseParams);
          values.set(p, m.remove ? undefined : value);
          return {
            label: labelOf(where, m),
            mistake: at,
            ...assemble(values),
            ...bodyOfBase(),
            hasBody: model.body !== undefined,
          };
        },
      });
    }
  }

  if (model.body && bodySchema) {
    const b = model.body;
    if (b.required) {
      const at: MistakeAt = {
        where: 'body',
        kind: 'missing',
        note: 'the required body left out',
        requiredMember: true,
        exact: true,
      };
      slots.push({
        at,
        remove: true,
        build: () => ({
          label: 'body missing',
          mistake: at,
          ...baseCase(),
          json: undefined,
          form: undefined,
          hasBody: false,
        }),
      });
    }
    if (b.media === 'json') {
      const rootWrong = fc.constantFrom<unknown>(['conformance'], 'conformance', 42, true, null);
      const at: MistakeAt = {
        where: 'body',
        kind: 'type',
        note: 'a JSON body that is not an object',
        requiredMember: true,
        exact: true,
      };
      slots.push({
        at,
        value: rootWrong,
        build: (value) => ({ label: 'body type', mistake: at, ...baseCase(), json: value, hasBody: true }),
      });
      for (const pt of points(bodyDoc, bodySchema)) {
        const where = locLabel('body', pt.loc);
        if (fixed.has(where)) continue;
        const parentLoc = pt.loc.slice(0, -1);
        const inBase = hasPath(baseBody, parentLoc);
        const topSchema = asObj(asObj(resolve(bodyDoc, bodySchema).properties)?.[pt.loc[0] as string]) ?? {};
        const container =
          parentLoc.length > 0 && !inBase ? validAlong(bodyDoc, topSchema, parentLoc.slice(1)) : undefined;
        for (const m of mistakes(bodyDoc, pt.schema, 'json', {
          required: pt.required,
          formats: hints.bodyFormats !== false,
          oversizedMax: OVERSIZED.json,
        })) {
          const at: MistakeAt = {
            where,
            kind: m.kind,
            note: m.note,
            requiredMember: pt.required && parentLoc.length === 0,
            exact: m.exact !== false,
          };
          slots.push({
            at,
            ...(m.value ? { value: m.value } : {}),
            ...(m.remove ? { remove: true } : {}),
            ...(container ? { container } : {}),
            build: (value, made) => {
              const json = structuredClone<Obj>(asObj(baseBody) ?? {});
              if (made !== undefined) json[pt.loc[0] as string] = structuredClone(made);
              placeAt(json, pt.loc, value, m.remove === true);
              return { label: labelOf(where, m), mistake: at, ...baseCase(), json: finish(json, at), hasBody: true };
            },
          });
        }
      }
    } else {
      const s = resolve(bodyDoc, bodySchema);
      const required = new Set((s.required as string[] | undefined) ?? []);
      for (const [name, sub] of Object.entries(asObj(s.properties) ?? {})) {
        const where = `body.${name}`;
        if (fixed.has(where)) continue;
        const schema = resolve(bodyDoc, sub);
        const isFile = b.fileFields.includes(name);
        const gens = isFile
          ? [
              ...(required.has(name)
                ? [{ kind: 'missing' as const, remove: true as const, note: 'the required file part left out' }]
                : []),
              {
                kind: 'type' as const,
                value: fc.string({ unit: fc.constantFrom(...'abcdefghij'), minLength: 1, maxLength: 12 }),
                note: 'a text field where a file part is declared',
              },
            ]
          : schema.type === 'array'
            ? []
            : mistakes(bodyDoc, schema, 'form', { required: required.has(name), oversizedMax: OVERSIZED.form });
        for (const m of gens) {
          const at: MistakeAt = {
            where,
            kind: m.kind,
            note: m.note,
            requiredMember: required.has(name),
            exact: !('exact' in m) || m.exact !== false,
          };
          slots.push({
            at,
            ...('value' in m && m.value ? { value: m.value } : {}),
            ...('remove' in m && m.remove ? { remove: true } : {}),
            build: (value) => {
              const fields: Obj = {
                ...(asObj(baseBody) ?? {}),
                ...Object.fromEntries(b.fileFields.map((f) => [f, FILE])),
              };
              if ('remove' in m && m.remove) delete fields[name];
              else fields[name] = value;
              return {
                label: labelOf(where, m),
                mistake: at,
                ...baseCase(),
                form: formParts(b, fields, hints.baseFile),
                hasBody: true,
              };
            },
          });
        }
      }
    }
  }

  const drawn = (slot: Slot) =>
    fc
      .tuple(slot.value ?? fc.constant(undefined), slot.container ?? fc.constant(undefined))
      .map(([value, made]) => slot.build(value, made));
  const examples = (seed: number, limit: number): RequestCase[] => {
    const order =
      fc.sample(
        fc.shuffledSubarray(
          slots.map((_, i) => i),
          { minLength: slots.length, maxLength: slots.length },
        ),
        { seed, numRuns: 1 },
      )[0] ?? [];
    const picked = order.slice(0, Math.max(0, limit - 1));
    return [
      { label: 'valid', ...baseCase() },
      ...picked.map((i) => fc.sample(drawn(slots[i]), { seed: seed + i + 1, numRuns: 1 })[0]),
    ];
  };
  if (slots.length === 0)
    return { arbitrary: validCase, examples: (_seed, limit) => (limit > 0 ? [{ label: 'valid', ...baseCase() }] : []) };
  const mistaken = fc.integer({ min: 0, max: slots.length - 1 }).chain((i) => drawn(slots[i]));
  // One valid request for every two mistaken ones: the mistakes are where servers differ.
  return { arbitrary: fc.oneof({ weight: 1, arbitrary: validCase }, { weight: 2, arbitrary: mistaken }), examples };
}

/** `<where> <kind>[ <variant>]`: the group two requests share when they make the same mistake. */
function labelOf(where: string, m: { kind: MistakeKind; variant?: string }): string {
  return `${where} ${m.kind}${m.variant ? ` ${m.variant}` : ''}`;
}

function hasPath(root: unknown, loc: Loc): boolean {
  let node: unknown = root;
  for (const k of loc) {
    if (typeof node !== 'object' || node === null) return false;
    node = (node as Record<string | number, unknown>)[k];
    if (node === undefined) return false;
  }
  return typeof node === 'object' && node !== null;
}
