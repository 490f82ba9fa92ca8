// A port range found free can be taken before the reference binds it (another test
// file's reference, or an outgoing connection): the self-tests' starter moves on, and ranges
// are claimed across the test processes so that none hands out another's.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { claimRange, freePortBase, startOnFreePorts } from '../support/ports.ts';

test('a reference whose planned range was taken in between starts on another range', async () => {
  const taken = await freePortBase();
  const squatter = net.createServer();
  await new Promise<void>((resolve) => squatter.listen(taken + 3, '127.0.0.1', resolve));
  try {
    const ref = await startOnFreePorts({ portBase: taken });
    try {
      const base = Number(new URL(ref.surfaces.local).port);
      assert.notEqual(base, taken, 'it moved off the taken range');
      const res = await fetch(`${ref.surfaces.local}/api/system_stats`).catch(() => undefined);
      assert.ok(res, 'the moved reference answers');
    } finally {
      await ref.close();
    }
  } finally {
    squatter.close();
  }
});

test('a port range claimed by a live process is not handed out; a claim its dead claimer left is taken over', async () => {
  // Within a range this process holds, so no other process's claim is touched.
  const base = await freePortBase();
  const range = [base, base + 1];
  const dir = path.join(os.tmpdir(), 'workflow-conformance-port-claims');
  rmSync(path.join(dir, String(range[1])));
  // The parent (this test runner) lives; an exited child's pid no longer does.
  writeFileSync(path.join(dir, String(range[0])), String(process.ppid));
  assert.equal(claimRange(range), false, 'held by a live process');
  assert.equal(
    existsSync(path.join(dir, String(range[1]))),
    false,
    'a refused claim leaves no part of the range claimed',
  );
  const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  writeFileSync(path.join(dir, String(range[0])), gone.stdout);
  assert.equal(claimRange(range), true, 'left by a process that is gone');
  assert.equal(readFileSync(path.join(dir, String(range[0])), 'utf8'), String(process.pid));
});
