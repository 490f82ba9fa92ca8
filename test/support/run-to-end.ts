// A child process run to its end without blocking this process (whose event loop may serve an
// in-process reference), its output gathered.
import { spawn } from 'node:child_process';

export interface Exit {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `command` with `args` in `cwd` under `env`, ended with SIGTERM after 90 s: its exit status and output. */
export function runToEnd(command: string, args: string[], cwd: string, env: Record<string, string>): Promise<Exit> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGTERM'), 90_000);
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
  });
}
