// Simulated partner providers. Outputs are deterministic functions of (model, leg, body),
// so a queued run collects exactly the bytes a synchronous run of the same input answers.
//
// Scenario inputs in a body (any text field): `[[fail]]` makes every provider answer 503,
// `[[malformed]]` makes the provider call the request malformed (400, with a reason),
// `[[policy]]` / `[[policy:<subject>]]` makes it refuse on content-policy grounds, and
// `[[timeout]]` makes the call pass its deadline after the generation was submitted, and
// `[[cutoff]]` does the same at a submit-and-poll partner that still finishes the generation.
// `[[fail:native,fal]]`, `[[malformed:native]]`, `[[timeout:native]]` limit a trigger to the
// legs listed (`native` is the model's own provider), so fallback has somewhere to go.
import { createHash } from 'node:crypto';
import type { Alternate, ModelDef } from './catalog.ts';
import type { Leg } from './pricing.ts';
import { isPlainObject } from '../../lib/values.ts';

/** The most images a partner with a per-call requirement makes (control router-provider-requirements). */
export const PARTNER_IMAGE_CAP = 3;

export type PartnerAnswer =
  | { kind: 'ok'; contentType: string; bytes: Buffer; outputTokens: number }
  | { kind: 'unavailable'; upstreamStatus: number } // provider could not take the call (retryable elsewhere)
  | { kind: 'unparseable'; upstreamStatus: number } // provider answered something that is not a result
  | { kind: 'rejected'; upstreamStatus: number; reason: string } // provider called the request malformed
  | { kind: 'policy'; subject: string }
  | { kind: 'timeout'; finished?: Extract<PartnerAnswer, { kind: 'ok' }> }; // `finished`: the generation completed after the call was cut off

export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (isPlainObject(value))
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`)
      .join(',')}}`;
  return JSON.stringify(value);
}

function digest(...parts: string[]): string {
  return createHash('sha256').update(parts.join('\n')).digest('hex');
}

function texts(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) value.forEach((v) => texts(v, out));
  else if (isPlainObject(value)) Object.values(value).forEach((v) => texts(v, out));
  return out;
}

export type TriggerKind = 'fail' | 'malformed' | 'timeout' | 'cutoff';
export type Trigger = { kind: TriggerKind; legs?: string[] } | { kind: 'policy'; subject: string };

/** A trigger written in the body, if any. */
function triggerIn(body: unknown): Trigger | undefined {
  for (const t of texts(body)) {
    const m = /\[\[(fail|malformed|timeout|cutoff)(?::([a-z0-9_,-]+))?\]\]/.exec(t);
    if (m) return { kind: m[1] as TriggerKind, ...(m[2] ? { legs: m[2].split(',') } : {}) };
    const p = /\[\[policy(?::([a-z_]+))?\]\]/.exec(t);
    if (p) return { kind: 'policy', subject: p[1] ?? 'input_text' };
  }
  return undefined;
}

/** Whether a trigger applies to the leg being called. */
function hits(trigger: Trigger | undefined, kind: TriggerKind, leg: Leg): boolean {
  if (trigger?.kind !== kind || !('legs' in trigger)) return trigger?.kind === kind;
  return trigger.legs === undefined || trigger.legs.includes(leg.kind === 'native' ? 'native' : leg.provider);
}

const CDN: Record<string, string> = {
  fal: 'https://v3.fal.media.example',
  wavespeed: 'https://cdn.wavespeed.example',
  runware: 'https://im.runware.example',
  higgsfield: 'https://cdn.higgsfield.example',
};

function cdnOf(leg: Leg): string {
  return leg.kind === 'alternate' ? CDN[leg.provider] : `https://cdn.${leg.provider}.example`;
}

function json(value: unknown): { kind: 'ok'; contentType: string; bytes: Buffer; outputTokens: number } {
  return { kind: 'ok', contentType: 'application/json', bytes: Buffer.from(JSON.stringify(value)), outputTokens: 0 };
}

