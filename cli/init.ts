// `init`: a commented targets file for one surface, credentials by variable name. The
// scenario inputs are taken from the suite's own reference entry, with its comments,
// and written commented out: they say what each input makes reachable.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Document, parseDocument, isMap } from 'yaml';
import { isSurface, SURFACES, type Surface } from '../lib/families.ts';
import { urlProblem } from '../lib/target-checks.ts';
import { PACKAGE_ROOT } from './paths.ts';
import { splitArgs, UsageError } from './args.ts';

const PLACEHOLDER_URL: Record<Surface, string> = {
  local: 'http://127.0.0.1:8189',
  cloud: 'https://cloud.example.invalid',
  serverless: 'https://my-deployment.example.invalid',
  router: 'https://router.example.invalid',
  registry: 'https://registry.example.invalid',
};

/** `REFERENCE_CLOUD_KEY_OTHER` -> `CLOUD_KEY_OTHER`: the reference's variable names without its prefix. */
function rename(text: string, surface: Surface): string {
  return text.replace(/REFERENCE_([A-Z0-9_]+)/g, (_, rest: string) =>
    rest.startsWith(surface.toUpperCase()) ? rest : `${surface.toUpperCase()}_${rest}`,
  );
}

/** The reference entry's block for this surface (scenario and capabilities), as YAML text with its comments. */
function referenceBlock(surface: Surface, key: 'scenario' | 'capabilities'): string | undefined {
  const doc = parseDocument(readFileSync(path.join(PACKAGE_ROOT, 'targets.yaml'), 'utf8'));
  const node = doc.getIn(['targets', 'reference', 'surfaces', surface, key], true);
  if (!isMap(node)) return undefined;
  const copy = new Document(node.clone());
  return copy.toString({ lineWidth: 0 }).trimEnd();
}

const commented = (text: string, indent: string) =>
  text
    .split('\n')
    .map((l) => `${indent}# ${l}`)
    .join('\n');

export function targetsFileText(surface: Surface, name: string, baseUrl: string): string {
  const token = `${surface.toUpperCase()}_API_KEY`;
  const credential =
    surface === 'local'
      ? `    # token_env: ${token}        # only if the proxy was started with a static token\n`
      : `    token_env: ${token}          # export ${token}=<your key>; the file never holds it\n`;
  const blocks = (['scenario', 'capabilities'] as const)
    .map((key) => [key, referenceBlock(surface, key)] as const)
    .filter(([, text]) => text !== undefined)
    .map(
      ([key, text]) => `    # ${key}:\n${commented(rename(text!, surface), '    #   ').replace(/# {3}# /g, '#   ')}`,
    );
  return [
    `# Targets for workflow-conformance (written by \`workflow-conformance init\`).`,
    `#`,
    `#   workflow-conformance run --target ${name}`,
    `#`,
    `# Credentials are given by ENVIRONMENT VARIABLE NAME (token_env, *_env), never as`,
    `# literal secrets: the run refuses a file that carries one. Scenario inputs make a`,
    `# behaviour reachable (a second account, a rate-limited key, ...); a check whose input`,
    `# is missing is skipped with that reason. Those below are the reference server's:`,
    `# uncomment the ones your server can give, and export the variables they name.`,
    ``,
    `targets:`,
    `  ${name}:`,
    `    surface: ${surface}`,
    `    base_url: ${baseUrl}`,
    credential.trimEnd(),
    ...blocks,
    ``,
  ].join('\n');
}

export function init(args: string[]): number {
  const { flags, rest } = splitArgs(args, ['surface', 'name', 'base-url', 'file'], ['force']);
  if (rest.length) throw new UsageError(`init: unexpected ${rest.join(' ')}`);
  const surface = flags.get('surface');
  if (!surface || !isSurface(surface)) throw new UsageError(`init needs --surface, one of ${SURFACES.join(', ')}`);
  const baseUrl = flags.get('base-url') ?? PLACEHOLDER_URL[surface];
  const problem = urlProblem(baseUrl);
  if (problem) throw new UsageError(`--base-url ${problem}`);
  const name = flags.get('name') ?? surface;
  if (!/^[A-Za-z0-9_.-]+$/.test(name))
    throw new UsageError(`--name "${name}": use letters, digits, dot, dash or underscore`);
  const file = path.resolve(flags.get('file') ?? 'targets.yaml');
  if (existsSync(file) && !flags.has('force')) throw new UsageError(`${file} exists; --force replaces it`);
  writeFileSync(file, targetsFileText(surface, name, baseUrl));
  const token = `${surface.toUpperCase()}_API_KEY`;
  process.stdout.write(
    `wrote ${path.relative(process.cwd(), file) || file} (target "${name}", ${surface} at ${baseUrl})\n` +
      `next:${surface === 'local' ? '' : ` export ${token}=<your key>;`} workflow-conformance run --target ${name}` +
      `${flags.has('file') ? ` --targets-file ${flags.get('file')}` : ''}\n`,
  );
  return 0;
}
