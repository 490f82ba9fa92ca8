// Seed W § Node registry operation, Body: a JSON object with `data` (object).
import { test, rules } from '../../fixtures/test.ts';
import { check } from '../../lib/check.ts';
import { attach, checkAccepted, describe } from '../../lib/registry/requests.ts';

// Bodies the seed's shape rules out: no `data`, `data` of another type, no object at all.
const REFUSED_BODIES: Array<[string, unknown]> = [
  ['an object without data', { translations: { fr: { title: 'x' } } }],
  ['data as a string', { data: 'fr' }],
  ['data as a number', { data: 1 }],
  ['data as an array', { data: [{ fr: { title: 'x' } }] }],
  ['data as null', { data: null }],
  ['an array instead of an object', [{ data: { fr: { title: 'x' } } }]],
];

test.describe('Node registry operation › Body', () => {
  test('a body with data (an object) is accepted', rules('REGISTRY.BODY.DATA'), async ({ api, requireScenario }) => {
    const nodeId = requireScenario('node_id', 'node to attach translations to') as string;
    checkAccepted('REGISTRY.BODY.DATA', await attach(api, nodeId), 'a body {data: {fr: {...}, de: {...}}}');
  });

  test(
    'a body without data, or whose data is not an object, is refused with a 4xx error',
    rules('REGISTRY.BODY.DATA'),
    async ({ api, requireScenario }) => {
      const nodeId = requireScenario('node_id', 'node to attach translations to') as string;
      for (const [what, json] of REFUSED_BODIES) {
        const res = await attach(api, nodeId, { json });
        check('REGISTRY.BODY.DATA', res.status >= 400 && res.status < 500, {
          what: `a body that is ${what}`,
          expected: 'a 4xx refusal',
          received: describe(res),
        });
      }
    },
  );

  test(
    'a refused body is answered 400 Bad Request',
    rules('REGISTRY.BODY.STATUS_400'),
    async ({ api, requireScenario }) => {
      const nodeId = requireScenario('node_id', 'node to attach translations to') as string;
      for (const [what, json] of REFUSED_BODIES) {
        const res = await attach(api, nodeId, { json });
        // A body accepted outright is REGISTRY.BODY.DATA's to judge, not this rule's.
        if (res.status < 400) continue;
        check('REGISTRY.BODY.STATUS_400', res.status === 400, {
          what: `a body that is ${what}`,
          expected: '400',
          received: describe(res),
        });
      }
    },
  );
});
