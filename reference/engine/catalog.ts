// The node catalog: the classes the reference engine knows, how their inputs are
// declared (shared with validation), how they run, and the v1 `/api/object_info`
// description of them (public facts §2: NodeInfo).
import type { EngineHost, Image, StoredOutput } from './types.ts';
import { decodePng, encodePng, PngError } from './png.ts';
import { isPlainObject } from '../../lib/values.ts';

// ---------------------------------------------------------------------------------
// Inputs

/**
 * One declared input. `IMAGE` inputs take a link `[nodeId, outputIndex]` to an IMAGE
 * output; `INT`, `FLOAT` and `STRING` take a literal (or a link to an output of the
 * same type); `IMAGE_SOURCE` (LoadImage) takes an uploaded input's file name or a v2
 * asset reference `{"__type":"core/ASSET","info":{"id":...}}`.
 */
export type InputSpec =
  | { type: 'INT'; min: number; max: number; default?: number; step?: number; tooltip?: string }
  | { type: 'FLOAT'; min: number; max: number; default?: number; step?: number; tooltip?: string }
  | { type: 'STRING'; default?: string; multiline?: boolean; maxLength?: number; tooltip?: string }
  | { type: 'IMAGE'; tooltip?: string }
  | { type: 'IMAGE_SOURCE'; tooltip?: string };

/** A link in an API-format workflow: `[sourceNodeId, outputIndex]`. */
export type Link = [string | number, number];

export function isLink(v: unknown): v is Link {
  return (
    Array.isArray(v) &&
    v.length === 2 &&
    (typeof v[0] === 'string' || (typeof v[0] === 'number' && Number.isFinite(v[0]))) &&
    Number.isInteger(v[1]) &&
    (v[1] as number) >= 0
  );
}

export function isAssetRefShaped(v: unknown): v is { __type: 'core/ASSET'; info?: unknown } {
  return isPlainObject(v) && v.__type === 'core/ASSET';
}

/** The asset id of a reference, or undefined when the reference is malformed. */
export function assetRefId(v: unknown): string | undefined {
  if (!isAssetRefShaped(v)) return undefined;
  const info = v.info;
  if (typeof info !== 'object' || info === null || Array.isArray(info)) return undefined;
  const id = (info as { id?: unknown }).id;
  return typeof id === 'string' && id.length > 0 ? id : undefined;
}

/**
 * Checks a literal (non-link) value against its declaration. Returns a message when the
 * value is not acceptable, else undefined. Asset references are accepted here by shape
 * only; whether the asset exists is the caller's question.
 */
export function checkLiteral(spec: InputSpec, value: unknown): string | undefined {
  switch (spec.type) {
    case 'INT':
      if (typeof value !== 'number' || !Number.isInteger(value)) return `expects an integer, got ${describe(value)}`;
      if (value < spec.min) return `value ${value} is smaller than the minimum ${spec.min}`;
      if (value > spec.max) return `value ${value} is bigger than the maximum ${spec.max}`;
      return undefined;
    case 'FLOAT':
      if (typeof value !== 'number' || !Number.isFinite(value)) return `expects a number, got ${describe(value)}`;
      if (value < spec.min) return `value ${value} is smaller than the minimum ${spec.min}`;
      if (value > spec.max) return `value ${value} is bigger than the maximum ${spec.max}`;
      return undefined;
    case 'STRING':
      if (typeof value !== 'string') return `expects a string, got ${describe(value)}`;
      if (spec.maxLength !== undefined && value.length > spec.maxLength)
        return `string is longer than ${spec.maxLength} characters`;
      return undefined;
    case 'IMAGE':
      return `expects a link [node_id, output_index] to an IMAGE output, got ${describe(value)}`;
    case 'IMAGE_SOURCE':
      if (typeof value === 'string') return value.length > 0 ? undefined : 'expects a file name, got an empty string';
      if (isAssetRefShaped(value)) return undefined;
      return `expects an uploaded file name or a {"__type":"core/ASSET","info":{"id":...}} reference, got ${describe(value)}`;
  }
}

/** Whether an input of this declaration may be fed by a link. */
export function acceptsLink(spec: InputSpec): boolean {
  return spec.type !== 'IMAGE_SOURCE';
}

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'string') return v.length > 40 ? 'a string' : `the string ${JSON.stringify(v)}`;
  if (typeof v === 'number') return `the number ${v}`;
  return `a value of type ${typeof v}`;
}

// ---------------------------------------------------------------------------------
// Running

