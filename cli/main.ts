// workflow-conformance: the one entry point, installed as a package bin and used by
// the repository's own npm scripts.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { PACKAGE_ROOT, packageVersion, tsxImport } from './paths.ts';
import { INIT, MAIN, MATRIX, REPLAY, RUN } from './help.ts';
import { runSuite, replaySuite } from './run.ts';
import { init } from './init.ts';
import { matrix } from './matrix.ts';
import { UsageError } from './args.ts';

/** Starts one of the suite's own TypeScript entry points with the given arguments. */
function delegate(entry: string, args: string[]): Promise<number> {
  const child = spawn(process.execPath, [...tsxImport(), path.join(PACKAGE_ROOT, entry), ...args], { stdio: 'inherit', cwd: process.cwd() });
  const forward = (sig: NodeJS.Signals) => child.kill(sig);
  process.on('SIGINT', forward);
  process.on('SIGTERM', forward);
  return new Promise((resolve) => child.on('close', (code, signal) => resolve(code ?? (signal ? 1 : 0))));
}

const wantsHelp = (args: string[]) => args.includes('--help') || args.includes('-h');

async function main(argv: string[]): Promise<number> {
  const [command, ...args] = argv;
  switch (command) {
    case undefined:
    case '-h':
    case '--help':
    case 'help':
      process.stdout.write(`${MAIN}\n`);
      return command === undefined ? 2 : 0;
    case '--version':
      process.stdout.write(`${packageVersion()}\n`);
      return 0;
    case 'run':
      if (wantsHelp(args)) return print(RUN);
      return runSuite(args);
    case 'replay':
      if (wantsHelp(args)) return print(REPLAY);
      return replaySuite(args);
    case 'matrix':
      if (wantsHelp(args)) return print(MATRIX);
      return matrix(args);
    case 'init':
      if (wantsHelp(args)) return print(INIT);
      return init(args);
    case 'reference':
      return delegate('reference/main.ts', args);
    case 'load':
      // The load runner has its own options and help (load/run.ts).
      return delegate('load/run.ts', args);
    default:
      throw new UsageError(`unknown command "${command}"; commands: run, replay, matrix, init, reference, load (--help lists them)`);
  }
}

function print(text: string): number {
  process.stdout.write(`${text}\n`);
  return 0;
}

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (err) {
  // Usage and configuration mistakes are one line each, never a stack trace.
  const known = err instanceof UsageError || (err as Error).name === 'TargetConfigError';
  process.stderr.write(`workflow-conformance: ${known ? (err as Error).message : ((err as Error).stack ?? String(err))}\n`);
  process.exitCode = 2;
}
