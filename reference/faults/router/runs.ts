// Router faults of synchronous runs, model_provider dispatch and fallback (seed R § Running a model).
import type { FaultUnit } from '../unit.ts';
import { ALTERNATES, NATIVE_ALIASES } from '../../router/catalog.ts';
import { Dec } from '../../router/decimal.ts';
import { operationOf } from '../../router/pricing.ts';
import { H } from '../../router/constants.ts';
import { undeclaredTopLevel, validateAgainst } from '../../router/validation.ts';
import { inputSchema } from '../../router/schemas.ts';
import { randomUUID } from 'node:crypto';
import { BYOK_PREFIX, EDIT_PREFIX, RouterError } from '../../router/errors.ts';
import { resolvePrincipal } from '../../router/principals.ts';
import type { RecordedAnswer } from '../../router/idempotency.ts';
import type { Outgoing } from '../seams.ts';
import {
  COLLECT,
  ESTIMATE,
  RUN,
  SUBMIT,
  answerError,
  isObj,
  onRouter,
  params,
  recordingRefusals,
  routerError,
} from './shared.ts';

/** The answer of a 409 refusal whose detail starts with `prefix`, as the error path sends it. */
function conflictAnswer(err: unknown, prefix: string): RecordedAnswer | undefined {
  if (!(err instanceof RouterError && err.status === 409 && err.detail.startsWith(prefix))) return undefined;
  return {
    status: 409,
    headers: { [H.errorType]: 'invalid_input' },
    body: Buffer.from(JSON.stringify({ detail: err.detail, error_type: 'invalid_input' })),
  };
}

/** The model_provider of a run refused 409 for its own key; undefined for any other answer. */
function byokRefused(out: Outgoing): string | undefined {
  const e = routerError(out);
  const mp = (out.request.query as Record<string, unknown>).model_provider;
  const refused = out.status === 409 && typeof e?.detail === 'string' && e.detail.startsWith(BYOK_PREFIX);
  return refused && typeof mp === 'string' ? mp : undefined;
}

/** Answers 400 when the model of the path has no leg at provider `mp` (the catalog's answer); else leaves it. */
function answerNoLeg(out: Outgoing, mp: string): void {
  const def = out.ctx.router.catalog.get(params(out).provider ?? '', params(out).model ?? '');
  if (def === undefined || (def.alternates as readonly string[]).includes(mp)) return;
  answerError(out, 400, 'invalid_input', `model_provider ${JSON.stringify(mp)} has no leg for ${def.id}`);
}

