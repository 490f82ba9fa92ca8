// Every command the README and the pages under docs/ show works as written from the installed
// package: each `workflow-conformance` line (in an sh block, or an inline code span that
// starts with the command) names a real command (or subcommand) and passes only flags that
// command's own --help lists; each `npm run` names a script of this package, and the flags an
// `npm run <script> -- …` hands to the CLI are held to that command's --help the same way.
// Every relative link between these pages points at a file that exists (and, into a Markdown
// page, at a heading it has).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../..');
const BIN = path.join(ROOT, 'bin/workflow-conformance.mjs');
// Flags Playwright takes, which `run` hands on (run --help says so).
const PLAYWRIGHT_FLAGS = new Set([
  '--grep',
  '--workers',
  '--project',
  '--list',
  '--repeat-each',
  '--retries',
  '--reporter',
  '--timeout',
]);
// The package scripts that are the CLI under another name (package.json "scripts").
const SCRIPT_COMMANDS: Record<string, string[]> = {
  conformance: ['run'],
  reference: ['reference'],
  load: ['load'],
  'load:merge': ['load', 'merge'],
  'load:compare': ['load', 'compare'],
};

/** README.md and every page of docs/, as paths relative to the repository. */
const PAGES = [
  'README.md',
  ...readdirSync(path.join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => `docs/${f}`),
];
const TEXT = new Map(PAGES.map((p) => [p, readFileSync(path.join(ROOT, p), 'utf8')]));

interface Shown {
  page: string;
  line: string;
}

/** The page with its fenced code blocks blanked out (links and inline code are read outside them). */
function prose(text: string): string {
  return text.replace(/```[\s\S]*?```/g, (block) => block.replace(/[^\n]/g, ' '));
}

