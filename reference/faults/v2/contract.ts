// v2 faults the contract judges on every answer (seed W § Endpoints › v2 operations,
// § Resources › Job record, the content endpoint): a status the operation does not
// declare, a body of the wrong type or media type, a job record or output entry missing
// a member the seed names, a content read that does not redirect on a hosted surface.
// Each is placed where its answer breaks only its own rule: the api client stops the
// test at the broken answer, so the checks that would read it further are blocked, not failed.
import type { FaultUnit } from '../unit.ts';
import { CONTENT, HOSTED, JOB_ROUTES, eachOutput, isObj, param, record } from './shared.ts';

const CANCEL = 'POST /api/v2/jobs/:id/cancel';
const DELETE_ASSET = 'DELETE /api/v2/assets/:id';
const JOB_WORKFLOW = 'GET /api/v2/jobs/:id/workflow';
const DEPLOYMENT_WORKFLOW = 'GET /workflow';

export const CONTRACT_FAULTS = [
  // V2.CONTRACT.STATUS_DECLARED: success statuses a real server picks by its own taste.
  {
    name: 'cancel-202-accepted',
    breaks: 'V2.CONTRACT.DOCUMENTED',
    statements: ['W:123:f9a38dca0104'],
    description:
      'cancel answers 202 Accepted (the cancel takes effect later) with the job record, a status the cancel operation does not declare',
    install(s) {
      s.respond({ routes: [CANCEL] }, (out) => {
        if (out.status === 200 && record(out) !== undefined) out.status = 202;
      });
    },
  },
  {
    name: 'asset-delete-200',
    breaks: 'V2.CONTRACT.DOCUMENTED',
    statements: ['W:123:f9a38dca0104'],
    description:
      'deleting an asset answers 200 with {"deleted": true, "id": …} instead of 204, a status the delete operation does not declare',
    install(s) {
      s.respond({ routes: [DELETE_ASSET] }, (out) => {
        if (out.status !== 204) return;
        out.status = 200;
        out.setHeader('content-type', 'application/json; charset=utf-8');
        out.payload = JSON.stringify({ deleted: true, id: param(out, 'id') });
      });
    },
  },
  // V2.CONTRACT.BODY: bodies whose shape no rule of its own covers.
  {
    name: 'job-workflow-as-string',
    breaks: 'V2.CONTRACT.DOCUMENTED',
    statements: ['W:123:f9a38dca0104'],
    description:
      'the workflow read of a job answers `workflow` as the graph JSON-encoded in a string (the stored text column), not as an object',
    install(s) {
      s.respond({ routes: [JOB_WORKFLOW] }, (out) => {
        if (out.status === 200 && isObj(out.body) && isObj(out.body.workflow))
          out.body.workflow = JSON.stringify(out.body.workflow);
      });
    },
  },
  {
    name: 'deployment-workflow-text-plain',
    breaks: 'V2.CONTRACT.BODY',
    description:
      "a serverless deployment's GET /workflow sends the graph's JSON with Content-Type text/plain " +
      '(serialized by hand), a media type the operation does not declare',
    install(s) {
      s.respond({ surfaces: ['serverless'], routes: [DEPLOYMENT_WORKFLOW] }, (out) => {
        if (out.status === 200) out.setHeader('content-type', 'text/plain; charset=utf-8');
      });
    },
  },
  // V2.JOB.FIELDS: the seed's Job record names expires_at and outputs[].
  {
    name: 'job-no-expires-at',
    breaks: 'V2.JOB.FIELDS',
    description: 'job records omit expires_at (the server keeps no retrieval deadline for jobs)',
    install(s) {
      s.respond({ routes: JOB_ROUTES }, (out) => {
        delete record(out)?.expires_at;
      });
    },
  },
  {
    name: 'job-outputs-omitted-empty',
    breaks: 'V2.JOB.FIELDS',
    description:
      'job records leave outputs out while the job has none (an omit-empty serializer): queued, running and failed jobs carry no outputs member',
    install(s) {
      s.respond({ routes: JOB_ROUTES }, (out) => {
        const rec = record(out);
        if (rec !== undefined && Array.isArray(rec.outputs) && rec.outputs.length === 0) delete rec.outputs;
      });
    },
  },
  // V2.JOB.OUTPUT_FIELDS: each outputs[] entry carries url and url_expires_at.
  {
    name: 'output-no-url-expires-at',
    breaks: 'V2.JOB.OUTPUT_FIELDS',
    statements: ['W:62:0daa6bf082cc'],
    description:
      'job output entries omit url_expires_at (the content endpoint is stable, so the server sends no expiry)',
    install(s) {
      eachOutput(s, (o) => {
        delete o.url_expires_at;
      });
    },
  },
  {
    name: 'output-url-renamed',
    breaks: 'V2.JOB.OUTPUT_FIELDS',
    statements: ['W:62:0daa6bf082cc'],
    description: 'job output entries carry the content endpoint URL as content_url instead of url',
    install(s) {
      eachOutput(s, (o) => {
        if (o.url === undefined) return;
        o.content_url = o.url;
        delete o.url;
      });
    },
  },
  // V2.ASSET.CONTENT_REDIRECT: hosted content reads answer 302 with a Location.
  {
    name: 'content-streams-on-hosted',
    breaks: 'V2.ASSET.CONTENT_REDIRECT',
    statements: ['W:119:69514e76b20b', 'W:75:e71dae8dd62b'],
    description:
      'the hosted content endpoint streams the bytes itself (200) instead of answering 302 to a signed storage URL',
    install(s) {
      s.policy.v2.redirectContent = () => false;
    },
  },
  {
    name: 'content-redirect-no-location',
    breaks: 'V2.ASSET.CONTENT_REDIRECT',
    statements: ['W:119:69514e76b20b', 'W:75:e71dae8dd62b'],
    description: 'the hosted content endpoint answers 302 without a Location header',
    install(s) {
      s.respond({ surfaces: HOSTED, routes: [CONTENT] }, (out) => {
        if (out.status === 302) out.setHeader('location', undefined);
      });
    },
  },
] as const satisfies ReadonlyArray<FaultUnit>;
