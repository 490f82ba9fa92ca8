// `proxy` and `check-har`: judge traffic the suite did not send (lib/passive/). The proxy
// forwards a client's requests to the server unchanged and judges each exchange as it
// passes; check-har judges a recorded HAR file the same way, offline. Both write the usual
// conformance.json / .md / .html with `mode: passive`.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { environment, runConfigOrDefaults, type Env } from '../lib/config/env.ts';
import { withFlags } from '../lib/config/flags.ts';
import { isSurface, type Surface } from '../lib/families.ts';
import { resolveTarget, TargetConfigError } from '../lib/targets.ts';
import { urlProblem } from '../lib/target-checks.ts';
import { checkHar, startProxySession, type PassiveTarget } from '../lib/passive/session.ts';
import { verdictLine } from '../lib/passive/report.ts';
import { HarFormatError } from '../lib/passive/har-input.ts';
import { splitArgs, UsageError } from './args.ts';
import { packageVersion } from './paths.ts';

const PROXY_SURFACES: readonly Surface[] = ['local', 'cloud', 'serverless', 'router', 'registry'];

function surfaceOf(value: string | undefined, command: string): Surface | undefined {
  if (value === undefined) return undefined;
  if (!isSurface(value) || !PROXY_SURFACES.includes(value))
    throw new UsageError(`${command} --surface ${value}: one of ${PROXY_SURFACES.join(', ')}`);
  return value;
}

/** The server to judge: --upstream / --base-url with --surface, or a targets entry (--target, its one surface or the one --surface names). */
function targetOf(
  flags: Map<string, string>,
  urlFlag: 'upstream' | 'base-url',
  command: string,
): PassiveTarget | undefined {
  const surface = surfaceOf(flags.get('surface'), command);
  const url = flags.get(urlFlag);
  if (flags.has('target')) {
    const env: Env = withFlags(environment(), flags, ['target', 'targets-file', 'surface']);
    let resolved;
    try {
      resolved = resolveTarget(env);
    } catch (err) {
      if (err instanceof TargetConfigError) throw new UsageError(err.message);
      throw err;
    }
    const candidates = resolved.surfaces.filter((s) => surface === undefined || s.surface === surface);
    if (candidates.length !== 1)
      throw new UsageError(
        `${command} --target ${resolved.name}: ` +
          (candidates.length === 0
            ? `it has no ${surface} surface`
            : `it has ${candidates.length} surfaces (${candidates.map((s) => s.surface).join(', ')}); name one with --surface`),
      );
    const s = candidates[0];
    return { name: resolved.name, surface: s.surface, baseUrl: url ?? s.baseUrl, brand: s.brand, scenario: s.scenario };
  }
  if (url === undefined) return undefined;
  const problem = urlProblem(url);
  if (problem) throw new UsageError(`--${urlFlag}: ${problem}`);
  if (!surface)
    throw new UsageError(
      `${command} needs --surface (${PROXY_SURFACES.join(', ')}): which contracts judge the traffic`,
    );
  return { name: 'ad hoc', surface, baseUrl: url.replace(/\/+$/, '') };
}

function seconds(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value.replace(/s$/, ''));
  if (!Number.isFinite(n) || n <= 0) throw new UsageError(`--${flag} ${value}: a positive number of seconds`);
  return n;
}

