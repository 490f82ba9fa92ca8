// The examples a server team copies as they are (issue #25, items 17 and 18).
//
// examples/github-actions/conformance.yml goes into the repository of the team's own
// server: it installs the suite from its package, runs it in shards, joins them with
// merge-reports (whose exit status is the gate), posts the failures to the job summary and
// uploads reports/; optional load jobs shard one profile and merge it. Checked here:
//   - a structural lint against a small schema of GitHub Actions workflow syntax (ajv):
//     the keys allowed at the top, in a job and in a step, exactly one of uses/run per
//     step, `uses` as owner/repo@ref, balanced `${{ }}` expressions naming known contexts,
//     `needs` naming jobs that exist; the lint is shown to refuse broken variants;
//   - credentials and inputs reach scripts only through env, never interpolated;
//   - every `workflow-conformance <command> …` line, in the workflow and in the Kubernetes
//     manifests, names a real command, and each flag it passes is one that command's
//     --help lists (the CLI's own --help, run here);
//   - the job-summary step posts the part of a real conformance.md before "## Rules".
// The Kubernetes example is rendered and run in test/e2e/kubernetes-load.test.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { parse, parseAllDocuments } from 'yaml';
import { toMarkdown } from '../../report/markdown.ts';
import { runErrorReport } from '../../report/run-error.ts';
import { childEnv } from '../support/child-env.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const FILE = path.join(ROOT, 'examples/github-actions/conformance.yml');
const K8S = ['load-shards.yaml', 'load-merge.yaml'].map((f) => path.join(ROOT, 'examples/kubernetes', f));
const BIN = path.join(ROOT, 'bin/workflow-conformance.mjs');

interface Step {
  id?: string;
  name?: string;
  uses?: string;
  run?: string;
  if?: string;
  with?: Record<string, unknown>;
  env?: Record<string, unknown>;
  'continue-on-error'?: boolean;
}
interface Job {
  name?: string;
  needs?: string | string[];
  if?: string;
  'continue-on-error'?: boolean;
  strategy?: { matrix?: Record<string, unknown> };
  env?: Record<string, unknown>;
  steps: Step[];
}
interface Workflow {
  on: Record<string, { inputs?: Record<string, unknown> } | null>;
  env?: Record<string, unknown>;
  jobs: Record<string, Job>;
}

const text = readFileSync(FILE, 'utf8');
const wf = parse(text) as Workflow;

// ---------------------------------------------------------------------------------------
// A small schema of GitHub Actions workflow syntax: the keys GitHub documents for a
// workflow, a job (not a reusable-workflow call) and a step, with their shapes.
const EVENTS = [
  'branch_protection_rule',
  'check_run',
  'check_suite',
  'create',
  'delete',
  'deployment',
  'deployment_status',
  'discussion',
  'discussion_comment',
  'fork',
  'gollum',
  'issue_comment',
  'issues',
  'label',
  'merge_group',
  'milestone',
  'page_build',
  'public',
  'pull_request',
  'pull_request_review',
  'pull_request_review_comment',
  'pull_request_target',
  'push',
  'registry_package',
  'release',
  'repository_dispatch',
  'schedule',
  'status',
  'watch',
  'workflow_call',
  'workflow_dispatch',
  'workflow_run',
];
const SCOPES = [
  'actions',
  'attestations',
  'checks',
  'contents',
  'deployments',
  'discussions',
  'id-token',
  'issues',
  'models',
  'packages',
  'pages',
  'pull-requests',
  'repository-projects',
  'security-events',
  'statuses',
];
const str = { type: 'string' };
const expr = { type: 'string', pattern: '^\\$\\{\\{.*\\}\\}$' };
const boolOrExpr = { anyOf: [{ type: 'boolean' }, expr] };
const numOrExpr = { anyOf: [{ type: 'number', exclusiveMinimum: 0 }, expr] };
const filters = Object.fromEntries(
  ['branches', 'branches-ignore', 'tags', 'tags-ignore', 'paths', 'paths-ignore', 'types'].map((k) => [
    k,
    { type: 'array', items: str },
  ]),
);

