// From a request to a partner call: which provider leg serves it (model_provider and its
// refusals, in the seed's fixed order), whether the body passes the model's schema, and
// the call itself with translation and fallback.
import { setTimeout as delay } from 'node:timers/promises';
import { ALTERNATES, type Alternate, type ModelDef } from './catalog.ts';
import { Dec } from './decimal.ts';
import { BYOK_PREFIX, EDIT_PREFIX, RouterError, RouterValidationError, invalidInput } from './errors.ts';
import { callPartner, translate, type PartnerAnswer } from './partners.ts';
import { billedCalls, creditsOf, type Leg } from './pricing.ts';
import type { Principal } from './principals.ts';
import { servedInputSchema } from './surface-variations.ts';
import type { Answer, Route } from './answer.ts';
import { H } from './constants.ts';
import type { RouterState } from './state.ts';
import { withoutFormats, type ValidationEntry } from './validation.ts';
import {
  alternateAnswer,
  assertsFormats,
  generationOf,
  partnerImageCap,
  providerFailure,
  readProvider,
  shownProvider,
} from './variations.ts';
import { isPlainObject, textOf } from '../../lib/values.ts';

export interface RunQuery {
  modelProvider?: string;
  strict: boolean;
  fallback: boolean;
  rejectUnknown: boolean;
}

function flag(raw: unknown, name: string): boolean {
  if (raw === undefined) return false;
  const v = textOf(raw).toLowerCase();
  if (['true', '1', 'yes', 'on'].includes(v)) return true;
  if (['false', '0', 'no', 'off'].includes(v)) return false;
  throw invalidInput(`${name} must be true or false`);
}

export function parseRunQuery(query: Record<string, unknown>, state: RouterState): RunQuery {
  const mp = query.model_provider;
  // Only the exact literal `false` turns fallback off (public docs: False, 0, no leave it on).
  const fallback = !state.policy.fallbackOff(query.fallback_provider);
  return {
    ...(typeof mp === 'string' ? { modelProvider: mp } : {}),
    strict: flag(query.strict_mode, 'strict_mode'),
    fallback,
    rejectUnknown: flag(query.reject_unknown_fields, 'reject_unknown_fields'),
  };
}

/** model_provider rule 6: refusals in the fixed order; otherwise the leg that serves the call. */
export function selectLeg(
  state: RouterState,
  model: ModelDef,
  p: Principal,
  q: RunQuery,
  body: unknown,
  route: Route,
  hasKey: boolean,
): Leg {
  const policy = state.policy;
  const native: Leg = { kind: 'native', provider: model.provider };
  const mp = q.modelProvider === undefined ? undefined : readProvider(state, q.modelProvider);
  if (mp === undefined) return native;
  if (policy.nativeAlias(mp)) return native;
  // 1. Not a registered provider.
  if (!(ALTERNATES as readonly string[]).includes(mp)) {
    throw new RouterError(
      400,
      'invalid_input',
      `model_provider ${JSON.stringify(mp)} is not a registered provider; use one of ${ALTERNATES.join(', ')}`,
    );
  }
  const alt = mp as Alternate;
  // Estimates price a leg: they detect no own key and answer no 409.
  if (route !== 'estimate') {
    const edit = (): void => {
      if (policy.selectsEdit(model, body) && !policy.carriesEdit(alt)) {
        throw new RouterError(
          409,
          'invalid_input',
          `${EDIT_PREFIX}, which ${alt}'s translator for ${model.id} cannot serve; drop model_provider or send without the edit`,
        );
      }
    };
    const byok = (): void => {
      if (policy.ownKeyConflict(p, model, hasKey)) {
        throw new RouterError(
          409,
          'invalid_input',
          `${BYOK_PREFIX} for ${model.provider}; drop model_provider or send without the own-key credential`,
        );
      }
    };
    // 2. Edit the translator cannot serve; 3. own-key credential for the path's provider.
    for (const refusal of policy.legRefusals) (refusal === 'edit' ? edit : byok)();
  }
  // 4. The provider's gate.
  if (p.gateDown)
    throw new RouterError(503, 'service_unavailable', `the gate for ${alt} could not be evaluated; try again later`);
  if (!policy.providerEnabled(p, alt))
    throw new RouterError(403, 'not_enabled', `${alt} is not turned on for this caller`);
  // 5. A provider that exists but does not serve this model: answered as in rule 1.
  if (!model.alternates.includes(alt))
    throw invalidInput(`model_provider ${JSON.stringify(alt)} has no leg for ${model.id}`);
  return { kind: 'alternate', provider: alt };
}

