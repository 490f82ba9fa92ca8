// Seed W § Authentication (v2).
import { test, rules } from '../../fixtures/test.ts';
import { check, checkStatus, ensure, notJudged } from '../../lib/check.ts';
import { randomUUID } from 'node:crypto';
import { postOwnAsset } from '../../lib/v2/assets.ts';
import { credentialedSurface } from '../../lib/v2/token-proxy.ts';
import { jwtRefusalWords } from '../../lib/v2/jwt.ts';

test.describe('Authentication', () => {
  test(
    'an account API key sent as Authorization Bearer works',
    rules('V2.AUTH.BEARER_KEY'),
    async ({ api, target }) => {
      if (!target.token)
        return notJudged(
          'V2.AUTH.BEARER_KEY',
          'the target gave no API key for this surface (token_env or TARGET_TOKEN)',
        );
      // The key is passed explicitly, so a refusal is judged here as this rule's failure
      // instead of stopping the test as a configuration error.
      const keyed = api.as({ bearer: target.token });
      const { res } = await postOwnAsset(keyed);
      ensure('V2.AUTH.BEARER_KEY', res.status !== 401 && res.status !== 403, {
        what: 'an upload with Authorization: Bearer <API key>',
        expected: 'the key accepted (not 401 or 403)',
        received: `${res.status} ${res.errorCode ?? ''}`,
        on: res,
      });
      checkStatus('V2.ASSET.CREATE', res, [200, 201, 202]);
      checkStatus(
        'V2.AUTH.BEARER_KEY',
        await keyed.call('getAsset', { path: { id: res.json<{ id: string }>().id } }),
        [200],
      );
    },
  );

  test(
    'on the hosted cloud a session JWT and an OAuth access token are accepted as bearer, ' +
      'or refused 401 saying so where the deployment is configured not to take them',
    rules('V2.AUTH.JWT_ACCEPTED', 'V2.AUTH.JWT_REFUSAL'),
    async ({ api, target }) => {
      const given = (['jwt_token', 'oauth_token'] as const).filter((k) => typeof target.scenario[k] === 'string');
      test.skip(
        given.length === 0,
        'not exercised: target gave no session JWT or OAuth access token (scenario inputs jwt_token_env, oauth_token_env)',
      );
      const { res: created } = await postOwnAsset(api);
      checkStatus('V2.ASSET.CREATE', created, [200, 201, 202]);
      const id = created.json<{ id: string }>().id;
      // W:157:0f28ce1fb567: whether JWT bearers are taken is the deployment's configuration, so
      // a refusal is legal unless the target declares its cloud takes them (capability accepts_jwt);
      // a refusal then owes a message saying so (V2.AUTH.JWT_REFUSAL). Anything else (admitted as
      // another account, 403, a 5xx) is no acceptance and no refusal the seed allows.
      const configuredToTake = target.capabilities.accepts_jwt === true;
      let refusals = 0;
      for (const k of given) {
        const what = k === 'jwt_token' ? 'session JWT' : 'OAuth access token';
        const res = await api.as({ bearer: target.scenario[k] as string }).call('getAsset', { path: { id } });
        if (res.status === 401 && !configuredToTake) {
          refusals += 1;
          const words = await jwtRefusalWords(api, res, id);
          check('V2.AUTH.JWT_REFUSAL', words.saysSo, {
            what: `the 401 message for the ${what} as bearer`,
            expected:
              'a message saying JWT bearers are not taken here: not the message of an unknown key or of no credential, nor a bare "unauthorized"',
            received: words.messages,
            on: res,
          });
          notJudged(
            'V2.AUTH.JWT_ACCEPTED',
            `the cloud refused the ${what} 401, as a deployment configured not to take JWT bearers may ` +
              `(declare capability accepts_jwt when it is configured to take them)`,
          );
          continue;
        }
        check('V2.AUTH.JWT_ACCEPTED', res.status === 200, {
          what: `GET of the account's asset with the ${what} as bearer`,
          expected: configuredToTake
            ? '200 (the credential accepted: the target declares accepts_jwt)'
            : '200 (the credential accepted), or 401 saying JWT bearers are not taken here',
          received: `${res.status} ${res.errorCode ?? ''}`,
          on: res,
        });
      }
      if (refusals === 0)
        notJudged('V2.AUTH.JWT_REFUSAL', 'the cloud refused no JWT bearer, so there was no refusal message to read');
    },
  );

  test(
    'an SSO-bound key is refused 403 sso_required naming the organization the target declares',
    rules('V2.AUTH.SSO_REQUIRED'),
    async ({ api, requireScenario }) => {
      // W:160:66285eb15e9e gives the refusal the organization's id; W:198:0a870126a233 lets it be
      // absent when the server does not know it, so it is judged where the target names it.
      const sso = api.as({ bearer: requireScenario('sso_required_token', 'SSO-bound key') as string });
      const organization = requireScenario(
        'sso_organization_id',
        'the organization whose single sign-on governs that key',
      ) as string;
      const res = await sso.call('getAsset', { path: { id: randomUUID() } });
      checkStatus('V2.AUTH.SSO_REQUIRED', res, [403], 'sso_required');
      const given = res.json<{ error: { organization_id?: unknown } }>().error.organization_id;
      check('V2.AUTH.SSO_REQUIRED', given === organization, {
        what: 'organization_id of the sso_required refusal',
        expected: `${JSON.stringify(organization)} (scenario input sso_organization_id)`,
        received: given ?? 'absent',
        on: res,
      });
    },
  );

  test(
    'a request without valid credentials answers 401 unauthorized',
    rules('V2.AUTH.UNAUTHENTICATED_401'),
    async ({ api, target }) => {
      const surface = credentialedSurface(api);
      test.skip(
        surface === undefined,
        'not exercised: this proxy runs open (no static token), and the target gave no token-protected ' +
          'instance (scenario inputs token_base_url, static_token_env)',
      );
      const id = randomUUID();
      const keyPrefix = target.surface === 'local' ? '' : 'comfyui-';
      const attempts: Array<[string, Parameters<typeof api.call>[1]]> = [
        ['no Authorization header', { auth: 'none' }],
        ['an unknown key', { auth: { bearer: `${keyPrefix}conformance-unknown-${randomUUID()}` } }],
        ['a malformed Authorization header', { auth: { raw: 'Basic Y29uZm9ybWFuY2U6eA==' } }],
      ];
      for (const [what, opts] of attempts) {
        const res = await surface!.open.call('getAsset', { path: { id }, ...opts });
        check('V2.AUTH.UNAUTHENTICATED_401', res.status === 401 && res.errorCode === 'unauthorized', {
          what: `GET asset with ${what} at ${surface!.how}`,
          expected: '401 unauthorized',
          received: `${res.status} ${res.errorCode ?? ''}`,
          on: res,
        });
      }
      // The refusal is about the credential: the same request with it is admitted.
      const keyed = await surface!.keyed.call('getAsset', { path: { id } });
      check('V2.AUTH.UNAUTHENTICATED_401', keyed.status !== 401, {
        what: `GET asset with the configured credential at ${surface!.how}`,
        expected: 'admitted (here 404)',
        received: `${keyed.status} ${keyed.errorCode ?? ''}`,
        on: keyed,
      });
    },
  );

  test(
    'the self-hosted proxy accepts unauthenticated requests by default',
    rules('V2.AUTH.LOCAL_OPEN'),
    async ({ api, target }) => {
      test.skip(
        !!target.token,
        'not exercised: this proxy is configured with a static token (the default, open, setup is not the one under test)',
      );
      const { res } = await postOwnAsset(api.as('none'));
      // A refusal for want of credentials is this rule's failure; any other refusal of the
      // upload is V2.ASSET.CREATE's question, asked elsewhere.
      ensure('V2.AUTH.LOCAL_OPEN', res.status !== 401 && res.status !== 403, {
        what: 'an upload with no Authorization header',
        expected: 'accepted (not 401 or 403)',
        received: `${res.status} ${res.errorCode ?? ''}`,
        on: res,
      });
      checkStatus('V2.ASSET.CREATE', res, [200, 201, 202]);
      const read = await api.as('none').call('getAsset', { path: { id: res.json<{ id: string }>().id } });
      check('V2.AUTH.LOCAL_OPEN', read.status === 200, {
        what: 'a read with no Authorization header',
        expected: '200',
        received: `${read.status} ${read.errorCode ?? ''}`,
        on: read,
      });
    },
  );
});
