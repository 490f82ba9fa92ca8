// Seed W § Node registry operation, Security: a bearer JWT, a bearer API key recognised by
// its prefix and validated as if sent in X-API-Key, or an administrative-secret scheme.
import { test, rules } from '../../fixtures/test.ts';
import type { Auth } from '../../lib/api.ts';
import { check } from '../../lib/check.ts';
import { apiKeyPrefix, attach, checkAccepted, checkCredentialRefused, looksLikeJwt, tamperedJwt, unknownApiKey } from '../../lib/registry/requests.ts';

test.describe('Node registry operation › Security', () => {
  test('a bearer token that is a JWT is accepted', rules('REGISTRY.AUTH.JWT'), async ({ api, requireScenario }) => {
    const jwt = requireScenario('jwt', 'JWT for the registry') as string;
    const nodeId = requireScenario('node_id', 'node to attach translations to') as string;
    check('REGISTRY.AUTH.JWT', looksLikeJwt(jwt), 'the scenario input "jwt"', 'a compact JWT (three base64url parts)', 'something else');
    checkAccepted('REGISTRY.AUTH.JWT', await attach(api, nodeId, { auth: { bearer: jwt } }), 'translations sent with Authorization: Bearer <JWT>');
  });

  test('a bearer API key is recognised by its prefix and accepted as X-API-Key accepts it', rules('REGISTRY.AUTH.API_KEY_BEARER'), async ({ api, target, requireScenario }) => {
    const key = requireScenario('api_key', 'API key that X-API-Key accepts') as string;
    const nodeId = requireScenario('node_id', 'node to attach translations to') as string;
    check('REGISTRY.AUTH.API_KEY_BEARER', key.startsWith(apiKeyPrefix(target)), 'the scenario input "api_key"', `a key starting with ${apiKeyPrefix(target)}`, 'another prefix');
    checkAccepted('REGISTRY.AUTH.API_KEY_BEARER', await attach(api, nodeId, { auth: { bearer: key } }), 'translations sent with Authorization: Bearer <API key>');
  });

  test('an unknown or revoked API key sent as bearer is refused, as X-API-Key refuses it', rules('REGISTRY.AUTH.API_KEY_BEARER'), async ({ api, target, requireScenario }) => {
    const nodeId = requireScenario('node_id', 'node to attach translations to') as string;
    const keys: Array<[string, string]> = [['an unknown key with the API-key prefix', unknownApiKey(target)]];
    const revoked = target.scenario.revoked_api_key;
    if (typeof revoked === 'string') keys.push(['a revoked key', revoked]);
    for (const [what, key] of keys) {
      checkCredentialRefused('REGISTRY.AUTH.API_KEY_BEARER', await attach(api, nodeId, { auth: { bearer: key } }), `translations sent with ${what} as bearer`);
    }
  });

  test('the administrative-secret scheme alone is accepted', rules('REGISTRY.AUTH.ADMIN_SECRET'), async ({ api, requireScenario }) => {
    const header = requireScenario('admin_secret_header', 'header of the administrative-secret scheme') as string;
    const secret = requireScenario('admin_secret', 'administrative secret') as string;
    const nodeId = requireScenario('node_id', 'node to attach translations to') as string;
    checkAccepted('REGISTRY.AUTH.ADMIN_SECRET', await attach(api, nodeId, { auth: { headers: { [header]: secret } } }), `translations sent with ${header} and no bearer`);
  });

  test('a request without credentials, or with invalid ones, is refused with 401 or 403', rules('REGISTRY.AUTH.REFUSED'), async ({ api, target, requireScenario }) => {
    const nodeId = requireScenario('node_id', 'node to attach translations to') as string;
    const attempts: Array<[string, Auth]> = [
      ['no credentials', 'none'],
      ['a bearer that is neither an API key nor a JWT', { bearer: 'not-a-credential' }],
      ['a non-bearer Authorization header', { raw: 'Basic Y29uZm9ybWFuY2U6c3VpdGU=' }],
    ];
    const jwt = target.scenario.jwt;
    if (typeof jwt === 'string') attempts.push(['a JWT whose signature was altered', { bearer: tamperedJwt(jwt) }]);
    const expired = target.scenario.expired_jwt;
    if (typeof expired === 'string') attempts.push(['an expired JWT', { bearer: expired }]);
    const header = target.scenario.admin_secret_header;
    if (typeof header === 'string') attempts.push(['a wrong administrative secret', { headers: { [header]: 'conformance-wrong-secret' } }]);
    for (const [what, auth] of attempts) {
      checkCredentialRefused('REGISTRY.AUTH.REFUSED', await attach(api, nodeId, { auth }), `translations sent with ${what}`);
    }
  });
});
