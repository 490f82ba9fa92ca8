// Router faults of credits, body size and authentication (seed R § Authentication, § Errors).
import type { FaultUnit } from '../unit.ts';
import { API_KEY_PREFIX, ROUTER_KEYS } from '../../accounts.ts';
import { resolvePrincipal } from '../../router/principals.ts';
import { MAX_BODY_BYTES } from '../../router/constants.ts';
import { answerError, onRouter, routerError } from './shared.ts';

export const ACCESS_FAULTS = [
  {
    name: 'router-unfunded-403',
    breaks: 'ROUTER.ERR.INSUFFICIENT_CREDITS_402',
    statements: ['R:262:09699319f148'],
    description: 'an unfunded workspace is refused 403 forbidden instead of 402 insufficient_credits',
    install(s) {
      onRouter(s, undefined, (out) => {
        if (out.status !== 402 || routerError(out)?.error_type !== 'insufficient_credits') return;
        answerError(out, 403, 'forbidden', 'this workspace may not run partner models without credits');
      });
    },
  },
  {
    name: 'router-unfunded-runs',
    breaks: 'ROUTER.ERR.INSUFFICIENT_CREDITS',
    description: 'an unfunded workspace is run',
    install(s) {
      s.policy.router.funded = () => true;
    },
  },
  {
    name: 'router-no-body-cap',
    breaks: 'ROUTER.ERR.BODY_TOO_LARGE',
    statements: ['R:267:5204c3afa178'],
    description: 'the body size cap is 8 MiB instead of 1 MiB',
    install(s) {
      s.policy.router.bodyLimitBytes = 8 * MAX_BODY_BYTES;
    },
  },
  {
    name: 'router-catalog-open',
    breaks: 'ROUTER.AUTH.REQUIRED',
    statements: ['R:239:bd61da894ce1', 'R:242:8a627263eda7'],
    description: 'the catalog list answers without credentials',
    install(s) {
      // The catalog list answers an anonymous caller as the default one.
      s.policy.router.anonymousPrincipal = (request) =>
        request.method === 'GET' && request.url.split('?')[0] === '/v2/models'
          ? resolvePrincipal({ 'x-api-key': ROUTER_KEYS.alice }, false)
          : undefined;
    },
  },
  {
    name: 'router-bearer-wins',
    breaks: 'ROUTER.AUTH.KEY_FORMS',
    statements: ['R:241:74f77051e3db'],
    description: 'Authorization takes precedence over X-API-Key',
    install(s) {
      s.policy.router.bearerFirst = true;
    },
  },
  {
    name: 'router-jwt-refused',
    breaks: 'ROUTER.AUTH.JWT',
    statements: ['R:239:abdb844a9f18'],
    description: 'a bearer JWT is refused 401 (only API keys are accepted)',
    install(s) {
      s.policy.router.acceptsJwt = false;
    },
  },
  // R § openapi.json: the schema endpoint needs an API key (only the snapshot is keyless).
  // Routing the endpoint through the public static handler that serves the snapshots opens it.
  {
    name: 'router-schema-endpoint-open',
    breaks: 'ROUTER.AUTH.REQUIRED',
    statements: ['R:184:27167904d1fe', 'R:239:bd61da894ce1', 'R:242:8a627263eda7'],
    description: 'the schema-document endpoint answers callers without credentials (served like the keyless snapshots)',
    install(s) {
      s.policy.router.anonymousPrincipal = (request) =>
        request.method === 'GET' && /^\/v2\/models\/[^/]+\/[^/]+\/openapi\.json$/.test(request.url.split('?')[0])
          ? resolvePrincipal({ 'x-api-key': ROUTER_KEYS.alice }, false)
          : undefined;
    },
  },
  // R § Authentication rule 2: a key sent as a bearer is known by its prefix and read as an API key. An auth
  // layer reading every bearer as a JWT refuses a key sent that way.
  {
    name: 'router-bearer-key-refused',
    breaks: 'ROUTER.AUTH.KEY_FORMS',
    statements: ['R:240:9da45a9d33e1'],
    description:
      'an API key sent as Authorization: Bearer is refused 401 (every bearer read as a JWT); only X-API-Key carries a key',
    install(s) {
      onRouter(s, undefined, (out) => {
        const bearer = /^Bearer (.+)$/i.exec(String(out.request.headers.authorization ?? ''))?.[1];
        if (
          bearer === undefined ||
          !bearer.startsWith(API_KEY_PREFIX) ||
          out.request.headers['x-api-key'] !== undefined ||
          out.status === 401
        )
          return;
        out.setHeader('content-type', 'application/json; charset=utf-8');
        answerError(out, 401, 'unauthorized', 'invalid bearer token');
      });
    },
  },
] as const satisfies ReadonlyArray<FaultUnit>;
