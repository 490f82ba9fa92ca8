// A plain reference watched by the self-test says where each rewrite control would have
// changed an answer (reference/controls.ts watchRewrites), so such a control runs only on
// those tests; the answers themselves go out as the plain reference makes them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startOnFreePorts } from '../support/ports.ts';
import type { ControlName } from '../../reference/controls.ts';

const JOB = {
  workflow: {
    '1': { class_type: 'EmptyImage', inputs: { width: 4, height: 4, batch_size: 1, color: 3 } },
    '2': { class_type: 'SaveImage', inputs: { images: ['1', 0], filename_prefix: 'watch' } },
  },
};

/** The controls consulted while `act` runs against a reference started with these controls on. */
async function consultedDuring(controls: string[], act: (local: string) => Promise<void>): Promise<Set<ControlName>> {
  const seen = new Set<ControlName>();
  let recording = false;
  const ref = await startOnFreePorts({
    controls,
    onConsult: (c) => {
      if (recording) seen.add(c);
    },
  });
  try {
    recording = true;
    await act(ref.surfaces.local);
    return seen;
  } finally {
    await ref.close();
  }
}

test('a job answer on the plain reference is reported as one the state-name and status controls would rewrite, and goes out unchanged', async () => {
  let status = '';
  const seen = await consultedDuring([], async (local) => {
    const res = await fetch(`${local}/api/v2/jobs`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(JOB),
    });
    status = ((await res.json()) as { status: string }).status;
  });
  assert.ok(seen.has('v2-own-state-names'), `consulted: ${[...seen].join(', ')}`);
  assert.ok(seen.has('extra-fields'));
  assert.ok(!/_reference_control$/.test(status) && !['waiting', 'working', 'done'].includes(status), status);
});

test('an answer without a job status is not reported for the state-name control', async () => {
  const seen = await consultedDuring([], async (local) => {
    await (await fetch(`${local}/api/v2/assets/${'0'.repeat(8)}-0000-4000-8000-${'0'.repeat(12)}`)).text();
  });
  assert.ok(!seen.has('v2-own-state-names'), `consulted: ${[...seen].join(', ')}`);
});

test('a reference with a control on does not watch the rewrite controls', async () => {
  const seen = await consultedDuring(['extra-headers'], async (local) => {
    await (
      await fetch(`${local}/api/v2/jobs`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(JOB),
      })
    ).text();
  });
  assert.ok(!seen.has('v2-own-state-names'), `consulted: ${[...seen].join(', ')}`);
});
