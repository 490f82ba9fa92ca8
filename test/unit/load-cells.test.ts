// Load results judge the LOAD.* cells of a conformance report with the user's own matrix
// and verdict code (report/load-cells.ts, report/summary.ts): a held check passes its cell on
// evidence, a broken one fails it (rule, seed, expected vs received), runs joined one at a
// time add up, and the self-test harness's verdict is the same function's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadRules } from '../../lib/rules.ts';
import { buildMatrix } from '../../report/matrix.ts';
import { summarize } from '../../report/summary.ts';
import { joinLoadRuns } from '../../report/load-cells.ts';
import { runErrorReport } from '../../report/run-error.ts';
import type { ConformanceReport, LoadProfileRun } from '../../report/report.ts';
import { loadCheck } from '../../load/checks.ts';
import { toMarkdown } from '../../report/markdown.ts';

const rules = [...loadRules().values()];

/** A conformance report of a run that judged one router rule and nothing of load. */
function conformance(): ConformanceReport {
  const matrix = buildMatrix({
    rules,
    outcomes: [
      {
        title: 'catalog',
        surface: 'router',
        status: 'passed',
        rules: ['ROUTER.SCHEMA.UNAUTHORED'],
        results: [{ rule: 'ROUTER.SCHEMA.UNAUTHORED', outcome: 'held', what: 'x' }],
        errors: [],
      },
    ],
    surfacesRun: new Set(['router']),
    familyRun: (id) => id.startsWith('ROUTER.'),
  });
  const { summary } = summarize({ matrix, rules, strict: false });
  return {
    ...runErrorReport(''),
    run_errors: undefined,
    target: { name: 'reference', surfaces: [{ surface: 'router', base_url: 'http://127.0.0.1:1' }] },
    summary,
    rules: matrix.rows,
    unplaced: [],
  };
}

function run(profile: string, ok: boolean): LoadProfileRun {
  return {
    profile,
    surface: 'router',
    verdict: ok ? 'pass' : 'fail',
    rules: ['LOAD.POLL.RETRY_AFTER'],
    checks: [
      loadCheck(
        'LOAD.POLL.RETRY_AFTER',
        ok,
        'every poll carries Retry-After',
        'an integer Retry-After',
        ok ? '40 polls, all told' : '3 of 40 polls had none',
      ),
    ],
    thresholds_missed: [],
    report: { json: 'load/x.json', markdown: 'load/x.md', html: 'load/x.html' },
  };
}

const cell = (r: ConformanceReport, id: string, surface: 'router') =>
  r.rules.find((x) => x.id === id)!.results[surface]!;

test('a held load check passes its LOAD cell on evidence and keeps the verdict pass', () => {
  const before = conformance();
  assert.equal(before.summary.verdict, 'pass');
  assert.equal(cell(before, 'LOAD.POLL.RETRY_AFTER', 'router').status, 'not_covered');
  const joined = joinLoadRuns(before, [run('router-queue-poll', true)], rules);
  assert.deepEqual(cell(joined, 'LOAD.POLL.RETRY_AFTER', 'router'), {
    status: 'pass',
    evidence: { held: 1, broken: 0, blocked: 0 },
  });
  assert.equal(joined.summary.verdict, 'pass');
  assert.equal(joined.summary.pass, before.summary.pass + 1);
  assert.deepEqual(
    joined.load?.profiles.map((p) => p.profile),
    ['router-queue-poll'],
  );
});

test('a broken load check fails its cell with rule, seed and expected vs received, and the one verdict fails', () => {
  const joined = joinLoadRuns(conformance(), [run('router-queue-poll', false)], rules);
  const c = cell(joined, 'LOAD.POLL.RETRY_AFTER', 'router');
  assert.equal(c.status, 'fail');
  assert.equal(
    c.reason?.split(' — seed: ')[0],
    'load profile router-queue-poll: every poll carries Retry-After — expected an integer Retry-After, received 3 of 40 polls had none',
  );
  assert.match(c.reason ?? '', / — seed: R § States and transitions/);
  assert.equal(joined.summary.verdict, 'fail');
  assert.deepEqual(joined.summary.must_failed, ['LOAD.POLL.RETRY_AFTER']);
});