/** Schema checks of a default run (the estimate's too): the 422 entries, if any. */
export function validateBody(
  state: RouterState,
  model: ModelDef,
  body: unknown,
  opts: { skipNative: boolean; rejectUnknown: boolean; route: Route },
): Record<string, unknown> {
  const policy = state.policy;
  if (!isPlainObject(body)) {
    throw new RouterValidationError([
      { loc: ['body'], msg: 'Input should be a valid dictionary', type: 'dict_type', input: body ?? null },
    ]);
  }
  const entries: ValidationEntry[] = [];
  if (typeof body.model === 'string' && !policy.bodyNamesModel(body.model, model, opts.route)) {
    entries.push({
      loc: ['body', 'model'],
      msg: `the body names ${body.model}, but the path addresses ${model.id}`,
      type: 'model_mismatch',
      ctx: { expected: model.id },
      input: body.model,
    });
  }
  const schema = servedInputSchema(state, model);
  if (!schema) {
    entries.push(
      ...policy.unauthoredEntries(body, policy.rejectsUnknown(opts.route, opts.rejectUnknown) && !opts.skipNative),
    );
  } else if (!(opts.skipNative && policy.strictSkipsNative(opts.route))) {
    // Dropping `format` only loosens a schema, so the control (router-format-annotation) is
    // asked only of a body the asserting validation refuses.
    const before = entries.length;
    policy.validateNative(schema, body, entries);
    if (entries.length > before && !assertsFormats(state)) {
      entries.length = before;
      policy.validateNative(withoutFormats(schema), body, entries);
    }
  }
  if (
    policy.rejectsUnknown(opts.route, opts.rejectUnknown) &&
    schema &&
    policy.refusesUndeclared(schema) &&
    !opts.skipNative
  ) {
    entries.push(...policy.undeclared(schema, body));
  }
  if (entries.length > 0) throw new RouterValidationError(entries);
  return body;
}

// Long enough that a second call (or a poll) lands while it runs, even on a loaded machine.
export const SLOW_MS = 1000;

/** The output as the caller receives it, on the synchronous route and on collect alike. */
export function presentOutput(
  state: RouterState,
  model: ModelDef,
  strict: boolean,
  answer: Extract<PartnerAnswer, { kind: 'ok' }>,
  leg: Leg,
): { contentType: string; bytes: Buffer } {
  return generationOf(
    state,
    model,
    alternateAnswer(
      state,
      model,
      leg,
      strict,
      state.policy.shapeOutput(model, { contentType: answer.contentType, bytes: answer.bytes }, strict, leg),
    ),
  );
}

function sentBody(
  model: ModelDef,
  leg: Leg,
  body: Record<string, unknown>,
  strict: boolean,
): { body: Record<string, unknown>; dropped: string[] } {
  return leg.kind === 'alternate' && !strict ? translate(model, leg.provider, body) : { body, dropped: [] };
}

function droppedHeader(dropped: string[]): Record<string, string> {
  return dropped.length === 0 ? {} : { [H.dropped]: JSON.stringify(dropped) };
}

/**
 * A synchronous run: the first attempt, and one fallback attempt when the seed allows it.
 * `keyRecord`, when set, is what the call's Idempotency-Key holds instead of the answer sent.
 */
