// The router's harmless variations (reference/controls.ts, families: router): readings the
// seed allows that the reference does not take by default. Each is consulted by name here,
// so a control run of the router answers the way such a router would; no fault uses them.
import type { ModelDef } from './catalog.ts';
import { errorAnswer, type Answer } from './answer.ts';
import { PARTNER_IMAGE_CAP, type PartnerAnswer } from './partners.ts';
import { operationOf, type Leg } from './pricing.ts';
import { createHash, randomUUID } from 'node:crypto';
import { H } from './constants.ts';
import { RouterError } from './errors.ts';
import type { RouterState } from './state.ts';

/**
 * router-renamed-members: the members whose names seed R leaves not shown (entry ID and
 * billing facts, page size, schema URL, the list of alternates) under other names.
 */
export interface MemberNames {
  id: string;
  billing: string;
  chargesOnPolicyRejection: string;
  pageSize: string;
  schemaUrl: string;
  alternates: string;
}

const PUBLIC_NAMES: MemberNames = {
  id: 'id',
  billing: 'billing',
  chargesOnPolicyRejection: 'charges_on_policy_rejection',
  pageSize: 'limit',
  schemaUrl: 'input_schema_url',
  alternates: 'model_providers',
};
const OTHER_NAMES: MemberNames = {
  id: 'model_id',
  billing: 'billing_facts',
  chargesOnPolicyRejection: 'charged_on_policy_rejection',
  pageSize: 'page_size',
  schemaUrl: 'schema_url',
  alternates: 'alternates',
};

export function memberNames(state: RouterState): MemberNames {
  return state.isControl('router-renamed-members') ? OTHER_NAMES : PUBLIC_NAMES;
}

/**
 * router-alternate-names: the seed names none of the four registered alternates; this
 * router lists wavespeed as `wavespeed-ai` (and still takes the old spelling).
 */
const SHOWN: Readonly<Record<string, string>> = { wavespeed: 'wavespeed-ai' };

export function shownProvider(state: RouterState, provider: string): string {
  const shown = SHOWN[provider];
  return shown !== undefined && state.isControl('router-alternate-names') ? shown : provider;
}

/** A model_provider value as the registry reads it (a shown name to the provider it names). */
export function readProvider(state: RouterState, value: string): string {
  const named = Object.entries(SHOWN).find(([, shown]) => shown === value)?.[0];
  return named !== undefined && state.isControl('router-alternate-names') ? named : value;
}

/** router-text-default-cap: text models bound a body without max_tokens by a default output cap. */
export function defaultMaxTokens(state: RouterState): () => number | undefined {
  return () => (state.isControl('router-text-default-cap') ? 4096 : undefined);
}

/**
 * router-quotes-without-credits: exact quotes carry amount and amount_cents, no credits.
 * router-unknown-without-reason: unknown quotes carry no reason (R:52 allows one only there, never requires it).
 */
export function shapeQuote(state: RouterState, quote: Record<string, unknown>): Record<string, unknown> {
  if ('credits' in quote && state.isControl('router-quotes-without-credits')) delete quote.credits;
  if (quote.source === 'unknown' && 'reason' in quote && state.isControl('router-unknown-without-reason'))
    delete quote.reason;
  if (typeof quote.provider === 'string') quote.provider = shownProvider(state, quote.provider);
  return quote;
}

/** router-format-annotation: `format` is an annotation (JSON Schema 2020-12's default), not asserted. */
export function assertsFormats(state: RouterState): boolean {
  return !state.isControl('router-format-annotation');
}

/**
 * router-provider-requirements: the image partners make at most three images per call, a
 * requirement beyond the schema (which allows four): they call a larger request malformed.
 */
export function partnerImageCap(state: RouterState): () => number | undefined {
  return () => (state.isControl('router-provider-requirements') ? PARTNER_IMAGE_CAP : undefined);
}

/** router-spend-headers-on-limits-only: the committed-spend headers only on 429s, never on a 200 run. */
export function spendHeadersOnRuns(state: RouterState): boolean {
  return !state.isControl('router-spend-headers-on-limits-only');
}

/**
 * router-queue-own-names: the two unfinished queue statuses under names of the router's own
 * (the seed shows only COMPLETED and gives the set three values): QUEUED and RUNNING.
 */
export function shownQueueStatus(state: RouterState, status: 'IN_QUEUE' | 'IN_PROGRESS' | 'COMPLETED'): string {
  if (!state.isControl('router-queue-own-names')) return status;
  return status === 'IN_QUEUE' ? 'QUEUED' : status === 'IN_PROGRESS' ? 'RUNNING' : status;
}

/** router-no-submit-estimates: the submit's estimate is still rolling out: never sent. */
export function submitEstimates(state: RouterState): boolean {
  return !state.isControl('router-no-submit-estimates');
}

/** router-limits-runs-only: the request allowance is counted on synchronous runs only. */
export function rateLimited(state: RouterState, method: string, url: string): boolean {
  if (!state.isControl('router-limits-runs-only')) return true;
  return method === 'POST' && /^\/v2\/models\/[^/?]+\/[^/?]+(\?|$)/.test(url);
}

/**
 * router-provider-failure-402: a provider that could not take the call (and said nothing
 * the router can report) is a request-level failure, 402 provider_error, not a 502.
 */
