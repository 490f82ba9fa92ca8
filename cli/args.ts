// A small argument splitter: the CLI's own flags are taken, everything else is passed
// on to Playwright untouched (--project=..., --grep, spec files).

export class UsageError extends Error {
  override name = 'UsageError';
}

export interface Split {
  /** Values of the CLI's own flags (booleans as 'true'). */
  flags: Map<string, string>;
  /** Everything else, in order. */
  rest: string[];
}

/** `valued`: flags that take a value (`--x v` or `--x=v`); `booleans`: flags without one. */
export function splitArgs(args: string[], valued: readonly string[], booleans: readonly string[] = []): Split {
  const flags = new Map<string, string>();
  const rest: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    const eq = arg.indexOf('=');
    const name = arg.startsWith('--') ? (eq > 0 ? arg.slice(2, eq) : arg.slice(2)) : undefined;
    if (name !== undefined && valued.includes(name)) {
      const value = eq > 0 ? arg.slice(eq + 1) : args[++i];
      if (value === undefined || value === '') throw new UsageError(`--${name} needs a value`);
      flags.set(name, value);
    } else if (name !== undefined && booleans.includes(name) && eq < 0) {
      flags.set(name, 'true');
    } else {
      rest.push(arg);
    }
  }
  return { flags, rest };
}