export const RUN_FAULTS = [
  {
    name: 'router-output-array',
    breaks: 'ROUTER.RUN.NATIVE',
    statements: ['R:7:5036bddf9d14', 'R:95:2f74232fb41f', 'R:137:dedf3f1250db'],
    description: 'image model output is wrapped in a JSON array',
    install(s) {
      s.policy.router.shapeOutput = (model, out, strict) =>
        model.kind === 'image' && out.contentType === 'application/json' && !strict
          ? { ...out, bytes: Buffer.from(`[${out.bytes.toString('utf8')}]`) }
          : out;
    },
  },
  {
    name: 'router-output-enveloped',
    breaks: 'ROUTER.RUN.OUTPUT_SCHEMA',
    statements: ['R:7:5036bddf9d14', 'R:95:2f74232fb41f'],
    description: 'image model output is wrapped in {"data": ...}',
    install(s) {
      s.policy.router.shapeOutput = (model, out, strict) =>
        model.kind === 'image' && out.contentType === 'application/json' && !strict
          ? { ...out, bytes: Buffer.from(`{"data":${out.bytes.toString('utf8')}}`) }
          : out;
    },
  },
  {
    name: 'router-seed-max-1e6',
    breaks: 'ROUTER.RUN.SCHEMA_BODIES',
    statements: ['R:95:70c52ff790de'],
    description: 'a seed above 1000000 is refused although the schema allows up to 2147483647',
    install(s) {
      s.policy.router.validateNative = (schema, body, entries) => {
        validateAgainst(schema, body, ['body'], entries);
        if (typeof body.seed === 'number' && body.seed > 1_000_000) {
          entries.push({
            loc: ['body', 'seed'],
            msg: 'Input should be less than or equal to 1000000',
            type: 'less_than_equal',
            ctx: { le: 1_000_000 },
            input: body.seed,
          });
        }
      };
    },
  },
  {
    name: 'router-no-nosniff',
    breaks: 'ROUTER.RUN.NOSNIFF',
    statements: ['R:137:76028b1e9497', 'R:195:80f61e986efa', 'R:213:225f76218e24'],
    description: 'successful runs and collected results lack X-Content-Type-Options',
    install(s) {
      onRouter(s, [RUN, COLLECT], (out) => {
        if (out.status === 200) out.setHeader('X-Content-Type-Options', undefined);
      });
    },
  },
  {
    name: 'router-bytes-as-base64',
    breaks: 'ROUTER.RUN.BYTES',
    statements: ['R:137:a952e40104ff'],
    description: 'the bytes-returning model is answered as JSON with base64 audio',
    install(s) {
      s.policy.router.shapeOutput = (model, out) =>
        model.kind === 'audio'
          ? {
              contentType: 'application/json',
              bytes: Buffer.from(JSON.stringify({ audio_base64: out.bytes.toString('base64') })),
            }
          : out;
    },
  },
  {
    name: 'router-credits-doubled',
    breaks: 'ROUTER.RUN.CREDITS_USED',
    statements: ['R:51:ad9a5652bd3b', 'R:216:b96bd1ad467b'],
    description: 'X-Comfy-Credits-Used reports twice the credits',
    install(s) {
      // Not on a fallback run, which the serving leg bills.
      onRouter(s, [RUN], (out) => {
        const credits = out.header(H.credits);
        if (out.status === 200 && credits !== undefined && out.header(H.fallback) === undefined)
          out.setHeader(H.credits, Dec.of(credits).timesInt(2).toString(2));
      });
    },
  },
  {
    name: 'router-spend-remaining-limit',
    breaks: 'ROUTER.RUN.SPEND_HEADERS',
    statements: ['R:224:0786d6198ee4'],
    description: 'X-Committed-Spend-Remaining always equals the limit',
    install(s) {
      onRouter(s, undefined, (out) => {
        const limit = out.header('X-Committed-Spend-Limit');
        if (limit !== undefined) out.setHeader('X-Committed-Spend-Remaining', limit);
      });
    },
  },
  {
    name: 'router-spend-released-at-admission',
    breaks: 'ROUTER.RUN.SPEND_RESERVED',
    statements: ['R:222:2af63df563cf', 'R:223:90870014739f'],
    description:
      "a call's committed spend is released as soon as the call is admitted, so X-Committed-Spend-Current never counts calls in flight",
    install(s) {
      s.policy.router.holdSpend = (reserve) => {
        reserve()();
        return () => {};
      };
    },
  },
  {
    name: 'router-spend-never-released',
    breaks: 'ROUTER.RUN.SPEND_RESERVED',
    statements: ['R:223:90870014739f'],
    description:
      "a call's committed spend is never released at its end, so X-Committed-Spend-Current keeps growing with every call made",
    install(s) {
      s.policy.router.holdSpend = (reserve) => {
        reserve();
        return () => {};
      };
    },
  },
  {
    name: 'router-reject-unknown-nested',
    breaks: 'ROUTER.RUN.REJECT_UNKNOWN',
    statements: ['R:159:c8fb1c4e85c7'],
    description: 'reject_unknown_fields also refuses undeclared nested fields',
    install(s) {
      s.policy.router.undeclared = (schema, body) => undeclaredTopLevel(schema, body, true);
    },
  },
  {
    name: 'router-reject-unknown-open-schema',
    breaks: 'ROUTER.RUN.REJECT_UNKNOWN',
    statements: ['R:159:c8fb1c4e85c7'],
    description:
      "reject_unknown_fields=true refuses fields a model's authored schema does not declare even where that schema allows undeclared fields",
    install(s) {
      s.policy.router.refusesUndeclared = () => true;
    },
  },
  {
    name: 'router-model-mismatch-ignored',
    breaks: 'ROUTER.RUN.MODEL_MISMATCH',
    statements: ['R:268:e13e5494dfd3'],
    description: 'a body naming another model is run anyway',
    install(s) {
      s.policy.router.bodyNamesModel = () => true;
    },
  },
  {
    name: 'router-video-bills-by-role',
    breaks: 'ROUTER.RUN.VIDEO_BILLING',
    statements: ['R:161:cb574ceb3ee9'],
    description: 'the video family bills reference roles as reference-to-video',
    install(s) {
      s.policy.router.videoOperation = (model, body) => operationOf(model, body, true);
    },
  },
  {
    name: 'router-video-bills-last-media',
    breaks: 'ROUTER.RUN.VIDEO_BILLING',
    statements: ['R:161:cb574ceb3ee9'],
    description:
      'the video family bills by the kind of the last media item in content (a video followed by an image bills as image-to-video)',
    install(s) {
      s.policy.router.videoOperation = (model, body) => {
        const items = Array.isArray(body.content) ? body.content.filter(isObj) : [];
        if (items.some((i) => i.type === 'draft_task')) return operationOf(model, body);
        const last = items.filter((i) => i.type === 'video_url' || i.type === 'image_url').pop();
        return last === undefined ? 'text_to_video' : last.type === 'video_url' ? 'video_to_video' : 'image_to_video';
      };
    },
  },
  {
    name: 'router-video-draft-by-media',
    breaks: 'ROUTER.RUN.VIDEO_BILLING',
    statements: ['R:161:cb574ceb3ee9'],
    description:
      'a final render from a draft_task item bills by the media kinds in its content (none: text-to-video), not like the draft it renders',
    install(s) {
      s.policy.router.videoOperation = (model, body) => {
        const items = Array.isArray(body.content) ? body.content.filter(isObj) : [];
        return operationOf(model, { ...body, content: items.filter((i) => i.type !== 'draft_task') });
      };
    },
  },
  {
    name: 'router-video-images-as-text',
    breaks: 'ROUTER.RUN.VIDEO_BILLING',
    statements: ['R:161:cb574ceb3ee9'],
    description:
      'the video family bills image inputs as text-to-video: only a video input changes the operation (a draft render still bills as its draft)',
    install(s) {
      s.policy.router.videoOperation = (model, body) => {
        const items = Array.isArray(body.content) ? body.content.filter(isObj) : [];
        if (items.some((i) => i.type === 'draft_task')) return operationOf(model, body);
        return items.some((i) => i.type === 'video_url') ? 'video_to_video' : 'text_to_video';
      };
    },
  },
  {
    name: 'router-alias-comfyui-refused',
    breaks: 'ROUTER.PROVIDER.ALIASES',
    statements: ['R:65:d1040a0b3d81', 'R:142:1365f3c86aea'],
    description: 'model_provider=comfyui is refused as unregistered',
    install(s) {
      s.policy.router.nativeAlias = (mp) => mp !== 'comfyui' && (NATIVE_ALIASES as readonly string[]).includes(mp);
    },
  },
  {
    name: 'router-unregistered-runs',
    breaks: 'ROUTER.PROVIDER.UNREGISTERED',
    statements: ['R:147:a877f6953e76', 'R:260:9b53add47cfb'],
    description: 'an unregistered model_provider is ignored (native dispatch)',
    install(s) {
      s.policy.router.nativeAlias = (mp) =>
        (NATIVE_ALIASES as readonly string[]).includes(mp) || !(ALTERNATES as readonly string[]).includes(mp);
    },
  },
  {
    name: 'router-no-leg-404',
    breaks: 'ROUTER.PROVIDER.NO_LEG',
    statements: ['R:151:5e5775534338', 'R:260:9b53add47cfb'],
    description: 'a provider without a leg for the model answers 404 model_not_found',
    install(s) {
      onRouter(s, undefined, (out) => {
        const detail = out.status === 400 && isObj(out.body) ? out.body.detail : undefined;
        const m = typeof detail === 'string' ? /^model_provider "(.+)" has no leg for (.+)$/.exec(detail) : null;
        if (m === null) return;
        answerError(out, 404, 'model_not_found', `${m[1]} does not serve ${m[2]}`);
      });
    },
  },
  {
    name: 'router-edit-forwarded',
    breaks: 'ROUTER.PROVIDER.EDIT_UNSERVABLE',
    statements: ['R:148:f1ff7da45570'],
    description: 'an edit is forwarded to a translator that cannot carry the media',
    install(s) {
      s.policy.router.carriesEdit = () => true;
    },
  },
  {
    name: 'router-byok-cleared-by-key',
    breaks: 'ROUTER.PROVIDER.BYOK_CONFLICT',
    statements: ['R:152:0b3be116b11f'],
    description: 'a request with an Idempotency-Key skips the own-key 409',
    install(s) {
      s.policy.router.ownKeyConflict = (p, model, hasKey) => p.ownKeys.has(model.provider) && !hasKey;
    },
  },
  {
    name: 'router-gate-ignored',
    breaks: 'ROUTER.PROVIDER.GATE',
    statements: ['R:150:b090496824a8', 'R:263:2162d416be91'],
    description: 'providers not turned on for the caller are served',
    install(s) {
      s.policy.router.providerEnabled = () => true;
    },
  },
  {
    name: 'router-refusal-order',
    breaks: 'ROUTER.PROVIDER.REFUSAL_ORDER',
    statements: ['R:146:3bad4bf876a3'],
    description: 'the own-key refusal is checked before the edit refusal',
    install(s) {
      s.policy.router.legRefusals = ['own-key', 'edit'];
    },
  },
  {
    name: 'router-strict-without-provider',
    breaks: 'ROUTER.PROVIDER.STRICT_MODE',
    statements: ['R:130:1228ce4cc53e', 'R:141:d6afdafa33e7'],
    description: 'strict_mode=true without model_provider skips native validation',
    install(s) {
      // strict_mode holds on the native leg too, so the native schema is skipped there.
      s.policy.router.strictMode = (asked) => asked;
    },
  },
  {
    name: 'router-translation-silent',
    breaks: 'ROUTER.PROVIDER.TRANSLATION',
    statements: ['R:144:4a7425e0ed20', 'R:217:ad954066757a'],
    description: 'fields dropped in translation are not disclosed',
    install(s) {
      onRouter(s, undefined, (out) => {
        out.setHeader(H.dropped, undefined);
      });
    },
  },
  {
    name: 'router-alternate-answer-enveloped',
    breaks: 'ROUTER.PROVIDER.ANSWER',
    statements: ['R:144:8f87a4ad1340'],
    description:
      "a run on an alternate without strict mode is answered in the router's own envelope, {provider, " +
      "output}, neither the model's native output nor the alternate's raw answer",
    install(s) {
      // Where the output is shaped, so a queued request's collect answers the same envelope.
      s.policy.router.shapeOutput = (_model, out, strict, leg) =>
        leg.kind === 'alternate' && !strict && out.contentType === 'application/json'
          ? {
              ...out,
              bytes: Buffer.from(`{"provider":${JSON.stringify(leg.provider)},"output":${out.bytes.toString('utf8')}}`),
            }
          : out;
    },
  },
  {
    name: 'router-strict-answer-translated',
    breaks: 'ROUTER.PROVIDER.ANSWER',
    statements: ['R:145:efded79376a2'],
    description:
      "a strict-mode answer is translated back into the model's native output (images[].url) instead of the alternate's answer unchanged",
    install(s) {
      s.policy.router.shapeOutput = (model, out, strict) => {
        if (!strict || model.kind !== 'image' || out.contentType !== 'application/json') return out;
        const urls = out.bytes.toString('utf8').match(/https:\/\/[^"]+/g) ?? [];
        return {
          ...out,
          bytes: Buffer.from(JSON.stringify({ images: urls.map((url) => ({ url, content_type: 'image/png' })) })),
        };
      };
    },
  },
  {
    name: 'router-strict-validates',
    breaks: 'ROUTER.PROVIDER.STRICT_MODE',
    statements: ['R:145:efded79376a2'],
    description: 'strict_mode=true still validates the body against the native schema',
    install(s) {
      s.policy.router.strictSkipsNative = (route) => route !== 'run';
    },
  },
  {
    name: 'router-fallback-no-header',
    breaks: 'ROUTER.FALLBACK.SERVED',
    statements: ['R:218:f81d3b1b3e91'],
    description: 'a successful fallback does not name the serving provider',
    install(s) {
      onRouter(s, [RUN], (out) => {
        out.setHeader(H.fallback, undefined);
      });
    },
  },
  {
    name: 'router-fallback-ignores-false',
    breaks: 'ROUTER.FALLBACK.OFF',
    statements: ['R:131:7fa92600ef30'],
    description: 'fallback_provider=false is ignored',
    install(s) {
      s.policy.router.fallbackOff = () => false;
    },
  },
  {
    name: 'router-fallback-on-edit',
    breaks: 'ROUTER.FALLBACK.SKIPPED',
    statements: ['R:157:d6b775bc7aa9'],
    description: 'edit bodies fall back too',
    install(s) {
      s.policy.router.fallbackSkipsEdits = false;
    },
  },
  {
    name: 'router-fallback-failed-header',
    breaks: 'ROUTER.FALLBACK.FAILED_NO_HEADER',
    statements: ['R:156:7de0b2b36e99'],
    description: 'a failed fallback attempt carries the fallback header',
    install(s) {
      s.policy.router.failedFallback = (failure, next) => ({
        ...failure,
        headers: { ...failure.headers, [H.fallback]: next.provider },
      });
    },
  },
  {
    name: 'router-fallback-no-credits',
    breaks: 'ROUTER.FALLBACK.RATE',
    statements: ['R:216:b96bd1ad467b'],
    description: 'a run served by fallback carries no X-Comfy-Credits-Used although its leg is quoted exactly',
    install(s) {
      onRouter(s, [RUN], (out) => {
        if (out.status === 200 && out.header(H.fallback) !== undefined) out.setHeader(H.credits, undefined);
      });
    },
  },
  // fallback_provider rule 1, each broken the way a router's retry loop is typically got wrong.
  {
    name: 'router-fallback-round-robin',
    breaks: 'ROUTER.FALLBACK.ATTEMPTS',
    statements: ['R:155:9ff9444f1710'],
    description:
      'fallback spreads load: each fallback goes to the next eligible alternate in turn, not the first in a fixed order',
    install(s) {
      let turn = 0;
      s.policy.router.fallbackTries = (eligible) => (eligible.length === 0 ? [] : [eligible[turn++ % eligible.length]]);
    },
  },
  {
    name: 'router-fallback-until-served',
    breaks: 'ROUTER.FALLBACK.ATTEMPTS',
    statements: ['R:155:9ff9444f1710'],
    description: 'fallback retries every eligible alternate in turn until one serves, not once',
    install(s) {
      s.policy.router.fallbackTries = (eligible) => eligible;
    },
  },
  {
    name: 'router-fallback-on-rejection',
    breaks: 'ROUTER.FALLBACK.ATTEMPTS',
    statements: ['R:155:9ff9444f1710'],
    description: "a request the provider called malformed (the request's own failure) is retried on an alternate",
    install(s) {
      s.policy.router.fallbackAfter = (answer) => answer.kind === 'unavailable' || answer.kind === 'rejected';
    },
  },
  {
    name: 'router-fallback-after-timeout',
    breaks: 'ROUTER.FALLBACK.ATTEMPTS',
    statements: ['R:155:32ee83b4b4db'],
    description: 'a call that passed its deadline after the generation was submitted is retried on an alternate',
    install(s) {
      s.policy.router.fallbackAfter = (answer) => answer.kind === 'unavailable' || answer.kind === 'timeout';
    },
  },
  {
    name: 'router-credits-last-call',
    breaks: 'ROUTER.RUN.CREDITS_SUM',
    statements: ['R:216:b96bd1ad467b'],
    description: 'X-Comfy-Credits-Used carries the cost of the last billed call of a run, not the sum of its calls',
    install(s) {
      s.policy.router.runCharge = (calls) => calls[calls.length - 1];
    },
  },
  {
    name: 'router-fallback-native-rate',
    breaks: 'ROUTER.FALLBACK.RATE',
    statements: ['R:65:3357a8ebe2bc'],
    description: 'a fallback run is charged at the native rate',
    install(s) {
      s.policy.router.ratedLeg = (_served, model) => ({ kind: 'native', provider: model.provider });
    },
  },
  // Issue #29: a fault per clause of the synchronous run and of model_provider rules 1-7 that
  // no fault above breaks, each the way a router plausibly gets it wrong.
  {
    name: 'router-sync-job-record',
    breaks: 'ROUTER.RUN.OUTPUT_SCHEMA',
    statements: ['R:10:06fbca54a699'],
    description:
      'for the image partners, whose APIs submit a job and are polled, the router forwards the ' +
      "partner's first answer (its job record) as the 200 instead of polling to the end and answering " +
      'the finished result',
    install(s) {
      onRouter(s, [RUN], (out) => {
        if (
          out.status !== 200 ||
          !(out.header('content-type') ?? '').includes('json') ||
          params(out).provider !== 'pixelforge' ||
          typeof (out.request.query as Record<string, unknown>).model_provider === 'string'
        )
          return;
        out.body = { request_id: randomUUID(), status: 'IN_QUEUE' };
      });
    },
  },
  {
    name: 'router-reject-unknown-ignored',
    breaks: 'ROUTER.RUN.REJECT_UNKNOWN',
    statements: ['R:132:03ad23a2e699'],
    description:
      'reject_unknown_fields=true is parsed but never applied (the undeclared-field pass reads a ' +
      'settings flag that is always off), so an undeclared top-level field passes a schema that does ' +
      'not allow it',
    install(s) {
      s.policy.router.rejectsUnknown = () => false;
    },
  },
  {
    name: 'router-reject-unknown-by-default',
    breaks: 'ROUTER.RUN.REJECT_UNKNOWN',
    statements: ['R:132:03ad23a2e699'],
    description:
      "reject_unknown_fields defaults to true (the option's default inverted in the query model), so a " +
      'default run with an undeclared top-level field is refused 422',
    install(s) {
      s.policy.router.rejectsUnknown = () => true;
    },
  },
  {
    name: 'router-reject-unknown-unauthored',
    breaks: 'ROUTER.RUN.REJECT_UNKNOWN',
    statements: ['R:159:c8fb1c4e85c7'],
    description:
      'with reject_unknown_fields=true, a model without an authored schema is read as declaring no field, so every top-level field of its body is refused 422',
    install(s) {
      s.policy.router.unauthoredEntries = (body, rejectUnknown) =>
        rejectUnknown
          ? Object.keys(body).map((k) => ({
              loc: ['body', k],
              msg: 'Extra inputs are not permitted',
              type: 'extra_forbidden',
              input: body[k],
            }))
          : [];
    },
  },
  {
    name: 'router-reject-unknown-strict-submit',
    breaks: 'ROUTER.RUN.REJECT_UNKNOWN',
    statements: ['R:159:c8fb1c4e85c7'],
    description:
      'a strict-mode queued submit with reject_unknown_fields=true is checked for undeclared fields ' +
      "against the model's native schema, so fields of the alternate's own schema are refused 422",
    install(s) {
      // Before the handler, which skips native checks under strict mode: the native schema's undeclared-field pass.
      s.request(
        { surfaces: ['router'], routes: [SUBMIT] },
        ({ request, reply, ctx }) => {
          const q = request.query as Record<string, unknown>;
          const { provider = '', model = '' } = request.params as Record<string, string>;
          const def = ctx.router.catalog.get(provider, model);
          const schema = def === undefined ? undefined : inputSchema(def);
          if (
            String(q.strict_mode) !== 'true' ||
            String(q.reject_unknown_fields) !== 'true' ||
            !isObj(request.body) ||
            schema === undefined ||
            schema.additionalProperties !== false
          )
            return;
          const entries = undeclaredTopLevel(schema, request.body);
          if (entries.length > 0)
            void reply
              .code(422)
              .headers({ [H.requestId]: randomUUID(), [H.errorType]: 'invalid_input' })
              .send({ detail: entries });
        },
        'preHandler',
      );
    },
  },
  {
    name: 'router-provider-ignored',
    breaks: 'ROUTER.PROVIDER.TRANSLATION',
    statements: ['R:129:279cdee1b254'],
    description:
      'a registered alternate named in model_provider is read as a native alias (the alias table was ' +
      'filled from the provider registry), so the call is dispatched natively and nothing is ' +
      'translated or dropped',
    install(s) {
      s.policy.router.nativeAlias = (mp) =>
        (NATIVE_ALIASES as readonly string[]).includes(mp) || (ALTERNATES as readonly string[]).includes(mp);
    },
  },
  {
    name: 'router-edit-refused-everywhere',
    breaks: 'ROUTER.PROVIDER.EDIT_UNSERVABLE',
    statements: ['R:148:412eba024a88'],
    description:
      "every alternate's translator is taken to be unable to carry the edit's media (the capability " +
      'table lost its entries), so an edit naming a leg that carries the media is refused 409 as well',
    install(s) {
      s.policy.router.carriesEdit = () => false;
    },
  },
  {
    name: 'router-edit-not-detected',
    breaks: 'ROUTER.PROVIDER.EDIT_UNSERVABLE',
    statements: ['R:161:8937b1f01e46'],
    description:
      'the edit operation is detected by an image_url member only, so a body carrying its input image ' +
      'as image runs as text-to-image, and a translator that cannot carry the edit is handed the call',
    install(s) {
      s.policy.router.selectsEdit = (model, body) =>
        model.kind === 'image' && isObj(body) && typeof body.image_url === 'string';
    },
  },
  {
    name: 'router-edit-detail-reworded',
    breaks: 'ROUTER.PROVIDER.EDIT_UNSERVABLE',
    statements: ['R:82:863303820616', 'R:148:f1ff7da45570'],
    description:
      "the edit refusal's detail was rewritten by a message catalog (sentence case, new wording), so it no longer begins with the stable prefix clients match",
    install(s) {
      onRouter(s, [RUN], (out) => {
        const e = routerError(out);
        if (out.status === 409 && typeof e?.detail === 'string' && e.detail.startsWith(EDIT_PREFIX))
          e.detail = `The edit operation (selected by this request's image) is not available: ${e.detail.slice(EDIT_PREFIX.length + 2)}`;
      });
    },
  },
  {
    name: 'router-byok-detail-reworded',
    breaks: 'ROUTER.PROVIDER.BYOK_CONFLICT',
    statements: ['R:82:863303820616', 'R:149:7d9196910a65'],
    description:
      "the own-key refusal's detail was rewritten by a message catalog (BYOK spelt out, sentence " +
      'case), so it no longer begins with the stable prefix clients match',
    install(s) {
      onRouter(s, [RUN], (out) => {
        const e = routerError(out);
        if (out.status === 409 && typeof e?.detail === 'string' && e.detail.startsWith(BYOK_PREFIX))
          e.detail = `This request uses your own provider key (bring your own key)${e.detail.slice(BYOK_PREFIX.length)}`;
      });
    },
  },
  {
    name: 'router-byok-only-with-leg',
    breaks: 'ROUTER.PROVIDER.BYOK_CONFLICT',
    statements: ['R:149:7d9196910a65'],
    description:
      'the leg lookup runs before the own-key refusal, so an own-key request naming a provider with no ' +
      'leg for the model is answered 400 no leg instead of the own-key 409',
    install(s) {
      onRouter(s, [RUN], (out) => {
        const mp = byokRefused(out);
        if (mp === undefined) return;
        answerNoLeg(out, mp);
      });
    },
  },
  {
    name: 'router-order-edit-before-unregistered',
    breaks: 'ROUTER.PROVIDER.REFUSAL_ORDER',
    statements: ['R:146:3bad4bf876a3', 'R:147:a877f6953e76'],
    description:
      'the edit check runs before the provider registry is read: an edit naming an unregistered ' +
      'provider (whose translator is unknown, so taken to carry nothing) is refused 409 with the edit ' +
      'prefix instead of 400',
    install(s) {
      onRouter(s, [RUN], (out) => {
        const e = routerError(out);
        const body = out.request.body;
        if (
          out.status !== 400 ||
          typeof e?.detail !== 'string' ||
          !e.detail.includes('is not a registered provider') ||
          !isObj(body) ||
          typeof body.image !== 'string'
        )
          return;
        out.status = 409;
        out.body = {
          detail: `${EDIT_PREFIX}, which this provider's translator cannot serve; drop model_provider or send without the edit`,
          error_type: 'invalid_input',
        };
      });
    },
  },
  {
    name: 'router-order-gate-before-byok',
    breaks: 'ROUTER.PROVIDER.REFUSAL_ORDER',
    statements: ['R:146:3bad4bf876a3', 'R:149:7d9196910a65'],
    description:
      'the provider gate is evaluated before the own-key refusal (an auth middleware placed ahead of ' +
      "the handler's checks): an own-key request naming a provider not turned on for the caller gets " +
      '403 not_enabled instead of the own-key 409',
    install(s) {
      onRouter(s, [RUN], (out) => {
        const mp = byokRefused(out);
        if (mp === undefined) return;
        const p = resolvePrincipal(out.request.headers, out.ctx.router.policy.bearerFirst);
        if ((p.enabled as ReadonlySet<string>).has(mp)) return;
        answerError(out, 403, 'not_enabled', `${mp} is not turned on for this caller`);
      });
    },
  },
  {
    name: 'router-order-noleg-before-gate',
    breaks: 'ROUTER.PROVIDER.REFUSAL_ORDER',
    statements: ['R:146:3bad4bf876a3', 'R:150:b090496824a8'],
    description:
      "the model's legs are looked up before the provider gate (a cheap catalog check first), so a " +
      'provider both not turned on and without a leg for the model is answered 400 no leg instead of ' +
      '403 not_enabled',
    install(s) {
      onRouter(s, [RUN], (out) => {
        const e = routerError(out);
        const mp = (out.request.query as Record<string, unknown>).model_provider;
        if (out.status !== 403 || e?.error_type !== 'not_enabled' || typeof mp !== 'string') return;
        answerNoLeg(out, mp);
      });
    },
  },
  {
    name: 'router-gate-unknown-closed',
    breaks: 'ROUTER.PROVIDER.GATE',
    statements: ['R:150:b090496824a8', 'R:272:f85668f810ed'],
    description:
      'a provider gate that cannot be evaluated fails closed as if the provider were off: 403 ' +
      'not_enabled instead of 503 service_unavailable, so the caller is told to turn a provider on ' +
      'instead of to retry',
    install(s) {
      onRouter(s, [RUN], (out) => {
        const e = routerError(out);
        if (
          out.status !== 503 ||
          e?.error_type !== 'service_unavailable' ||
          typeof e.detail !== 'string' ||
          !e.detail.includes('could not be evaluated')
        )
          return;
        out.setHeader('Retry-After', undefined);
        answerError(out, 403, 'not_enabled', 'this provider is not turned on for this caller');
      });
    },
  },
  {
    name: 'router-strict-dropped-header',
    breaks: 'ROUTER.PROVIDER.STRICT_MODE',
    statements: ['R:145:efded79376a2'],
    description:
      'every run on an alternate leg carries the dropped-params header, an empty JSON array under ' +
      'strict mode (the header is set wherever a translator could run, not only where one did)',
    install(s) {
      onRouter(s, [RUN], (out) => {
        const q = out.request.query as Record<string, unknown>;
        if (out.status === 200 && typeof q.model_provider === 'string' && out.header(H.dropped) === undefined)
          out.setHeader(H.dropped, '[]');
      });
    },
  },
  {
    name: 'router-edit-409-records-key',
    breaks: 'ROUTER.PROVIDER.EDIT_UNSERVABLE',
    statements: ['R:152:0b3be116b11f'],
    description:
      'the edit refusal is raised after the Idempotency-Key is claimed, and the error path records it ' +
      'like a dispatched answer: the corrected resend under that key (model_provider dropped) is ' +
      'refused 409 as a key conflict instead of run',
    install(s) {
      s.policy.router.keyAfterRefusal = recordingRefusals((err) => conflictAnswer(err, EDIT_PREFIX));
    },
  },
  {
    name: 'router-byok-409-records-key',
    breaks: 'ROUTER.PROVIDER.BYOK_CONFLICT',
    statements: ['R:152:0b3be116b11f'],
    description:
      'the own-key refusal is raised after the Idempotency-Key is claimed, and the error path records ' +
      'it like a dispatched answer: the corrected resend under that key (model_provider dropped) is ' +
      'refused 409 as a key conflict instead of run',
    install(s) {
      s.policy.router.keyAfterRefusal = recordingRefusals((err) => conflictAnswer(err, BYOK_PREFIX));
    },
  },
  {
    name: 'router-estimate-ignores-provider',
    breaks: 'ROUTER.PROVIDER.UNREGISTERED',
    statements: ['R:176:01156134f3e8'],
    description:
      "the estimate route's query schema lists no model_provider and the framework strips unknown " +
      'query parameters, so every estimate prices the native leg: an unregistered value is quoted ' +
      'instead of refused 400',
    install(s) {
      s.request(
        { surfaces: ['router'], routes: [ESTIMATE] },
        ({ request }) => {
          delete (request.query as Record<string, unknown>).model_provider;
        },
        'preHandler',
      );
    },
  },
  {
    name: 'router-strict-answer-tagged',
    breaks: 'ROUTER.PROVIDER.ANSWER',
    statements: ['R:145:efded79376a2'],
    description:
      'a strict-mode answer is passed through a response middleware that tags every JSON answer with ' +
      "the provider that served it (a top-level provider member), so the alternate's own answer is no " +
      'longer returned unchanged',
    install(s) {
      onRouter(s, [RUN], (out) => {
        const q = out.request.query as Record<string, unknown>;
        if (
          out.status === 200 &&
          String(q.strict_mode) === 'true' &&
          typeof q.model_provider === 'string' &&
          isObj(out.body)
        )
          out.body = { ...out.body, provider: q.model_provider };
      });
    },
  },
] as const satisfies ReadonlyArray<FaultUnit>;