export const WORKFLOW_SCHEMA = {
  type: 'object',
  required: ['on', 'jobs'],
  additionalProperties: false,
  properties: {
    name: str,
    'run-name': str,
    on: {
      anyOf: [
        { enum: EVENTS },
        { type: 'array', items: { enum: EVENTS }, minItems: 1 },
        {
          type: 'object',
          minProperties: 1,
          propertyNames: { enum: EVENTS },
          additionalProperties: { type: ['object', 'null'] },
          properties: {
            push: { type: ['object', 'null'], additionalProperties: false, properties: filters },
            pull_request: { type: ['object', 'null'], additionalProperties: false, properties: filters },
            workflow_dispatch: {
              type: ['object', 'null'],
              additionalProperties: false,
              properties: {
                inputs: {
                  type: 'object',
                  propertyNames: { pattern: '^[A-Za-z_][A-Za-z0-9_-]*$' },
                  additionalProperties: {
                    type: 'object',
                    additionalProperties: false,
                    properties: {
                      description: str,
                      required: { type: 'boolean' },
                      default: { type: ['string', 'boolean', 'number'] },
                      type: { enum: ['string', 'boolean', 'number', 'choice', 'environment'] },
                      options: { type: 'array', items: str },
                    },
                  },
                },
              },
            },
          },
        },
      ],
    },
    permissions: { $ref: '#/$defs/permissions' },
    env: { $ref: '#/$defs/env' },
    defaults: { $ref: '#/$defs/defaults' },
    concurrency: { $ref: '#/$defs/concurrency' },
    jobs: {
      type: 'object',
      minProperties: 1,
      propertyNames: { pattern: '^[A-Za-z_][A-Za-z0-9_-]*$' },
      additionalProperties: { $ref: '#/$defs/job' },
    },
  },
  $defs: {
    env: {
      type: 'object',
      propertyNames: { pattern: '^[A-Za-z_][A-Za-z0-9_]*$' },
      additionalProperties: { type: ['string', 'number', 'boolean'] },
    },
    permissions: {
      anyOf: [
        { enum: ['read-all', 'write-all'] },
        { type: 'object', propertyNames: { enum: SCOPES }, additionalProperties: { enum: ['read', 'write', 'none'] } },
      ],
    },
    defaults: {
      type: 'object',
      additionalProperties: false,
      properties: {
        run: { type: 'object', additionalProperties: false, properties: { shell: str, 'working-directory': str } },
      },
    },
    concurrency: {
      anyOf: [
        str,
        {
          type: 'object',
          required: ['group'],
          additionalProperties: false,
          properties: { group: str, 'cancel-in-progress': boolOrExpr },
        },
      ],
    },
    job: {
      type: 'object',
      required: ['runs-on', 'steps'],
      additionalProperties: false,
      properties: {
        name: str,
        needs: { anyOf: [str, { type: 'array', items: str, minItems: 1 }] },
        'runs-on': { anyOf: [str, { type: 'array', items: str, minItems: 1 }, { type: 'object' }] },
        if: { type: ['string', 'boolean'] },
        permissions: { $ref: '#/$defs/permissions' },
        environment: {
          anyOf: [
            str,
            { type: 'object', required: ['name'], additionalProperties: false, properties: { name: str, url: str } },
          ],
        },
        concurrency: { $ref: '#/$defs/concurrency' },
        outputs: { type: 'object', additionalProperties: str },
        env: { $ref: '#/$defs/env' },
        defaults: { $ref: '#/$defs/defaults' },
        'timeout-minutes': numOrExpr,
        'continue-on-error': boolOrExpr,
        strategy: {
          type: 'object',
          required: ['matrix'],
          additionalProperties: false,
          properties: {
            matrix: { anyOf: [{ type: 'object', minProperties: 1 }, expr] },
            'fail-fast': boolOrExpr,
            'max-parallel': numOrExpr,
          },
        },
        container: { anyOf: [str, { type: 'object' }] },
        services: { type: 'object' },
        steps: { type: 'array', minItems: 1, items: { $ref: '#/$defs/step' } },
      },
    },
    step: {
      type: 'object',
      additionalProperties: false,
      properties: {
        id: { type: 'string', pattern: '^[A-Za-z_][A-Za-z0-9_-]*$' },
        name: str,
        if: { type: ['string', 'boolean'] },
        // An action of a repository at a ref: owner/repo[/path]@ref.
        uses: {
          type: 'string',
          pattern: '^[A-Za-z0-9][A-Za-z0-9-]*/[A-Za-z0-9._-]+(/[A-Za-z0-9._/-]+)?@[A-Za-z0-9._/-]+$',
        },
        run: { type: 'string', minLength: 1 },
        shell: str,
        with: { type: 'object', additionalProperties: { type: ['string', 'number', 'boolean'] } },
        env: { $ref: '#/$defs/env' },
        'continue-on-error': boolOrExpr,
        'timeout-minutes': numOrExpr,
        'working-directory': str,
      },
      // Exactly one of uses and run; `with` belongs to an action.
      oneOf: [{ required: ['uses'] }, { required: ['run'] }],
      if: { required: ['run'] },
      then: { not: { anyOf: [{ required: ['with'] }] } },
    },
  },
};