function imageOutput(model: ModelDef, leg: Leg, body: Record<string, unknown>, h: string): Record<string, unknown> {
  const n = typeof body.num_images === 'number' ? body.num_images : 1;
  const width = typeof body.width === 'number' ? body.width : 1024;
  const height = typeof body.height === 'number' ? body.height : 1024;
  const seed = typeof body.seed === 'number' ? body.seed : parseInt(h.slice(0, 8), 16) % 2147483647;
  const images = Array.from({ length: n }, (_, i) => ({
    url: `${cdnOf(leg)}/out/${h.slice(0, 24)}-${i}.png`,
    width,
    height,
    content_type: 'image/png',
  }));
  const out: Record<string, unknown> = { images, seed, has_nsfw_concepts: images.map(() => false) };
  if (model.behaviour === 'gallery')
    out.gallery = Array.from({ length: 3000 }, (_, i) => `${cdnOf(leg)}/gallery/${h.slice(0, 40)}/${i}.png`);
  return out;
}

/** The alternate provider's own (raw) answer, as strict mode returns it unchanged. */
function rawAlternateImage(provider: Alternate, body: Record<string, unknown>, h: string): Record<string, unknown> {
  const url = `${CDN[provider]}/out/${h.slice(0, 24)}-0.png`;
  switch (provider) {
    case 'fal':
      return {
        images: [{ url, content_type: 'image/png' }],
        timings: { inference: 0.42 },
        seed: parseInt(h.slice(0, 6), 16),
        prompt: body.prompt,
      };
    case 'wavespeed':
      return { data: { id: h.slice(0, 16), outputs: [url], status: 'completed' } };
    case 'runware':
      return { data: [{ taskType: 'imageInference', imageUUID: h.slice(0, 32), imageURL: url }] };
    case 'higgsfield':
      return { id: h.slice(0, 16), jobs: [{ status: 'completed', results: { raw: { url } } }] };
  }
}

/** What each alternate's own schema requires (strict mode forwards the body as is). */
const ALTERNATE_REQUIRES: Record<Alternate, string> = {
  fal: 'prompt',
  wavespeed: 'text',
  runware: 'positivePrompt',
  higgsfield: 'prompt',
};

export interface Dispatch {
  model: ModelDef;
  leg: Leg;
  body: Record<string, unknown>;
  /** Strict mode: the body is already the alternate's own schema and the raw answer is returned. */
  strict: boolean;
  /** The most images one call of an image partner takes, beyond the schema (none: no such limit). */
  /** Asked only of a call for more images than any cap the control could set (router-provider-requirements). */
  imageCap?: (() => number | undefined) | undefined;
}

export function callPartner(dispatch: Dispatch): PartnerAnswer {
  const answer = generate(dispatch);
  // Cut off mid-generation: the caller's call ends at its deadline, the partner finishes anyway.
  if (hits(triggerIn(dispatch.body), 'cutoff', dispatch.leg) && answer.kind === 'ok')
    return { kind: 'timeout', finished: answer };
  return answer;
}

/** Whether an answer's body still holds one of the alternate providers' own asset links (only a fault asks). */
export function holdsPartnerLink(body: Buffer): boolean {
  const text = body.toString('utf8');
  return Object.values(CDN).some((origin) => text.includes(origin));
}

