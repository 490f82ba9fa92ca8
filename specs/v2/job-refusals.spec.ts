// Seed W § Errors: submit refusals and their details (rules 1-3), and the codes of the
// table that belong to jobs.
import { randomBytes, randomUUID } from 'node:crypto';
import { test, rules } from '../../fixtures/test.ts';
import { check, checkStatus, notJudged } from '../../lib/check.ts';
import {
  assetReference,
  formUsesId,
  invertWorkflow,
  malformedNodes,
  slowWorkflow,
  uiFormatWorkflow,
  unknownClassNodes,
  type Workflow,
} from '../../lib/data/workflows.ts';
import { blake3Of, postOwnAsset } from '../../lib/v2/assets.ts';
import { jobStates } from '../../lib/v2/states.ts';
import {
  anyWorkflow,
  checkRefusalDetails,
  classes,
  jobUrl,
  pollToEnd,
  postJob,
  requireAssetForm,
  requireClass,
  submitJob,
} from '../../lib/v2/jobs.ts';

/** The node error types seed W ties to malformed nodes (W:232:3301ff267691). */
const MALFORMED_TYPES: ReadonlySet<string> = new Set(['invalid_node', 'invalid_inputs', 'invalid_class_type']);

/** The named nodes none of whose errors has one of `types`, as `id: type, type`. */
function namedWithout(
  nodeErrors: Record<string, { errors?: unknown }> | undefined,
  types: ReadonlySet<string>,
): string[] {
  return Object.entries(nodeErrors ?? {}).flatMap(([id, entry]) => {
    const got = (Array.isArray(entry.errors) ? entry.errors : []).map((e) => (e as { type?: unknown }).type);
    return got.some((t) => typeof t === 'string' && types.has(t)) ? [] : [`${id}: ${got.join(', ') || 'no errors'}`];
  });
}