const validateSchema = new Ajv2020({
  strict: true,
  strictRequired: false,
  allowUnionTypes: true,
  allErrors: true,
}).compile(WORKFLOW_SCHEMA);

/** Every string of a parsed document, keys included, with where it is. */
function* strings(value: unknown, at = ''): Generator<[string, string]> {
  if (typeof value === 'string') yield [at, value];
  else if (Array.isArray(value)) for (const [i, v] of value.entries()) yield* strings(v, `${at}[${i}]`);
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      yield [`${at}.${k} (key)`, k];
      yield* strings(v, `${at}.${k}`);
    }
  }
}

const CONTEXTS = [
  'github',
  'env',
  'vars',
  'secrets',
  'inputs',
  'matrix',
  'strategy',
  'needs',
  'steps',
  'job',
  'jobs',
  'runner',
];
const FUNCTIONS = [
  'always',
  'cancelled',
  'success',
  'failure',
  'contains',
  'startsWith',
  'endsWith',
  'format',
  'join',
  'toJSON',
  'fromJSON',
  'hashFiles',
];

/** The expressions of one string; problems when `${{` and `}}` do not pair up. */
function expressions(s: string): { found: string[]; problems: string[] } {
  const found: string[] = [];
  const problems: string[] = [];
  let open = -1;
  for (const m of s.matchAll(/\$\{\{|\}\}/g)) {
    if (m[0] === '${{') {
      if (open >= 0) problems.push(`"\${{" inside an expression at ${m.index}`);
      open = m.index + 3;
    } else if (open < 0) {
      problems.push(`"}}" with no "\${{" at ${m.index}`);
    } else {
      const body = s.slice(open, m.index).trim();
      if (!body) problems.push('an empty expression');
      found.push(body);
      open = -1;
    }
  }
  if (open >= 0) problems.push('"${{" never closed');
  return { found, problems };
}

/** The lint: schema errors, unbalanced or unknown expressions, and `needs` naming no job. */
export function lintWorkflow(doc: unknown): string[] {
  const problems: string[] = [];
  if (!validateSchema(doc)) {
    for (const e of validateSchema.errors ?? [])
      problems.push(
        `${e.instancePath || '/'} ${e.message}${e.params && 'additionalProperty' in e.params ? `: ${String(e.params.additionalProperty)}` : ''}`,
      );
  }
  const w = doc as Partial<Workflow>;
  const jobs = w.jobs && typeof w.jobs === 'object' ? w.jobs : {};
  const inputs = Object.keys(
    (w.on && typeof w.on === 'object' && !Array.isArray(w.on) ? w.on.workflow_dispatch?.inputs : undefined) ?? {},
  );
  for (const [at, s] of strings(doc)) {
    const { found, problems: unbalanced } = expressions(s);
    for (const p of unbalanced) problems.push(`${at}: ${p}`);
    for (const body of found) {
      // Names outside quoted strings: each is a context, a function, or a literal.
      const bare = body.replace(/'(?:[^']|'')*'/g, "''");
      for (const m of bare.matchAll(/(?<![.\w-])([A-Za-z_][\w-]*)(\s*\()?/g)) {
        const [, name, call] = m;
        if (call ? FUNCTIONS.includes(name) : CONTEXTS.includes(name) || ['true', 'false', 'null'].includes(name))
          continue;
        problems.push(
          `${at}: \${{ ${body} }} names ${call ? 'a function' : 'a context'} GitHub does not have: ${name}`,
        );
      }
      for (const m of bare.matchAll(/\binputs\.([\w-]+)/g))
        if (!inputs.includes(m[1])) problems.push(`${at}: inputs.${m[1]} is not an input of workflow_dispatch`);
    }
  }
  for (const [id, job] of Object.entries(jobs)) {
    if (!job || typeof job !== 'object') continue;
    for (const need of [job.needs ?? []].flat())
      if (!(need in jobs) || need === id) problems.push(`jobs.${id}.needs names no other job: ${need}`);
    const matrix = Object.keys(job.strategy?.matrix ?? {});
    for (const [at, s] of strings(job, `jobs.${id}`)) {
      for (const m of s.matchAll(/\bmatrix\.([\w-]+)/g))
        if (!matrix.includes(m[1])) problems.push(`${at}: matrix.${m[1]} is not in this job's matrix`);
    }
  }
  return problems;
}

