// Distributed load on Kubernetes (issue #25, item 17), as far as a machine without a
// cluster can take it: examples/kubernetes/ is parsed and linted against a small schema of
// the Kubernetes fields it uses (a misspelt field is refused by the API server, so here
// too); its structure is checked (an Indexed Job with completions == parallelism == N,
// the same N in `--shard` and in the merge, the shared ReadWriteMany volume mounted where
// the commands write and read, every variable the scripts use defined); the example
// targets entry is accepted by the suite and opts in to load; then the pods' own scripts
// run here, unchanged, as the pods would: one per completion index (JOB_COMPLETION_INDEX
// 0..N-1) side by side, each starting its embedded reference (REFERENCE_PORT) and writing
// its shard to the "volume" (a folder), with a short duration and rate from the ConfigMap's
// keys; then the merge Job's script, whose merged report must count every shard.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { parseAllDocuments } from 'yaml';
import type { LoadReport } from '../../load/engine.ts';
import { profileNamed } from '../../load/profiles/index.ts';
import { openTarget } from '../../load/target.ts';
import { freePortBase } from '../support/ports.ts';
import { ROOT } from '../support/run-suite.ts';
import { runToEnd, type Exit } from '../support/run-to-end.ts';

const DIR = path.join(ROOT, 'examples/kubernetes');
const BIN = path.join(ROOT, 'bin/workflow-conformance.mjs');

// ---------------------------------------------------------------------------------------
// The manifests.

interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: {
    secretKeyRef?: { name: string; key: string; optional?: boolean };
    configMapKeyRef?: { name: string; key: string; optional?: boolean };
  };
}
interface Container {
  name: string;
  image: string;
  command?: string[];
  args?: string[];
  env?: EnvVar[];
  envFrom?: Array<{ configMapRef?: { name: string }; secretRef?: { name: string } }>;
  volumeMounts?: Array<{ name: string; mountPath: string; readOnly?: boolean }>;
}
interface Volume {
  name: string;
  persistentVolumeClaim?: { claimName: string };
  configMap?: { name: string };
}
interface PodSpec {
  restartPolicy: string;
  securityContext?: { runAsUser?: number; fsGroup?: number };
  containers: Container[];
  volumes?: Volume[];
}
interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string> };
  data?: Record<string, string>;
  spec?: Record<string, unknown> & { template?: { spec: PodSpec } };
}

function documents(file: string): K8sObject[] {
  const docs = parseAllDocuments(readFileSync(path.join(DIR, file), 'utf8'));
  const problems = docs.flatMap((d) => [...d.errors, ...d.warnings].map((e) => `${file}: ${e.message}`));
  assert.deepEqual(problems, []);
  // One object per file: every YAML file under examples/ is also read as one document (test/unit/targets.test.ts).
  assert.equal(docs.length, 1, `${file}: one object per file`);
  return docs.map((d) => d.toJS() as K8sObject);
}

const FILES = [
  'shared/settings.yaml',
  'shared/targets-configmap.yaml',
  'shared/reports-volume.yaml',
  'load-shards.yaml',
  'load-merge.yaml',
];
const objects = FILES.flatMap((f) => documents(f).map((o) => ({ file: f, o })));
const find = (kind: string, name: string): K8sObject => {
  const hit = objects.find((x) => x.o.kind === kind && x.o.metadata.name === name);
  assert.ok(hit, `a ${kind} named ${name} in examples/kubernetes/`);
  return hit.o;
};
const shardsJob = find('Job', 'workflow-conformance-load');
const mergeJob = find('Job', 'workflow-conformance-load-merge');
const podOf = (job: K8sObject): PodSpec => job.spec!.template!.spec;
const containerOf = (job: K8sObject): Container => {
  assert.equal(podOf(job).containers.length, 1, `${job.metadata.name}: one container`);
  return podOf(job).containers[0];
};
const scriptOf = (job: K8sObject): string => {
  const c = containerOf(job);
  assert.deepEqual(c.command, ['/bin/sh', '-c'], `${job.metadata.name}: a shell script`);
  assert.equal(c.args?.length, 1);
  return c.args[0];
};
const literal = (c: Container, name: string): string | undefined => c.env?.find((e) => e.name === name)?.value;

