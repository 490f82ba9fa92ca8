import { parseArgs } from 'node:util';
import { FAULTS } from './faults.ts';
import { CONTROLS } from './controls.ts';
import { ROUTER_KEYS, ROUTER_LIMITED_ALLOWANCE } from './accounts.ts';
import { REGISTRY_ADMIN_HEADER, REGISTRY_ADMIN_SECRET, REGISTRY_JWT_SECRET } from './accounts.ts';
import { mintDevJwt } from './registry/jwt.ts';
import { DEFAULT_PORT_BASE, startReference } from './server.ts';
import type { ReferenceOptions } from './server.ts';
import { ConfigError, runConfig } from '../lib/config/env.ts';
import { DEPLOYMENTS } from './v2/deployments.ts';

const USAGE = [
  'usage: workflow-conformance reference [--port N] [--fault NAME | --control NAME] [--local-token T] [--url-ttl S] [--log] | --list-faults | --list-controls',
  '  --port N   first of five consecutive ports (local, cloud, serverless, router, registry); default $REFERENCE_PORT, else 18189',
].join('\n');

function fail(message: string): never {
  process.stderr.write(`${message}\n${USAGE}\n`);
  process.exit(2);
}

function positiveInt(raw: string | undefined, flag: string): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^\d+$/.test(raw) || Number(raw) < 1) fail(`${flag} must be a positive integer`);
  return Number(raw);
}

/** REFERENCE_PORT, as the suite reads it (lib/config/env.ts). */
function configuredPort(): number | undefined {
  try {
    return runConfig().target.referencePort;
  } catch (err) {
    if (err instanceof ConfigError) fail(err.message);
    throw err;
  }
}

async function main(): Promise<void> {
  // A reader that stops early (e.g. `| head`) is not an error worth a stack trace.
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(0);
    throw err;
  });
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        port: { type: 'string' },
        fault: { type: 'string' },
        control: { type: 'string' },
        'list-controls': { type: 'boolean' },
        'local-token': { type: 'string' },
        'url-ttl': { type: 'string' },
        'list-faults': { type: 'boolean' },
        log: { type: 'boolean' },
        help: { type: 'boolean' },
      },
      strict: true,
    }));
  } catch (err) {
    fail((err as Error).message);
  }
  if (values.help === true) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  if (values['list-faults'] === true) {
    process.stdout.write(FAULTS.map((f) => `${f.name}\t${f.breaks}\t${f.description}\n`).join(''));
    return;
  }

  if (values['list-controls'] === true) {
    process.stdout.write(CONTROLS.map((c) => `${c.name}\t${c.description}\n`).join(''));
    return;
  }
  // A control is a correct server; mixing it with a fault would prove nothing about either.
  if (values.fault !== undefined && values.control !== undefined) fail('--fault and --control are exclusive');

  // REFERENCE_PORT means the same here as for the suite, so `TARGET=reference` finds this server.
  const portBase = positiveInt(values.port, '--port') ?? configuredPort() ?? DEFAULT_PORT_BASE;
  const opts: ReferenceOptions = { portBase, log: values.log === true };
  if (values.fault !== undefined) opts.fault = values.fault;
  if (values.control !== undefined) opts.control = values.control;
  if (values['local-token'] !== undefined) opts.localToken = values['local-token'];
  const ttl = positiveInt(values['url-ttl'], '--url-ttl');
  if (ttl !== undefined) opts.urlTtlSeconds = ttl;

  let ref;
  try {
    ref = await startReference(opts);
  } catch (err) {
    const e = err as NodeJS.ErrnoException & { port?: number };
    if (e.code === 'EADDRINUSE') {
      const port = e.port ?? Number(/:(\d+)\s*$/.exec(e.message)?.[1] ?? portBase);
      process.stderr.write(
        `port ${port} is in use; set REFERENCE_PORT (or --port) to another base: the reference takes five ports from it\n`,
      );
    } else {
      process.stderr.write(`reference failed to start: ${e.message}\n`);
    }
    process.exit(1);
  }

  // Each surface's base URL exactly as the suite needs it: a serverless deployment is
  // addressed under its own path, so the bare port would fail the suite's checks.
  const ready = Object.keys(DEPLOYMENTS).find((d) => DEPLOYMENTS[d] === 'ready')!;
  const out: string[] = [];
  for (const [surface, url] of Object.entries(ref.surfaces)) {
    out.push(
      surface === 'serverless'
        ? `${surface} ${url}/deployment/${ready} (other deployments: ${Object.keys(DEPLOYMENTS)
            .filter((d) => d !== ready)
            .map((d) => `${url}/deployment/${d}`)
            .join(', ')})`
        : `${surface} ${url}`,
    );
  }
  out.push(
    `suite: TARGET=reference${portBase !== DEFAULT_PORT_BASE ? ` REFERENCE_PORT=${portBase}` : ''} workflow-conformance run` +
      "   (or npm run conformance in the suite's folder)",
  );
  const { cloud, tinyAllowance, localToken } = ref.credentials;
  out.push(`credential cloud alice ${cloud.alice}`);
  out.push(`credential cloud bob ${cloud.bob}`);
  out.push(
    `credential cloud tiny ${cloud.tiny} (rate limit ${tinyAllowance.requests} requests per ${tinyAllowance.windowSeconds} s)`,
  );
  out.push(
    localToken === undefined
      ? 'credential local none (no token required)'
      : `credential local bearer ${localToken} (required)`,
  );
  for (const [caller, key] of Object.entries(ROUTER_KEYS)) {
    out.push(
      `credential router ${caller} ${key}` +
        (caller === 'limited'
          ? ` (rate limit ${ROUTER_LIMITED_ALLOWANCE.requests} requests per ${ROUTER_LIMITED_ALLOWANCE.windowSeconds} s)`
          : ''),
    );
  }
  out.push(
    `credential registry jwt ${mintDevJwt(REGISTRY_JWT_SECRET, 'alice')} (bearer, valid 24 h; API keys work as bearer too)`,
  );
  out.push(`credential registry admin ${REGISTRY_ADMIN_HEADER}: ${REGISTRY_ADMIN_SECRET}`);
  if (opts.fault !== undefined) out.push(`fault ${opts.fault}`);
  if (opts.control !== undefined) out.push(`control ${opts.control}`);
  process.stdout.write(`${out.join('\n')}\n`);

  const running = ref;
  let stopping = false;
  const stop = (): void => {
    if (stopping) return;
    stopping = true;
    running.close().then(
      () => process.exit(0),
      (err: unknown) => {
        process.stderr.write(`error while closing: ${(err as Error).message}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

await main();