/** Thrown by a node to fail the run with a Python-style exception type (ComfyUI's vocabulary). */
export class NodeError extends Error {
  constructor(
    readonly exceptionType: string,
    message: string,
  ) {
    super(message);
    this.name = 'NodeError';
  }
}

/** Thrown (by `ctx.sleep`) when the run is interrupted. */
export class CanceledError extends Error {
  constructor() {
    super('execution interrupted');
    this.name = 'CanceledError';
  }
}

/** What a node sees while it runs. Everything it reports goes through the executor. */
export interface NodeRunContext {
  readonly jobId: string;
  readonly account: string;
  readonly nodeId: string;
  readonly classType: string;
  /** Resolved inputs: links replaced by upstream outputs, optional inputs defaulted. */
  readonly inputs: Readonly<Record<string, unknown>>;
  /** The job's extra_data (holds the partner key); never stored. */
  readonly extraData: Readonly<Record<string, unknown>>;
  /** The executor's partner-key field, when configured; overrides the node's own. */
  readonly partnerKeyField: string | undefined;
  readonly host: EngineHost;
  readonly signal: AbortSignal;
  /** Step progress inside this node (v1 `progress` value/max). */
  progress(step: number, steps: number): void;
  /** A preview image (v1 binary PREVIEW_IMAGE frame, v2 `preview`). */
  preview(png: Uint8Array): void;
  /** A text result (v1 binary TEXT frame). */
  text(text: string): void;
  /** Stores an image (or its PNG bytes) through the host and records it as this node's output. */
  store(image: Image | Uint8Array, kind: 'output' | 'temp', filenamePrefix: string): StoredOutput;
  /** Waits; rejects with CanceledError as soon as the run is interrupted. */
  sleep(ms: number): Promise<void>;
}

export interface NodeClass {
  name: string;
  displayName?: string;
  input: { required: Record<string, InputSpec>; optional?: Record<string, InputSpec> };
  output: string[];
  outputName: string[];
  outputNode: boolean;
  category: string;
  description: string;
  pythonModule?: string;
  /** A partner (API) node: calls an external service and needs the partner key. */
  apiNode?: boolean;
  /** Needs a browser to finish; refused at submit with `waits_for_browser`. */
  waitsForBrowser?: boolean;
  run(ctx: NodeRunContext): Promise<unknown[]>;
}

// ---------------------------------------------------------------------------------
// Image helpers

function isImage(v: unknown): v is Image {
  if (typeof v !== 'object' || v === null) return false;
  const i = v as Partial<Image>;
  return (
    typeof i.width === 'number' &&
    typeof i.height === 'number' &&
    (i.channels === 3 || i.channels === 4) &&
    i.data instanceof Uint8Array &&
    i.data.length === i.width * i.height * i.channels
  );
}

function solidImage(width: number, height: number, rgb: number): Image {
  const data = new Uint8Array(width * height * 3);
  const r = (rgb >> 16) & 0xff;
  const g = (rgb >> 8) & 0xff;
  const b = rgb & 0xff;
  for (let i = 0; i < data.length; i += 3) {
    data[i] = r;
    data[i + 1] = g;
    data[i + 2] = b;
  }
  return { width, height, channels: 3, data };
}

function invertImage(img: Image): Image {
  const data = new Uint8Array(img.data.length);
  const c = img.channels;
  for (let i = 0; i < data.length; i++) data[i] = c === 4 && i % 4 === 3 ? img.data[i] : 255 - img.data[i];
  return { width: img.width, height: img.height, channels: img.channels, data };
}

function imageInput(ctx: NodeRunContext, name: string): Image | undefined {
  const v = ctx.inputs[name];
  if (v === undefined) return undefined;
  if (!isImage(v)) throw new NodeError('ValueError', `input "${name}" of node ${ctx.nodeId} is not an image`);
  return v;
}

function requireImage(ctx: NodeRunContext, name: string): Image {
  const img = imageInput(ctx, name);
  if (!img) throw new NodeError('ValueError', `input "${name}" of node ${ctx.nodeId} is missing`);
  return img;
}

function numberInput(ctx: NodeRunContext, name: string, fallback: number): number {
  const v = ctx.inputs[name];
  return typeof v === 'number' && Number.isFinite(v) ? v : fallback;
}

function stringInput(ctx: NodeRunContext, name: string, fallback: string): string {
  const v = ctx.inputs[name];
  return typeof v === 'string' ? v : fallback;
}

