// Issue #12: the suite's own inputs a server may legally refuse (where an upload is
// placed, which node class is slow) never turn into conformance failures. Against the
// reference refusing non-root placement paths (a legal, allowlisting proxy) and with
// inputs it refuses or lacks, no rule fails, and the rules behind each refused or missing
// input end error/skipped naming the scenario input that fixes them.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse, stringify } from 'yaml';
import { ROOT, failedRules, runSuite } from '../support/run-suite.ts';
import type { ConformanceReport } from '../../report/report.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'setup-inputs-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** A targets file whose reference entry serves only `local`, with these scenario changes. */
function targetsWith(name: string, change: (scenario: Record<string, unknown>) => void): string {
  const doc = parse(readFileSync(path.join(ROOT, 'targets.yaml'), 'utf8')) as {
    targets: { reference: { surfaces: Record<string, { scenario?: Record<string, unknown> }> } };
  };
  const ref = doc.targets.reference;
  const local = ref.surfaces.local;
  local.scenario = { ...(local.scenario ?? {}) };
  change(local.scenario);
  const file = path.join(dir, `${name}.yaml`);
  writeFileSync(file, stringify({ targets: { reference: { ...ref, surfaces: { local } } } }));
  return file;
}

const cell = (report: ConformanceReport, rule: string) => report.rules.find((r) => r.id === rule)?.results.local;
const SPECS = [
  '--project=v2-local',
  'specs/v2/assets.spec.ts',
  'specs/v2/jobs.spec.ts',
  'specs/v2/job-refusals.spec.ts',
  'specs/v2/flow.spec.ts',
];

describe('inputs a server may refuse are not hard-coded, and a refusal names its input', { concurrency: 1 }, () => {
  test(
    'a proxy that allowlists placement roots: the default root-form path is placed, a refused path ' +
      'and an unknown slow class end error naming their inputs',
    async () => {
      const file = targetsWith('refused', (s) => {
        s.upload_file_path = 'conformance/{name}';
        s.slow_node_class = 'ConformanceNoSuchSlowNode';
      });
      const run = await runSuite({
        control: 'placement-roots-only',
        args: SPECS,
        env: { TARGETS_FILE: file },
        workers: 1,
      });
      assert.deepEqual(
        failedRules(run.report),
        [],
        `no rule may fail because of the suite's own setup:\n${run.output.slice(-3000)}`,
      );
      for (const rule of ['V2.ASSET.IMMUTABLE', 'V2.ASSET.DEDUP', 'V2.JOB.SUBMIT', 'V2.FLOW.ROUND_TRIP']) {
        const c = cell(run.report, rule);
        assert.equal(c?.status, 'error', `${rule}: ${JSON.stringify(c)}`);
        assert.match(String(c?.reason), /setup refused: .*set scenario input upload_file_path/, rule);
      }
      const cancel = cell(run.report, 'V2.JOB.CANCEL');
      assert.equal(cancel?.status, 'error', JSON.stringify(cancel));
      assert.match(
        String(cancel?.reason),
        /setup refused: .*ConformanceNoSuchSlowNode.*set scenario input slow_node_class/,
      );
    },
  );

  test('the same proxy with the default inputs stays green; without slow_node_class its rules are skipped naming it', async () => {
    const file = targetsWith('defaults', (s) => {
      delete s.slow_node_class;
    });
    const run = await runSuite({
      control: 'placement-roots-only',
      args: SPECS,
      env: { TARGETS_FILE: file },
      workers: 1,
    });
    assert.deepEqual(failedRules(run.report), [], run.output.slice(-3000));
    assert.equal(run.exitCode, 0, run.output.slice(-3000));
    const cancel = cell(run.report, 'V2.JOB.CANCEL');
    assert.equal(cancel?.status, 'skipped', JSON.stringify(cancel));
    assert.match(String(cancel?.reason), /slow_node_class/);
    assert.equal(cell(run.report, 'V2.ASSET.IMMUTABLE')?.status, 'pass');
  });
});