test('the workflow passes the structural lint: keys, one of uses/run per step, owner/repo@ref, balanced expressions, needs', () => {
  assert.deepEqual(lintWorkflow(wf), []);
  // The YAML itself: one document, no duplicate keys, no warnings.
  const docs = parseAllDocuments(text);
  assert.equal(docs.length, 1);
  assert.deepEqual(
    [...docs[0].errors, ...docs[0].warnings].map((e) => e.message),
    [],
  );
});

test('the lint refuses what GitHub would refuse or misread', () => {
  const broken = (edit: (w: Workflow) => void): string[] => {
    const copy = structuredClone(wf);
    edit(copy);
    return lintWorkflow(copy);
  };
  const cases: Array<[string, (w: Workflow) => void, RegExp]> = [
    [
      'a step with both uses and run',
      (w) => void (w.jobs.conformance.steps[0].run = 'echo'),
      /must match exactly one schema in oneOf/,
    ],
    [
      'a step with neither',
      (w) => void delete w.jobs.conformance.steps[0].uses,
      /must match exactly one schema in oneOf/,
    ],
    [
      'uses without a ref',
      (w) => void (w.jobs.conformance.steps[0].uses = 'actions/checkout'),
      /uses must match pattern/,
    ],
    [
      'a misspelt job key',
      (w) => void Object.assign(w.jobs.report, { runs_on: 'ubuntu-latest' }),
      /must NOT have additional properties: runs_on/,
    ],
    [
      'a misspelt step key',
      (w) => void Object.assign(w.jobs.report.steps[0], { witth: {} }),
      /additional properties: witth/,
    ],
    ['a misspelt top-level key', (w) => void Object.assign(w, { job: {} }), /additional properties: job/],
    [
      'with on a run step',
      (w) =>
        void Object.assign(
          w.jobs.conformance.steps.find((s) => s.run)!,
          { with: { a: 1 } },
        ),
      /must match "then" schema/,
    ],
    ['an unclosed expression', (w) => void (w.jobs.report.if = '${{ !cancelled() }'), /never closed/],
    ['a stray closing', (w) => void (w.jobs.report.name = 'report }}'), /"}}" with no/],
    [
      'an unknown context',
      (w) => void (w.jobs.report.if = '${{ input.load_profile }}'),
      /context GitHub does not have: input/,
    ],
    [
      'an input that is not declared',
      (w) => void (w.jobs.load.if = "${{ inputs.profile != '' }}"),
      /inputs\.profile is not an input/,
    ],
    [
      'a matrix key the job lacks',
      (w) => void (w.jobs.conformance.name = 'shard ${{ matrix.shards }}'),
      /matrix\.shards is not in this job's matrix/,
    ],
    [
      'needs naming no job',
      (w) => void (w.jobs.report.needs = 'conformance-shards'),
      /needs names no other job: conformance-shards/,
    ],
    ['an unknown event', (w) => void Object.assign(w.on, { pull_requests: null }), /^\/on /],
  ];
  for (const [what, edit, expected] of cases) {
    const problems = broken(edit);
    assert.ok(
      problems.some((p) => expected.test(p)),
      `${what}: ${problems.join('; ') || 'no problem found'}`,
    );
  }
});