/** The shell lines of every sh code block, comments cut, and the inline code spans that start with the command. */
function shownCommands(): Shown[] {
  const out: Shown[] = [];
  for (const [page, text] of TEXT) {
    const blocks = [...text.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]);
    const lines = blocks
      .flatMap((b) => b.split('\n'))
      .map((l) => l.replace(/\s+#.*$/, '').trim())
      .filter(Boolean);
    const inline = [...prose(text).matchAll(/`((?:npx )?workflow-conformance [a-z][^`]*|npm run [a-z][^`]*)`/g)].map(
      (m) => m[1],
    );
    for (const line of [...lines, ...inline]) out.push({ page, line });
  }
  return out;
}

function words(line: string): string[] {
  return [...line.matchAll(/'[^']*'|"[^"]*"|\S+/g)].map((m) => m[0]);
}

const helps = new Map<string, string>();
function helpOf(command: string[]): string {
  const key = command.join(' ');
  if (!helps.has(key))
    helps.set(
      key,
      execFileSync(process.execPath, [BIN, ...command, '--help'], {
        encoding: 'utf8',
        env: { ...process.env, NODE_NO_WARNINGS: '1' },
      }),
    );
  return helps.get(key)!;
}

/** Asserts that `command` exists and lists each flag of `args` in its --help. */
function assertTakes(where: string, command: string[], args: string[]): void {
  const help = helpOf(command);
  assert.match(help, new RegExp(`^usage: workflow-conformance ${command.join(' ')}\\b`), `${where}: no such command`);
  for (const flag of args.filter((x) => x.startsWith('--')).map((x) => x.split('=')[0])) {
    if (command[0] === 'run' && PLAYWRIGHT_FLAGS.has(flag)) continue;
    assert.ok(help.includes(flag), `${where}: ${command.join(' ')} --help does not list ${flag}`);
  }
}

test('the pages checked are the README and every page of docs/', () => {
  assert.ok(PAGES.length >= 6, `found ${PAGES.join(', ')}`);
  for (const page of [
    'docs/gating-your-server.md',
    'docs/reading-a-report.md',
    'docs/load-and-bench.md',
    'docs/writing-a-check.md',
    'docs/self-test.md',
  ]) {
    assert.ok(PAGES.includes(page), `${page} is missing`);
  }
});

test('each workflow-conformance command in the README and docs exists and takes the flags it is shown with', () => {
  const shown = shownCommands().filter((s) => words(s.line).includes('workflow-conformance'));
  assert.ok(shown.length >= 15, `found ${shown.length} command lines`);
  assert.ok(
    shown.some((s) => s.page !== 'README.md'),
    'no command found under docs/',
  );
  for (const { page, line } of shown) {
    const w = words(line);
    const at = w.findIndex((x) => x === 'workflow-conformance');
    const rest = w.slice(at + 1);
    if (rest[0] === '--help' || rest[0] === '--version') continue;
    const command = [rest[0]];
    if (command[0] === 'load' && (rest[1] === 'merge' || rest[1] === 'compare')) command.push(rest[1]);
    assertTakes(`${page}: ${line}`, command, rest);
  }
});

test('each npm run in the README and docs names a script of this package, and hands the CLI only flags it takes', () => {
  const scripts = (
    JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
  ).scripts;
  let named = 0;
  for (const [page, text] of TEXT) {
    for (const m of text.matchAll(/npm run ([a-z][\w:-]*)/g)) {
      named++;
      assert.ok(m[1] in scripts, `${page}: npm run ${m[1]}: no such script`);
    }
  }
  assert.ok(named > 5);
  let handed = 0;
  for (const { page, line } of shownCommands()) {
    const w = words(line);
    const at = w.findIndex((x, i) => x === 'run' && w[i - 1] === 'npm');
    if (at < 0) continue;
    const command = SCRIPT_COMMANDS[w[at + 1]];
    if (!command) continue;
    const dashes = w.indexOf('--', at);
    assertTakes(`${page}: ${line}`, command, dashes < 0 ? [] : w.slice(dashes + 1));
    handed++;
  }
  assert.ok(handed > 3, `found ${handed} npm run lines of CLI scripts`);
});

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');
}

function anchorsOf(text: string): Set<string> {
  return new Set([...prose(text).matchAll(/^#{1,6} (.+)$/gm)].map((m) => anchorOf(m[1])));
}

test('every relative link in the README and docs points at a file that exists, and at a heading of it', () => {
  let links = 0;
  for (const [page, text] of TEXT) {
    for (const m of prose(text).matchAll(/\]\(([^)\s]+)\)/g)) {
      const target = m[1];
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:
      links++;
      const [file, anchor] = target.split('#') as [string, string | undefined];
      const resolved = file === '' ? page : path.posix.normalize(path.posix.join(path.posix.dirname(page), file));
      assert.ok(
        !resolved.startsWith('..') && existsSync(path.join(ROOT, resolved)),
        `${page}: link ${target} points at ${resolved}, which does not exist`,
      );
      if (anchor !== undefined && resolved.endsWith('.md')) {
        const text = TEXT.get(resolved) ?? readFileSync(path.join(ROOT, resolved), 'utf8');
        assert.ok(anchorsOf(text).has(anchor), `${page}: link ${target}: ${resolved} has no heading #${anchor}`);
      }
    }
  }
  assert.ok(links > 20, `found ${links} relative links`);
});

test('every code block of the README and docs is closed', () => {
  // An unclosed fence turns the rest of a page into code: its commands and links go unchecked.
  for (const [page, text] of TEXT) {
    const fences = text.split('\n').filter((l) => /^\s*```/.test(l)).length;
    assert.equal(fences % 2, 0, `${page}: ${fences} code fences, one is not closed`);
  }
});

test('the anchor of a heading is read as GitHub writes it', () => {
  assert.equal(
    anchorOf('Adopting the gate on a server that is not conformant yet'),
    'adopting-the-gate-on-a-server-that-is-not-conformant-yet',
  );
  assert.equal(anchorOf('Benchmark: `npm run bench`'), 'benchmark-npm-run-bench');
  assert.equal(
    anchorOf('What a failure rests on: seed statements and locators'),
    'what-a-failure-rests-on-seed-statements-and-locators',
  );
});