/** FNV-1a, for deterministic "generated" pictures. */
function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(text)) h = Math.imul(h ^ byte, 0x01000193) >>> 0;
  return h >>> 0;
}

// ---------------------------------------------------------------------------------
// The classes

export const DEFAULT_PARTNER_KEY_FIELD = 'api_key_comfy_org';

export interface CatalogOptions {
  /** Name of the extra_data field holding the partner key (`api_key_<brand>_org`). */
  partnerKeyField?: string;
}

function loadImage(): NodeClass {
  return {
    name: 'LoadImage',
    displayName: 'Load Image',
    input: {
      required: { image: { type: 'IMAGE_SOURCE', tooltip: 'An uploaded input file name, or a v2 asset reference.' } },
    },
    output: ['IMAGE'],
    outputName: ['IMAGE'],
    outputNode: false,
    category: 'image',
    description: 'Loads a PNG image: an uploaded input file by name, or an asset the account owns.',
    async run(ctx) {
      const source = ctx.inputs.image;
      let bytes: Uint8Array | undefined;
      let label: string;
      if (typeof source === 'string') {
        label = `input file "${source}"`;
        bytes = ctx.host.inputFileBytes(ctx.account, source);
      } else {
        const id = assetRefId(source);
        label = `asset ${id ?? '(malformed reference)'}`;
        bytes = id === undefined ? undefined : ctx.host.assetBytes(ctx.account, id);
      }
      if (!bytes) throw new NodeError('FileNotFoundError', `${label} does not exist`);
      try {
        return [decodePng(bytes)];
      } catch (err) {
        if (err instanceof PngError) throw new NodeError('ValueError', `cannot load ${label}: ${err.message}`);
        throw err;
      }
    },
  };
}

function emptyImage(): NodeClass {
  return {
    name: 'EmptyImage',
    displayName: 'Empty Image',
    input: {
      required: {
        width: { type: 'INT', min: 1, max: 4096, default: 64, step: 1 },
        height: { type: 'INT', min: 1, max: 4096, default: 64, step: 1 },
      },
      optional: { color: { type: 'INT', min: 0, max: 0xffffff, default: 0, step: 1, tooltip: '0xRRGGBB' } },
    },
    output: ['IMAGE'],
    outputName: ['IMAGE'],
    outputNode: false,
    category: 'image',
    description: 'Creates an RGB image of one colour.',
    async run(ctx) {
      return [solidImage(numberInput(ctx, 'width', 64), numberInput(ctx, 'height', 64), numberInput(ctx, 'color', 0))];
    },
  };
}

function imageInvert(): NodeClass {
  return {
    name: 'ImageInvert',
    displayName: 'Invert Image',
    input: { required: { image: { type: 'IMAGE' } } },
    output: ['IMAGE'],
    outputName: ['IMAGE'],
    outputNode: false,
    category: 'image',
    description: 'Inverts the colour channels (255 - value); alpha is kept.',
    async run(ctx) {
      return [invertImage(requireImage(ctx, 'image'))];
    },
  };
}

function saveImage(): NodeClass {
  return {
    name: 'SaveImage',
    displayName: 'Save Image',
    input: {
      required: { images: { type: 'IMAGE' } },
      optional: { filename_prefix: { type: 'STRING', default: 'ComfyUI', maxLength: 200 } },
    },
    output: [],
    outputName: [],
    outputNode: true,
    category: 'image',
    description: 'Saves the image as a PNG output of the job.',
    async run(ctx) {
      ctx.store(requireImage(ctx, 'images'), 'output', stringInput(ctx, 'filename_prefix', 'ComfyUI') || 'ComfyUI');
      return [];
    },
  };
}

function previewImage(): NodeClass {
  return {
    name: 'PreviewImage',
    displayName: 'Preview Image',
    input: { required: { images: { type: 'IMAGE' } } },
    output: [],
    outputName: [],
    outputNode: true,
    category: 'image',
    description: 'Stores the image as a temporary preview and sends it as a preview frame.',
    async run(ctx) {
      const png = encodePng(requireImage(ctx, 'images'));
      ctx.store(png, 'temp', 'ComfyUI_temp');
      ctx.preview(png);
      return [];
    },
  };
}