function generate({ model, leg, body, strict, imageCap }: Dispatch): PartnerAnswer {
  const trigger = triggerIn(body);
  const cap =
    model.kind === 'image' && typeof body.num_images === 'number' && body.num_images > PARTNER_IMAGE_CAP
      ? imageCap?.()
      : undefined;
  if (cap !== undefined && typeof body.num_images === 'number' && body.num_images > cap) {
    return {
      kind: 'rejected',
      upstreamStatus: 400,
      reason: `num_images: this partner makes at most ${cap} images per call`,
    };
  }
  if (hits(trigger, 'fail', leg)) return { kind: 'unavailable', upstreamStatus: 503 };
  if (model.behaviour === 'native-fails' && leg.kind === 'native') return { kind: 'unavailable', upstreamStatus: 503 };
  if (model.behaviour === 'broken-output') return { kind: 'unparseable', upstreamStatus: 200 };
  if (model.behaviour === 'deadline' || hits(trigger, 'timeout', leg)) return { kind: 'timeout' };
  if (hits(trigger, 'malformed', leg))
    return { kind: 'rejected', upstreamStatus: 400, reason: 'the prompt contains a token the model does not accept' };
  if (trigger?.kind === 'policy') return { kind: 'policy', subject: trigger.subject };

  const h = digest(model.id, leg.provider, strict ? 'strict' : 'native', canonical(body));
  if (strict && leg.kind === 'alternate') {
    const needs = ALTERNATE_REQUIRES[leg.provider];
    if (typeof body[needs] !== 'string')
      return { kind: 'rejected', upstreamStatus: 422, reason: `${leg.provider} requires the field ${needs}` };
    return json(rawAlternateImage(leg.provider, body, h));
  }
  switch (model.kind) {
    case 'image':
      return json(imageOutput(model, leg, body, h));
    case 'video': {
      const op = (body.content as Array<Record<string, unknown>>).some((i) => i.type === 'video_url')
        ? 'video_to_video'
        : 'generation';
      return json({
        id: `cgt-${h.slice(0, 20)}`,
        model: model.model,
        status: 'succeeded',
        content: { video_url: `${cdnOf(leg)}/video/${h.slice(0, 24)}.mp4` },
        usage: { completion_tokens: parseInt(h.slice(0, 4), 16) },
        operation: op,
      });
    }
    case 'text': {
      const max = typeof body.max_tokens === 'number' ? body.max_tokens : 256;
      const outputTokens = Math.min(max, 8 + (parseInt(h.slice(0, 2), 16) % 24));
      const answer = json({
        id: `chatcmpl-${h.slice(0, 20)}`,
        object: 'chat.completion',
        model: model.model,
        choices: [
          { index: 0, message: { role: 'assistant', content: `reply ${h.slice(0, 12)}` }, finish_reason: 'stop' },
        ],
        usage: { completion_tokens: outputTokens },
      });
      return { ...answer, outputTokens };
    }
    case 'audio': {
      const seed = Buffer.from(h, 'hex');
      const frames = Buffer.concat(Array.from({ length: 16 }, () => seed));
      return {
        kind: 'ok',
        contentType: 'audio/mpeg',
        bytes: Buffer.concat([Buffer.from('ID3\u0004\u0000\u0000'), frames]),
        outputTokens: 0,
      };
    }
    case 'free':
      return json({ ok: true, received_keys: Object.keys(body).sort() });
  }
}

/** Native fields an alternate cannot express exactly, with the reason it drops them. */
const CANNOT_EXPRESS: Record<Alternate, Record<string, string>> = {
  fal: { style: 'fal has no style presets' },
  wavespeed: { negative_prompt: 'wavespeed has no negative prompt', style: 'wavespeed has no style presets' },
  runware: { style: 'runware has no style presets' },
  higgsfield: { negative_prompt: 'higgsfield has no negative prompt', seed: 'higgsfield does not take a seed' },
};

/** Alternates whose translator for image models carries the input media of an edit. */
export const CARRIES_EDIT_MEDIA: ReadonlySet<Alternate> = new Set<Alternate>(['fal']);

/** Translates a native body for an alternate: the fields it keeps, and one sentence per dropped field. */
export function translate(
  model: ModelDef,
  provider: Alternate,
  body: Record<string, unknown>,
): { body: Record<string, unknown>; dropped: string[] } {
  if (model.kind !== 'image') return { body, dropped: [] };
  const cannot = CANNOT_EXPRESS[provider];
  const kept: Record<string, unknown> = {};
  const dropped: string[] = [];
  for (const [k, v] of Object.entries(body)) {
    if (k in cannot) dropped.push(`${k}: ${cannot[k]}; the field was dropped`);
    else kept[k] = v;
  }
  return { body: kept, dropped };
}
