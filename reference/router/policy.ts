// Override points of the model router (reference/faults/seams.ts): the decisions the
// correct code takes through this object, each default being what seed R asks. Only a
// fault replaces one; answers that a fault merely reshapes go through response hooks.
import type { FastifyRequest } from 'fastify';
import type { Allowance } from '../accounts.ts';
import type { LimitDecision } from '../ratelimit.ts';
import type { Dec } from './decimal.ts';
import { RouterError } from './errors.ts';
import { CARRIES_EDIT_MEDIA, type PartnerAnswer } from './partners.ts';
import { NATIVE_ALIASES, type Alternate, type ModelDef } from './catalog.ts';
import type { CursorCodec } from './cursor.ts';
import { failureAnswer, type Answer, type Route } from './answer.ts';
import { REPLAY_CAP_BYTES, type IdempotencyStore, type Lookup } from './idempotency.ts';
import type { QueueStore, QueuedRequest } from './queue.ts';
import { CORRECT_FIGURES, operationOf, type Figures, type Leg, type Quote } from './pricing.ts';
import { routerAllowance, type Principal } from './principals.ts';
import { schemaDocument, type SchemaDocument } from './schemas.ts';
import { BRAND, MAX_BODY_BYTES } from './constants.ts';
import { undeclaredTopLevel, validateAgainst, type ValidationEntry } from './validation.ts';
import type { JsonSchema } from './schemas.ts';
import { isPlainObject } from '../../lib/values.ts';