test.describe('Errors: submit refusals', () => {
  test(
    'a required input not connected is refused 422 invalid_workflow naming the node',
    rules('V2.ERR.INVALID_WORKFLOW', 'V2.ERR.NODE_ERRORS_DETAILS'),
    async ({ api }) => {
      const workflow: Workflow = {
        ...anyWorkflow(api),
        '2': { class_type: classes(api).saveImage, inputs: { filename_prefix: 'x' } },
      };
      const res = await postJob(api, { workflow });
      checkStatus('V2.ERR.INVALID_WORKFLOW', res, [422], 'invalid_workflow');
      const details = checkRefusalDetails(res, workflow);
      check('V2.ERR.NODE_ERRORS_DETAILS', details.node_errors !== undefined && '2' in details.node_errors, {
        what: 'details.node_errors',
        expected: 'an entry for node "2" (its images input is not connected)',
        received: details.node_errors,
        on: res,
      });
    },
  );

  test(
    'a refusal names at most fifty malformed nodes and then gives the full count',
    rules('V2.ERR.NODE_ERRORS_DETAILS'),
    async ({ api }) => {
      const workflow = malformedNodes(60, classes(api));
      const res = await postJob(api, { workflow });
      checkStatus('V2.ERR.NODE_ERRORS_DETAILS', res, [422]);
      // At most fifty named, whatever their types (W:232:68458a84be2b), and any count with its flag.
      const details = checkRefusalDetails(res, workflow);
      check('V2.ERR.NODE_ERRORS_DETAILS', Object.keys(details.node_errors ?? {}).length > 0, {
        what: 'node_errors of a refusal of 60 nodes missing a required input',
        expected: 'the nodes at fault named (at most fifty)',
        received: details.node_errors,
        on: res,
      });
      // The flag and the full count belong to the three malformed types (W:232:3301ff267691). The
      // seed's types are those seen (W:66:2e4eea868945), an open list: a server may type a missing
      // input its own way, and to such a refusal the seed ties no count.
      const untyped = namedWithout(details.node_errors, MALFORMED_TYPES);
      if (untyped.length > 0)
        return notJudged(
          'V2.ERR.NODE_ERRORS_DETAILS',
          `the nodes are named with error types of the server's own ` +
            `(${untyped.slice(0, 2).join('; ')}), none of ${[...MALFORMED_TYPES].join(', ')}, to which ` +
            `the seed ties node_errors_truncated and malformed_node_count`,
        );
      check('V2.ERR.NODE_ERRORS_DETAILS', details.node_errors_truncated === true, {
        what: 'node_errors_truncated with 60 malformed nodes',
        expected: 'true',
        received: details.node_errors_truncated,
        on: res,
      });
      check('V2.ERR.NODE_ERRORS_DETAILS', details.malformed_node_count === 60, {
        what: 'malformed_node_count with 60 malformed nodes',
        expected: '60',
        received: details.malformed_node_count,
        on: res,
      });
    },
  );

  test(
    'unknown classes: at most ten listed, only their nodes named and counted',
    rules('V2.ERR.NODE_ERRORS_DETAILS'),
    async ({ api }) => {
      const prefix = `ConformanceMissing${randomUUID().slice(0, 6)}_`;
      // 12 unknown classes with 6 nodes each: 60 nodes of the first ten classes, 12 beyond them.
      const workflow = unknownClassNodes(12, 6, prefix);
      const res = await postJob(api, { workflow });
      checkStatus('V2.ERR.NODE_ERRORS_DETAILS', res, [422]);
      const details = checkRefusalDetails(res, workflow);
      const listed = (details.unknown_node_classes ?? []) as string[];
      // The details rules bound what a refusal names (W:230-W:232); one that names no node and
      // lists no class (a real engine's missing-class refusal, passed through) names nothing to bound.
      if (Object.keys(details.node_errors ?? {}).length === 0 && details.unknown_node_classes === undefined)
        return notJudged(
          'V2.ERR.NODE_ERRORS_DETAILS',
          `the refusal of 12 unknown classes (422 ${res.errorCode ?? 'without a code'}) named no node and listed no class, so its bounds are not seen`,
        );
      check('V2.ERR.NODE_ERRORS_DETAILS', listed.length === 10, {
        what: 'unknown_node_classes with 12 missing classes',
        expected: 'exactly ten listed',
        received: listed.length,
        on: res,
      });
      check('V2.ERR.NODE_ERRORS_DETAILS', details.node_errors_truncated === true && details.unknown_node_count === 60, {
        what: 'truncation with 60 nodes of listed classes',
        expected: 'node_errors_truncated true, unknown_node_count 60 (nodes of unlisted classes are not counted)',
        received: { truncated: details.node_errors_truncated, count: details.unknown_node_count },
        on: res,
      });
      // A class the deployment lacks is an unknown_node_class error (W:230:2a85600fa562, W:231:85a3bff18d68).
      const untyped = namedWithout(details.node_errors, new Set(['unknown_node_class']));
      check('V2.ERR.NODE_ERRORS_DETAILS', untyped.length === 0 && Object.keys(details.node_errors ?? {}).length > 0, {
        what: 'error types of the nodes named in an unknown-classes refusal',
        expected: 'each node with an unknown_node_class error',
        received: untyped.slice(0, 3),
        on: res,
      });
    },
  );

  test(
    'a workflow in the interface format is refused 422 workflow_format_ui',
    rules('V2.ERR.WORKFLOW_FORMAT_UI'),
    async ({ api }) => {
      checkStatus(
        'V2.ERR.WORKFLOW_FORMAT_UI',
        await postJob(api, { workflow: uiFormatWorkflow(classes(api)) }),
        [422],
        'workflow_format_ui',
      );
    },
  );

  test(
    'a workflow referencing an asset that is missing is refused 422 missing_asset',
    rules('V2.ERR.MISSING_ASSET'),
    async ({ api }) => {
      const scenario = api.target.scenario;
      // An asset nobody holds, named in the target's asset_reference form (the seed shows none).
      const ghost = randomUUID();
      const missing = await postJob(api, {
        workflow: invertWorkflow(
          assetReference(
            { id: ghost, hash: blake3Of(randomBytes(32)), file_path: `conformance-missing-${ghost}.png` },
            scenario,
          ),
          classes(api),
        ),
      });
      // Any other answer is judged only once the form itself is shown taken (an asset the caller
      // holds, named the same way, is accepted); a refused form is asset_reference's to set.
      if (!(missing.status === 422 && missing.errorCode === 'missing_asset')) await requireAssetForm(api);
      checkStatus('V2.ERR.MISSING_ASSET', missing, [422], 'missing_asset');
      // A reference whose id is a URL names no asset (assets are UUID-identified, W:20:41074f62a818):
      // read as a missing asset (422 missing_asset) or as an invalid input (422 invalid_workflow,
      // W:202:f224c451d6d5); either refusal holds, a job never. Only a form that names the asset by its id can say it.
      if (!formUsesId(scenario))
        return notJudged(
          'V2.ERR.MISSING_ASSET',
          `the asset_reference form ${JSON.stringify(scenario.asset_reference)} names no asset id, so a reference by a URL id cannot be sent in it`,
        );
      const url = 'https://assets.elsewhere.invalid/image.png';
      const res = await postJob(api, {
        workflow: invertWorkflow(assetReference({ id: url, hash: url, file_path: url }, scenario), classes(api)),
      });
      check(
        'V2.ERR.MISSING_ASSET',
        res.status === 422 && (res.errorCode === 'missing_asset' || res.errorCode === 'invalid_workflow'),
        {
          what: 'a submit referencing an asset by a URL id',
          expected: '422 missing_asset (or 422 invalid_workflow)',
          received: `${res.status}${res.errorCode ? ` ${res.errorCode}` : ''}`,
          on: res,
        },
      );
    },
  );

  test(
    'a submit past the queue capacity is refused 429 queue_full with Retry-After',
    rules('V2.ERR.QUEUE_FULL'),
    async ({ api, requireScenario }) => {
      const limited = api.as({
        bearer: requireScenario('queue_limited_token', 'key whose queue holds one job') as string,
      });
      const slow = requireClass(
        requireScenario('slow_node_class', 'node class that takes `seconds`'),
        'slow_node_class',
      );
      const first = await submitJob(limited, { workflow: slowWorkflow(slow, 2, classes(api)) });
      const second = await postJob(limited, { workflow: anyWorkflow(api) });
      checkStatus('V2.ERR.QUEUE_FULL', second, [429], 'queue_full');
      await limited.call('cancelJob', { path: { id: first.id } });
    },
  );

  test(
    'a submit from an account without credits is refused 402 insufficient_credits',
    rules('V2.ERR.INSUFFICIENT_CREDITS'),
    async ({ api, requireScenario }) => {
      const broke = api.as({
        bearer: requireScenario('no_credits_token', 'key of an account without credits') as string,
      });
      checkStatus(
        'V2.ERR.INSUFFICIENT_CREDITS',
        await postJob(broke, { workflow: anyWorkflow(api) }),
        [402],
        'insufficient_credits',
      );
    },
  );

  test(
    'a backing-service failure answers 500 upstream_error with a generic, safe message, on any operation',
    rules('V2.ERR.UPSTREAM_GENERIC'),
    async ({ api, requireScenario }) => {
      const flaky = api.as({
        bearer: requireScenario('upstream_failure_token', 'key whose requests hit a backing-service failure') as string,
      });
      // "Every operation can fail this way": a submit and an upload, each judged on its own.
      const answers = [await postJob(flaky, { workflow: anyWorkflow(api) }), (await postOwnAsset(flaky)).res];
      // And reads: a job read, the job list and an asset read (ids the account does not hold, as
      // it can make none). A read may be answered before any failing backend is touched (404,
      // a cached page), so there only a server error is judged: it is the same 500 upstream_error.
      const reads = [
        await flaky.call('getJob', { path: { id: randomUUID() } }),
        await flaky.call('listJobs', {}),
        await flaky.call('getAsset', { path: { id: randomUUID() } }),
      ];
      for (const res of reads) {
        // 501 not_implemented is the seed's answer of a surface that does not list jobs yet (W:224:cee6106f4ee8).
        if (res.notOffered || (res.status === 501 && res.errorCode === 'not_implemented')) continue;
        if (res.status < 500)
          notJudged(
            'V2.ERR.UPSTREAM_GENERIC',
            `${res.operationId} with the failing backend answered ${res.status} ${res.errorCode ?? ''}: no backing-service failure was hit there`,
          );
        else answers.push(res);
      }
      for (const res of answers) {
        check('V2.ERR.UPSTREAM_GENERIC', res.status === 500 && res.errorCode === 'upstream_error', {
          what: `${res.operationId} with the failing backend`,
          expected: '500 upstream_error',
          received: `${res.status} ${res.errorCode ?? ''}`,
          on: res,
        });
        if (res.status !== 500) continue;
        const message = res.json<{ error: { message: string } }>().error.message;
        const leaks = /\bat [\w.<>]+ \(|Error:|Traceback|\/[\w-]+\/[\w-]+\.(ts|js|py)|node_modules|SELECT |stack/i.test(
          message,
        );
        check('V2.ERR.UPSTREAM_GENERIC', !leaks, {
          what: `the upstream_error message of ${res.operationId}`,
          expected: 'a generic message (no stack, paths or internals)',
          received: message,
          on: res,
        });
      }
    },
  );
});

test.describe('Job cancel', () => {
  test(
    'cancel answers the job, which ends canceled; repeating it is harmless',
    rules('V2.JOB.CANCEL'),
    async ({ api, requireScenario }) => {
      const slow = requireClass(
        requireScenario('slow_node_class', 'node class that takes `seconds`'),
        'slow_node_class',
      );
      const job = await submitJob(api, { workflow: slowWorkflow(slow, 5, classes(api)) });
      // By the job's urls.cancel where it embeds one (a public-docs name), else the public documents' path.
      const cancelUrl = jobUrl(job, 'cancel');
      const cancel = () =>
        cancelUrl !== undefined
          ? api.follow(cancelUrl, { method: 'POST' })
          : api.call('cancelJob', { path: { id: job.id } });
      const first = await cancel();
      checkStatus('V2.JOB.CANCEL', first, [200]);
      const done = await pollToEnd(api, job);
      // The state names are the target's (job_terminal_states, job_success_state; the seed shows
      // none, W:100:65afe34f1ab1): a canceled run ends in a terminal state other than success.
      const { success } = jobStates(api.target.scenario);
      check('V2.JOB.CANCEL', done.status !== success, {
        what: 'the status after cancel of a running job',
        expected: `a terminal state other than ${success} (scenario input job_success_state): the run was cut short (the public documents name it canceled)`,
        received: done.status,
        on: first,
      });
      checkStatus('V2.JOB.CANCEL', await cancel(), [200]);
    },
  );
});

test.describe('Errors: browser-wait nodes', () => {
  test(
    'nodes that wait for a browser are refused with waits_for_browser and their classes listed',
    rules('V2.ERR.NODE_ERRORS_DETAILS'),
    async ({ api, requireScenario }) => {
      const cls = requireClass(
        requireScenario('browser_wait_node_class', 'node class that waits for a browser'),
        'browser_wait_node_class',
      );
      const workflow: Workflow = {};
      for (let i = 1; i <= 55; i++) workflow[String(i)] = { class_type: cls, inputs: {} };
      const res = await postJob(api, { workflow });
      checkStatus('V2.ERR.NODE_ERRORS_DETAILS', res, [422]);
      const details = checkRefusalDetails(res, workflow);
      const listed = details.browser_wait_node_classes as string[] | undefined;
      check('V2.ERR.NODE_ERRORS_DETAILS', Array.isArray(listed) && listed.includes(cls), {
        what: 'browser_wait_node_classes',
        expected: `a list naming ${cls}`,
        received: listed,
        on: res,
      });
      check(
        'V2.ERR.NODE_ERRORS_DETAILS',
        details.node_errors_truncated === true && details.browser_wait_node_count === 55,
        {
          what: 'truncation with 55 browser-wait nodes',
          expected: 'node_errors_truncated true, browser_wait_node_count 55',
          received: { truncated: details.node_errors_truncated, count: details.browser_wait_node_count },
          on: res,
        },
      );
      const types = Object.values(details.node_errors ?? {}).flatMap((e) =>
        (e.errors as Array<{ type: string }>).map((x) => x.type),
      );
      check('V2.ERR.NODE_ERRORS_DETAILS', types.length > 0 && types.every((t) => t === 'waits_for_browser'), {
        what: 'error types of the named nodes',
        expected: 'waits_for_browser',
        received: [...new Set(types)],
        on: res,
      });
    },
  );
});
