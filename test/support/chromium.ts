// Debian's chromium, headless, for the tests that open a page in a real browser (the HTML
// reports, a browser session recorded as a HAR). Where it is not installed, they are skipped.
import { existsSync } from 'node:fs';
import { chromium, type Browser, type Page } from '@playwright/test';

const CHROMIUM = '/usr/bin/chromium';
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** Why a test that needs the browser is skipped on this machine; false where it is installed. */
export const noChromium: string | false = existsSync(CHROMIUM)
  ? false
  : `${CHROMIUM} is absent (apt-get install chromium)`;

/** Starts the browser headless, without its own background traffic. */
export const launchChromium = (): Promise<Browser> => chromium.launch({ executablePath: CHROMIUM, args: ARGS });

/** The console errors and warnings and the uncaught errors of `page` from now on, as lines (a live list). */
export function pageProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') problems.push(`console ${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  return problems;
}
