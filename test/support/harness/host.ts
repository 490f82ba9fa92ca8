// Child process of a self-test run (run.ts): the embedded references of its cases, in one
// process, each started when its case's first test asks for it (provider.ts) and closed
// once its case's last test ended. It listens on a loopback port of its own for the
// workers' requests, says `ready <port>` on stdout, and ends when its parent closes stdin.
//
//   GET /open?case=ID&slot=N&project=P&test=KEY   → {"portBase": n}
//   GET /close?case=ID&slot=N&project=P&test=KEY  → {}
//   GET /consulted                                → per case: per test, the controls its reference consulted,
//                                                   and those it consulted at start-up
//
// A case run per slot (PlannedCase.perSlot) has one reference per worker slot; a worker
// runs one test at a time, so whatever that reference does between a test's open and the
// next test's open is that test's doing. What it consults is recorded per test: which
// controls (reference/controls.ts) the code asked about while serving it, i.e. where a
// control could have changed what the test saw.
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { RunningReference } from '../../../reference/server.ts';
import { startOnFreePorts } from '../ports.ts';
import type { Plan, PlannedCase } from './plan.ts';

const plan = JSON.parse(readFileSync(process.argv[2], 'utf8')) as Plan;
const cases = new Map<string, PlannedCase>(plan.cases.map((c) => [c.id, c]));
const baseOf = new Map<string, string>(plan.projects.map((p) => [p.name, p.base]));

interface Held {
  ref: Promise<RunningReference>;
  /** `<project> › <test key>` of the test it serves now, or served last. */
  current?: string;
  consulted: Map<string, Set<string>>;
  /** Controls consulted before any test (at start-up, where a route is built): every test it serves could meet them. */
  before: Set<string>;
}

const held = new Map<string, Held>();
const closed = new Set<string>();
/** Per case: test → controls consulted (merged over slots), kept after a reference closes. */
const consulted = new Map<string, Map<string, Set<string>>>();
let starts = 0;
/** Per case: the controls consulted before any test (also on record for each of its tests). */
const atStartOf = new Map<string, Set<string>>();
/** Per case: how many of its tests ended, over all slots. */
const endedOf = new Map<string, number>();

function open(c: PlannedCase, slot: number): Held {
  const id = c.perSlot ? `${c.id}#${slot}` : c.id;
  if (closed.has(id)) throw new Error(`case ${c.id}: a test asked for its reference after its last test ended`);
  let h = held.get(id);
  if (!h) {
    const entry: Held = {
      consulted: new Map(),
      before: new Set(),
      ref: Promise.resolve() as unknown as Promise<RunningReference>,
    };
    const onConsult = (control: string) => {
      if (entry.current === undefined) entry.before.add(control);
      else
        (entry.consulted.get(entry.current) ?? entry.consulted.set(entry.current, new Set()).get(entry.current)!).add(
          control,
        );
    };
    starts++;
    entry.ref = startOnFreePorts({
      ...(c.fault ? { fault: c.fault } : {}),
      ...(c.controls?.length ? { controls: c.controls } : {}),
      ...(c.perSlot ? { onConsult } : {}),
    });
    held.set(id, (h = entry));
  }
  return h;
}

function keep(c: PlannedCase, h: Held): void {
  const start = atStartOf.get(c.id) ?? atStartOf.set(c.id, new Set()).get(c.id)!;
  for (const control of h.before) start.add(control);
  const mine = consulted.get(c.id) ?? consulted.set(c.id, new Map()).get(c.id)!;
  for (const [test, set] of h.consulted) {
    const all = mine.get(test) ?? mine.set(test, new Set()).get(test)!;
    for (const control of [...set, ...h.before]) all.add(control);
  }
}

async function handle(url: URL): Promise<unknown> {
  if (url.pathname === '/consulted') {
    for (const c of plan.cases) for (const [id, h] of held) if (id === c.id || id.startsWith(`${c.id}#`)) keep(c, h);
    return {
      starts,
      atStart: Object.fromEntries([...atStartOf].map(([id, set]) => [id, [...set].sort()])),
      consulted: Object.fromEntries(
        [...consulted].map(([id, m]) => [id, Object.fromEntries([...m].map(([t, s]) => [t, [...s].sort()]))]),
      ),
    };
  }
  const c = cases.get(url.searchParams.get('case') ?? '');
  if (!c) throw new Error(`no case ${url.searchParams.get('case')} in the plan`);
  const slot = Number(url.searchParams.get('slot') ?? 0);
  const test = `${baseOf.get(url.searchParams.get('project') ?? '') ?? url.searchParams.get('project')} › ${url.searchParams.get('test')}`;
  if (url.pathname === '/open') {
    const h = open(c, slot);
    const ref = await h.ref;
    h.current = test;
    // Every test it serves is on record, so what it consulted before any test reaches each.
    if (!h.consulted.has(test)) h.consulted.set(test, new Set());
    return { portBase: Number(new URL(ref.surfaces.local).port) };
  }
  if (url.pathname === '/close') {
    const id = c.perSlot ? `${c.id}#${slot}` : c.id;
    const h = held.get(id);
    if (!h) return {};
    const ended = (endedOf.get(c.id) ?? 0) + 1;
    endedOf.set(c.id, ended);
    // Once the case's last test ended, its references close (each slot's, for a case run per slot).
    if (ended >= c.tests) {
      const mine = [...held].filter(([k]) => k === c.id || k.startsWith(`${c.id}#`));
      for (const [k, entry] of mine) {
        held.delete(k);
        closed.add(k);
        keep(c, entry);
      }
      await Promise.all(mine.map(async ([, entry]) => (await entry.ref).close()));
    }
    return {};
  }
  throw new Error(`no route ${url.pathname}`);
}

const server = http.createServer((req, res) => {
  handle(new URL(req.url ?? '/', 'http://host')).then(
    (body) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    },
    (err: unknown) => {
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end((err as Error).stack ?? String(err));
    },
  );
});
server.keepAliveTimeout = 60_000;

let ending = false;
async function end(): Promise<never> {
  if (!ending) {
    ending = true;
    server.close();
    await Promise.allSettled([...held.values()].map(async (h) => (await h.ref).close()));
  }
  process.exit(0);
}
process.on('SIGTERM', () => void end());
process.stdin.on('end', () => void end());
process.stdin.resume();

server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`ready ${typeof address === 'object' && address ? address.port : 0}\n`);
});