// A small schema of the Kubernetes fields the example uses, with no other field allowed
// where the API server would refuse an unknown one (kubectl's default strict validation).
const quantity = { type: 'string', pattern: '^[0-9]+(\\.[0-9]+)?(m|Ki|Mi|Gi|Ti)?$' };
const name = { type: 'string', pattern: '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$', maxLength: 63 };
const labels = { type: 'object', additionalProperties: { type: 'string' } };
const object = (properties: Record<string, unknown>, required: string[] = []) => ({
  type: 'object',
  additionalProperties: false,
  properties,
  required,
});
const K8S_SCHEMA = {
  type: 'object',
  required: ['apiVersion', 'kind', 'metadata'],
  properties: {
    metadata: object({ name, namespace: name, labels, annotations: labels }, ['name']),
  },
  oneOf: [
    object(
      {
        apiVersion: { const: 'v1' },
        kind: { const: 'ConfigMap' },
        metadata: {},
        data: { type: 'object', additionalProperties: { type: 'string' } },
      },
      ['data'],
    ),
    object(
      {
        apiVersion: { const: 'v1' },
        kind: { const: 'PersistentVolumeClaim' },
        metadata: {},
        spec: object(
          {
            accessModes: {
              type: 'array',
              minItems: 1,
              items: { enum: ['ReadWriteOnce', 'ReadOnlyMany', 'ReadWriteMany', 'ReadWriteOncePod'] },
            },
            storageClassName: { type: 'string' },
            volumeMode: { enum: ['Filesystem', 'Block'] },
            resources: object({ requests: object({ storage: quantity }, ['storage']) }, ['requests']),
          },
          ['accessModes', 'resources'],
        ),
      },
      ['spec'],
    ),
    object(
      { apiVersion: { const: 'batch/v1' }, kind: { const: 'Job' }, metadata: {}, spec: { $ref: '#/$defs/jobSpec' } },
      ['spec'],
    ),
  ],
  $defs: {
    jobSpec: object(
      {
        completionMode: { enum: ['NonIndexed', 'Indexed'] },
        completions: { type: 'integer', minimum: 1 },
        parallelism: { type: 'integer', minimum: 1 },
        backoffLimit: { type: 'integer', minimum: 0 },
        backoffLimitPerIndex: { type: 'integer', minimum: 0 },
        activeDeadlineSeconds: { type: 'integer', minimum: 1 },
        ttlSecondsAfterFinished: { type: 'integer', minimum: 0 },
        podFailurePolicy: object(
          {
            rules: {
              type: 'array',
              items: object(
                {
                  action: { enum: ['FailJob', 'FailIndex', 'Ignore', 'Count'] },
                  onExitCodes: object(
                    {
                      containerName: { type: 'string' },
                      operator: { enum: ['In', 'NotIn'] },
                      values: { type: 'array', items: { type: 'integer' }, minItems: 1 },
                    },
                    ['operator', 'values'],
                  ),
                  onPodConditions: {
                    type: 'array',
                    items: object({ type: { type: 'string' }, status: { enum: ['True', 'False', 'Unknown'] } }, [
                      'type',
                    ]),
                  },
                },
                ['action'],
              ),
            },
          },
          ['rules'],
        ),
        template: object({ metadata: object({ labels, annotations: labels }), spec: { $ref: '#/$defs/podSpec' } }, [
          'spec',
        ]),
      },
      ['template'],
    ),
    podSpec: object(
      {
        restartPolicy: { enum: ['Never', 'OnFailure'] },
        securityContext: object({
          runAsNonRoot: { type: 'boolean' },
          runAsUser: { type: 'integer' },
          runAsGroup: { type: 'integer' },
          fsGroup: { type: 'integer' },
        }),
        topologySpreadConstraints: {
          type: 'array',
          items: object(
            {
              maxSkew: { type: 'integer', minimum: 1 },
              topologyKey: { type: 'string' },
              whenUnsatisfiable: { enum: ['DoNotSchedule', 'ScheduleAnyway'] },
              labelSelector: object({ matchLabels: labels }),
            },
            ['maxSkew', 'topologyKey', 'whenUnsatisfiable'],
          ),
        },
        containers: { type: 'array', minItems: 1, items: { $ref: '#/$defs/container' } },
        volumes: {
          type: 'array',
          items: {
            type: 'object',
            required: ['name'],
            oneOf: [
              object(
                {
                  name,
                  persistentVolumeClaim: object({ claimName: name, readOnly: { type: 'boolean' } }, ['claimName']),
                },
                ['persistentVolumeClaim'],
              ),
              object(
                {
                  name,
                  configMap: object({ name, optional: { type: 'boolean' }, defaultMode: { type: 'integer' } }, [
                    'name',
                  ]),
                },
                ['configMap'],
              ),
            ],
          },
        },
      },
      ['restartPolicy', 'containers'],
    ),
    container: object(
      {
        name,
        image: { type: 'string', minLength: 1 },
        imagePullPolicy: { enum: ['Always', 'IfNotPresent', 'Never'] },
        command: { type: 'array', items: { type: 'string' } },
        args: { type: 'array', items: { type: 'string' } },
        envFrom: {
          type: 'array',
          items: object({ configMapRef: object({ name, optional: { type: 'boolean' } }, ['name']) }, ['configMapRef']),
        },
        env: {
          type: 'array',
          items: {
            oneOf: [
              object({ name: { type: 'string', pattern: '^[A-Za-z_][A-Za-z0-9_]*$' }, value: { type: 'string' } }, [
                'name',
                'value',
              ]),
              object(
                {
                  name: { type: 'string', pattern: '^[A-Za-z_][A-Za-z0-9_]*$' },
                  valueFrom: {
                    oneOf: [
                      object(
                        {
                          secretKeyRef: object({ name, key: { type: 'string' }, optional: { type: 'boolean' } }, [
                            'name',
                            'key',
                          ]),
                        },
                        ['secretKeyRef'],
                      ),
                      object(
                        {
                          configMapKeyRef: object({ name, key: { type: 'string' }, optional: { type: 'boolean' } }, [
                            'name',
                            'key',
                          ]),
                        },
                        ['configMapKeyRef'],
                      ),
                    ],
                  },
                },
                ['name', 'valueFrom'],
              ),
            ],
          },
        },
        resources: object({
          requests: object({ cpu: quantity, memory: quantity }),
          limits: object({ cpu: quantity, memory: quantity }),
        }),
        volumeMounts: {
          type: 'array',
          items: object(
            {
              name,
              mountPath: { type: 'string', pattern: '^/' },
              readOnly: { type: 'boolean' },
              subPath: { type: 'string' },
            },
            ['name', 'mountPath'],
          ),
        },
      },
      ['name', 'image'],
    ),
  },
};

