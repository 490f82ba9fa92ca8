// Rate cards and quotes. Figures are exact decimals (reference/router/decimal.ts);
// credits are the amount times 211, rounded to 2 decimals.
import type { IsFault } from '../faults.ts';
import type { Alternate, ModelDef } from './catalog.ts';
import { Dec } from './decimal.ts';

export const CREDITS_PER_DOLLAR = 211;

/** An alternate provider's rate, relative to the native rate card. */
const LEG_MULTIPLIER: Record<Alternate, string> = { fal: '1.2', wavespeed: '0.9', runware: '0.8', higgsfield: '1.1' };

export type Leg = { kind: 'native'; provider: string } | { kind: 'alternate'; provider: Alternate };

export type Quote =
  | { source: 'exact'; amount: Dec }
  | { source: 'estimated'; min: Dec; max: Dec }
  | { source: 'unknown'; reason: 'not_quotable' | 'unpriced_model' | 'byok' | 'pricing_unavailable' };

export class StaleCardError extends Error {
  constructor() {
    super('rate card stale');
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The operation a body selects (metering follows it). */
export function operationOf(model: ModelDef, body: Record<string, unknown>, byRole = false): string {
  if (model.kind === 'image') return typeof body.image === 'string' ? 'image_to_image' : 'text_to_image';
  if (model.kind === 'video') {
    const items = Array.isArray(body.content) ? body.content.filter(isObject) : [];
    const draft = items.find((i) => i.type === 'draft_task' && isObject(i.draft_task));
    if (draft) {
      // A final render bills as the operation of the draft it renders (its id names it).
      const id = String((draft.draft_task as Record<string, unknown>).id ?? '');
      const m = /^draft-(t2v|i2v|r2v|v2v)-/.exec(id);
      return { t2v: 'text_to_video', i2v: 'image_to_video', r2v: 'reference_to_video', v2v: 'video_to_video' }[m?.[1] ?? 't2v']!;
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
  const messages = Array.isArray(body.messages) ? body.messages.filter(isObject) : [];
  return messages.reduce((n, m) => n + tokensOf(String(m.content ?? '')), 0);
}

/**
 * Prices a body on a leg. `cardFresh` is consulted only when a figure needs the card: a body
 * that cannot be priced at all is answered without reading it.
 */
export function quote(model: ModelDef, leg: Leg, body: Record<string, unknown>, opts: { isFault: IsFault; cardFresh: () => boolean }): Quote {
  const needCard = (): void => {
    if (!opts.cardFresh() && !opts.isFault('router-estimate-stale-card-guessed')) throw new StaleCardError();
  };
  if (model.behaviour === 'unpriced') {
    needCard();
    return { source: 'unknown', reason: opts.isFault('router-unpriced-not-quotable') ? 'not_quotable' : 'unpriced_model' };
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
      const op = operationOf(model, body, opts.isFault('router-video-bills-by-role'));
      return { source: 'exact', amount: rate(model, leg, op).timesInt(seconds) };
    }
    case 'audio': {
      needCard();
      return { source: 'exact', amount: rate(model, leg, 'character').timesInt(String(body.text ?? '').length) };
    }
    case 'text': {
      // The output length is only reported afterwards: without a bound there is no figure.
      if (typeof body.max_tokens !== 'number') return { source: 'unknown', reason: 'not_quotable' };
      needCard();
      const min = rate(model, leg, 'input_token').timesInt(inputTokens(body));
      return { source: 'estimated', min, max: min.plus(rate(model, leg, 'output_token').timesInt(body.max_tokens)) };
    }
    default:
      return { source: 'unknown', reason: 'not_quotable' };
  }
}

/** The charge of a run that happened: exact figures, or the text model's actual usage. */
export function charge(model: ModelDef, leg: Leg, body: Record<string, unknown>, outputTokens: number): Dec | undefined {
  if (model.behaviour === 'unpriced') return undefined;
  if (model.kind === 'text') {
    return rate(model, leg, 'input_token').timesInt(inputTokens(body)).plus(rate(model, leg, 'output_token').timesInt(outputTokens));
  }
  const q = quote(model, leg, body, { isFault: () => false, cardFresh: () => true });
  return q.source === 'exact' ? q.amount : undefined;
}

export function creditsOf(amount: Dec, isFault: IsFault): Dec {
  const raw = amount.timesInt(CREDITS_PER_DOLLAR);
  return isFault('router-credits-truncated') ? raw.floor(2) : raw.round(2);
}

/** US cents, unrounded, as a JSON number. */
export function centsOf(amount: Dec, isFault: IsFault): number {
  const cents = amount.timesInt(100);
  return isFault('router-cents-rounded') ? cents.round(0).toNumber() : cents.toNumber();
}

/** Dollars as a decimal string with at most 8 decimals; a chargeable sub-cent price never shows as zero. */
export function dollars(amount: Dec, isFault: IsFault): string {
  if (isFault('router-amount-exponent')) return amount.toNumber(8).toExponential();
  const text = amount.toString(8);
  if (text === '0' && !amount.isZero()) return '0.00000001';
  return text;
}

export function estimateBody(q: Quote, model: ModelDef, leg: Leg, pricingAsOf: string, isFault: IsFault): Record<string, unknown> {
  const out: Record<string, unknown> = { source: q.source, currency: 'USD' };
  // The fault reads a sub-cent price as no price at all (a rate card kept in whole cents).
  if (q.source === 'exact' && isFault('router-subcent-unpriced') && !q.amount.isZero() && q.amount.round(2).isZero()) q = { source: 'unknown', reason: 'unpriced_model' };
  if (q.source === 'exact') {
    let amount = q.amount;
    // The fault renders a sub-cent price as zero, consistently in every figure.
    if (isFault('router-subcent-zero') && amount.round(2).isZero()) amount = Dec.ZERO;
    out.amount = dollars(amount, isFault);
    out.amount_cents = centsOf(amount, isFault);
    out.credits = creditsOf(amount, isFault).toNumber();
    if (isFault('router-exact-with-range')) {
      out.min_amount = out.amount;
      out.max_amount = out.amount;
    }
  } else if (q.source === 'estimated') {
    out.min_amount = dollars(q.min, isFault);
    out.max_amount = dollars(q.max, isFault);
    out.min_amount_cents = centsOf(q.min, isFault);
    out.max_amount_cents = centsOf(q.max, isFault);
  } else {
    out.reason = q.reason;
  }
  out.pricing_as_of = pricingAsOf;
  out.model_id = model.id;
  out.provider = isFault('router-estimate-leg-native') ? model.provider : leg.provider;
  return out;
}
