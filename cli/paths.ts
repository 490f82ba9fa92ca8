// Where things are when the suite is installed into another project: the suite's own
// files (config, specs, contracts, reference) resolve from the package; reports and the
// user's targets file from the working directory.
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

export const PACKAGE_ROOT = path.resolve(import.meta.dirname, '..');
const require = createRequire(path.join(PACKAGE_ROOT, 'package.json'));

export const PLAYWRIGHT_CONFIG = path.join(PACKAGE_ROOT, 'playwright.config.ts');
export const MERGE_CONFIG = path.join(PACKAGE_ROOT, 'merge.config.ts');
export const PLAYWRIGHT_CLI = require.resolve('@playwright/test/cli');

/** Whether the suite runs from a node_modules folder (installed into a project), not from a checkout. */
export function installedAsDependency(): boolean {
  return PACKAGE_ROOT.split(path.sep).includes('node_modules');
}

/** `--import <tsx>` for a child node process, resolved from the package (the user's project may not have tsx). */
export function tsxImport(): string[] {
  return ['--import', pathToFileURL(require.resolve('tsx')).href];
}

export function packageVersion(): string {
  return (require('./package.json') as { version: string }).version;
}
