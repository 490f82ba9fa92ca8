// workflow-conformance: the one entry point, installed as a package bin and used by
// the repository's own npm scripts.
import { packageVersion } from './paths.ts';
import { CHECK_HAR, EXPLORE, INIT, MAIN, MATRIX, PROXY, REPLAY, RUN, SEEDS } from './help.ts';
import { seedsCommand } from './seeds.ts';
import { checkHarCommand, proxyCommand } from './passive.ts';
import { runSuite, replaySuite } from './run.ts';
import { init } from './init.ts';
import { matrix } from './matrix.ts';
import { UsageError } from './args.ts';
import { loadCommand, mergeReportsCommand, spawnEntry } from './load.ts';
import { exploreCommand } from './explore.ts';

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
    case 'explore':
      if (wantsHelp(args)) return print(EXPLORE);
      return exploreCommand(args);
    case 'replay':
      if (wantsHelp(args)) return print(REPLAY);
      return replaySuite(args);
    case 'matrix':
      if (wantsHelp(args)) return print(MATRIX);
      return matrix(args);
    case 'seeds':
      if (wantsHelp(args)) return print(SEEDS);
      return seedsCommand(args);
    case 'init':
      if (wantsHelp(args)) return print(INIT);
      return init(args);
    case 'reference':
      return spawnEntry('reference/main.ts', args);
    case 'load':
      // load, load merge, load compare: the target flags as for run; the runner's own options in load/run.ts.
      return loadCommand(args);
    case 'merge-reports':
      return mergeReportsCommand(args);
    case 'proxy':
      if (wantsHelp(args)) return print(PROXY);
      return proxyCommand(args);
    case 'check-har':
      if (wantsHelp(args)) return print(CHECK_HAR);
      return checkHarCommand(args);
    default:
      throw new UsageError(
        `unknown command "${command}"; commands: run, explore, replay, matrix, seeds, init, ` +
          `reference, load, merge-reports, proxy, check-har (--help lists them)`,
      );
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
  const known =
    err instanceof UsageError || (err as Error).name === 'TargetConfigError' || (err as Error).name === 'ConfigError';
  process.stderr.write(
    `workflow-conformance: ${known ? (err as Error).message : ((err as Error).stack ?? String(err))}\n`,
  );
  process.exitCode = 2;
}
