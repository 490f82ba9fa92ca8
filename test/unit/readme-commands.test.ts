// Every command the README shows works as written from the installed package: each
// `workflow-conformance` line names a real command (or subcommand) and passes only flags
// that command's own --help lists; each `npm run` names a script of this package.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../..');
const README = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
const BIN = path.join(ROOT, 'bin/workflow-conformance.mjs');
// Flags Playwright takes, which `run` hands on (run --help says so).
const PLAYWRIGHT_FLAGS = new Set(['--grep', '--workers', '--project', '--list', '--repeat-each', '--retries', '--reporter', '--timeout']);

/** The shell lines of the README's sh code blocks, comments cut. */
function shellLines(): string[] {
  const blocks = [...README.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]);
  return blocks.flatMap((b) => b.split('\n')).map((l) => l.replace(/\s+#.*$/, '').trim()).filter(Boolean);
}

function words(line: string): string[] {
  return [...line.matchAll(/'[^']*'|"[^"]*"|\S+/g)].map((m) => m[0]);
}

const helps = new Map<string, string>();
function helpOf(command: string[]): string {
  const key = command.join(' ');
  if (!helps.has(key)) helps.set(key, execFileSync(process.execPath, [BIN, ...command, '--help'], { encoding: 'utf8', env: { ...process.env, NODE_NO_WARNINGS: '1' } }));
  return helps.get(key)!;
}

test('each workflow-conformance command in the README exists and takes the flags it is shown with', () => {
  const lines = shellLines().filter((l) => words(l).includes('workflow-conformance'));
  assert.ok(lines.length >= 15, `found ${lines.length} command lines`);
  for (const line of lines) {
    const w = words(line);
    const at = w.findIndex((x) => x === 'workflow-conformance');
    const rest = w.slice(at + 1);
    if (rest[0] === '--help' || rest[0] === '--version') continue;
    const command = [rest[0]];
    if (command[0] === 'load' && (rest[1] === 'merge' || rest[1] === 'compare')) command.push(rest[1]);
    const help = helpOf(command);
    assert.match(help, new RegExp(`^usage: workflow-conformance ${command.join(' ')}\\b`), `${line}: no such command`);
    for (const flag of rest.filter((x) => x.startsWith('--')).map((x) => x.split('=')[0])) {
      if (command[0] === 'run' && PLAYWRIGHT_FLAGS.has(flag)) continue;
      assert.ok(help.includes(flag), `${line}: ${command.join(' ')} --help does not list ${flag}`);
    }
  }
});

test('each npm run in the README names a script of this package', () => {
  const scripts = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
  const named = [...README.matchAll(/npm run ([a-z][\w:-]*)/g)].map((m) => m[1]);
  assert.ok(named.length > 5);
  for (const name of new Set(named)) assert.ok(name in scripts, `npm run ${name}: no such script`);
});
