// A failing cell lists every distinct violation behind it (operation, expected, received,
// curl), not only its first; one break seen on many ids is counted, not repeated. Red
// tests are grouped by cause: the first broken check of a rule the test declares.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildMatrix, type TestOutcome } from '../../report/matrix.ts';
import { causeLine, causesOf } from '../../report/causes.ts';
import type { Rule } from '../../lib/rules.ts';
import type { CheckResult } from '../../lib/results.ts';

const rules: Rule[] = [
  {
    id: 'V2.ERR.CODE_STATUS',
    level: 'MUST',
    surfaces: ['local'],
    seed: 'W § Errors',
    source: 'seed',
    seed_refs: [],
    summary: 'codes',
  },
  {
    id: 'V2.ERR.LIST_REFUSALS',
    level: 'MUST',
    surfaces: ['local'],
    seed: 'W § Errors',
    source: 'seed',
    seed_refs: [],
    summary: 'list',
  },
  {
    id: 'V2.ASSET.FIELDS',
    level: 'MUST',
    surfaces: ['local'],
    seed: 'W § Asset',
    source: 'seed',
    seed_refs: [],
    summary: 'fields',
  },
  {
    id: 'ROUTER.X',
    level: 'SHOULD',
    surfaces: ['local'],
    seed: 'R',
    source: 'public-docs',
    seed_refs: [],
    summary: 'x',
  },
];
const catalog = new Map(rules.map((r) => [r.id, r]));
const broke = (rule: string, op: string, what: string, expected: string, received: string): CheckResult => ({
  rule,
  outcome: 'broken',
  what,
  expected,
  received,
  exchange: {
    operationId: op,
    method: 'GET',
    url: `http://127.0.0.1:1/api/v2/${op}`,
    status: Number(received.slice(0, 3)) || 200,
    curl: `curl -sS -i 'http://127.0.0.1:1/api/v2/${op}'`,
  },
});
/** listJobs answers 400 with the code invalid_request, whose status is 422. */
const listJobsWrongStatus = () =>
  broke(
    'V2.ERR.CODE_STATUS',
    'listJobs',
    'listJobs 400: error code "invalid_request" sent with the wrong HTTP status',
    'HTTP 422 for "invalid_request"',
    'HTTP 400',
  );
/** The job list refuses limit=0 with 400 where 422 is due. */
const limitZeroRefusedWrong = () =>
  broke('V2.ERR.LIST_REFUSALS', 'listJobs', 'the job list with limit=0', '422 invalid_request', '400 invalid_request');
const outcome = (title: string, rulesDeclared: string[], results: CheckResult[]): TestOutcome => ({
  title,
  surface: 'local',
  status: 'failed',
  rules: rulesDeclared,
  results,
  errors: [],
});

test('a failing cell lists each distinct violation with its operation, expected, received and curl', () => {
  const m = buildMatrix({
    rules,
    surfacesRun: new Set(['local']),
    familyRun: () => true,
    outcomes: [
      outcome(
        'range',
        ['V2.ERR.LIST_REFUSALS'],
        [
          broke(
            'V2.ERR.CODE_STATUS',
            'getAssetContent',
            'getAssetContent 502: error code "upstream_error" sent with the wrong HTTP status',
            'HTTP 500 for "upstream_error"',
            'HTTP 502',
          ),
        ],
      ),
      outcome(
        'list',
        ['V2.ERR.LIST_REFUSALS'],
        [listJobsWrongStatus(), listJobsWrongStatus(), limitZeroRefusedWrong()],
      ),
    ],
  });
  const codes = m.rows.find((r) => r.id === 'V2.ERR.CODE_STATUS')!.results.local!;
  assert.equal(codes.status, 'fail');
  assert.match(codes.reason ?? '', /and 1 other violation, listed/);
  assert.deepEqual(
    codes.violations?.map((v) => [v.operation, v.expected, v.received, v.count, v.curl?.startsWith('curl ')]),
    [
      ['getAssetContent', 'HTTP 500 for "upstream_error"', 'HTTP 502', 1, true],
      ['listJobs', 'HTTP 422 for "invalid_request"', 'HTTP 400', 2, true],
    ],
  );
  assert.equal(m.rows.find((r) => r.id === 'V2.ERR.LIST_REFUSALS')!.results.local!.status, 'fail');
});

test('red tests are grouped by cause: the rule the test declares comes before the always-on rule the same answer broke', () => {
  const fields = (n: number) =>
    broke('V2.ASSET.FIELDS', 'postAssets', 'postAssets 201: `id` is not a UUID', 'a UUID', `"asset-${n}"`);
  const causes = causesOf(
    [
      ...[1, 2, 3].map((n) => outcome(`t${n}`, ['V2.ERR.LIST_REFUSALS'], [fields(n)])),
      outcome('list', ['V2.ERR.LIST_REFUSALS'], [listJobsWrongStatus(), limitZeroRefusedWrong()]),
      // A SHOULD finding alone never makes a test red (nor a cause).
      { ...outcome('should', ['ROUTER.X'], [broke('ROUTER.X', 'x', 'x', 'a', 'b')]), status: 'passed' },
    ],
    catalog,
  );
  assert.deepEqual(
    causes.map((c) => [c.rule, c.tests]),
    [
      ['V2.ASSET.FIELDS', 3],
      ['V2.ERR.LIST_REFUSALS', 1],
    ],
  );
  assert.match(
    causeLine(causes[0]),
    /^3 tests fail because `V2\.ASSET\.FIELDS` \(MUST, seed: W § Asset\) broke: postAssets 201: `id` is not a UUID — expected a UUID/,
  );
});
