// Seed W § Authentication, rule 6: v1 operations take the key in X-API-Key; the
// WebSocket takes it as the query parameter token.
import { randomUUID } from 'node:crypto';
import { test, rules } from '../../fixtures/v1/test.ts';
import { check } from '../../lib/check.ts';
import { outputsOf, runPrompt } from '../../lib/v1/run.ts';
import { saveWorkflow } from '../../lib/v1/workflows.ts';
import { WsSession } from '../../lib/ws/session.ts';

test.describe('Authentication', () => {
  test(
    'v1 operations take the key in X-API-Key: /api/view of an output without it does not open',
    rules('V1.AUTH.API_KEY_HEADER'),
    async ({ v1 }) => {
      const run = await runPrompt(v1, saveWorkflow(v1.classes, `conformance-v1-auth-${randomUUID().slice(0, 8)}`), {
        expect: 'success',
        rule: 'V1.AUTH.API_KEY_HEADER',
      });
      const [out] = outputsOf(run.stream);
      const withKey = await v1.view({ filename: out.filename, type: out.type });
      check('V1.AUTH.API_KEY_HEADER', withKey.status < 400, {
        what: '/api/view with X-API-Key',
        expected: 'the file (a redirect to it)',
        received: withKey.status,
      });
      const without = await v1.view({ filename: out.filename, type: out.type }, 'none');
      // v1 error statuses are not shown by the seed: any refusal (4xx) holds; public docs say 401 (or 404 on /api/view).
      const refused = (status: number): boolean => status >= 400 && status < 500;
      check('V1.AUTH.API_KEY_HEADER', refused(without.status), {
        what: '/api/view of the same output without X-API-Key',
        expected: 'refused (a 4xx; public docs: 401 or 404), not the file',
        received: `${without.status} ${without.header('location') ?? ''}`,
      });
      // GET /api/object_info (the node catalog) is left out: the seed names the credential header
      // of the v1 operations (W:127:3a21e7b63064) but not that this read needs it, and the public
      // documents give it no 401 either, so a catalog served without a key is accepted.
    },
  );

  test(
    'the WebSocket reads the key from its token query parameter: a valid one connects, an unknown one is refused',
    rules('V1.AUTH.API_KEY_HEADER'),
    async ({ v1 }) => {
      const good = await WsSession.connect(v1.streamUrl(), { bounds: v1.api.bounds });
      check('V1.AUTH.API_KEY_HEADER', good.ok, {
        what: 'WS /ws with the account key as token',
        expected: 'the upgrade accepted',
        received: good.ok ? 'accepted' : good.reason,
      });
      if (good.ok) good.session.close();
      const bad = await WsSession.connect(v1.streamUrl(undefined, `not-a-key-${randomUUID()}`), {
        bounds: v1.api.bounds,
      });
      if (bad.ok) bad.session.close();
      check('V1.AUTH.API_KEY_HEADER', !bad.ok, {
        what: 'WS /ws with an unknown token',
        expected: 'the upgrade refused',
        received: bad.ok ? 'accepted' : bad.reason,
      });
    },
  );
});
