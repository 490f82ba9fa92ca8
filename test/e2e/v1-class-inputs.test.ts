// Issue #29 §4: seed W names no node class, so the v1 prompts take theirs from scenario
// inputs. An engine whose classes have other names (the v1-renamed-classes control) passes
// once the inputs name them; a target that refuses the suite's classes gets "could not
// judge: setup refused ...; set scenario input <name>" on the rules behind those prompts,
// never a failure.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse, stringify } from 'yaml';
import { ROOT, failedRules, runSuite } from '../support/run-suite.ts';
import type { ConformanceReport } from '../../report/report.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'v1-class-inputs-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** A targets file whose reference entry serves only `cloud`, with these scenario changes. */
function cloudTargetsWith(name: string, change: (scenario: Record<string, unknown>) => void): string {
  const doc = parse(readFileSync(path.join(ROOT, 'targets.yaml'), 'utf8')) as {
    targets: { reference: { surfaces: Record<string, { scenario?: Record<string, unknown> }> } };
  };
  const ref = doc.targets.reference;
  const cloud = ref.surfaces.cloud;
  cloud.scenario = { ...(cloud.scenario ?? {}) };
  change(cloud.scenario);
  const file = path.join(dir, `${name}.yaml`);
  writeFileSync(file, stringify({ targets: { reference: { ...ref, surfaces: { cloud } } } }));
  return file;
}

const cell = (report: ConformanceReport, rule: string) => report.rules.find((r) => r.id === rule)?.results.cloud;
/** The rules whose checks send a prompt of the suite's own classes before judging anything. */
const PROMPTED = ['V1.UPLOAD.MASK', 'V1.NAMESPACE.FLAT', 'V1.VIEW.OUTPUT_TEMP', 'WS.ORDER', 'V1.PROMPT.SUBMIT'];
// Only the tests of those rules and of object_info (the rest of the v1 suite meets the same prompts).
const SPECS = [
  '--project=v1-cloud',
  'specs/v1/operations.spec.ts',
  'specs/v1/events.spec.ts',
  `--grep=${[...PROMPTED, 'V1.OBJECT_INFO'].map((r) => `@${r.replaceAll('.', '\\.')}(\\s|$)`).join('|')}`,
];

describe(
  "v1 prompts take their node classes from scenario inputs, and a refused class is the input's to change",
  { concurrency: 1 },
  () => {
    test('an engine whose core classes have other names: the run passes once the class inputs name them', async () => {
      const run = await runSuite({ control: 'v1-renamed-classes', args: SPECS, workers: 2 });
      assert.deepEqual(failedRules(run.report), [], run.output.slice(-3000));
      assert.equal(run.exitCode, 0, run.output.slice(-3000));
      for (const rule of [...PROMPTED, 'V1.OBJECT_INFO'])
        assert.equal(cell(run.report, rule)?.status, 'pass', `${rule}: ${JSON.stringify(cell(run.report, rule))}`);
    });

    test('classes the engine lacks: the rules behind the refused prompts end error naming the class input, none fails', async () => {
      const file = cloudTargetsWith('refused', (s) => {
        s.empty_image_class = 'ConformanceNoSuchEmptyImage';
        s.invert_image_class = 'ConformanceNoSuchInvert';
      });
      const run = await runSuite({ args: SPECS, env: { TARGETS_FILE: file }, workers: 2 });
      assert.deepEqual(
        failedRules(run.report),
        [],
        `a refused class of the suite's choosing fails no rule:\n${run.output.slice(-3000)}`,
      );
      for (const rule of PROMPTED) {
        const c = cell(run.report, rule);
        assert.equal(c?.status, 'error', `${rule}: ${JSON.stringify(c)}`);
        assert.match(
          String(c?.reason),
          /setup refused: .*set scenario input (empty_image_class|invert_image_class)/,
          rule,
        );
      }
      // object_info sends no prompt: it is judged as it is.
      assert.equal(cell(run.report, 'V1.OBJECT_INFO')?.status, 'pass');
    });
  },
);
