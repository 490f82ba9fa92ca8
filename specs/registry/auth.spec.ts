// Seed W § Node registry operation, Security (W:151:e64ce748e7f3): a bearer JWT, a bearer
// API key (known by its prefix, checked the way X-API-Key would be), or the
// administrative secret.
//
// X-API-Key is the header of the v1 cloud operations (§ Authentication rule 6). Where the
// target has a cloud surface, each API key the target names is also sent there in
// X-API-Key, and the registry must authenticate it as bearer as X-API-Key does: validated is
// authenticated, not authorised, so a key whose account may not write the node may be
// refused 403, never 401. The seed does not make the registry read X-API-Key itself, so
// nothing is asked of that.
//
// The scenario's own credentials are checked first, as setup: one of the wrong form (not a
// JWT, another prefix, a key X-API-Key does not treat as the input says) is the target's
// mistake and ends the test `error` naming the input, never a rule failure. A replayed
// recording holds stand-ins for credentials, so their form is not checked there.
import { randomUUID } from 'node:crypto';
import { test, rules } from '../../fixtures/test.ts';
import type { ApiClient, ApiResponse, Auth } from '../../lib/api.ts';
import { check } from '../../lib/check.ts';
import {
  apiKeyPrefix,
  attach,
  checkAccepted,
  checkCredentialRefused,
  describe,
  looksLikeJwt,
  tamperedJwt,
  unknownApiKey,
} from '../../lib/registry/requests.ts';
import type { ResolvedTarget, SurfaceTarget } from '../../lib/targets.ts';
import { SuiteError } from '../../lib/violations.ts';

/**
 * A scenario credential that must be a compact JWT (setup: a wrong one is the target's mistake).
 * `replay`: the run replays a recording (settings.run.replay), whose credentials are stand-ins.
 */
function jwtInput(value: unknown, key: string, replay: boolean): string {
  if (!replay && (typeof value !== 'string' || !looksLikeJwt(value))) {
    throw new SuiteError(
      `scenario input ${key} is not a compact JWT (three base64url parts joined by dots); set ${key} (or ${key}_env) to a JWT the registry issues`,
    );
  }
  return value as string;
}

/** A scenario credential that must be an API key, i.e. carry the target's API-key prefix (`replay`: as jwtInput's). */
function apiKeyInput(value: unknown, key: string, target: SurfaceTarget, replay: boolean): string {
  const prefix = apiKeyPrefix(target);
  if (!replay && (typeof value !== 'string' || !value.startsWith(prefix))) {
    throw new SuiteError(
      `scenario input ${key} does not start with the API-key prefix "${prefix}"; set ${key} (or ` +
        `${key}_env) to an API key, or api_key_prefix to the prefix the target's keys carry`,
    );
  }
  return value as string;
}

/** The cloud surface of this test's target, if it has one. */
function cloudOf(whole: ResolvedTarget): SurfaceTarget | undefined {
  return whole.surfaces.find((s) => s.surface === 'cloud');
}

type Verdict = 'accepted' | 'refused';

/**
 * How the v1 operations take `key` in X-API-Key: the status read of a prompt nobody
 * submitted gets past the key check to a 404 (or a success), or is refused 401/403.
 * Any other answer (429, 5xx) says nothing about the key.
 */
async function inXApiKey(
  api: ApiClient,
  cloud: SurfaceTarget,
  key: string,
): Promise<{ verdict: Verdict | undefined; res: ApiResponse }> {
  const res = await api.follow(`${cloud.baseUrl}/api/job/${randomUUID()}/status`, { auth: { apiKey: key } });
  const verdict =
    res.status === 401 || res.status === 403
      ? 'refused'
      : res.status === 404 || (res.status >= 200 && res.status < 300)
        ? 'accepted'
        : undefined;
  return { verdict, res };
}

/** The API keys the target names for its cloud surface (its own and its scenario's), by input name; JWTs and OAuth tokens are not API keys. */
function cloudApiKeys(cloud: SurfaceTarget, prefix: string): Array<[string, string]> {
  const named: Array<[string, unknown]> = [
    ['token', cloud.token],
    ...Object.entries(cloud.scenario).filter(([name]) => name.endsWith('token')),
  ];
  return named.filter((e): e is [string, string] => typeof e[1] === 'string' && e[1].startsWith(prefix));
}