export interface RouterPolicy {
  // Requests and callers
  /** The body size cap (seed R: 1 MiB). */
  bodyLimitBytes: number;
  /** Which key form wins when both are sent: X-API-Key. */
  bearerFirst: boolean;
  /** A bearer that is not an API key is a JWT: accepted when it is a development token of a router caller. */
  acceptsJwt: boolean;
  /** A caller a request without credentials acts as (none: 401). */
  anonymousPrincipal(request: FastifyRequest): Principal | undefined;
  callerAllowance(caller: string): Allowance;
  /** The limiter's verdict for a caller, as the limiter gave it. */
  rateDecision(caller: string, decision: LimitDecision): LimitDecision;
  /** How many synchronous calls a scope with a limit may have in flight. */
  inFlightLimit(limit: number): number;
  /** Scope of idempotency keys and queued requests: the caller's workspace. */
  requestScope(p: Principal, scopeOf: (p: Principal) => string): string;
  /** The workspace may run paid calls. */
  funded(p: Principal): boolean;
  // Models and the catalog
  /** The segments a model address is looked up by: exactly as sent (case matters). */
  modelSegments(provider: string, model: string): { provider: string; model: string };
  /** The date a model was retired on, if it was. */
  retiredOn(def: ModelDef): string | undefined;
  restricted(def: ModelDef): boolean;
  maxPageLimit: number;
  /** Where a page starts for a cursor position. */
  pageStart(position: number): number;
  encodeCursor(cursors: CursorCodec, position: number): string;
  decodeCursor(cursors: CursorCodec, raw: string): number | undefined;
  schemaDocument(model: ModelDef): SchemaDocument;
  /** The answer when a model's document cannot be built: 500 internal_error (seed R § Errors). */
  schemaFailure(model: ModelDef): RouterError;
  // model_provider and dispatch
  /** model_provider values that mean native dispatch. */
  nativeAlias(mp: string): boolean;
  /** The refusals of rule 6 in their fixed order: the edit, then the own key. */
  legRefusals: ReadonlyArray<'edit' | 'own-key'>;
  carriesEdit(alt: Alternate): boolean;
  /** Whether a body selects the edit operation: an editable image model given an input image. */
  selectsEdit(model: ModelDef, body: unknown): boolean;
  ownKeyConflict(p: Principal, model: ModelDef, hasKey: boolean): boolean;
  providerEnabled(p: Principal, alt: Alternate): boolean;
  /** fallback_provider turns fallback off only as the literal `false`. */
  fallbackOff(raw: unknown): boolean;
  fallbackSkipsEdits: boolean;
  /** A request that resolved an own-key credential does not fall back. */
  fallbackSkipsOwnKey: boolean;
  /** strict_mode=true turns fallback off: the named provider's failure reaches the caller. */
  fallbackSkipsStrict: boolean;
  /** Which failures fall back: the provider could not take the call (nothing was submitted). */
  fallbackAfter(answer: Exclude<PartnerAnswer, { kind: 'ok' }>): boolean;
  /** The legs tried, from the eligible alternates in their fixed order: the first one, once, whatever the body. */
  fallbackTries(eligible: Leg[], body: Record<string, unknown>): Leg[];
  /** A queued submit has no fallback (no fallback_provider; its quote covers the leg that runs). */
  queuedFallback: boolean;
  /** What a failed fallback attempt answers: the first failure, unchanged. */
  failedFallback(failure: Answer, next: Leg): Answer;
  /** How a call in flight holds its committed spend: `reserve` commits it and answers the release, called at the call's end. */
  holdSpend(reserve: () => () => void): () => void;
  /** What a run costs from its billed calls at the provider: their sum. */
  runCharge(calls: Dec[]): Dec;
  /** The leg a run is charged at: the one that served it. */
  ratedLeg(served: Leg, model: ModelDef): Leg;
  /** The router's answer to a partner's failure. */
  providerFailure(answer: Exclude<PartnerAnswer, { kind: 'ok' }>, model: ModelDef): Answer;
  /** The output as the provider gave it (native shape, bytes as bytes). */
  shapeOutput(
    model: ModelDef,
    out: { contentType: string; bytes: Buffer },
    strict: boolean,
    leg: Leg,
  ): { contentType: string; bytes: Buffer };
  // Validation
  /** Whether a body's `model` names the addressed model (every route checks it: the estimate's 422 too). */
  bodyNamesModel(named: string, model: ModelDef, route: Route): boolean;
  /** Unauthored models take any JSON object, with reject_unknown_fields (`rejectUnknown`) or without. */
  unauthoredEntries(body: Record<string, unknown>, rejectUnknown: boolean): ValidationEntry[];
  validateNative(schema: JsonSchema, body: Record<string, unknown>, entries: ValidationEntry[]): void;
  /** Whether strict_mode holds for a call: only with an alternate leg (a native leg ignores it). */
  strictMode(asked: boolean, leg: Leg): boolean;
  /** strict_mode skips the native schema on every route. */
  strictSkipsNative(route: Route): boolean;
  rejectsUnknown(route: Route, asked: boolean): boolean;
  /** Whether a schema refuses undeclared top-level fields (only such a schema has any for reject_unknown_fields to refuse). */
  refusesUndeclared(schema: JsonSchema): boolean;
  undeclared(schema: JsonSchema, body: Record<string, unknown>): ValidationEntry[];
  validateSubmit(body: unknown, validate: () => Record<string, unknown>): Record<string, unknown>;
  /** The strict_mode a queued request is dispatched with: the one accepted at submit. */
  queuedStrict(accepted: boolean): boolean;
  /** The bytes-returning model cannot be queued. */
  queueable(def: ModelDef): boolean;
  /** A waiting request's queue_position: the requests admitted before it that still wait. */
  queuePosition(queue: QueueStore, r: QueuedRequest): number;
  /** An acknowledged cancel of an unfinished request takes effect: it ends as cancelled. */
  cancelRequest(queue: QueueStore, r: QueuedRequest): void;
  // Estimates
  estimatesEnabled(p: Principal): boolean;
  /** An estimate quotes the leg; it detects no own key. */
  estimateQuote(p: Principal, def: ModelDef, leg: Leg, quote: () => Quote): Quote;
  /** Whether the estimate takes strict_mode as a run does: never (it has no strict parameter and validates natively). */
  estimateStrict(asked: boolean): boolean;
  cardFresh(def: ModelDef): boolean;
  /** The leg a submit's embedded estimate prices: the pinned one (a queued request has no fallback). */
  submitEstimateLeg(pinned: Leg, model: ModelDef): Leg;
  /** A submit's quote when the rate card cannot be read at admission: unknown, pricing_unavailable (never a refusal). */
  submitQuoteUnavailable(def: ModelDef): Quote;
  videoOperation(model: ModelDef, body: Record<string, unknown>): string;
  figures: Figures;
  // Idempotency
  maxKeyLength: number;
  /** Looks a key up in the scope (the workspace) for a request; `caller` names the member sending it. */
  claimKey(store: IdempotencyStore, scope: string, key: string, fingerprint: string, caller: string): Lookup;
  /** A refusal before dispatch charged nothing and releases the key. */
  keyAfterRefusal(store: IdempotencyStore, scope: string, key: string, fingerprint: string, err: unknown): void;
  /** What the key of a call cut off mid-generation at a submit-and-poll partner holds: the generation's result. */
  cutoffRecord(sent: Answer, generation: Answer): Answer;
  /** Whether a recorded answer can be replayed (answers above the replay size cap cannot). */
  replayable(answer: Answer): boolean;
  /** A dispatched answer keeps its key (content-policy refusals too). */
  keyKept(answer: Answer): boolean;
}

