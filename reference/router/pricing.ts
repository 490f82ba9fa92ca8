// Rate cards and quotes. Figures are exact decimals (reference/router/decimal.ts);
// credits are the amount times 211, rounded to 2 decimals.
import type { Alternate, ModelDef } from './catalog.ts';
import { Dec } from './decimal.ts';
import { isPlainObject, textOf } from '../../lib/values.ts';

export const CREDITS_PER_DOLLAR = 211;

/** An alternate provider's rate, relative to the native rate card. */
const LEG_MULTIPLIER: Record<Alternate, string> = { fal: '1.2', wavespeed: '0.9', runware: '0.8', higgsfield: '1.1' };

export type Leg = { kind: 'native'; provider: string } | { kind: 'alternate'; provider: Alternate };

export type Quote =
  | { source: 'exact'; amount: Dec }
  | { source: 'estimated'; min: Dec; max: Dec }
  | { source: 'unknown'; reason: 'not_quotable' | 'unpriced_model' | 'byok' | 'pricing_unavailable' };

/** How figures are written (seed R § Estimates): the defaults are CORRECT_FIGURES. */
export interface Figures {
  /** Credits from an amount times 211: rounded to 2 decimals. */
  credits(raw: Dec): Dec;
  /** US cents, unrounded. */
  cents(cents: Dec): number;
  /** Dollars as a decimal string with at most 8 decimals. */
  dollars(amount: Dec): string;
  /** The amount an exact quote reports. */
  exact(amount: Dec): Dec;
}

export const CORRECT_FIGURES: Figures = {
  credits: (raw) => raw.round(2),
  cents: (cents) => cents.toNumber(),
  dollars: (amount) => {
    const text = amount.toString(8);
    // A chargeable sub-cent price never shows as zero.
    return text === '0' && !amount.isZero() ? '0.00000001' : text;
  },
  exact: (amount) => amount,
};

export class StaleCardError extends Error {
  constructor() {
    super('rate card stale');
  }
}

/** The operation a body selects (metering follows it). */
export function operationOf(model: ModelDef, body: Record<string, unknown>, byRole = false): string {
  if (model.kind === 'image') return typeof body.image === 'string' ? 'image_to_image' : 'text_to_image';
  if (model.kind === 'video') {
    const items = Array.isArray(body.content) ? body.content.filter(isPlainObject) : [];
    const draft = items.find((i) => i.type === 'draft_task' && isPlainObject(i.draft_task));
    if (draft) {
      // A final render is billed like the draft it renders (its id names it).
      const id = textOf((draft.draft_task as Record<string, unknown>).id ?? '');
      const m = /^draft-(t2v|i2v|r2v|v2v)-/.exec(id);
      return { t2v: 'text_to_video', i2v: 'image_to_video', r2v: 'reference_to_video', v2v: 'video_to_video' }[
        m?.[1] ?? 't2v'
      ]!;
    }
    if (byRole) {
      if (items.some((i) => i.role === 'reference_image' || i.role === 'reference_video')) return 'reference_to_video';
    }
    // Native dispatch bills by the media kinds present, not by their roles.
    if (items.some((i) => i.type === 'video_url')) return 'video_to_video';
    if (items.some((i) => i.type === 'image_url')) return 'image_to_video';
    return 'text_to_video';
  }
  return model.kind;
}

function rate(model: ModelDef, leg: Leg, name: string): Dec {
  const base = Dec.of(model.rates[name] ?? '0');
  return leg.kind === 'alternate' ? base.times(Dec.of(LEG_MULTIPLIER[leg.provider])).round(10) : base;
}

function tokensOf(text: string): number {
  return Math.max(1, Math.ceil(text.length / 4));
}

function inputTokens(body: Record<string, unknown>): number {
  const messages = Array.isArray(body.messages) ? body.messages.filter(isPlainObject) : [];
  return messages.reduce((n, m) => n + tokensOf(textOf(m.content ?? '')), 0);
}

/**
 * Prices a body on a leg. `cardFresh` is consulted only when a figure needs the card: a body
 * that cannot be priced at all is answered without reading it.
 */
