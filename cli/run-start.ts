// What a run does before Playwright plans anything, shared by playwright.config.ts and
// the CLI: resolve the target, refuse a busy reference port, and make sure that the
// report a CI gate reads is this run's: the last run's conformance.json is replaced
// at once by "error: the run did not finish", which the reporter overwrites at the end.
// A run that cannot start (unknown TARGET, bad YAML, a literal secret, a busy port)
// thus leaves verdict `error` with its reason, never a stale `pass`.
import net from 'node:net';
import module from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { REFERENCE_PORT_ORDER, type ResolvedTarget } from '../lib/targets.ts';
import {
  exportToChildren,
  resolvedTarget,
  runConfig,
  runConfigOrDefaults,
  type RunConfig,
} from '../lib/config/index.ts';
import { Redactor } from '../lib/redact.ts';
import { writeRunError } from '../report/run-error.ts';

/** A message for the console without a stack trace: the message is the whole story. */
function startError(message: string): Error {
  const err = new Error(message);
  err.stack = `Error: ${message}`;
  return err;
}

function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** The first port of the embedded reference's range that something else holds. */
async function busyReferencePort(base: number): Promise<number | undefined> {
  for (let i = 0; i < REFERENCE_PORT_ORDER.length; i++) if (!(await portFree(base + i))) return base + i;
  return undefined;
}

function targetMeta(target: ResolvedTarget): { name: string; surfaces: Array<{ surface: string; base_url: string }> } {
  return { name: target.name, surfaces: target.surfaces.map((s) => ({ surface: s.surface, base_url: s.baseUrl })) };
}

/**
 * The run's configuration and target, read once for this process. Playwright runs its
 * config again in every worker; only the main process prepares the run.
 */
export async function startRun(): Promise<{ config: RunConfig; target: ResolvedTarget }> {
  const partial = runConfigOrDefaults();
  const reports = partial.reportsDir;
  const isMain = !partial.run.worker;
  let config: RunConfig;
  let target: ResolvedTarget;
  try {
    config = runConfig();
    target = resolvedTarget();
  } catch (err) {
    const message = `configuration error, no test was run: ${(err as Error).message}`;
    if (isMain) writeRunError(reports, message);
    throw startError(message);
  }
  if (!isMain) return { config, target };
  const redactor = new Redactor(target.secrets);
  if (target.embedded && !config.run.replay) {
    const busy = await busyReferencePort(target.referencePort!);
    if (busy !== undefined) {
      const message =
        `port ${busy} is in use; set REFERENCE_PORT to another base ` +
        `(the embedded reference takes ${target.referencePort}..${target.referencePort! + REFERENCE_PORT_ORDER.length - 1})`;
      writeRunError(reports, message, targetMeta(target));
      throw startError(message);
    }
  }
  writeRunError(
    reports,
    'the run did not finish: it stopped before the conformance reporter wrote this report (see the ' +
      'console: an unknown --project, a crash, or an interrupted run)',
    {
      name: target.name,
      surfaces: targetMeta(target).surfaces.map((s) => ({ ...s, base_url: redactor.text(s.base_url) })),
    },
  );
  // Shared by every worker of this run (lib/circuit.ts); workers inherit the environment. So is
  // the compiled-code cache bin/ enabled (Node 22): each worker would compile Playwright anew.
  exportToChildren(
    {
      CONFORMANCE_CIRCUIT_DIR: path.join(os.tmpdir(), `conformance-circuit-${process.pid}-${Date.now()}`),
      NODE_COMPILE_CACHE: (module as { getCompileCacheDir?: () => string | undefined }).getCompileCacheDir?.(),
    },
    true,
  );
  return { config, target };
}
