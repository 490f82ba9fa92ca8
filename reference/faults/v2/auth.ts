// v2 faults of authentication (seed W § Authentication): who is let in, and how a refusal reads.
import type { FaultUnit } from '../unit.ts';
import type { Seams } from '../seams.ts';
import {
  API_KEY_PREFIX,
  LOCAL_STATIC_TOKEN,
  LOCAL_TOKEN_MOUNT,
  bearerToken,
  cloudAccountForKey,
} from '../../accounts.ts';
import { ApiError, notFound } from '../../errors.ts';
import { Moderation } from '../../v2/moderation.ts';
import { CONTENT, UUID_RE, errorObject, param } from './shared.ts';

/** Gives the serverless surface's 401 for a JWT bearer another message. */
function rewordJwtRefusal(s: Seams, message: string): void {
  s.respond({ surfaces: ['serverless'] }, (out) => {
    const inner = errorObject(out);
    if (inner !== undefined && out.error?.code === 'unauthorized' && out.error.message.includes('does not accept JWT'))
      inner.message = message;
  });
}

export const AUTH_FAULTS = [
  {
    name: 'content-without-credentials',
    breaks: 'V2.ASSET.CONTENT_AUTH',
    statements: ['W:119:8832130edc41', 'W:119:31320cfe272b', 'W:82:0139f108f322', 'W:159:0a6c09e256f9'],
    description: 'cloud content endpoint answers its 302 to a request without an Authorization header',
    install(s) {
      // Anonymous reads of the hosted content endpoint get their redirect before the guard runs.
      let moderation: Moderation | undefined;
      s.request({ surfaces: ['cloud'], routes: [CONTENT] }, ({ request, reply, ctx }) => {
        if (request.headers.authorization !== undefined) return;
        const id = param({ request }, 'id');
        const rec = UUID_RE.test(id) ? ctx.assets.get(id) : undefined;
        if (rec === undefined) throw notFound('asset');
        moderation ??= new Moderation(ctx.blobs);
        if (moderation.flagged(rec.hex))
          throw new ApiError('content_blocked', 'content moderation flagged these bytes');
        reply.code(302).header('Location', ctx.signer.sign(rec.hex, rec.content_type).url).send();
      });
    },
  },
  {
    name: 'unknown-key-accepted',
    breaks: 'V2.AUTH.UNAUTHENTICATED_401',
    statements: ['W:212:ea35fad56b1a', 'W:159:0a6c09e256f9'],
    description: 'an unknown bearer key with the comfyui- prefix is accepted as alice',
    install(s) {
      s.policy.v2.cloudBearerAccount = (token) =>
        cloudAccountForKey(token) ?? (token.startsWith(API_KEY_PREFIX) ? 'alice' : undefined);
    },
  },
  {
    name: 'local-requires-token',
    breaks: 'V2.AUTH.LOCAL_OPEN',
    statements: ['W:13:b71f494ae7ef', 'W:158:e148259f02da'],
    description: 'local surface without a configured token refuses unauthenticated requests with 401',
    install(s) {
      s.request({ surfaces: ['local'] }, ({ request, ctx }) => {
        if (!request.routeOptions.url?.startsWith('/api/v2/')) return;
        if (ctx.localToken === undefined && bearerToken(request.headers.authorization) === undefined) {
          throw new ApiError('unauthorized', 'missing Authorization header');
        }
      });
    },
  },
  {
    name: 'sso-only-on-jobs',
    breaks: 'V2.AUTH.SSO_REQUIRED',
    statements: ['W:160:97ea6d595465', 'W:111:60ee272be59d'],
    description: 'an SSO-bound key is refused only on job routes; asset routes and /workflow let it through',
    install(s) {
      // The SSO-bound key acts as its account everywhere but the job routes.
      s.policy.v2.ssoBoundAccount = (request) => (request.url.includes('/api/v2/jobs') ? undefined : 'dave');
    },
  },
  {
    name: 'jwt-message-generic',
    breaks: 'V2.AUTH.JWT_REFUSAL',
    statements: ['W:157:0f28ce1fb567'],
    description: 'a JWT bearer gets a 401 whose message does not say JWTs are refused',
    install(s) {
      rewordJwtRefusal(s, 'unauthorized');
    },
  },
  {
    name: 'bearer-key-refused',
    breaks: 'V2.AUTH.BEARER_KEY',
    statements: ['W:11:33070e5c53e5', 'W:156:c53d073fcc96', 'W:157:218220fab5d1'],
    description:
      'the cloud refuses an account API key sent as Authorization: Bearer (it reads keys only from X-API-Key)',
    install(s) {
      s.policy.v2.cloudBearerAccount = (token) => {
        if (cloudAccountForKey(token) !== undefined)
          throw new ApiError('unauthorized', 'send the API key in X-API-Key');
        return undefined;
      };
    },
  },
  {
    name: 'serverless-key-refused',
    breaks: 'V2.AUTH.BEARER_KEY',
    statements: ['W:12:1115c2ca41a0'],
    description:
      'a serverless deployment takes only keys minted for that deployment: an account API key sent as Bearer is refused 401',
    install(s) {
      s.request({ surfaces: ['serverless'] }, ({ request }) => {
        if (!request.routeOptions.url?.includes('/api/v2/')) return;
        const token = bearerToken(request.headers.authorization);
        if (token !== undefined && token.startsWith(API_KEY_PREFIX))
          throw new ApiError('unauthorized', 'this deployment takes its own deployment keys only');
      });
    },
  },
  {
    name: 'sso-org-id-dropped',
    breaks: 'V2.AUTH.SSO_REQUIRED',
    statements: ['W:160:66285eb15e9e'],
    description:
      'the error serializer writes code and message only, so an sso_required refusal loses the organization_id the server knows',
    install(s) {
      s.respond({ surfaces: ['serverless'] }, (out) => {
        const inner = errorObject(out);
        if (inner !== undefined && out.error?.code === 'sso_required') delete inner.organization_id;
      });
    },
  },
  {
    name: 'unauthenticated-code',
    breaks: 'V2.AUTH.UNAUTHENTICATED_401',
    statements: ['W:212:ea35fad56b1a'],
    description:
      "missing or invalid credentials are refused 401 with the code unauthenticated (the auth library's own word) instead of unauthorized",
    install(s) {
      s.respond({ surfaces: ['local', 'cloud', 'serverless'] }, (out) => {
        const inner = errorObject(out);
        if (inner !== undefined && out.error?.code === 'unauthorized' && out.request.url.includes('/api/v2/'))
          inner.code = 'unauthenticated';
      });
    },
  },
  {
    name: 'sso-as-forbidden',
    breaks: 'V2.AUTH.SSO_REQUIRED',
    statements: ['W:219:23d45a94621a'],
    description:
      'an SSO-bound key is refused 403 as a plain forbidden (code and message only), so a client cannot tell it must sign in through its organization',
    install(s) {
      s.respond({ surfaces: ['serverless'] }, (out) => {
        if (out.error?.code === 'sso_required') out.fail(new ApiError('forbidden', 'this key may not be used here'));
      });
    },
  },
  {
    name: 'signed-url-needs-key',
    breaks: 'V2.URL.SIGNED_OPENABLE',
    statements: ['W:75:e71dae8dd62b', 'W:43:384fde49ab84'],
    description: 'the signed storage route answers 401 unless an Authorization header is present',
    install(s) {
      s.request({ surfaces: ['cloud'], routes: ['GET /storage/blobs/:hex'] }, ({ request }) => {
        if (request.headers.authorization === undefined)
          throw new ApiError('unauthorized', 'an Authorization header is required');
      });
    },
  },
  {
    name: 'jwt-message-unknown-key',
    breaks: 'V2.AUTH.JWT_REFUSAL',
    statements: ['W:157:0f28ce1fb567'],
    description: 'a JWT bearer gets 401 "unknown API key", a message any key refusal gives',
    install(s) {
      rewordJwtRefusal(s, 'unknown API key');
    },
  },
  {
    name: 'cloud-jwt-wrong-account',
    breaks: 'V2.AUTH.JWT_ACCEPTED',
    statements: ['W:156:fd04a5747559'],
    description:
      'the hosted cloud admits a session JWT but maps it to an account of its own (the subject claim ' +
      "read as an organization id), so the JWT's user sees none of their assets",
    install(s) {
      // A bearer that is no API key is let in, as an account no key belongs to.
      s.policy.v2.cloudBearerAccount = (token) =>
        cloudAccountForKey(token) ?? (token.startsWith(API_KEY_PREFIX) ? undefined : 'jwt-org-account');
    },
  },
  {
    name: 'token-proxy-content-open',
    breaks: 'V2.ASSET.CONTENT_AUTH',
    statements: ['W:119:8832130edc41', 'W:119:31320cfe272b'],
    description: 'the token-protected proxy serves the content endpoint to requests without the token',
    install(s) {
      // The content endpoint of the token-protected mount lets a request without credentials in as if it sent the token.
      s.request({ surfaces: ['local'], routes: [CONTENT] }, ({ request }) => {
        if (
          request.routeOptions.url?.startsWith(`${LOCAL_TOKEN_MOUNT}/`) &&
          request.headers.authorization === undefined
        ) {
          request.headers.authorization = `Bearer ${LOCAL_STATIC_TOKEN}`;
        }
      });
    },
  },
] as const satisfies ReadonlyArray<FaultUnit>;