export function quote(
  model: ModelDef,
  leg: Leg,
  body: Record<string, unknown>,
  opts: {
    cardFresh: () => boolean;
    videoOperation?: (model: ModelDef, body: Record<string, unknown>) => string;
    /** The output cap of a text body without max_tokens (none: such a body is not quotable); asked only of such a body. */
    defaultMaxTokens?: () => number | undefined;
  },
): Quote {
  const needCard = (): void => {
    if (!opts.cardFresh()) throw new StaleCardError();
  };
  if (model.behaviour === 'unpriced') {
    needCard();
    return { source: 'unknown', reason: 'unpriced_model' };
  }
  switch (model.kind) {
    case 'image': {
      needCard();
      const n = typeof body.num_images === 'number' ? body.num_images : 1;
      return { source: 'exact', amount: rate(model, leg, operationOf(model, body)).timesInt(n) };
    }
    case 'video': {
      needCard();
      const seconds = typeof body.duration === 'number' ? body.duration : 5;
      const op = (opts.videoOperation ?? operationOf)(model, body);
      return { source: 'exact', amount: rate(model, leg, op).timesInt(seconds) };
    }
    case 'audio': {
      needCard();
      return { source: 'exact', amount: rate(model, leg, 'character').timesInt(textOf(body.text ?? '').length) };
    }
    case 'text': {
      // The output length is only reported afterwards: without a bound there is no figure.
      const cap = typeof body.max_tokens === 'number' ? body.max_tokens : opts.defaultMaxTokens?.();
      if (cap === undefined) return { source: 'unknown', reason: 'not_quotable' };
      needCard();
      const min = rate(model, leg, 'input_token').timesInt(inputTokens(body));
      return { source: 'estimated', min, max: min.plus(rate(model, leg, 'output_token').timesInt(cap)) };
    }
    default:
      return { source: 'unknown', reason: 'not_quotable' };
  }
}

/** The charge of a run that happened: exact figures, or the text model's actual usage. */
export function charge(
  model: ModelDef,
  leg: Leg,
  body: Record<string, unknown>,
  outputTokens: number,
  videoOperation?: (model: ModelDef, body: Record<string, unknown>) => string,
): Dec | undefined {
  if (model.behaviour === 'unpriced') return undefined;
  if (model.kind === 'text') {
    return rate(model, leg, 'input_token')
      .timesInt(inputTokens(body))
      .plus(rate(model, leg, 'output_token').timesInt(outputTokens));
  }
  const q = quote(model, leg, body, { cardFresh: () => true, ...(videoOperation ? { videoOperation } : {}) });
  return q.source === 'exact' ? q.amount : undefined;
}

/**
 * The billed calls a run makes at the provider: the reference's image partners generate one
 * image per call, so `num_images` images are that many calls; other models make one.
 */
export function billedCalls(
  model: ModelDef,
  leg: Leg,
  body: Record<string, unknown>,
  outputTokens: number,
  videoOperation?: (model: ModelDef, body: Record<string, unknown>) => string,
): Dec[] | undefined {
  const total = charge(model, leg, body, outputTokens, videoOperation);
  if (total === undefined) return undefined;
  const n =
    model.kind === 'image' &&
    typeof body.num_images === 'number' &&
    Number.isInteger(body.num_images) &&
    body.num_images > 1
      ? body.num_images
      : 1;
  if (n === 1) return [total];
  const one = charge(model, leg, { ...body, num_images: 1 }, outputTokens, videoOperation) ?? total;
  return Array.from({ length: n }, () => one);
}

export function creditsOf(amount: Dec, figures: Figures): Dec {
  return figures.credits(amount.timesInt(CREDITS_PER_DOLLAR));
}

export function estimateBody(
  q: Quote,
  model: ModelDef,
  leg: Leg,
  pricingAsOf: string,
  figures: Figures,
): Record<string, unknown> {
  const out: Record<string, unknown> = { source: q.source, currency: 'USD' };
  if (q.source === 'exact') {
    const amount = figures.exact(q.amount);
    out.amount = figures.dollars(amount);
    out.amount_cents = figures.cents(amount.timesInt(100));
    out.credits = creditsOf(amount, figures).toNumber();
  } else if (q.source === 'estimated') {
    out.min_amount = figures.dollars(q.min);
    out.max_amount = figures.dollars(q.max);
    out.min_amount_cents = figures.cents(q.min.timesInt(100));
    out.max_amount_cents = figures.cents(q.max.timesInt(100));
  } else {
    out.reason = q.reason;
  }
  out.pricing_as_of = pricingAsOf;
  out.model_id = model.id;
  out.provider = leg.provider;
  return out;
}