test.describe('Node registry operation › Security', () => {
  test(
    'a bearer token that is a JWT is accepted',
    rules('REGISTRY.AUTH.JWT'),
    async ({ api, requireScenario, settings }) => {
      const jwt = jwtInput(requireScenario('jwt', 'JWT for the registry'), 'jwt', !!settings.run.replay);
      const nodeId = requireScenario('node_id', 'node to attach translations to') as string;
      checkAccepted(
        'REGISTRY.AUTH.JWT',
        await attach(api, nodeId, { auth: { bearer: jwt } }),
        'translations sent with Authorization: Bearer <JWT>',
      );
    },
  );

  test(
    'a bearer API key is recognised by its prefix and accepted as X-API-Key accepts it',
    rules('REGISTRY.AUTH.API_KEY_BEARER'),
    async ({ api, target, testTarget, requireScenario, settings }) => {
      const key = apiKeyInput(
        requireScenario('api_key', 'API key that X-API-Key accepts'),
        'api_key',
        target,
        !!settings.run.replay,
      );
      const nodeId = requireScenario('node_id', 'node to attach translations to') as string;
      const cloud = cloudOf(testTarget);
      if (cloud && (await inXApiKey(api, cloud, key)).verdict === 'refused') {
        throw new SuiteError(
          `scenario input api_key is refused in X-API-Key by the v1 operations at ${cloud.baseUrl}; set api_key to a key X-API-Key accepts`,
        );
      }
      checkAccepted(
        'REGISTRY.AUTH.API_KEY_BEARER',
        await attach(api, nodeId, { auth: { bearer: key } }),
        'translations sent with Authorization: Bearer <API key>',
      );
      // Every API key the target names for its cloud surface: the same verdict both ways.
      for (const [name, other] of cloud ? cloudApiKeys(cloud, apiKeyPrefix(target)) : []) {
        const x = await inXApiKey(api, cloud!, other);
        if (x.verdict === undefined) continue;
        const res = await attach(api, nodeId, { auth: { bearer: other } });
        // W:151 says the key is validated (authenticated) as X-API-Key validates it, not what its
        // account may write: a key X-API-Key takes is authenticated here, so the answer is a success
        // or 403 (authenticated, not allowed to write this node), never 401. Refused means a client
        // error (4xx): the seed shows no status for the registry (W:152:dff12f6f29d0).
        const same =
          x.verdict === 'accepted'
            ? (res.status >= 200 && res.status < 300) || res.status === 403
            : res.status >= 400 && res.status < 500;
        check('REGISTRY.AUTH.API_KEY_BEARER', same, {
          what:
            `translations sent with the cloud surface's ${name} as bearer, a key X-API-Key ` +
            (x.verdict === 'accepted'
              ? `accepts (${x.res.status} at GET /api/job/{id}/status)`
              : `refuses (${x.res.status})`),
          expected:
            x.verdict === 'accepted'
              ? 'authenticated, as X-API-Key takes it: a success (2xx), or 403 if its account may not write this node; not 401'
              : 'refused (a client error, 4xx), as X-API-Key refuses it',
          received: describe(res),
          on: res,
        });
      }
    },
  );

  test(
    'an unknown or revoked API key sent as bearer is refused, as X-API-Key refuses it',
    rules('REGISTRY.AUTH.API_KEY_BEARER'),
    async ({ api, target, testTarget, requireScenario, settings }) => {
      const nodeId = requireScenario('node_id', 'node to attach translations to') as string;
      const keys: Array<[string, string]> = [['an unknown key with the API-key prefix', unknownApiKey(target)]];
      if (target.scenario.revoked_api_key !== undefined) {
        const revoked = apiKeyInput(target.scenario.revoked_api_key, 'revoked_api_key', target, !!settings.run.replay);
        const cloud = cloudOf(testTarget);
        if (cloud && (await inXApiKey(api, cloud, revoked)).verdict === 'accepted') {
          throw new SuiteError(
            `scenario input revoked_api_key is accepted in X-API-Key by the v1 operations at ${cloud.baseUrl}; set revoked_api_key to a key X-API-Key refuses`,
          );
        }
        keys.push(['a revoked key', revoked]);
      }
      for (const [what, key] of keys) {
        checkCredentialRefused(
          'REGISTRY.AUTH.API_KEY_BEARER',
          await attach(api, nodeId, { auth: { bearer: key } }),
          `translations sent with ${what} as bearer`,
        );
      }
    },
  );

  test(
    'the administrative-secret scheme alone is accepted',
    rules('REGISTRY.AUTH.ADMIN_SECRET'),
    async ({ api, requireScenario }) => {
      const header = requireScenario('admin_secret_header', 'header of the administrative-secret scheme') as string;
      const secret = requireScenario('admin_secret', 'administrative secret') as string;
      const nodeId = requireScenario('node_id', 'node to attach translations to') as string;
      checkAccepted(
        'REGISTRY.AUTH.ADMIN_SECRET',
        await attach(api, nodeId, { auth: { headers: { [header]: secret } } }),
        `translations sent with ${header} and no bearer`,
      );
    },
  );

  test(
    'a request without credentials, or with invalid ones, is refused (a client error)',
    rules('REGISTRY.AUTH.REFUSED'),
    async ({ api, target, requireScenario, settings }) => {
      const nodeId = requireScenario('node_id', 'node to attach translations to') as string;
      const jwt =
        target.scenario.jwt === undefined ? undefined : jwtInput(target.scenario.jwt, 'jwt', !!settings.run.replay);
      const expired =
        target.scenario.expired_jwt === undefined
          ? undefined
          : jwtInput(target.scenario.expired_jwt, 'expired_jwt', !!settings.run.replay);
      const attempts: Array<[string, Auth]> = [
        ['no credentials', 'none'],
        ['a bearer that is neither an API key nor a JWT', { bearer: 'not-a-credential' }],
        ['a non-bearer Authorization header', { raw: 'Basic Y29uZm9ybWFuY2U6c3VpdGU=' }],
      ];
      if (jwt !== undefined) attempts.push(['a JWT whose signature was altered', { bearer: tamperedJwt(jwt) }]);
      if (expired !== undefined) attempts.push(['an expired JWT', { bearer: expired }]);
      const header = target.scenario.admin_secret_header;
      if (typeof header === 'string')
        attempts.push(['a wrong administrative secret', { headers: { [header]: 'conformance-wrong-secret' } }]);
      for (const [what, auth] of attempts) {
        checkCredentialRefused(
          'REGISTRY.AUTH.REFUSED',
          await attach(api, nodeId, { auth }),
          `translations sent with ${what}`,
        );
      }
    },
  );
});