function sleep(): NodeClass {
  return {
    name: 'Sleep',
    displayName: 'Sleep',
    input: {
      required: { seconds: { type: 'FLOAT', min: 0, max: 30, default: 1, step: 0.1 } },
      optional: {
        image: { type: 'IMAGE', tooltip: 'Passed through unchanged; also sent as a preview.' },
        steps: { type: 'INT', min: 1, max: 100, default: 10, step: 1 },
      },
    },
    output: ['IMAGE'],
    outputName: ['IMAGE'],
    outputNode: false,
    category: 'utils',
    description: 'Waits for the given seconds in steps, reporting progress after each step; interruptible.',
    async run(ctx) {
      const seconds = numberInput(ctx, 'seconds', 1);
      const steps = Math.max(1, Math.floor(numberInput(ctx, 'steps', 10)));
      const image = imageInput(ctx, 'image');
      const stepMs = (seconds * 1000) / steps;
      for (let step = 1; step <= steps; step++) {
        await ctx.sleep(stepMs);
        ctx.progress(step, steps);
        if (step === 1 && image) ctx.preview(encodePng(image));
      }
      return [image ?? solidImage(1, 1, 0)];
    },
  };
}

function failNode(): NodeClass {
  return {
    name: 'FailNode',
    displayName: 'Fail',
    input: {
      required: {},
      optional: {
        message: { type: 'STRING', default: 'FailNode failed on purpose', maxLength: 2000 },
        image: { type: 'IMAGE', tooltip: 'Optional, only to order the failure after another node.' },
      },
    },
    output: [],
    outputName: [],
    outputNode: false,
    category: 'testing',
    description: 'Always fails at run time with a RuntimeError carrying the given message.',
    async run(ctx) {
      throw new NodeError('RuntimeError', stringInput(ctx, 'message', 'FailNode failed on purpose'));
    },
  };
}

function browserWaitNode(): NodeClass {
  return {
    name: 'BrowserWaitNode',
    displayName: 'Wait For Browser',
    input: { required: {}, optional: { image: { type: 'IMAGE' } } },
    output: ['IMAGE'],
    outputName: ['IMAGE'],
    outputNode: false,
    category: 'testing',
    description:
      'Waits for an interactive browser; cannot run headless, so it is refused at submit (waits_for_browser).',
    waitsForBrowser: true,
    async run(ctx) {
      throw new NodeError(
        'RuntimeError',
        `node ${ctx.nodeId} (BrowserWaitNode) waits for a browser and cannot run here`,
      );
    },
  };
}

function partnerImageNode(keyField: string): NodeClass {
  return {
    name: 'PartnerImageNode',
    displayName: 'Partner Image',
    input: {
      required: { prompt: { type: 'STRING', multiline: true, maxLength: 10_000 } },
      optional: {
        width: { type: 'INT', min: 1, max: 1024, default: 64, step: 1 },
        height: { type: 'INT', min: 1, max: 1024, default: 64, step: 1 },
      },
    },
    output: ['IMAGE'],
    outputName: ['IMAGE'],
    outputNode: false,
    category: 'api node/image',
    description: `A partner (API) node: "generates" an image from the prompt. Needs the partner key in extra_data.${keyField}.`,
    pythonModule: 'comfy_api_nodes.nodes_partner',
    apiNode: true,
    async run(ctx) {
      const field = ctx.partnerKeyField ?? keyField;
      const key = ctx.extraData[field];
      if (typeof key !== 'string' || key.length === 0) {
        throw new NodeError(
          'Exception',
          `Unauthorized: the partner key is missing; partner node PartnerImageNode needs it in extra_data.${field}`,
        );
      }
      const width = numberInput(ctx, 'width', 64);
      const height = numberInput(ctx, 'height', 64);
      const h = hash32(stringInput(ctx, 'prompt', ''));
      const data = new Uint8Array(width * height * 3);
      for (let y = 0; y < height; y++) {
        for (let x = 0; x < width; x++) {
          const i = (y * width + x) * 3;
          data[i] = ((h & 0xff) + x * 3) & 0xff;
          data[i + 1] = (((h >>> 8) & 0xff) + y * 3) & 0xff;
          data[i + 2] = (h >>> 16) & 0xff;
        }
      }
      return [{ width, height, channels: 3, data } satisfies Image];
    },
  };
}

function textOutput(): NodeClass {
  return {
    name: 'TextOutput',
    displayName: 'Text Output',
    input: { required: { text: { type: 'STRING', multiline: true, maxLength: 100_000 } } },
    output: [],
    outputName: [],
    outputNode: true,
    category: 'utils',
    description: 'Sends the text to the client (v1 binary TEXT frame).',
    async run(ctx) {
      ctx.text(stringInput(ctx, 'text', ''));
      return [];
    },
  };
}

// ---------------------------------------------------------------------------------
// Catalog and object_info