test('the manifests parse and keep to the Kubernetes fields they use (a misspelt field is refused)', () => {
  const validate = new Ajv2020({ strict: true, strictRequired: false, allowUnionTypes: true, allErrors: true }).compile(
    K8S_SCHEMA,
  );
  for (const { file, o } of objects)
    assert.ok(validate(o), `${file} ${o.kind} ${o.metadata?.name}: ${JSON.stringify(validate.errors?.slice(0, 5))}`);
  // The schema bites: a misspelt field and a wrong completion mode are refused.
  const typo = structuredClone(shardsJob);
  Object.assign(typo.spec!, { completionmode: 'Indexed' });
  assert.equal(validate(typo), false);
  const wrong = structuredClone(shardsJob);
  Object.assign(wrong.spec!, { completionMode: 'indexed' });
  assert.equal(validate(wrong), false);
});

test('an Indexed Job with completions == parallelism == N, the same N in --shard and in the merge, the shared volume where the commands write and read', () => {
  const spec = shardsJob.spec as {
    completionMode: string;
    completions: number;
    parallelism: number;
    podFailurePolicy?: { rules: Array<{ action: string; onExitCodes?: { containerName: string; values: number[] } }> };
  };
  assert.equal(spec.completionMode, 'Indexed');
  const n = spec.completions;
  assert.equal(spec.parallelism, n, 'every shard at the same time');
  assert.ok(n >= 2);
  const shard = containerOf(shardsJob);
  const merge = containerOf(mergeJob);
  assert.equal(literal(shard, 'SHARDS'), String(n), 'SHARDS of the shard pods');
  assert.equal(literal(merge, 'SHARDS'), String(n), 'SHARDS of the merge');
  const shardScript = scriptOf(shardsJob);
  assert.match(shardScript, /index=\$\(\(JOB_COMPLETION_INDEX \+ 1\)\)/);
  assert.match(shardScript, /^workflow-conformance load [^\n]*--shard "\$index\/\$SHARDS" [^\n]*--out "\$out"/m);
  assert.match(shardScript, /out="\$REPORTS_ROOT\/shard-\$index"/);
  assert.match(scriptOf(mergeJob), /shards="\$shards \$REPORTS_ROOT\/shard-\$i"/);
  assert.match(scriptOf(mergeJob), /^workflow-conformance load merge \$shards --out "\$REPORTS_ROOT\/merged"$/m);
  // podFailurePolicy needs restartPolicy Never; a run that could not start (exit 2) fails the Job.
  assert.equal(podOf(shardsJob).restartPolicy, 'Never');
  assert.equal(podOf(mergeJob).restartPolicy, 'Never');
  assert.ok(
    spec.podFailurePolicy?.rules.some(
      (r) => r.action === 'FailJob' && r.onExitCodes?.containerName === shard.name && r.onExitCodes.values.includes(2),
    ),
  );
  assert.equal((mergeJob.spec as { backoffLimit: number }).backoffLimit, 0, 'the verdict is not retried');

  // One ReadWriteMany claim, mounted by both Jobs where REPORTS_ROOT says.
  const pvc = objects.find((x) => x.o.kind === 'PersistentVolumeClaim')!.o;
  assert.deepEqual((pvc.spec as { accessModes: string[] }).accessModes, ['ReadWriteMany']);
  for (const job of [shardsJob, mergeJob]) {
    const c = containerOf(job);
    const volume = podOf(job).volumes!.find((v) => v.persistentVolumeClaim)!;
    assert.equal(volume.persistentVolumeClaim!.claimName, pvc.metadata.name, `${job.metadata.name}: the shared claim`);
    const mount = c.volumeMounts!.find((m) => m.name === volume.name)!;
    assert.equal(mount.mountPath, literal(c, 'REPORTS_ROOT'), `${job.metadata.name}: mounted at REPORTS_ROOT`);
    assert.notEqual(mount.readOnly, true);
    // Every volume a container mounts is declared, and every ConfigMap it reads exists.
    for (const m of c.volumeMounts!)
      assert.ok(
        podOf(job).volumes!.some((v) => v.name === m.name),
        `${job.metadata.name}: volume ${m.name}`,
      );
    for (const v of podOf(job).volumes!) if (v.configMap) find('ConfigMap', v.configMap.name);
    for (const e of c.envFrom ?? []) find('ConfigMap', e.configMapRef!.name);
  }
  // The targets file: TARGETS_FILE is a key of the ConfigMap mounted at its folder.
  const targetsVolume = podOf(shardsJob).volumes!.find((v) => v.configMap)!;
  const targetsMount = shard.volumeMounts!.find((m) => m.name === targetsVolume.name)!;
  const targetsFile = literal(shard, 'TARGETS_FILE')!;
  assert.equal(path.posix.dirname(targetsFile), targetsMount.mountPath);
  assert.ok(
    find('ConfigMap', targetsVolume.configMap!.name).data![path.posix.basename(targetsFile)],
    'the file is a key of the mounted ConfigMap',
  );

  // Both Jobs run the same image, as the Dockerfile's user.
  assert.equal(shard.image, merge.image);
  const dockerfile = readFileSync(path.join(DIR, 'Dockerfile'), 'utf8');
  assert.match(dockerfile, /^FROM node:22[-\w.]*$/m, 'Node 22');
  assert.match(dockerfile, /^ARG CONFORMANCE_PACKAGE$/m);
  assert.match(dockerfile, /npm install --global [^\n]*"\$CONFORMANCE_PACKAGE"/, 'the suite from its package');
  assert.match(dockerfile, /^USER node$/m);
  for (const job of [shardsJob, mergeJob])
    assert.equal(podOf(job).securityContext?.runAsUser, 1000, "uid 1000: the node image's user `node`");
});