export function providerFailure(
  state: RouterState,
  answer: Exclude<PartnerAnswer, { kind: 'ok' }>,
  model: ModelDef,
): Answer {
  if (state.isControl('router-provider-failure-402') && answer.kind === 'unavailable') {
    return errorAnswer(
      402,
      'provider_error',
      `${model.id}: the provider could not take the call and reported no reason`,
      { [H.upstreamStatus]: String(answer.upstreamStatus) },
    );
  }
  const failed = state.policy.providerFailure(answer, model);
  // router-deadline-own-clock: the router's own clock ends the call, so no provider status is reported.
  if (state.isControl('router-deadline-own-clock') && answer.kind === 'timeout')
    return withoutHeader(failed, H.upstreamStatus);
  // router-policy-upstream-detail: the provider's reason for a content-policy refusal goes out in the header (no body member).
  if (state.isControl('router-policy-upstream-detail') && answer.kind === 'policy') {
    return {
      ...failed,
      headers: {
        ...failed.headers,
        [H.upstreamDetail]: `the provider refused the ${answer.subject} on content-policy grounds`,
      },
    };
  }
  return failed;
}

function withoutHeader(answer: Answer, name: string): Answer {
  const headers = Object.fromEntries(
    Object.entries(answer.headers).filter(([k]) => k.toLowerCase() !== name.toLowerCase()),
  );
  return { ...answer, headers };
}

/** router-capacity-own-bucket: a capacity refusal names a bucket of its own (the set is open, R:251), not service_unavailable. */
export function capacityBucket(state: RouterState): string {
  return state.isControl('router-capacity-own-bucket') ? 'capacity_exhausted' : 'service_unavailable';
}

/** The 503 refusal of a model at capacity, with Retry-After; its bucket is capacityBucket's. */
export function atCapacity(state: RouterState, def: ModelDef): RouterError {
  return new RouterError(503, capacityBucket(state), `${def.id} is at capacity; retry after the indicated time`, {
    retryAfter: 1,
  });
}

/** router-429-without-retry-after: a rate_limited 429 names no Retry-After (R lists none on a 429). */
export function rateLimitRetryAfter(state: RouterState, seconds: number): number | undefined {
  return state.isControl('router-429-without-retry-after') ? undefined : seconds;
}

/**
 * router-video-quotes-by-role: the estimate route prices the video family by the roles in
 * content[] (the sibling operation a body selects), while runs still bill by media kinds;
 * quotes are not charges (R:62) and may price a sibling operation differently (R:66).
 */
export function quoteVideoOperation(state: RouterState): (model: ModelDef, body: Record<string, unknown>) => string {
  return state.isControl('router-video-quotes-by-role')
    ? (model, body) => operationOf(model, body, true)
    : state.policy.videoOperation;
}

/**
 * router-alternate-answers-raw: this router cannot translate wavespeed's answers back to the
 * native output, so a run on wavespeed without strict mode answers wavespeed's own response,
 * as model_provider rule 4 allows (R:144:8f87a4ad1340), the shape strict mode returns.
 */
export function alternateAnswer(
  state: RouterState,
  model: ModelDef,
  leg: Leg,
  strict: boolean,
  out: { contentType: string; bytes: Buffer },
): { contentType: string; bytes: Buffer } {
  if (
    !state.isControl('router-alternate-answers-raw') ||
    strict ||
    leg.kind !== 'alternate' ||
    leg.provider !== 'wavespeed' ||
    model.kind !== 'image' ||
    out.contentType !== 'application/json'
  )
    return out;
  const native = JSON.parse(out.bytes.toString('utf8')) as { images?: Array<{ url?: unknown }> };
  const outputs = (native.images ?? []).map((i) => i.url).filter((u): u is string => typeof u === 'string');
  const id = createHash('sha256').update(out.bytes).digest('hex').slice(0, 16);
  return { ...out, bytes: Buffer.from(JSON.stringify({ data: { id, outputs, status: 'completed' } })) };
}

/** router-schema-failure-unavailable: a schema document that cannot be built is 500 service_unavailable. */
export function schemaFailureBucket(state: RouterState): string | undefined {
  return state.isControl('router-schema-failure-unavailable') ? 'service_unavailable' : undefined;
}

/**
 * router-slow-nondeterministic: the slow model's partner draws a fresh generation each call (a
 * new generation_id, as a sampler without a fixed seed does), so a queued request's collect and
 * a later synchronous run of the same input differ; a replay or a second collect does not.
 */
export function generationOf(
  state: RouterState,
  model: ModelDef,
  out: { contentType: string; bytes: Buffer },
): { contentType: string; bytes: Buffer } {
  if (
    model.behaviour !== 'slow' ||
    out.contentType !== 'application/json' ||
    !state.isControl('router-slow-nondeterministic')
  )
    return out;
  const doc = JSON.parse(out.bytes.toString('utf8')) as unknown;
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) return out;
  return { ...out, bytes: Buffer.from(JSON.stringify({ ...doc, generation_id: randomUUID() })) };
}

/** router-queued-cap: unfinished queued requests of a slow model a caller may hold before a submit is told to wait (429). */
export function queuedCap(state: RouterState, model: ModelDef): number | undefined {
  return state.isControl('router-queued-cap') && model.behaviour === 'slow' ? 3 : undefined;
}

/** router-cancel-never-effective: a cancel is acknowledged (202) and the run goes on to its end, as the seed allows. */
export function cancelTakesEffect(state: RouterState): boolean {
  return !state.isControl('router-cancel-never-effective');
}