/** v1 `/api/object_info` value for one class (public facts §2). */
export interface NodeInfo {
  input: { required: Record<string, unknown[]>; optional?: Record<string, unknown[]> };
  input_order: { required: string[]; optional?: string[] };
  output: string[];
  output_is_list: boolean[];
  output_name: string[];
  name: string;
  display_name: string;
  description: string;
  python_module: string;
  category: string;
  output_node: boolean;
  output_tooltips: string[];
  deprecated: boolean;
  experimental: boolean;
  api_node: boolean;
}

export interface ObjectInfoOptions {
  /** The account's uploaded input files: the choices of LoadImage's `image` combo. */
  inputFiles?: string[];
}

function describeInput(spec: InputSpec, opts: ObjectInfoOptions): unknown[] {
  const extra: Record<string, unknown> = {};
  if (spec.tooltip !== undefined) extra.tooltip = spec.tooltip;
  switch (spec.type) {
    case 'INT':
    case 'FLOAT':
      return [
        spec.type,
        {
          ...(spec.default !== undefined ? { default: spec.default } : {}),
          min: spec.min,
          max: spec.max,
          ...(spec.step !== undefined ? { step: spec.step } : {}),
          ...extra,
        },
      ];
    case 'STRING':
      return [
        'STRING',
        {
          ...(spec.default !== undefined ? { default: spec.default } : {}),
          multiline: spec.multiline ?? false,
          ...extra,
        },
      ];
    case 'IMAGE':
      return ['IMAGE', extra];
    case 'IMAGE_SOURCE':
      return [[...(opts.inputFiles ?? [])].sort(), { image_upload: true, ...extra }];
  }
}

export class Catalog {
  private readonly classes = new Map<string, NodeClass>();

  constructor(classes: NodeClass[]) {
    for (const c of classes) {
      if (this.classes.has(c.name)) throw new Error(`duplicate node class ${c.name}`);
      this.classes.set(c.name, c);
    }
  }

  get(name: string): NodeClass | undefined {
    return this.classes.get(name);
  }

  has(name: string): boolean {
    return this.classes.has(name);
  }

  list(): NodeClass[] {
    return [...this.classes.values()];
  }

  /** The v1 `/api/object_info` body: every class keyed by name. */
  objectInfo(opts: ObjectInfoOptions = {}): Record<string, NodeInfo> {
    const out: Record<string, NodeInfo> = {};
    for (const c of this.classes.values()) {
      const required = Object.fromEntries(
        Object.entries(c.input.required).map(([k, s]) => [k, describeInput(s, opts)]),
      );
      const optionalEntries = Object.entries(c.input.optional ?? {});
      const info: NodeInfo = {
        input: {
          required,
          ...(optionalEntries.length
            ? { optional: Object.fromEntries(optionalEntries.map(([k, s]) => [k, describeInput(s, opts)])) }
            : {}),
        },
        input_order: {
          required: Object.keys(c.input.required),
          ...(optionalEntries.length ? { optional: optionalEntries.map(([k]) => k) } : {}),
        },
        output: [...c.output],
        output_is_list: c.output.map(() => false),
        output_name: [...c.outputName],
        name: c.name,
        display_name: c.displayName ?? c.name,
        description: c.description,
        python_module: c.pythonModule ?? 'nodes',
        category: c.category,
        output_node: c.outputNode,
        output_tooltips: c.output.map(() => ''),
        deprecated: false,
        experimental: false,
        api_node: c.apiNode === true,
      };
      out[c.name] = info;
    }
    return out;
  }
}

/** The reference catalog: every class above. */
export function createCatalog(opts: CatalogOptions = {}): Catalog {
  const keyField = opts.partnerKeyField ?? DEFAULT_PARTNER_KEY_FIELD;
  return new Catalog([
    loadImage(),
    emptyImage(),
    imageInvert(),
    saveImage(),
    previewImage(),
    sleep(),
    failNode(),
    browserWaitNode(),
    partnerImageNode(keyField),
    textOutput(),
  ]);
}

let shared: Catalog | undefined;

/** One shared default catalog (partner key field `api_key_comfy_org`). */
export function defaultCatalog(): Catalog {
  shared ??= createCatalog();
  return shared;
}

/** The v1 `/api/object_info` body of a catalog (the default one unless given). */
export function objectInfo(
  catalog: Catalog = defaultCatalog(),
  opts: ObjectInfoOptions = {},
): Record<string, NodeInfo> {
  return catalog.objectInfo(opts);
}