test('runs joined one at a time add up; a later run of the same profile replaces the earlier one', () => {
  const once = joinLoadRuns(conformance(), [run('router-queue-poll', false)], rules);
  const other = {
    ...run('router-concurrency', true),
    rules: ['LOAD.CONCURRENCY.LIMIT'],
    checks: [loadCheck('LOAD.CONCURRENCY.LIMIT', true, 'limit', 'at most 2', 'peak 2')],
  };
  const twice = joinLoadRuns(once, [other], rules);
  assert.equal(cell(twice, 'LOAD.CONCURRENCY.LIMIT', 'router').status, 'pass');
  assert.equal(cell(twice, 'LOAD.POLL.RETRY_AFTER', 'router').status, 'fail', 'the first run still judges its cell');
  const again = joinLoadRuns(twice, [run('router-queue-poll', true)], rules);
  assert.equal(cell(again, 'LOAD.POLL.RETRY_AFTER', 'router').status, 'pass');
  assert.equal(again.summary.verdict, 'pass');
  assert.deepEqual(again.load?.profiles.map((p) => p.profile).sort(), ['router-concurrency', 'router-queue-poll']);
});

test('a skipped profile leaves its cells skipped with the reason; a refused preparation blocks them (error)', () => {
  const skipped = joinLoadRuns(
    conformance(),
    [
      {
        ...run('router-queue-poll', true),
        verdict: 'skipped',
        checks: [],
        skip_reason: 'not exercised: target gave no slow_model',
      },
    ],
    rules,
  );
  assert.deepEqual(cell(skipped, 'LOAD.POLL.RETRY_AFTER', 'router'), {
    status: 'skipped',
    reason: 'not exercised: target gave no slow_model',
    evidence: { held: 0, broken: 0, blocked: 0 },
  });
  const refused = joinLoadRuns(
    conformance(),
    [
      {
        ...run('router-queue-poll', false),
        checks: [
          {
            rule: 'LOAD.POLL.RETRY_AFTER',
            outcome: 'blocked',
            what: 'the submit was refused',
            step: 'router-queue-poll: preparation',
          },
        ],
      },
    ],
    rules,
  );
  assert.equal(cell(refused, 'LOAD.POLL.RETRY_AFTER', 'router').status, 'error');
  assert.equal(refused.summary.verdict, 'error');
});

test('a profile that could not start (no load report) reads error, and the report says why instead of a link', () => {
  const why =
    'target prod: its surfaces are not on loopback; add load: {allow: true, max_rate, max_duration_s} to its entry';
  const { report: _, ...noReport } = run('router-queue-poll', false);
  const joined = joinLoadRuns(
    conformance(),
    [
      {
        ...noReport,
        checks: [{ rule: 'LOAD.POLL.RETRY_AFTER', outcome: 'blocked', what: why, step: 'router-queue-poll: start' }],
      },
    ],
    rules,
  );
  assert.equal(cell(joined, 'LOAD.POLL.RETRY_AFTER', 'router').status, 'error');
  assert.equal(joined.summary.verdict, 'error');
  assert.match(
    toMarkdown(joined),
    new RegExp(
      `\\*\\*router-queue-poll\\*\\* on router: FAIL — not held: LOAD\\.POLL\\.RETRY_AFTER — not run: target prod`,
    ),
  );
});

test("a load join counts the seeds of the conformance run's surfaces only, whatever surfaces its load cells name", () => {
  const before = {
    ...conformance(),
    seed_coverage: {
      surfaces: ['cloud'],
      statements: 0,
      judged: 0,
      untestable: 0,
      gaps: 0,
      not_judged_here: 0,
      not_judged: [],
    },
  } as ConformanceReport;
  const joined = joinLoadRuns(before, [run('router-queue-poll', true)], rules);
  assert.deepEqual(joined.seed_coverage?.surfaces, ['cloud']);
  assert.ok(
    joined.seed_coverage.not_judged.every((u) => u.at.startsWith('W:')),
    'no router statement in a cloud run',
  );
  assert.ok(joined.seed_coverage.statements > 0);
});

test("a join reads an interrupted run from the report's own flag, not from the wording of its run errors", () => {
  const stopped = 'interrupted after 3 s; 2 of 5 tests did not run';
  const interrupted = joinLoadRuns(
    { ...conformance(), run_errors: [stopped], interrupted: true },
    [run('router-queue-poll', true)],
    rules,
  );
  assert.equal(interrupted.summary.verdict, 'error');
  assert.equal(interrupted.summary.reason, stopped, 'an interrupted run names where it stopped');
  assert.match(cell(interrupted, 'ROUTER.SCHEMA.ETAG', 'router').reason ?? '', /interrupted before a check of it ran/);
  // The same words without the flag are a run error like any other: the run stopped before judging.
  const stoppedEarly = joinLoadRuns(
    { ...conformance(), run_errors: [stopped] },
    [run('router-queue-poll', true)],
    rules,
  );
  assert.equal(stoppedEarly.summary.reason, 'the suite could not judge the target (see run_errors)');
  assert.match(cell(stoppedEarly, 'ROUTER.SCHEMA.ETAG', 'router').reason ?? '', /the run stopped before any test/);
});