// ---------------------------------------------------------------------------------------
const steps = (job: Job) => job.steps;
const runs = (job: Job) => job.steps.map((s) => s.run ?? '').join('\n');
const uploads = (job: Job) =>
  job.steps.filter((s) => s.uses?.startsWith('actions/upload-artifact@')).map((s) => String(s.with?.path));
const indexOf = (job: Job, pattern: RegExp) => job.steps.findIndex((s) => pattern.test(s.run ?? ''));

test('credentials and inputs reach the scripts only through env: no expression inside a run script, secrets only as env values', () => {
  for (const [id, job] of Object.entries(wf.jobs)) {
    for (const s of steps(job))
      assert.doesNotMatch(
        s.run ?? '',
        /\$\{\{/,
        `jobs.${id}: "${s.name ?? s.run}" interpolates an expression into its script`,
      );
  }
  for (const [at, s] of strings(wf)) {
    if (!/\bsecrets\./.test(s)) continue;
    // On the step that needs it: a workflow-wide secret would reach `npm install` and its scripts too.
    assert.match(at, /^\.jobs\.[\w-]+\.steps\[\d+\]\.env\.[A-Za-z_]\w*$/, `a secret outside a step's env: ${at}`);
  }
  assert.doesNotMatch(
    text,
    /^\s*[A-Z_]*(TOKEN|KEY|SECRET)[A-Z_]*:\s*['"]?[A-Za-z0-9_-]{12,}/m,
    'no literal credential',
  );
});

test('every job installs the suite from the package (a repository variable), with Node 22 and no lock file of the suite', () => {
  assert.equal(wf.env?.CONFORMANCE_PACKAGE, '${{ vars.CONFORMANCE_PACKAGE }}');
  assert.match(
    text,
    /^# +CONFORMANCE_PACKAGE +required: .*\n(#.*\n)*# +git\+https:\/\/.*\.git#v[0-9.]+\n# +https:\/\/.*\.tgz/m,
    'the header says what to set, with a git URL and a tarball URL',
  );
  for (const [id, job] of Object.entries(wf.jobs)) {
    const node = steps(job).filter((s) => s.uses?.startsWith('actions/setup-node@'));
    assert.equal(node.length, 1, `jobs.${id}: setup-node`);
    assert.equal(node[0].with?.['node-version'], 22, `jobs.${id}: Node 22`);
    // The team's repository may hold no package-lock.json: a cache keyed on it would fail.
    assert.equal(node[0].with?.cache, undefined, `jobs.${id}: no npm cache`);
    const install = indexOf(job, /npm install --global [^\n]*"\$CONFORMANCE_PACKAGE"/);
    const first = indexOf(job, /workflow-conformance/);
    assert.ok(install >= 0 && install < first, `jobs.${id}: installs the package before its first command`);
    assert.doesNotMatch(
      runs(job),
      /npm ci|npm run |npx playwright/,
      `jobs.${id}: nothing of the suite's own repository`,
    );
  }
  // --no-install: npx runs the installed suite, never fetches a public package of that name.
  for (const line of Object.values(wf.jobs).flatMap((j) => runs(j).split('\n'))) {
    if (/\bworkflow-conformance\b/.test(line) && !/npm install/.test(line))
      assert.match(line, /npx --no-install workflow-conformance /, line);
  }
});

test('the suite runs in shards over a matrix, each keeping its blob report', () => {
  const shards = wf.jobs.conformance;
  const matrix = shards.strategy?.matrix?.shard as unknown[];
  assert.ok(Array.isArray(matrix) && matrix.length >= 2, 'a matrix of at least two shards');
  const step = steps(shards).find((s) => /workflow-conformance run /.test(s.run ?? ''))!;
  assert.equal(step.run, 'npx --no-install workflow-conformance run --shard="$SHARD"');
  assert.equal(step.env?.SHARD, '${{ matrix.shard }}/${{ strategy.job-total }}');
  assert.deepEqual(uploads(shards), ['reports/blob-report']);
  assert.match(
    steps(shards).find((s) => s.uses?.startsWith('actions/upload-artifact@'))!.if ?? '',
    /!cancelled\(\)/,
    'a failing shard keeps its blob too',
  );
});

test('the report job merges the shards, gates on the merged verdict, posts the failures to the job summary and uploads reports/', () => {
  const report = wf.jobs.report;
  assert.equal(report.needs, 'conformance');
  assert.match(report.if ?? '', /!cancelled\(\)/, 'runs even when a shard failed, so the failure is reported');
  const download = steps(report).find((s) => s.uses?.startsWith('actions/download-artifact@'))!;
  assert.equal(download.with?.['merge-multiple'], true);
  assert.equal(download.with?.pattern, 'blob-report-*');
  const merge = steps(report).findIndex((s) => /workflow-conformance merge-reports/.test(s.run ?? ''));
  assert.equal(
    steps(report)[merge].run,
    `npx --no-install workflow-conformance merge-reports ${String(download.with?.path)}`,
  );
  // merge-reports exits by the merged verdict: that step is the gate, so it must not be softened.
  assert.equal(steps(report)[merge]['continue-on-error'], undefined);
  assert.equal(steps(report)[merge].if, undefined);
  const summary = indexOf(report, /GITHUB_STEP_SUMMARY/);
  const upload = steps(report).findIndex(
    (s) => s.uses?.startsWith('actions/upload-artifact@') && s.with?.path === 'reports/',
  );
  for (const i of [summary, upload]) {
    assert.ok(i > merge, 'after the merge');
    assert.match(steps(report)[i].if ?? '', /!cancelled\(\)/, 'also when the gate failed');
  }
  // A shard lost before writing its blob must not let the others merge to a green gate.
  const everyShard = steps(report).at(-1)!;
  assert.equal(everyShard.env?.SHARDS_RESULT, '${{ needs.conformance.result }}');
  assert.match(everyShard.run ?? '', /if \[ "\$SHARDS_RESULT" != success \]; then[\s\S]*exit 1/);
  assert.equal(everyShard.if, undefined, 'runs when the merge passed');
});

test('the job summary step posts the part of a real conformance.md before "## Rules": verdict and failures, not the whole table', () => {
  const report = runErrorReport('x');
  delete report.run_errors;
  Object.assign(report.summary, { verdict: 'fail', fail: 1, rules: 2 });
  report.target.surfaces = [{ surface: 'local', base_url: 'http://127.0.0.1:1' }];
  const row = (id: string, status: 'pass' | 'fail') => ({
    id,
    level: 'MUST' as const,
    summary: `summary of ${id}`,
    seed: 'W § Part',
    seed_refs: [{ seed: 'W' as const, section: 'Part', line: 7, sha: '0123456789ab' }],
    source: 'seed' as const,
    results: {
      local: {
        status,
        ...(status === 'fail'
          ? { reason: 'expected 201, received 500', curl: "curl -sS -i 'http://127.0.0.1:1/x'" }
          : {}),
      },
    },
  });
  report.rules = [row('V2.PASSING', 'pass'), row('V2.BROKEN', 'fail')] as typeof report.rules;
  const md = toMarkdown(report);
  assert.ok(
    md.includes('## Failures (1 rule)') && md.indexOf('## Failures') < md.indexOf('## Rules'),
    'conformance.md leads with the failures',
  );

  const dir = mkdtempSync(path.join(os.tmpdir(), 'summary-'));
  try {
    mkdirSync(path.join(dir, 'reports'));
    writeFileSync(path.join(dir, 'reports/conformance.md'), md);
    const stepSummary = path.join(dir, 'summary.md');
    const script = steps(wf.jobs.report).find((s) => /GITHUB_STEP_SUMMARY/.test(s.run ?? ''))!.run!;
    execFileSync('bash', ['-e', '-c', script], {
      cwd: dir,
      env: { PATH: process.env.PATH ?? '', GITHUB_STEP_SUMMARY: stepSummary },
    });
    const posted = readFileSync(stepSummary, 'utf8');
    assert.match(posted, /\*\*Verdict: FAIL\*\*/);
    assert.match(posted, /## Failures \(1 rule\)\n\n- \*\*`V2\.BROKEN`\*\*[\s\S]*curl -sS -i/);
    assert.doesNotMatch(posted, /## Rules|V2\.PASSING/, 'the table of every rule stays in the artifact');
    assert.match(posted, /conformance-reports artifact/);

    // No report at all (the merge could not run): the summary says so instead of failing.
    rmSync(path.join(dir, 'reports'), { recursive: true });
    writeFileSync(stepSummary, '');
    execFileSync('bash', ['-e', '-c', script], {
      cwd: dir,
      env: { PATH: process.env.PATH ?? '', GITHUB_STEP_SUMMARY: stepSummary },
    });
    assert.match(readFileSync(stepSummary, 'utf8'), /No merged report was written/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the load profile is optional, started by hand, sharded over a matrix and merged, and never blocks the gate', () => {
  assert.ok(wf.on.workflow_dispatch?.inputs?.load_profile, 'a load_profile input');
  const load = wf.jobs.load;
  assert.equal(load.needs, 'report');
  assert.equal(load['continue-on-error'], true);
  assert.match(load.if ?? '', /workflow_dispatch/);
  const matrix = load.strategy?.matrix?.shard as unknown[];
  assert.ok(Array.isArray(matrix) && matrix.length >= 2, 'a matrix of at least two load shards');
  const step = steps(load).find((s) => /workflow-conformance load /.test(s.run ?? ''))!;
  assert.match(
    step.run!,
    /^npx --no-install workflow-conformance load --profile "\$LOAD_PROFILE" --shard "\$SHARD" --out reports\/load-shard\b/,
  );
  assert.equal(step.env?.LOAD_PROFILE, '${{ inputs.load_profile }}', 'the input through env');
  assert.equal(step.env?.SHARD, '${{ matrix.shard }}/${{ strategy.job-total }}');
  assert.deepEqual(uploads(load), ['reports/load-shard']);
  const merge = wf.jobs['load-report'];
  assert.equal(merge.needs, 'load');
  assert.equal(merge['continue-on-error'], true);
  assert.match(merge.if ?? '', /!cancelled\(\)/);
  const download = steps(merge).find((s) => s.uses?.startsWith('actions/download-artifact@'))!;
  assert.equal(download.with?.pattern, 'load-shard-*');
  assert.equal(download.with?.['merge-multiple'], undefined, 'one folder per shard');
  assert.match(
    runs(merge),
    new RegExp(
      `npx --no-install workflow-conformance load merge ${String(download.with?.path)}/\\* --out reports/load\\n`,
    ),
  );
  assert.ok(uploads(merge).includes('reports/load'));
});

// ---------------------------------------------------------------------------------------
// Every command line of the examples against the CLI's own --help.

/** Shell words of one line: quotes kept together, not expanded. */
function words(line: string): string[] {
  return [...line.matchAll(/(?:"[^"]*"|'[^']*'|[^\s"'])+/g)].map((m) => m[0]);
}

interface Invocation {
  where: string;
  command: string;
  flags: string[];
  line: string;
}

/** `workflow-conformance <command> …` lines of the examples: the command (`load merge` as one) and the flags it passes. */
function invocations(): Invocation[] {
  const scripts: Array<[string, string]> = [];
  for (const [id, job] of Object.entries(wf.jobs))
    for (const s of job.steps) if (s.run) scripts.push([`conformance.yml jobs.${id} "${s.name ?? s.run}"`, s.run]);
  for (const file of K8S) {
    for (const doc of parseAllDocuments(readFileSync(file, 'utf8'))) {
      const spec = (
        doc.toJS() as {
          spec?: {
            template?: { spec?: { containers?: Array<{ name: string; args?: string[]; command?: string[] }> } };
          };
        }
      ).spec;
      for (const c of spec?.template?.spec?.containers ?? [])
        scripts.push([
          `${path.basename(file)} container ${c.name}`,
          [...(c.command ?? []), ...(c.args ?? [])].join('\n'),
        ]);
    }
  }
  const out: Invocation[] = [];
  for (const [where, script] of scripts) {
    for (const line of script.split('\n')) {
      const w = words(line.trim());
      const at = w.indexOf('workflow-conformance');
      if (at < 0 || w[0] === 'npm') continue;
      const rest = w.slice(at + 1);
      const command = rest[0] === 'load' && ['merge', 'compare'].includes(rest[1] ?? '') ? `load ${rest[1]}` : rest[0];
      const flags = rest.filter((t) => t.startsWith('-')).map((t) => t.split('=')[0]);
      out.push({ where, command, flags, line: line.trim() });
    }
  }
  return out;
}

/** The CLI's help texts: the main one (its command list) and that of each command given. */
async function helpTexts(
  commands: readonly string[],
): Promise<{ real: string[]; helps: Map<string, string>; all: string }> {
  const sh = promisify(execFile);
  const env = childEnv({ drop: ['REPORTS_DIR', 'NODE_TEST_CONTEXT'] });
  const helpOf = async (args: string[]) =>
    (await sh(process.execPath, [BIN, ...args, '--help'], { cwd: ROOT, env, timeout: 30_000 })).stdout;
  const main = await helpOf([]);
  const real = [...main.slice(main.indexOf('Commands:')).matchAll(/^ {2}([a-z][a-z-]*) {2,}/gm)].map((m) => m[1]);
  const known = commands.filter((c) => real.includes(c.split(' ')[0]));
  const helps = new Map(await Promise.all(known.map(async (c) => [c, await helpOf(c.split(' '))] as const)));
  return { real, helps, all: [main, ...helps.values()].join('\n') };
}

/** What is wrong with one invocation: a command the CLI lacks, or a flag its --help does not list. */
function invocationProblems(inv: Invocation, { real, helps, all }: Awaited<ReturnType<typeof helpTexts>>): string[] {
  if (!real.includes(inv.command.split(' ')[0]))
    return [`${inv.where}: "${inv.command}" is not a command of workflow-conformance --help (${real.join(', ')})`];
  const help = helps.get(inv.command) ?? '';
  if (!new RegExp(`^usage: workflow-conformance ${inv.command} `, 'm').test(help))
    return [`${inv.where}: "workflow-conformance ${inv.command} --help" prints no usage of ${inv.command}`];
  return inv.flags
    .filter(
      (flag) =>
        // Listed in the command's own help, or shown with the command in another help
        // (`run --shard=i/n`: Playwright's flag, which run passes on, as merge-reports' help says).
        !new RegExp(`(^|[\\s(\`'])${flag}\\b`).test(help) && !new RegExp(`\\b${inv.command} ${flag}\\b`).test(all),
    )
    .map((flag) => `${inv.where}: ${inv.line}\n  ${flag} is not in "workflow-conformance ${inv.command} --help"`);
}

test('every workflow-conformance line of the examples names a real command, and passes only flags its --help lists', async () => {
  const found = invocations();
  const commands = [...new Set(found.map((i) => i.command))].sort();
  // The lint is only worth something if it sees the commands the examples are about.
  assert.deepEqual(commands, ['load', 'load merge', 'merge-reports', 'run']);
  const slips: Invocation[] = [
    { where: 'slip', command: 'merge-report', flags: [], line: 'workflow-conformance merge-report dir' },
    { where: 'slip', command: 'run', flags: ['--shards'], line: 'workflow-conformance run --shards=1/2' },
    {
      where: 'slip',
      command: 'load',
      flags: ['--profile', '--duraton'],
      line: 'workflow-conformance load --profile p --duraton 5',
    },
    {
      where: 'slip',
      command: 'load merge',
      flags: ['--output'],
      line: 'workflow-conformance load merge a b --output c',
    },
  ];
  const help = await helpTexts([...commands, ...slips.map((s) => s.command)]);
  assert.deepEqual(
    found.flatMap((inv) => invocationProblems(inv, help)),
    [],
  );
  // And the check bites: a misspelt command or flag is named.
  for (const slip of slips) {
    const problems = invocationProblems(slip, help);
    assert.equal(problems.length, 1, `${slip.line}: ${problems.join('; ')}`);
    assert.ok(problems[0].includes(slip.flags.at(-1) ?? slip.command), problems[0]);
  }
});
