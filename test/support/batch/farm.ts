// Child process of a batched self-test run: starts one embedded reference per case of
// the plan (each with its fault or control, on its own ports), says "ready" on stdout,
// and closes them all when its parent ends it (SIGTERM) or closes stdin.
import { readFileSync, writeFileSync } from 'node:fs';
import type { RunningReference } from '../../../reference/server.ts';
import { startOnFreePorts } from '../ports.ts';
import type { Plan } from './plan.ts';

const plan = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as Plan;
const running: RunningReference[] = [];
let closing = false;

async function closeAll(code: number): Promise<never> {
  if (!closing) {
    closing = true;
    await Promise.allSettled(running.map((r) => r.close()));
  }
  process.exit(code);
}

process.on('SIGTERM', () => void closeAll(0));
process.stdin.on('end', () => void closeAll(0));
process.stdin.resume();

try {
  for (const c of plan.cases) {
    const ref = await startOnFreePorts({ portBase: c.portBase, ...(c.fault ? { fault: c.fault } : {}), ...(c.control ? { control: c.control } : {}) });
    running.push(ref);
    // A range taken in between moved the case: its tests must reach it where it listens.
    const base = Number(new URL(ref.surfaces.local).port); // local is the range's first port
    if (base !== c.portBase) {
      c.portBase = base;
      for (const p of plan.projects) for (const pc of p.cases) if (pc.id === c.id) pc.portBase = base;
    }
  }
  // Read by the Playwright config, which starts after "ready".
  writeFileSync(process.argv[2]!, JSON.stringify(plan));
  process.stdout.write('ready\n');
} catch (err) {
  process.stderr.write(`reference farm could not start: ${(err as Error).stack ?? String(err)}\n`);
  await closeAll(1);
}
