// The model-based runner (lib/model-run.ts) on a toy system whose state goes wrong only after
// a few steps: the failure is found, shrunk to the shortest sequence, recorded as a broken
// result whose reproduction is the curl of every step, without blocking the other rules the
// test judged; and FC_SEED / FC_PATH from its report replay exactly that sequence.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { check } from '../../lib/check.ts';
import { ModelCommand, runModel, type Trace } from '../../lib/model-run.ts';
import { modelBudgetFor } from '../../lib/profile.ts';
import { parseRunConfig } from '../../lib/config/env.ts';
import type { Recorder } from '../../lib/recorder.ts';
import { runLikeATest } from './run-like-a-test.ts';

interface Model {
  held: number;
}
interface Real {
  trace: Trace;
  recorder: Recorder;
  server: { stored: number };
}

function send(r: Real, what: string): void {
  r.recorder.add({
    request: {
      method: 'POST',
      url: `http://127.0.0.1:9/${what}`,
      headers: { authorization: 'Bearer sk-live-0123456789abcdef' },
      json: { what },
      timeoutMs: 1,
      maxBodyBytes: 1,
    },
    response: { status: 200, headers: {}, body: Buffer.alloc(0), truncated: false, elapsedMs: 1 },
  });
}

/** Stores one more item; the toy server loses count at its third store. */
class Store extends ModelCommand<Model, Real> {
  check(): boolean {
    return true;
  }
  toString(): string {
    return 'store';
  }
  protected async act(m: Model, r: Real): Promise<void> {
    send(r, 'store');
    r.server.stored += r.server.stored === 2 ? 2 : 1;
    m.held++;
  }
}

class Count extends ModelCommand<Model, Real> {
  check(): boolean {
    return true;
  }
  toString(): string {
    return 'count';
  }
  protected async act(m: Model, r: Real): Promise<void> {
    send(r, 'count');
    check('V2.ASSET.FIELDS', r.server.stored >= m.held, {
      what: 'the count answered',
      expected: `at least the ${m.held} items stored (the toy over-counts, never under)`,
      received: r.server.stored,
    });
    check('V2.ASSET.DEDUP', r.server.stored === m.held, {
      what: 'the count after the stores',
      expected: String(m.held),
      received: r.server.stored,
    });
  }
}

const phases = [{ name: 'all', commands: [fc.constant(new Store()), fc.constant(new Count())] }];

async function toyRun(env: Record<string, string | undefined>) {
  let failure: string | undefined;
  const runs: number[] = [];
  const { evidence } = await runLikeATest(['V2.ASSET.DEDUP', 'V2.ASSET.FIELDS'], async (recorder) => {
    const outcome = await runModel<Model, Real>({
      title: 'toy',
      budget: { ...modelBudgetFor(parseRunConfig(env)), timeLimitMs: 20_000 },
      recorder,
      phases,
      fresh: (run, trace) => {
        runs.push(run);
        return { model: { held: 0 }, real: { trace, recorder, server: { stored: 0 } } };
      },
    });
    failure = outcome.failure?.text;
  });
  return { evidence, failure, runs };
}

test('a state that goes wrong after three steps is found, shrunk, and reported as curl lines with the seeds that replay it', async () => {
  const { evidence, failure } = await toyRun({ FC_NUM_RUNS: '200', FC_MAX_COMMANDS: '12', FC_SEED: '42' });
  const broken = evidence.results.filter((r) => r.outcome === 'broken');
  assert.equal(broken.length, 1, JSON.stringify(evidence.results.filter((r) => r.outcome !== 'held')));
  assert.equal(broken[0].rule, 'V2.ASSET.DEDUP');
  // The shortest sequence: three stores, then the count that sees the loss.
  assert.match(broken[0].what, /after 4 model step\(s\): store; store; store; count/);
  const curl = broken[0].exchange?.curl ?? '';
  assert.equal((curl.match(/^curl /gm) ?? []).length, 4, curl);
  assert.match(curl, /^# 4\. count$/m);
  assert.ok(!curl.includes('sk-live-0123456789abcdef'), 'credentials are redacted');
  assert.ok(failure?.includes(curl.split('\n')[0]), 'the test gets the same text to attach');
  // The other rule judged on the way keeps its evidence: the test is not stopped, nothing is blocked.
  assert.ok(evidence.results.some((r) => r.rule === 'V2.ASSET.FIELDS' && r.outcome === 'held'));
  assert.ok(!evidence.results.some((r) => r.outcome === 'blocked'));
  assert.equal(evidence.properties.length, 1);

  const replay = /FC_SEED=(-?\d+) FC_PATH=(\S+) FC_MAX_COMMANDS=(\d+)/.exec(curl);
  assert.ok(replay, curl);
  const again = await toyRun({ FC_SEED: replay[1], FC_PATH: replay[2], FC_MAX_COMMANDS: replay[3] });
  assert.equal(again.runs.length, 1, 'a replay runs the counterexample alone');
  const replayed = again.evidence.results.find((r) => r.outcome === 'broken');
  assert.match(replayed?.what ?? '', /after 4 model step\(s\): store; store; store; count/);
});

test('FC_PATH carries the replay path of the commands after an @', () => {
  const budget = (env: Record<string, string>) => modelBudgetFor(parseRunConfig(env));
  const b = budget({ FC_SEED: '7', FC_PATH: '3:1:0@BDAAIV:q,,AA:', CONFORMANCE_PROFILE: 'full' });
  assert.equal(b.seed, 7);
  assert.equal(b.path, '3:1:0');
  assert.equal(b.replayPath, 'BDAAIV:q,,AA:');
  assert.ok(b.numRuns > budget({}).numRuns, 'full draws more sequences than quick');
  assert.ok(b.maxCommands >= budget({}).maxCommands);
  assert.equal(budget({ FC_NUM_RUNS: '3', FC_MAX_COMMANDS: '5' }).maxCommands, 5);
});