test("every variable the pods' scripts read is given: by the Job, its ConfigMap, or Kubernetes (JOB_COMPLETION_INDEX)", () => {
  for (const [job, extra] of [
    [shardsJob, ['JOB_COMPLETION_INDEX']],
    [mergeJob, []],
  ] as const) {
    const c = containerOf(job);
    const script = scriptOf(job);
    const given = new Set([
      ...extra,
      ...(c.env ?? []).map((e) => e.name),
      ...(c.envFrom ?? []).flatMap((e) => Object.keys(find('ConfigMap', e.configMapRef!.name).data!)),
    ]);
    const assigned = new Set([...script.matchAll(/^\s*([A-Za-z_]\w*)=/gm)].map((m) => m[1]));
    const used = [...new Set([...script.matchAll(/\$\{?([A-Za-z_]\w*)/g)].map((m) => m[1]))];
    const missing = used.filter((v) => !given.has(v) && !assigned.has(v));
    assert.deepEqual(missing, [], `${job.metadata.name}: read but never set`);
    // A credential comes from a Secret and may be absent (the embedded reference needs none).
    for (const e of c.env ?? [])
      if (e.valueFrom?.secretKeyRef) assert.equal(e.valueFrom.secretKeyRef.optional, true, e.name);
  }
});

/** The data of the ConfigMap the shard pods read their settings from (envFrom). */
function settings(): Record<string, string> {
  const shard = containerOf(shardsJob);
  return find('ConfigMap', shard.envFrom![0].configMapRef!.name).data!;
}

test("the example targets entry is accepted by the suite and opts in to load with room for the example's rate and duration", async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'k8s-targets-'));
  try {
    const targets = podOf(shardsJob).volumes!.find((v) => v.configMap)!;
    const file = path.join(dir, 'targets.yaml');
    writeFileSync(file, find('ConfigMap', targets.configMap!.name).data!['targets.yaml']);
    const data = settings();
    const profile = profileNamed(data.LOAD_PROFILE);
    assert.ok(profile, `LOAD_PROFILE ${data.LOAD_PROFILE} is a profile`);
    // No connection is opened for a target that is not the embedded reference.
    const open = await openTarget(profile.surfaces, { TARGETS_FILE: file, TARGET: 'my-server' });
    assert.ok(open.surface, `${profile.name} has a surface on the example entry`);
    assert.equal(open.embedded, false);
    assert.match(open.ceiling.source, /my-server\.load/);
    assert.ok(
      open.ceiling.maxRate >= Number(data.LOAD_RATE) && open.ceiling.maxDurationS >= Number(data.LOAD_DURATION),
      "the example run fits under the entry's ceiling",
    );
    assert.equal(data.TARGET, '', 'as shipped, each pod loads its own embedded reference (a trial)');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

// ---------------------------------------------------------------------------------------
// The pods' scripts, run here.

const sh = (argv: string[], env: Record<string, string>, cwd: string): Promise<Exit> =>
  runToEnd(argv[0], argv.slice(1), cwd, env);

/**
 * A pod of `job` on this machine: its environment as Kubernetes builds it (envFrom, env,
 * optional Secrets absent), each mount path replaced by a local folder (a claim's folder is
 * shared by every pod, a ConfigMap's holds its keys as files), `workflow-conformance` on the
 * PATH as the image has it, and the command and args as written.
 */
function pod(
  job: K8sObject,
  work: string,
  extra: Record<string, string>,
): { argv: string[]; env: Record<string, string> } {
  const c = containerOf(job);
  const mounts = new Map<string, string>();
  for (const m of c.volumeMounts ?? []) {
    const v = podOf(job).volumes!.find((x) => x.name === m.name)!;
    const local = path.join(
      work,
      v.persistentVolumeClaim ? `claim-${v.persistentVolumeClaim.claimName}` : `configmap-${v.configMap!.name}`,
    );
    mkdirSync(local, { recursive: true });
    if (v.configMap)
      for (const [k, text] of Object.entries(find('ConfigMap', v.configMap.name).data!))
        writeFileSync(path.join(local, k), text);
    mounts.set(m.mountPath, local);
  }
  const local = (value: string): string => {
    for (const [at, dir] of mounts) if (value === at || value.startsWith(`${at}/`)) return dir + value.slice(at.length);
    return value;
  };
  const env: Record<string, string> = {
    PATH: `${path.join(work, 'bin')}${path.delimiter}${process.env.PATH ?? ''}`,
    HOME: work,
  };
  for (const e of c.envFrom ?? []) Object.assign(env, find('ConfigMap', e.configMapRef!.name).data);
  for (const e of c.env ?? []) {
    if (e.value !== undefined) env[e.name] = local(e.value);
    else if (e.valueFrom?.configMapKeyRef)
      env[e.name] = find('ConfigMap', e.valueFrom.configMapKeyRef.name).data![e.valueFrom.configMapKeyRef.key]!;
    // An optional Secret that does not exist: Kubernetes leaves the variable out.
  }
  Object.assign(env, extra);
  return { argv: [...c.command!, ...c.args!], env };
}

const reportIn = (dir: string): LoadReport => {
  const json = readdirSync(dir).filter((f) => f.endsWith('.json'));
  assert.equal(json.length, 1, `one report in ${dir}: ${readdirSync(dir).join(', ')}`);
  return JSON.parse(readFileSync(path.join(dir, json[0]), 'utf8')) as LoadReport;
};

test(
  "the pods' commands, run here: N shards side by side (JOB_COMPLETION_INDEX 0..N-1) write their " +
    'reports to the shared folder, and the merge Job joins them, counting every shard',
  async () => {
    const n = (shardsJob.spec as { completions: number }).completions;
    assert.ok(n <= 4, 'a test machine runs every shard at once');
    const work = mkdtempSync(path.join(os.tmpdir(), 'k8s-load-'));
    try {
      // The image's `workflow-conformance` (npm install --global): this checkout's entry point.
      mkdirSync(path.join(work, 'bin'));
      writeFileSync(
        path.join(work, 'bin', 'workflow-conformance'),
        `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`,
      );
      chmodSync(path.join(work, 'bin', 'workflow-conformance'), 0o755);
      const data = settings();
      assert.ok('LOAD_DURATION' in data && 'LOAD_RATE' in data, 'the ConfigMap sets the duration and the rate');
      // A few seconds each: the ConfigMap's keys, shortened (the flags the script passes read them).
      const short = { LOAD_DURATION: '2', LOAD_RATE: '20' };

      const claim = (p: ReturnType<typeof pod>) => p.env.REPORTS_ROOT;
      const first = pod(shardsJob, work, { JOB_COMPLETION_INDEX: '0' });
      // A stale report from an earlier run in a shard's folder is cleared by that shard.
      mkdirSync(path.join(claim(first), 'shard-1'), { recursive: true });
      writeFileSync(path.join(claim(first), 'shard-1', 'stale.json'), '{}');

      const pods = await Promise.all(
        Array.from({ length: n }, async (_, index) =>
          pod(shardsJob, work, {
            ...short,
            JOB_COMPLETION_INDEX: String(index),
            REFERENCE_PORT: String(await freePortBase()),
          }),
        ),
      );
      const started = Date.now();
      const exits = await Promise.all(pods.map((p) => sh(p.argv, p.env, work)));
      const seconds = (Date.now() - started) / 1000;
      const shards: LoadReport[] = [];
      for (const [index, exit] of exits.entries()) {
        assert.equal(exit.status, 0, `shard ${index + 1}: ${exit.stdout}\n${exit.stderr}`);
        assert.match(exit.stdout, new RegExp(`^${data.LOAD_PROFILE} \\(shard ${index + 1}/${n}\\): `));
        const dir = path.join(claim(pods[index]), `shard-${index + 1}`);
        assert.ok(!existsSync(path.join(dir, 'stale.json')), 'the shard cleared its folder first');
        const report = reportIn(dir);
        assert.deepEqual(report.shard, { index: index + 1, count: n });
        assert.equal(report.target.embedded, true);
        const offset = Number(new URL(report.target.baseUrl).port) - Number(pods[index].env.REFERENCE_PORT);
        assert.ok(
          offset >= 0 && offset < 5,
          `shard ${index + 1}: its embedded reference on REFERENCE_PORT (${report.target.baseUrl})`,
        );
        assert.equal(report.profile.effective.rate, Number(short.LOAD_RATE) / n, 'each shard sends 1/N of the rate');
        shards.push(report);
      }

      const merge = pod(mergeJob, work, {});
      assert.equal(claim(merge), claim(first), 'the merge reads the folder the shards wrote');
      const merged = await sh(merge.argv, merge.env, work);
      // Exit 0: every threshold met. 1 would be a latency limit missed on a busy machine only.
      const report = reportIn(path.join(claim(merge), 'merged'));
      const failed = [
        ...report.thresholds.filter((t) => !t.ok).map((t) => t.metric),
        ...report.checks.filter((c) => c.outcome !== 'held').map((c) => c.rule),
      ];
      assert.ok(
        merged.status === 0 || (merged.status === 1 && failed.every((m) => /^(p[0-9.]+|max|mean)$/.test(m))),
        `merge: ${merged.status} ${failed.join(', ')}\n${merged.stdout}\n${merged.stderr}`,
      );
      assert.equal(merged.status === 0, report.verdict === 'pass');
      assert.deepEqual(report.shard, { index: 0, count: n, merged: n });
      assert.equal(
        report.metrics.requests,
        shards.reduce((sum, s) => sum + s.metrics.requests, 0),
        "every shard's requests counted",
      );
      assert.equal(report.metrics.requests, Number(short.LOAD_RATE) * Number(short.LOAD_DURATION));
      for (let i = 1; i <= n; i++)
        assert.ok(
          report.checks.some((c) => c.what.startsWith(`shard ${i}/${n}:`)),
          `shard ${i}'s checks in the merged report`,
        );
      // The pod's log carries the merged Markdown report.
      assert.match(
        merged.stdout,
        new RegExp(`### Load: ${data.LOAD_PROFILE} — ${report.verdict.toUpperCase()}[\\s\\S]*Merged from ${n} shards`),
      );
      console.log(
        `# kubernetes example: ${n} shards in ${seconds.toFixed(1)} s, merged ${report.metrics.requests} requests, verdict ${report.verdict}`,
      );
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  },
);
