// Faults of the node registry (seed W § Node registry operation): each breaks exactly one rule.
import type { FaultUnit } from './unit.ts';
import { REGISTRY_JWT_SECRET, cloudAccountForKey } from '../accounts.ts';
import { apiKeyOutcome, jwtOutcome, unauthorized } from '../registry/auth.ts';
import { verifyDevJwt } from '../registry/jwt.ts';
import { messageError } from '../registry/errors.ts';
import { isObj } from './v2/shared.ts';

const ROUTE = 'POST /nodes/:nodeId/translations';

export const REGISTRY_FAULTS = [
  // Contract
  {
    name: 'registry-created-303',
    breaks: 'REGISTRY.CONTRACT.STATUS_DECLARED',
    description: 'stored translations are answered 303 See Other instead of a success status',
    install(s) {
      s.respond({ surfaces: ['registry'], routes: [ROUTE] }, (out) => {
        if (out.status !== 201) return;
        out.status = 303;
        out.setHeader('location', out.request.url);
      });
    },
  },
  {
    // Seed W: the success is "detailed information about a node". An administrative path
    // written as a fire-and-forget write answers 204 No Content, which carries none. Only the
    // admin-secret test sees it, and REGISTRY.AUTH.ADMIN_SECRET asks only for a success.
    name: 'registry-admin-write-204',
    breaks: 'REGISTRY.CONTRACT.STATUS_DECLARED',
    statements: ['W:152:fdcb76ff5b16'],
    description: 'translations stored with the administrative secret are answered 204 No Content, without the node',
    install(s) {
      s.respond({ surfaces: ['registry'], routes: [ROUTE] }, (out) => {
        if (out.status !== 201 || !isObj(out.body) || out.body.updated_by !== 'admin') return;
        out.status = 204;
        out.setHeader('content-type', undefined);
        out.payload = '';
      });
    },
  },
  {
    name: 'registry-errors-text-plain',
    breaks: 'REGISTRY.CONTRACT.BODY',
    statements: ['W:152:e9cd9e6c280e'],
    description: '404 answers are plain text instead of a JSON error body',
    install(s) {
      s.respond({ surfaces: ['registry'] }, (out) => {
        if (out.status !== 404 || !isObj(out.body) || typeof out.body.message !== 'string') return;
        out.setHeader('content-type', 'text/plain; charset=utf-8');
        out.payload = out.body.message;
      });
    },
  },
  // Security
  {
    name: 'registry-jwt-refused',
    breaks: 'REGISTRY.AUTH.JWT',
    statements: ['W:151:e64ce748e7f3'],
    description: 'bearer JWTs are refused (401)',
    install(s) {
      s.policy.registry.jwtBearerOutcome = () => unauthorized('this registry does not accept JWT bearers');
    },
  },
  {
    name: 'registry-api-key-bearer-refused',
    breaks: 'REGISTRY.AUTH.API_KEY_BEARER',
    statements: ['W:151:e64ce748e7f3'],
    description: 'a bearer API key is not recognised by its prefix and fails as a malformed JWT',
    install(s) {
      s.policy.registry.apiKeyBearer = () => false;
    },
  },
  {
    name: 'registry-api-key-unchecked',
    breaks: 'REGISTRY.AUTH.API_KEY_BEARER',
    statements: ['W:151:e64ce748e7f3'],
    description: 'any bearer with the API-key prefix is accepted, even an unknown or revoked key',
    install(s) {
      s.policy.registry.apiKeyBearerOutcome = () => ({
        ok: true,
        principal: { kind: 'api-key', account: 'unchecked' },
      });
    },
  },
  {
    // Seed W:151: an API-key bearer is validated as if sent in X-API-Key. A registry that
    // folds a billing check into its key check refuses a key the v1 operations accept in
    // X-API-Key (its account merely has no credits); the one key a target names as
    // `api_key` belongs to a paying account, so only the comparison with X-API-Key sees it.
    name: 'registry-api-key-bearer-needs-credits',
    breaks: 'REGISTRY.AUTH.API_KEY_BEARER',
    description: 'a bearer API key of an account without credits is refused 401, while X-API-Key accepts the same key',
    install(s) {
      s.policy.registry.apiKeyBearerOutcome = (token) =>
        cloudAccountForKey(token) === 'broke'
          ? unauthorized('the account behind this API key has no credits')
          : apiKeyOutcome(token);
    },
  },
  {
    name: 'registry-admin-secret-ignored',
    breaks: 'REGISTRY.AUTH.ADMIN_SECRET',
    statements: ['W:151:e64ce748e7f3'],
    description: 'the administrative-secret header is ignored (401 without a bearer)',
    install(s) {
      s.policy.registry.adminSecret = () => undefined;
    },
  },
  {
    name: 'registry-jwt-expiry-ignored',
    breaks: 'REGISTRY.AUTH.REFUSED',
    description: 'expired JWTs are accepted',
    install(s) {
      s.policy.registry.jwtBearerOutcome = (token, nowMs) =>
        jwtOutcome(verifyDevJwt(REGISTRY_JWT_SECRET, token, nowMs, true));
    },
  },
  {
    name: 'registry-anonymous-accepted',
    breaks: 'REGISTRY.AUTH.REFUSED',
    statements: ['W:151:e64ce748e7f3'],
    description: 'requests without any credential are accepted',
    install(s) {
      s.policy.registry.anonymousPrincipal = () => ({ kind: 'anonymous' });
    },
  },
  // Body
  {
    name: 'registry-missing-data-accepted',
    breaks: 'REGISTRY.BODY.DATA',
    statements: ['W:150:169aa99b52e4'],
    description: 'a body without "data" is accepted',
    install(s) {
      // A body without "data" reaches the route as one with no translations.
      s.request(
        { surfaces: ['registry'], routes: [ROUTE] },
        ({ request }) => {
          if (isObj(request.body) && !('data' in request.body)) request.body.data = {};
        },
        'preHandler',
      );
    },
  },
  {
    name: 'registry-bad-body-422',
    breaks: 'REGISTRY.BODY.STATUS_400',
    description: 'a malformed body is answered 422 instead of 400',
    install(s) {
      s.respond({ surfaces: ['registry'] }, (out) => {
        if (out.status === 400) out.status = 422;
      });
    },
  },
  // Success
  {
    name: 'registry-created-200',
    breaks: 'REGISTRY.CREATE.STATUS',
    description: 'stored translations are answered 200 instead of 201',
    install(s) {
      s.respond({ surfaces: ['registry'], routes: [ROUTE] }, (out) => {
        if (out.status === 201) out.status = 200;
      });
    },
  },
  // Node id
  {
    name: 'registry-unknown-node-created',
    breaks: 'REGISTRY.NODE.UNKNOWN',
    description: 'an id that names no node is accepted (the node is created on the fly)',
    install(s) {
      s.policy.registry.nodeFor = (store, id) => store.node(id) ?? store.adopt(id);
    },
  },
  {
    name: 'registry-node-id-decoded-twice',
    breaks: 'REGISTRY.NODE.PATH_ID',
    statements: ['W:148:ed57f38772f6', 'W:149:478fdbb8da69'],
    description:
      'the node id is percent-decoded a second time (ids with "%" are lost: one that is no escape is dropped)',
    install(s) {
      s.policy.registry.nodeIdOf = (segment) => {
        try {
          return decodeURIComponent(segment);
        } catch {
          return segment.replace(/%/g, '');
        }
      };
    },
  },
  {
    name: 'registry-node-id-nul-500',
    breaks: 'REGISTRY.NODE.ID_NO_5XX',
    statements: ['W:149:478fdbb8da69'],
    description: 'a node id holding a control character makes the route fail with 500 (the store rejects it)',
    install(s) {
      s.request(
        { surfaces: ['registry'], routes: [ROUTE] },
        ({ request }) => {
          const id = (request.params as { nodeId?: string }).nodeId ?? '';
          if (/[\u0000-\u001f]/.test(id))
            throw messageError(500, 'internal_error', 'the node store could not read this id');
        },
        'preHandler',
      );
    },
  },
  // Errors
  {
    name: 'registry-error-third-shape',
    breaks: 'REGISTRY.ERR.SHAPE',
    statements: ['W:152:e9cd9e6c280e'],
    description: 'credential refusals are {code, message}, a third shape',
    install(s) {
      s.respond({ surfaces: ['registry'] }, (out) => {
        if (isObj(out.body) && typeof out.body.error === 'string')
          out.body = { code: out.body.error, message: out.body.message };
      });
    },
  },
  {
    name: 'registry-details-string',
    breaks: 'REGISTRY.ERR.SHAPE',
    statements: ['W:152:e9cd9e6c280e'],
    description: '"details" is one joined string instead of an array of strings',
    install(s) {
      s.respond({ surfaces: ['registry'] }, (out) => {
        if (isObj(out.body) && Array.isArray(out.body.details)) out.body.details = out.body.details.join('; ');
      });
    },
  },
] as const satisfies ReadonlyArray<FaultUnit>;