export function correctRouterPolicy(): RouterPolicy {
  return {
    bodyLimitBytes: MAX_BODY_BYTES,
    bearerFirst: false,
    acceptsJwt: true,
    anonymousPrincipal: () => undefined,
    callerAllowance: (caller) => routerAllowance(caller),
    rateDecision: (_caller, decision) => decision,
    inFlightLimit: (limit) => limit,
    requestScope: (p, scopeOf) => scopeOf(p),
    funded: (p) => p.credits,
    modelSegments: (provider, model) => ({ provider, model }),
    retiredOn: (def) => def.retired?.on,
    restricted: (def) => def.behaviour === 'restricted',
    maxPageLimit: 100,
    pageStart: (position) => position,
    encodeCursor: (cursors, position) => cursors.encode(position),
    decodeCursor: (cursors, raw) => cursors.decode(raw),
    schemaDocument: (model) => schemaDocument(model, BRAND),
    schemaFailure: (model) =>
      new RouterError(500, 'internal_error', `the schema document of ${model.id} could not be built; try again later`),
    nativeAlias: (mp) => (NATIVE_ALIASES as readonly string[]).includes(mp),
    legRefusals: ['edit', 'own-key'],
    carriesEdit: (alt) => CARRIES_EDIT_MEDIA.has(alt),
    selectsEdit: (model, body) => model.kind === 'image' && isPlainObject(body) && typeof body.image === 'string',
    ownKeyConflict: (p, model) => p.ownKeys.has(model.provider),
    providerEnabled: (p, alt) => p.enabled.has(alt),
    fallbackOff: (raw) => raw === 'false',
    fallbackSkipsEdits: true,
    fallbackSkipsOwnKey: true,
    fallbackSkipsStrict: true,
    fallbackAfter: (answer) => answer.kind === 'unavailable',
    fallbackTries: (eligible) => eligible.slice(0, 1),
    queuedFallback: false,
    failedFallback: (failure) => failure,
    holdSpend: (reserve) => reserve(),
    runCharge: (calls) => calls.reduce((sum, c) => sum.plus(c)),
    ratedLeg: (served) => served,
    providerFailure: (answer, model) => failureAnswer(answer, model),
    shapeOutput: (_model, out) => out,
    bodyNamesModel: (named, model) => named === model.model || named === model.id,
    unauthoredEntries: () => [],
    validateNative: (schema, body, entries) => validateAgainst(schema, body, ['body'], entries),
    strictMode: (asked, leg) => asked && leg.kind === 'alternate',
    strictSkipsNative: () => true,
    rejectsUnknown: (_route, asked) => asked,
    refusesUndeclared: (schema) => schema.additionalProperties === false,
    undeclared: (schema, body) => undeclaredTopLevel(schema, body),
    validateSubmit: (_body, validate) => validate(),
    queuedStrict: (accepted) => accepted,
    queueable: (def) => def.kind !== 'audio',
    queuePosition: (queue, r) => queue.position(r),
    cancelRequest: (queue, r) => queue.cancel(r),
    estimatesEnabled: (p) => p.estimates,
    estimateQuote: (_p, _def, _leg, quote) => quote(),
    estimateStrict: () => false,
    cardFresh: (def) => def.behaviour !== 'stale-card',
    submitEstimateLeg: (pinned) => pinned,
    submitQuoteUnavailable: () => ({ source: 'unknown', reason: 'pricing_unavailable' }),
    videoOperation: (model, body) => operationOf(model, body),
    figures: CORRECT_FIGURES,
    maxKeyLength: 255,
    claimKey: (store, scope, key, fingerprint) => store.claim(scope, key, fingerprint),
    keyAfterRefusal: (store, scope, key) => store.release(scope, key),
    cutoffRecord: (_sent, generation) => generation,
    replayable: (answer) => answer.body.length <= REPLAY_CAP_BYTES,
    keyKept: () => true,
  };
}
