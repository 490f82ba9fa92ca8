// What a surface does that the model must know before it draws commands, asked once per
// test: whether it takes job labels (a surface may keep none and refuse them, W:221:da2758a81dda),
// whether its job list answers and applies a label filter (where V2.JOB.LIST_WALK applies;
// lib/v2/job-walk.ts), and whether ranged content reads are judged there.
import { randomUUID } from 'node:crypto';
import type { ApiClient } from '../../api.ts';
import { ensure, notJudged, step } from '../../check.ts';
import { ruleOrThrow } from '../../rules.ts';
import type { JobListPage } from '../job-walk.ts';
import { accepted, anyWorkflow, followable, pollToEnd, postJob, refusedClasses } from '../jobs.ts';
import { jobStates } from '../states.ts';
import { RUN_LABEL_KEY, type SurfaceFacts } from './state.ts';

// Codes that refuse the label itself: the surface keeps none, or not this one (limits not shown).
const LABEL_REFUSALS = ['metadata_not_supported', 'metadata_invalid'];

export async function probeSurface(api: ApiClient): Promise<SurfaceFacts> {
  const surface = api.target.surface;
  const nonce = randomUUID().slice(0, 8);
  const slow = api.target.scenario.slow_node_class;
  const facts: SurfaceFacts = {
    surface,
    hosted: surface !== 'local',
    labels: false,
    listing: 'none',
    range: ruleOrThrow('V2.ASSET.CONTENT_RANGE').surfaces.includes(surface),
    ...(typeof slow === 'string' && slow.length > 0 ? { slowClass: slow } : {}),
    states: jobStates(api.target.scenario),
    fromHash: 'unknown',
    nonce,
    said: new Set(),
  };
  const probeLabel = { [RUN_LABEL_KEY]: `${nonce}-probe` };
  let probeJob: string | undefined;
  await step('probe the surface: a labelled submit (POST /api/v2/jobs)', async () => {
    const workflow = anyWorkflow(api);
    const res = await postJob(api, { workflow, metadata: probeLabel });
    refusedClasses(api, res, workflow);
    facts.labels = accepted(res);
    if (facts.labels) probeJob = (await pollToEnd(api, followable(res))).id;
    else if (!(res.status === 422 && LABEL_REFUSALS.includes(res.errorCode ?? ''))) {
      // A refusal under another code may still be of the labels (the code is
      // V2.ERR.METADATA_NOT_SUPPORTED's to judge, in the label test): the same workflow
      // without them tells. Refused again, it is the submit's own failure.
      const bare = await postJob(api, { workflow });
      ensure('V2.JOB.SUBMIT', accepted(bare), {
        what: 'the probe workflow without labels (its labelled submit was refused)',
        expected: 'a success (2xx)',
        received: `${bare.status}${bare.errorCode ? ` ${bare.errorCode}` : ''}`,
        on: bare,
      });
      await pollToEnd(api, followable(bare));
    }
  });
  if (ruleOrThrow('V2.JOB.LIST_WALK').surfaces.includes(surface)) {
    const list = await api.call('listJobs', { query: { limit: 1 } });
    if (list.status !== 200) {
      notJudged(
        'V2.JOB.LIST_WALK',
        `the job list answered ${list.status}${list.errorCode ? ` ${list.errorCode}` : ''}, so the model walks no list here`,
      );
    } else if (facts.labels) {
      // Scoped by the run's label where the list applies the filter (it selects exactly the
      // probe's job); else the whole list. A filter that selects wrongly is V2.JOB.LIST_FILTER's.
      const filtered = await api.call('listJobs', {
        query: { limit: 5, [`metadata[${RUN_LABEL_KEY}]`]: probeLabel[RUN_LABEL_KEY] },
      });
      const jobs = filtered.status === 200 ? (filtered.json<JobListPage>().jobs ?? []) : [];
      facts.listing = jobs.length === 1 && jobs[0].id === probeJob ? 'scoped' : 'unscoped';
    } else facts.listing = 'unscoped';
  }
  return facts;
}
