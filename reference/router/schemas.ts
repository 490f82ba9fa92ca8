// Per-model input/output schemas and the standalone OpenAPI document each model serves
// at /v2/models/{provider}/{model}/openapi.json (and, for authored ones, as a snapshot).
import { createHash } from 'node:crypto';
import type { ModelDef, ModelKind } from './catalog.ts';

export type JsonSchema = Record<string, unknown>;

const IMAGE_INPUT: JsonSchema = {
  type: 'object',
  required: ['prompt'],
  properties: {
    prompt: { type: 'string', minLength: 1, maxLength: 2000, description: 'What to draw.' },
    negative_prompt: { type: 'string', maxLength: 2000 },
    num_images: { type: 'integer', minimum: 1, maximum: 4, default: 1 },
    width: { type: 'integer', minimum: 256, maximum: 2048, multipleOf: 64, default: 1024 },
    height: { type: 'integer', minimum: 256, maximum: 2048, multipleOf: 64, default: 1024 },
    seed: { type: 'integer', minimum: 0, maximum: 2147483647 },
    style: { type: 'string', enum: ['photo', 'illustration', 'render'] },
    image: {
      type: 'string',
      format: 'uri',
      maxLength: 2048,
      description: 'An input image: selects the edit (image-to-image) operation.',
    },
    options: {
      type: 'object',
      properties: {
        guidance: { type: 'number', minimum: 0, maximum: 20 },
        steps: { type: 'integer', minimum: 1, maximum: 50 },
      },
    },
  },
};

const IMAGE_OUTPUT: JsonSchema = {
  type: 'object',
  required: ['images'],
  properties: {
    images: {
      type: 'array',
      items: {
        type: 'object',
        required: ['url'],
        properties: {
          url: { type: 'string' },
          width: { type: 'integer' },
          height: { type: 'integer' },
          content_type: { type: 'string' },
        },
      },
    },
    seed: { type: 'integer' },
  },
};

const VIDEO_INPUT: JsonSchema = {
  type: 'object',
  required: ['content'],
  properties: {
    model: { type: 'string', description: 'When given, must name this model.' },
    content: {
      type: 'array',
      minItems: 1,
      maxItems: 8,
      items: {
        type: 'object',
        required: ['type'],
        properties: {
          type: { type: 'string', enum: ['text', 'image_url', 'video_url', 'draft_task'] },
          text: { type: 'string', minLength: 1, maxLength: 2000 },
          image_url: { type: 'object', required: ['url'], properties: { url: { type: 'string', format: 'uri' } } },
          video_url: { type: 'object', required: ['url'], properties: { url: { type: 'string', format: 'uri' } } },
          draft_task: { type: 'object', required: ['id'], properties: { id: { type: 'string', minLength: 1 } } },
          role: { type: 'string', enum: ['first_frame', 'last_frame', 'reference_image', 'reference_video'] },
        },
      },
    },
    duration: { type: 'integer', minimum: 2, maximum: 12, default: 5 },
    resolution: { type: 'string', enum: ['480p', '720p', '1080p'] },
  },
};

const VIDEO_OUTPUT: JsonSchema = {
  type: 'object',
  required: ['id', 'status'],
  properties: {
    id: { type: 'string' },
    status: { type: 'string' },
    content: { type: 'object', properties: { video_url: { type: 'string' } } },
  },
};

const TEXT_INPUT: JsonSchema = {
  type: 'object',
  required: ['messages'],
  properties: {
    model: { type: 'string', description: 'When given, must name this model.' },
    messages: {
      type: 'array',
      minItems: 1,
      maxItems: 32,
      items: {
        type: 'object',
        required: ['role', 'content'],
        properties: {
          role: { type: 'string', enum: ['system', 'user', 'assistant'] },
          content: { type: 'string', minLength: 1, maxLength: 8000 },
        },
      },
    },
    max_tokens: { type: 'integer', minimum: 1, maximum: 8192 },
    temperature: { type: 'number', minimum: 0, maximum: 2 },
  },
};

const TEXT_OUTPUT: JsonSchema = {
  type: 'object',
  required: ['choices'],
  properties: {
    id: { type: 'string' },
    choices: { type: 'array', items: { type: 'object' } },
    usage: { type: 'object' },
  },
};

const AUDIO_INPUT: JsonSchema = {
  type: 'object',
  required: ['text'],
  properties: {
    text: { type: 'string', minLength: 1, maxLength: 5000 },
    voice: { type: 'string', enum: ['alloy', 'breeze', 'cinder'] },
    speed: { type: 'number', minimum: 0.5, maximum: 2 },
  },
};

const INPUTS: Record<ModelKind, JsonSchema | undefined> = {
  image: IMAGE_INPUT,
  video: VIDEO_INPUT,
  text: TEXT_INPUT,
  audio: AUDIO_INPUT,
  free: undefined,
};

export function inputSchema(model: ModelDef): JsonSchema | undefined {
  const base = INPUTS[model.kind];
  if (!base || !model.authored) return undefined;
  return model.closed ? { ...base, additionalProperties: false } : base;
}

function outputContent(kind: ModelKind): Record<string, unknown> {
  switch (kind) {
    case 'image':
      return { 'application/json': { schema: IMAGE_OUTPUT } };
    case 'video':
      return { 'application/json': { schema: VIDEO_OUTPUT } };
    case 'text':
      return { 'application/json': { schema: TEXT_OUTPUT } };
    case 'audio':
      return { 'audio/mpeg': { schema: { type: 'string', format: 'binary' } } };
    case 'free':
      return { '*/*': { schema: {} } };
  }
}

export interface SchemaDocument {
  bytes: Buffer;
  etag: string;
}

/** The model's document, serialised once so its ETag is a strong tag of exactly these bytes. */
export function schemaDocument(
  model: ModelDef,
  brand: string,
  input: JsonSchema | undefined = inputSchema(model),
): SchemaDocument {
  const b = brand.toLowerCase();
  const doc = {
    openapi: '3.1.0',
    info: { title: `${model.id} input and output`, version: '1' },
    [`x-${b}-input-schema-authored`]: input !== undefined,
    [`x-${b}-router-model-id`]: model.id,
    [`x-${b}-router-output-modalities`]: [model.kind === 'free' ? 'unknown' : model.kind],
    paths: {
      [`/v2/models/${model.id}`]: {
        post: {
          operationId: `run_${model.id.replace(/[^a-z0-9]/g, '_')}`,
          requestBody: {
            required: true,
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Input' } } },
          },
          responses: { '200': { description: 'The model output.', content: outputContent(model.kind) } },
        },
      },
    },
    components: { schemas: { Input: input ?? { type: 'object', description: 'Not authored: any JSON object.' } } },
  };
  const bytes = Buffer.from(JSON.stringify(doc));
  const etag = `"${createHash('sha256').update(bytes).digest('hex').slice(0, 32)}"`;
  return { bytes, etag };
}