export async function proxyCommand(args: string[]): Promise<number> {
  const { flags, rest } = splitArgs(
    args,
    ['upstream', 'surface', 'port', 'duration', 'record', 'reports', 'target', 'targets-file'],
    ['quiet'],
  );
  if (rest.length > 0) throw new UsageError(`proxy: unknown argument ${rest[0]}; proxy --help lists the options`);
  const target = targetOf(flags, 'upstream', 'proxy');
  if (!target) throw new UsageError('proxy needs the server: --upstream URL --surface SURFACE, or --target NAME');
  const port = flags.has('port') ? Number(flags.get('port')) : 0;
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new UsageError(`--port ${flags.get('port')}: a port number (0: any free port)`);
  const duration = seconds(flags.get('duration'), 'duration');
  const reportsDir = path.resolve(flags.get('reports') ?? runConfigOrDefaults().reportsDir);
  const quiet = flags.has('quiet');
  const record = flags.has('record') ? path.resolve(flags.get('record')!) : undefined;
  const tty = process.stdout.isTTY === true;
  let last = '';
  let timer: NodeJS.Timeout | undefined;
  const print = (): void => {
    timer = undefined;
    const line = session.line();
    if (quiet || line === last) return;
    last = line;
    process.stdout.write(tty ? `\r\x1b[K${line}` : `${line}\n`);
  };
  const session = await startProxySession({
    target,
    port,
    reportsDir,
    ...(record ? { record } : {}),
    version: packageVersion(),
    // The live line, at most every half second: the traffic never waits on it.
    onChange: () => {
      timer ??= setTimeout(print, 500);
    },
  }).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'EADDRINUSE') throw new UsageError(`--port ${port}: 127.0.0.1:${port} is in use`);
    throw err;
  });
  process.stdout.write(
    `proxy ${session.url} -> ${session.judge.redact.text(target.baseUrl)} (${target.surface}): ` +
      `point your client at ${session.url}; ${duration ? `stops after ${duration} s or on Ctrl-C` : 'Ctrl-C stops it'} ` +
      'and writes the report\n',
  );
  await new Promise<void>((resolve) => {
    const stop = (): void => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    if (duration) setTimeout(stop, duration * 1000).unref();
  });
  if (timer) clearTimeout(timer);
  if (tty && !quiet) process.stdout.write('\n');
  const { report, files, recorded } = await session.stop();
  const p = report.passive!;
  process.stdout.write(
    `${verdictLine(report)}\n` +
      (p.latency
        ? `  latency added by the proxy: p50 ${p.latency.p50_ms} ms, p99 ${p.latency.p99_ms} ms (${p.latency.samples} exchanges)\n`
        : '') +
      (p.unplaced
        ? `  not judged: ${p.unplaced} exchanges off the surface's operations (listed in the report)\n`
        : '') +
      `  reports: ${path.relative(process.cwd(), files.markdown) || files.markdown}, conformance.json, conformance.html\n` +
      (recorded
        ? `  recorded ${p.exchanges} exchanges to ${recorded} (HAR 1.2, credentials redacted); judge ` +
          `it again with: workflow-conformance check-har ${path.relative(process.cwd(), recorded)} ` +
          `--surface ${target.surface}\n`
        : ''),
  );
  return report.summary.verdict === 'pass' ? 0 : 1;
}

export function checkHarCommand(args: string[]): number {
  const { flags, rest } = splitArgs(args, ['surface', 'base-url', 'reports', 'target', 'targets-file']);
  const file = rest.shift();
  if (!file)
    throw new UsageError('check-har needs the HAR file: workflow-conformance check-har FILE --surface SURFACE');
  if (rest.length > 0)
    throw new UsageError(`check-har: unknown argument ${rest[0]}; check-har --help lists the options`);
  if (!existsSync(file)) throw new UsageError(`${file}: no such file`);
  const target = targetOf(flags, 'base-url', 'check-har');
  const surface = target?.surface ?? surfaceOf(flags.get('surface'), 'check-har');
  if (!surface)
    throw new UsageError(
      'check-har needs --surface (local, cloud, serverless, router, registry): which contracts judge the exchanges',
    );
  const reportsDir = path.resolve(flags.get('reports') ?? runConfigOrDefaults().reportsDir);
  let result;
  try {
    result = checkHar(file, {
      surface,
      ...(target
        ? {
            baseUrl: target.baseUrl,
            name: target.name,
            ...(target.brand ? { brand: target.brand } : {}),
            ...(target.scenario ? { scenario: target.scenario } : {}),
          }
        : {}),
      reportsDir,
    });
  } catch (err) {
    if (err instanceof HarFormatError || err instanceof SyntaxError) throw new UsageError(`${file}: ${err.message}`);
    throw err;
  }
  const { report, files } = result;
  process.stdout.write(
    `${verdictLine(report)}\n` +
      (report.passive!.unplaced
        ? `  not judged: ${report.passive!.unplaced} exchanges (other hosts, paths no operation of ${surface} has), listed in the report\n`
        : '') +
      `  reports: ${path.relative(process.cwd(), files.markdown) || files.markdown}, conformance.json, conformance.html\n`,
  );
  return report.summary.verdict === 'pass' ? 0 : 1;
}
