// A port range found free can be taken before the reference binds it (another test
// file's reference, or an outgoing connection): the self-tests' starter moves on.
import assert from 'node:assert/strict';
import net from 'node:net';
import { test } from 'node:test';
import { freePortBase, startOnFreePorts } from '../support/ports.ts';

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