export async function runSync(
  state: RouterState,
  model: ModelDef,
  p: Principal,
  q: RunQuery,
  leg: Leg,
  body: Record<string, unknown>,
): Promise<Answer & { keyRecord?: Answer }> {
  const policy = state.policy;
  const ownKey = p.ownKeys.has(model.provider) && leg.kind === 'native';
  const edit = policy.selectsEdit(model, body);
  if (model.behaviour === 'slow') await delay(SLOW_MS);

  const success = (
    answer: Extract<PartnerAnswer, { kind: 'ok' }>,
    served: Leg,
    sent: Record<string, unknown>,
    extra: Record<string, string>,
  ): Answer => {
    const headers: Record<string, string> = {
      'content-type': answer.contentType,
      ...extra,
      'X-Content-Type-Options': 'nosniff',
    };
    // The run is billed by the operation its body selects (policy.videoOperation for the video family).
    const calls = ownKey
      ? undefined
      : billedCalls(model, policy.ratedLeg(served, model), sent, answer.outputTokens, policy.videoOperation);
    if (calls !== undefined) headers[H.credits] = creditsOf(policy.runCharge(calls), policy.figures).toString(2);
    const out = presentOutput(state, model, q.strict, answer, served);
    headers['content-type'] = out.contentType;
    return { status: 200, headers, body: out.bytes };
  };

  const first = sentBody(model, leg, body, q.strict);
  const answer = callPartner({ model, leg, body: first.body, strict: q.strict, imageCap: partnerImageCap(state) });
  if (answer.kind === 'ok') return success(answer, leg, first.body, droppedHeader(first.dropped));

  // A submit-and-poll partner's generation outlived the call: the caller gets the failure,
  // the key holds the generation, so a same-key retry collects its result (R:172:095fab30ad8d).
  if (answer.kind === 'timeout' && answer.finished !== undefined) {
    const failure = providerFailure(state, answer, model);
    return {
      ...failure,
      keyRecord: policy.cutoffRecord(failure, success(answer.finished, leg, first.body, droppedHeader(first.dropped))),
    };
  }

  // Fallback is skipped for own keys, edits and strict mode.
  const skipped =
    (ownKey && policy.fallbackSkipsOwnKey) ||
    (edit && policy.fallbackSkipsEdits) ||
    (q.strict && policy.fallbackSkipsStrict);
  const failure = providerFailure(state, answer, model);
  if (!q.fallback || skipped) return failure;
  const served = fallback(state, model, p, leg, body, answer);
  if (served === undefined) return failure;
  if (served.kind === 'failed') return policy.failedFallback(failure, served.leg);
  return success(served.answer, served.leg, served.sent, {
    [H.fallback]: shownProvider(state, served.leg.provider),
    ...droppedHeader(served.dropped),
  });
}

export type FallbackOutcome =
  | {
      kind: 'served';
      answer: Extract<PartnerAnswer, { kind: 'ok' }>;
      leg: Leg;
      sent: Record<string, unknown>;
      dropped: string[];
    }
  | { kind: 'failed'; leg: Leg };

/**
 * fallback_provider rule 1: after a failure of the router or the tried provider (never of the
 * request, never a generation that may have been submitted), the model's alternates are
 * scanned in a fixed order and the first eligible one is tried once. Undefined: no attempt.
 */
export function fallback(
  state: RouterState,
  model: ModelDef,
  p: Principal,
  leg: Leg,
  body: Record<string, unknown>,
  answer: Exclude<PartnerAnswer, { kind: 'ok' }>,
): FallbackOutcome | undefined {
  const policy = state.policy;
  if (!policy.fallbackAfter(answer)) return undefined;
  const eligible: Leg[] =
    leg.kind === 'native'
      ? ALTERNATES.filter((a) => model.alternates.includes(a) && p.enabled.has(a) && !p.gateDown).map((a) => ({
          kind: 'alternate' as const,
          provider: a,
        }))
      : [{ kind: 'native' as const, provider: model.provider }];
  const tries = policy.fallbackTries(eligible, body);
  let last: Leg | undefined;
  for (const next of tries) {
    last = next;
    const retry = sentBody(model, next, body, false);
    const second = callPartner({ model, leg: next, body: retry.body, strict: false, imageCap: partnerImageCap(state) });
    if (second.kind === 'ok')
      return { kind: 'served', answer: second, leg: next, sent: retry.body, dropped: retry.dropped };
  }
  return last === undefined ? undefined : { kind: 'failed', leg: last };
}

/** Cents committed for a call in flight: the most it can cost. */
export function commitmentCents(amount: Dec | undefined): number {
  return amount === undefined ? 0 : Math.ceil(amount.timesInt(100).toNumber());
}
